package com.acme.leave.web;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import javax.faces.application.FacesMessage;
import javax.faces.bean.ManagedBean;
import javax.faces.bean.ManagedProperty;
import javax.faces.bean.ViewScoped;
import javax.faces.context.FacesContext;

import com.acme.leave.model.LeaveRequest;
import com.acme.leave.service.LeaveException;
import com.acme.leave.service.LeaveService;

@ManagedBean(name = "leaveListBean")
@ViewScoped
public class LeaveListBean implements Serializable {

    private static final long serialVersionUID = 1L;

    @ManagedProperty("#{leaveService}")
    private LeaveService leaveService;

    @ManagedProperty("#{userSession}")
    private UserSession userSession;

    private String statusFilter = "PENDING";
    private String rejectComment;

    public List<LeaveRequest> getRequests() {
        if (!userSession.isManager()) {
            return leaveService.findByEmployee(userSession.getUserName());
        }
        List<LeaveRequest> result = new ArrayList<LeaveRequest>();
        for (LeaveRequest r : leaveService.findAll()) {
            if ("ALL".equals(statusFilter) || r.getStatus().equals(statusFilter)) {
                result.add(r);
            }
        }
        return result;
    }

    public void approve(LeaveRequest r) {
        try {
            leaveService.approve(r.getId());
            info("Request #" + r.getId() + " approved");
        } catch (LeaveException e) {
            error(e.getMessage());
        }
    }

    public void reject(LeaveRequest r) {
        try {
            leaveService.reject(r.getId(), rejectComment);
            info("Request #" + r.getId() + " rejected");
            rejectComment = null;
        } catch (LeaveException e) {
            error(e.getMessage());
        }
    }

    private void info(String text) {
        FacesContext.getCurrentInstance().addMessage(null, new FacesMessage(FacesMessage.SEVERITY_INFO, text, null));
    }

    private void error(String text) {
        FacesContext.getCurrentInstance().addMessage(null, new FacesMessage(FacesMessage.SEVERITY_ERROR, text, null));
    }

    public String getStatusFilter() { return statusFilter; }
    public void setStatusFilter(String statusFilter) { this.statusFilter = statusFilter; }
    public String getRejectComment() { return rejectComment; }
    public void setRejectComment(String rejectComment) { this.rejectComment = rejectComment; }
    public void setLeaveService(LeaveService leaveService) { this.leaveService = leaveService; }
    public void setUserSession(UserSession userSession) { this.userSession = userSession; }
}
