package com.acme.leave.service;

public class LeaveException extends Exception {

    private static final long serialVersionUID = 1L;

    public LeaveException(String message) {
        super(message);
    }
}
