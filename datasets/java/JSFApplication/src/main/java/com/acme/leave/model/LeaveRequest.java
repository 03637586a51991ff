package com.acme.leave.model;

import java.io.Serializable;
import java.util.Date;

public class LeaveRequest implements Serializable {

    private static final long serialVersionUID = 1L;

    private long id;
    private String employee;
    private String email;
    /** VACATION, SICK or UNPAID */
    private String type = "VACATION";
    private Date startDate;
    private Date endDate;
    private String reason;
    /** PENDING, APPROVED or REJECTED */
    private String status = "PENDING";
    private String managerComment;
    private int workingDays;

    public long getId() { return id; }
    public void setId(long id) { this.id = id; }
    public String getEmployee() { return employee; }
    public void setEmployee(String employee) { this.employee = employee; }
    public String getEmail() { return email; }
    public void setEmail(String email) { this.email = email; }
    public String getType() { return type; }
    public void setType(String type) { this.type = type; }
    public Date getStartDate() { return startDate; }
    public void setStartDate(Date startDate) { this.startDate = startDate; }
    public Date getEndDate() { return endDate; }
    public void setEndDate(Date endDate) { this.endDate = endDate; }
    public String getReason() { return reason; }
    public void setReason(String reason) { this.reason = reason; }
    public String getStatus() { return status; }
    public void setStatus(String status) { this.status = status; }
    public String getManagerComment() { return managerComment; }
    public void setManagerComment(String managerComment) { this.managerComment = managerComment; }
    public int getWorkingDays() { return workingDays; }
    public void setWorkingDays(int workingDays) { this.workingDays = workingDays; }
}
