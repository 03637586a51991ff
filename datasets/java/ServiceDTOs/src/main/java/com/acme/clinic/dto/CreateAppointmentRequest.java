package com.acme.clinic.dto;

import java.time.LocalDateTime;

import jakarta.validation.constraints.Future;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * Books an appointment (POST /api/appointments). The new appointment is SCHEDULED.
 *
 * <p>Business rules, checked in this order after the field constraints:
 * <ol>
 *   <li>The patient and the doctor exist (404 NOT FOUND otherwise).</li>
 *   <li>The doctor is active (422 UNPROCESSABLE ENTITY otherwise).</li>
 *   <li>The appointment lies on a weekday (Monday to Friday), starts at 08:00 or later
 *       and ends at 18:00 at the latest (422).</li>
 *   <li>durationMinutes is a multiple of 10 (422).</li>
 *   <li>For a PEDIATRICS doctor the patient is younger than 18 on the appointment's
 *       date (422).</li>
 *   <li>It does not overlap another SCHEDULED or CONFIRMED appointment of the same
 *       doctor; touching intervals (one ends when the other starts) do not overlap
 *       (409 CONFLICT).</li>
 *   <li>The patient has fewer than 3 upcoming SCHEDULED or CONFIRMED appointments
 *       (409 CONFLICT).</li>
 * </ol>
 */
public class CreateAppointmentRequest {

    @NotNull
    private Long patientId;

    @NotNull
    private Long doctorId;

    @NotNull
    @Future
    private LocalDateTime startTime;

    @NotNull
    @Min(10)
    @Max(120)
    private Integer durationMinutes;

    @Size(max = 500)
    private String notes;

    public Long getPatientId() { return patientId; }
    public void setPatientId(Long patientId) { this.patientId = patientId; }
    public Long getDoctorId() { return doctorId; }
    public void setDoctorId(Long doctorId) { this.doctorId = doctorId; }
    public LocalDateTime getStartTime() { return startTime; }
    public void setStartTime(LocalDateTime startTime) { this.startTime = startTime; }
    public Integer getDurationMinutes() { return durationMinutes; }
    public void setDurationMinutes(Integer durationMinutes) { this.durationMinutes = durationMinutes; }
    public String getNotes() { return notes; }
    public void setNotes(String notes) { this.notes = notes; }
}
