package com.acme.clinic.dto;

import java.time.LocalDateTime;

/**
 * An appointment as returned by the API (read-only; it is created with
 * {@link CreateAppointmentRequest} and changed with {@link UpdateAppointmentStatusRequest}).
 *
 * <p>endTime is startTime plus durationMinutes. patientName is "firstName lastName" of
 * the patient and doctorName the doctor's full name, filled in by the service.
 */
public class AppointmentDTO {

    private Long id;
    private Long patientId;
    private String patientName;
    private Long doctorId;
    private String doctorName;
    private LocalDateTime startTime;
    private LocalDateTime endTime;
    private int durationMinutes;
    private AppointmentStatus status;
    private String notes;
    /** Reason given when the appointment was cancelled, else null. */
    private String cancellationReason;
    /** True when the appointment was cancelled less than 24 hours before its start. */
    private boolean lateCancellation;
    private LocalDateTime createdAt;

    public Long getId() { return id; }
    public void setId(Long id) { this.id = id; }
    public Long getPatientId() { return patientId; }
    public void setPatientId(Long patientId) { this.patientId = patientId; }
    public String getPatientName() { return patientName; }
    public void setPatientName(String patientName) { this.patientName = patientName; }
    public Long getDoctorId() { return doctorId; }
    public void setDoctorId(Long doctorId) { this.doctorId = doctorId; }
    public String getDoctorName() { return doctorName; }
    public void setDoctorName(String doctorName) { this.doctorName = doctorName; }
    public LocalDateTime getStartTime() { return startTime; }
    public void setStartTime(LocalDateTime startTime) { this.startTime = startTime; }
    public LocalDateTime getEndTime() { return endTime; }
    public void setEndTime(LocalDateTime endTime) { this.endTime = endTime; }
    public int getDurationMinutes() { return durationMinutes; }
    public void setDurationMinutes(int durationMinutes) { this.durationMinutes = durationMinutes; }
    public AppointmentStatus getStatus() { return status; }
    public void setStatus(AppointmentStatus status) { this.status = status; }
    public String getNotes() { return notes; }
    public void setNotes(String notes) { this.notes = notes; }
    public String getCancellationReason() { return cancellationReason; }
    public void setCancellationReason(String cancellationReason) { this.cancellationReason = cancellationReason; }
    public boolean isLateCancellation() { return lateCancellation; }
    public void setLateCancellation(boolean lateCancellation) { this.lateCancellation = lateCancellation; }
    public LocalDateTime getCreatedAt() { return createdAt; }
    public void setCreatedAt(LocalDateTime createdAt) { this.createdAt = createdAt; }
}
