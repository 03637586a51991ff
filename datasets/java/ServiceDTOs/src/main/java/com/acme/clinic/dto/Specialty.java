package com.acme.clinic.dto;

/** Medical specialty of a doctor. */
public enum Specialty {
    GENERAL,
    CARDIOLOGY,
    DERMATOLOGY,
    /** Pediatricians only see patients younger than 18 years on the day of the appointment. */
    PEDIATRICS
}
