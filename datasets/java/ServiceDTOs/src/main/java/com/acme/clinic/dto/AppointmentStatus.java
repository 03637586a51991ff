package com.acme.clinic.dto;

/**
 * Life cycle of an appointment.
 *
 * <p>Allowed transitions, every other change is rejected with 409 CONFLICT:
 * <ul>
 *   <li>SCHEDULED to CONFIRMED or CANCELLED</li>
 *   <li>CONFIRMED to COMPLETED, CANCELLED or NO_SHOW</li>
 *   <li>COMPLETED, CANCELLED and NO_SHOW are final</li>
 * </ul>
 * COMPLETED and NO_SHOW may only be set once the appointment's start time has passed
 * (409 CONFLICT before).
 */
public enum AppointmentStatus {
    SCHEDULED,
    CONFIRMED,
    COMPLETED,
    CANCELLED,
    NO_SHOW;

    /** True for the states that can never change again. */
    public boolean isFinal() {
        return this == COMPLETED || this == CANCELLED || this == NO_SHOW;
    }
}
