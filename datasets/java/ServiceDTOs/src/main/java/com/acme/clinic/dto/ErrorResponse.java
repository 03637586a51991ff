package com.acme.clinic.dto;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Body of every error response. status is the HTTP status code, error its reason phrase
 * (e.g. "Conflict"), message a sentence for people, and fieldErrors maps each invalid
 * field to its message (empty unless bean validation failed, which gives 400 BAD REQUEST).
 */
public class ErrorResponse {

    private Instant timestamp = Instant.now();
    private int status;
    private String error;
    private String message;
    private Map<String, String> fieldErrors = new LinkedHashMap<>();

    public Instant getTimestamp() { return timestamp; }
    public void setTimestamp(Instant timestamp) { this.timestamp = timestamp; }
    public int getStatus() { return status; }
    public void setStatus(int status) { this.status = status; }
    public String getError() { return error; }
    public void setError(String error) { this.error = error; }
    public String getMessage() { return message; }
    public void setMessage(String message) { this.message = message; }
    public Map<String, String> getFieldErrors() { return fieldErrors; }
    public void setFieldErrors(Map<String, String> fieldErrors) { this.fieldErrors = fieldErrors; }
}
