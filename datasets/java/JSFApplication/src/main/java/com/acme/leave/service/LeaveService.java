package com.acme.leave.service;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.Date;
import java.util.List;

import javax.faces.bean.ApplicationScoped;
import javax.faces.bean.ManagedBean;

import com.acme.leave.model.LeaveRequest;

/**
 * Keeps the leave requests in memory until the database is ready.
 * Shared by every user of the application.
 */
@ManagedBean(name = "leaveService", eager = true)
@ApplicationScoped
public class LeaveService implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final int VACATION_DAYS_PER_YEAR = 25;

    private static List<LeaveRequest> requests = new ArrayList<LeaveRequest>();
    private static long nextId = 1;

    public synchronized LeaveRequest submit(LeaveRequest request) throws LeaveException {
        if (request.getStartDate() == null || request.getEndDate() == null) {
            throw new LeaveException("Start and end date are required");
        }
        if (request.getEndDate().before(request.getStartDate())) {
            throw new LeaveException("The end date must not be before the start date");
        }
        int days = countWorkingDays(request.getStartDate(), request.getEndDate());
        if (days == 0) {
            throw new LeaveException("The selected period contains no working day");
        }
        for (LeaveRequest other : requests) {
            if (other.getEmployee().equalsIgnoreCase(request.getEmployee())
                    && !"REJECTED".equals(other.getStatus())
                    && !other.getStartDate().after(request.getEndDate())
                    && !other.getEndDate().before(request.getStartDate())) {
                throw new LeaveException("The request overlaps request #" + other.getId());
            }
        }
        if ("VACATION".equals(request.getType())
                && days > remainingVacationDays(request.getEmployee())) {
            throw new LeaveException("Not enough vacation days left ("
                    + remainingVacationDays(request.getEmployee()) + ")");
        }
        request.setWorkingDays(days);
        request.setId(nextId++);
        request.setStatus("PENDING");
        requests.add(request);
        return request;
    }

    public synchronized void approve(long id) throws LeaveException {
        LeaveRequest request = find(id);
        if (!"PENDING".equals(request.getStatus())) {
            throw new LeaveException("Request #" + id + " was already decided");
        }
        request.setStatus("APPROVED");
    }

    public synchronized void reject(long id, String comment) throws LeaveException {
        LeaveRequest request = find(id);
        if (!"PENDING".equals(request.getStatus())) {
            throw new LeaveException("Request #" + id + " was already decided");
        }
        if (comment == null || comment.trim().length() == 0) {
            throw new LeaveException("A rejection needs a comment");
        }
        request.setStatus("REJECTED");
        request.setManagerComment(comment);
    }

    /** Vacation days of the current year not yet taken or requested. */
    public int remainingVacationDays(String employee) {
        int year = Calendar.getInstance().get(Calendar.YEAR);
        int used = 0;
        for (LeaveRequest r : requests) {
            Calendar start = Calendar.getInstance();
            start.setTime(r.getStartDate());
            if (r.getEmployee().equalsIgnoreCase(employee) && "VACATION".equals(r.getType())
                    && !"REJECTED".equals(r.getStatus()) && start.get(Calendar.YEAR) == year) {
                used += r.getWorkingDays();
            }
        }
        return VACATION_DAYS_PER_YEAR - used;
    }

    public List<LeaveRequest> findAll() {
        return requests;
    }

    public List<LeaveRequest> findByEmployee(String employee) {
        List<LeaveRequest> result = new ArrayList<LeaveRequest>();
        for (LeaveRequest r : requests) {
            if (r.getEmployee().equalsIgnoreCase(employee)) {
                result.add(r);
            }
        }
        return result;
    }

    /** Monday to Friday between both dates, both included. Public holidays are not known. */
    public static int countWorkingDays(Date from, Date to) {
        Calendar day = Calendar.getInstance();
        day.setTime(from);
        Calendar end = Calendar.getInstance();
        end.setTime(to);
        int count = 0;
        while (!day.after(end)) {
            int weekday = day.get(Calendar.DAY_OF_WEEK);
            if (weekday != Calendar.SATURDAY && weekday != Calendar.SUNDAY) {
                count++;
            }
            day.add(Calendar.DAY_OF_MONTH, 1);
        }
        return count;
    }

    private LeaveRequest find(long id) throws LeaveException {
        for (LeaveRequest r : requests) {
            if (r.getId() == id) {
                return r;
            }
        }
        throw new LeaveException("No leave request #" + id);
    }
}
