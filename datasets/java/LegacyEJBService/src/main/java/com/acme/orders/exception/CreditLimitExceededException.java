package com.acme.orders.exception;

import java.math.BigDecimal;

public class CreditLimitExceededException extends OrderException {

    public CreditLimitExceededException(Long customerId, BigDecimal exposure, BigDecimal limit) {
        super("Credit limit exceeded for customer " + customerId + ": " + exposure + " > " + limit);
    }
}
