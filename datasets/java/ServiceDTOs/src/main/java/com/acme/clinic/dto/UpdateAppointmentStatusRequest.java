package com.acme.clinic.dto;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * Changes an appointment's status (PATCH /api/appointments/{id}/status) following the
 * transitions of {@link AppointmentStatus}.
 *
 * <p>A reason is required when the new status is CANCELLED (422 otherwise) and is stored
 * as the cancellation reason; for other statuses it is ignored. Cancelling less than 24
 * hours before the start time is allowed but marks the appointment as a late
 * cancellation.
 */
public class UpdateAppointmentStatusRequest {

    @NotNull
    private AppointmentStatus status;

    @Size(max = 200)
    private String reason;

    public AppointmentStatus getStatus() { return status; }
    public void setStatus(AppointmentStatus status) { this.status = status; }
    public String getReason() { return reason; }
    public void setReason(String reason) { this.reason = reason; }
}
