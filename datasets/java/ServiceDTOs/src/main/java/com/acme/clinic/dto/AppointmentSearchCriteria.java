package com.acme.clinic.dto;

import java.time.LocalDate;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * Query parameters of GET /api/appointments. Every filter is optional and filters
 * combine with AND; from and to are inclusive dates of the start time. When both are
 * given, from must not be after to (400 BAD REQUEST). Results are sorted by start time,
 * oldest first, and paged: page starts at 0, size defaults to 20 and is at most 100.
 */
public class AppointmentSearchCriteria {

    private Long doctorId;
    private Long patientId;
    private AppointmentStatus status;
    private LocalDate from;
    private LocalDate to;

    @Min(0)
    private int page = 0;

    @Min(1)
    @Max(100)
    private int size = 20;

    public Long getDoctorId() { return doctorId; }
    public void setDoctorId(Long doctorId) { this.doctorId = doctorId; }
    public Long getPatientId() { return patientId; }
    public void setPatientId(Long patientId) { this.patientId = patientId; }
    public AppointmentStatus getStatus() { return status; }
    public void setStatus(AppointmentStatus status) { this.status = status; }
    public LocalDate getFrom() { return from; }
    public void setFrom(LocalDate from) { this.from = from; }
    public LocalDate getTo() { return to; }
    public void setTo(LocalDate to) { this.to = to; }
    public int getPage() { return page; }
    public void setPage(int page) { this.page = page; }
    public int getSize() { return size; }
    public void setSize(int size) { this.size = size; }
}
