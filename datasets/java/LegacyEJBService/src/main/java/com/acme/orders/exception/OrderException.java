package com.acme.orders.exception;

import javax.ejb.ApplicationException;

/**
 * Business failure of the order service. Checked, so remote clients must handle it;
 * the container rolls the transaction back when it is thrown.
 */
@ApplicationException(rollback = true)
public class OrderException extends Exception {

    public OrderException(String message) {
        super(message);
    }
}
