package com.acme.clinic.dto;

import java.time.LocalDate;

import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Past;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * A patient, used to register (POST, id must be null) and update (PUT) patients and
 * returned by every patient endpoint.
 *
 * <p>Rules: the e-mail address is unique among patients, compared without regard to
 * case; registering or changing to an address already in use fails with 409 CONFLICT.
 * The e-mail is stored in lower case. A patient with upcoming SCHEDULED or CONFIRMED
 * appointments cannot be deleted (409 CONFLICT).
 */
public class PatientDTO {

    /** Assigned by the server; ignored on update, must be null on create (400 BAD REQUEST otherwise). */
    private Long id;

    @NotBlank
    @Size(max = 50)
    private String firstName;

    @NotBlank
    @Size(max = 50)
    private String lastName;

    @NotBlank
    @Email
    @Size(max = 120)
    private String email;

    /** Optional; digits and spaces with an optional leading +. */
    @Pattern(regexp = "\\+?[0-9 ]{7,20}")
    private String phone;

    @NotNull
    @Past
    private LocalDate dateOfBirth;

    /** Optional health insurance number: one capital letter followed by nine digits. */
    @Pattern(regexp = "[A-Z][0-9]{9}")
    private String insuranceNumber;

    public Long getId() { return id; }
    public void setId(Long id) { this.id = id; }
    public String getFirstName() { return firstName; }
    public void setFirstName(String firstName) { this.firstName = firstName; }
    public String getLastName() { return lastName; }
    public void setLastName(String lastName) { this.lastName = lastName; }
    public String getEmail() { return email; }
    public void setEmail(String email) { this.email = email; }
    public String getPhone() { return phone; }
    public void setPhone(String phone) { this.phone = phone; }
    public LocalDate getDateOfBirth() { return dateOfBirth; }
    public void setDateOfBirth(LocalDate dateOfBirth) { this.dateOfBirth = dateOfBirth; }
    public String getInsuranceNumber() { return insuranceNumber; }
    public void setInsuranceNumber(String insuranceNumber) { this.insuranceNumber = insuranceNumber; }
}
