package com.acme.leave.web;

import java.util.Arrays;
import java.util.List;

import javax.faces.application.FacesMessage;
import javax.faces.bean.ManagedBean;
import javax.faces.bean.ManagedProperty;
import javax.faces.bean.RequestScoped;
import javax.faces.context.FacesContext;

import com.acme.leave.model.LeaveRequest;
import com.acme.leave.service.LeaveException;
import com.acme.leave.service.LeaveService;

@ManagedBean(name = "leaveRequestBean")
@RequestScoped
public class LeaveRequestBean {

    @ManagedProperty("#{leaveService}")
    private LeaveService leaveService;

    @ManagedProperty("#{userSession}")
    private UserSession userSession;

    private LeaveRequest request = new LeaveRequest();

    public List<String> getTypes() {
        return Arrays.asList("VACATION", "SICK", "UNPAID");
    }

    public int getRemainingDays() {
        return leaveService.remainingVacationDays(userSession.getUserName());
    }

    public String submit() {
        FacesContext ctx = FacesContext.getCurrentInstance();
        if ("UNPAID".equals(request.getType())
                && (request.getReason() == null || request.getReason().trim().length() < 10)) {
            ctx.addMessage("requestForm:reason", new FacesMessage(FacesMessage.SEVERITY_ERROR,
                    "Unpaid leave needs a reason of at least 10 characters", null));
            return null;
        }
        request.setEmployee(userSession.getUserName());
        try {
            LeaveRequest saved = leaveService.submit(request);
            ctx.getExternalContext().getFlash().put("savedId", saved.getId());
            ctx.getExternalContext().getFlash().put("savedDays", saved.getWorkingDays());
            return "success";
        } catch (LeaveException e) {
            ctx.addMessage(null, new FacesMessage(FacesMessage.SEVERITY_ERROR, e.getMessage(), null));
            return null;
        }
    }

    public LeaveRequest getRequest() { return request; }
    public void setLeaveService(LeaveService leaveService) { this.leaveService = leaveService; }
    public void setUserSession(UserSession userSession) { this.userSession = userSession; }
}
