package com.acme.clinic.dto;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * A doctor. Inactive doctors stay in the system for history but cannot be booked;
 * deactivating a doctor cancels none of their appointments.
 */
public class DoctorDTO {

    /** Assigned by the server. */
    private Long id;

    @NotBlank
    @Size(max = 100)
    private String fullName;

    @NotNull
    private Specialty specialty;

    /** Consultation room, 1 to 999. */
    @NotNull
    @Min(1)
    @Max(999)
    private Integer roomNumber;

    /** Defaults to true when a doctor is created. */
    private boolean active = true;

    public Long getId() { return id; }
    public void setId(Long id) { this.id = id; }
    public String getFullName() { return fullName; }
    public void setFullName(String fullName) { this.fullName = fullName; }
    public Specialty getSpecialty() { return specialty; }
    public void setSpecialty(Specialty specialty) { this.specialty = specialty; }
    public Integer getRoomNumber() { return roomNumber; }
    public void setRoomNumber(Integer roomNumber) { this.roomNumber = roomNumber; }
    public boolean isActive() { return active; }
    public void setActive(boolean active) { this.active = active; }
}
