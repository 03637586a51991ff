package com.acme.orders.service;

import java.util.Map;

import javax.ejb.Remote;

import com.acme.orders.exception.OrderException;

/** Used by the warehouse client over RMI/IIOP; returns ids only, never entities. */
@Remote
public interface OrderServiceRemote {

    Long submitOrder(Long customerId, Map<Long, Integer> items) throws OrderException;
    void cancelOrder(Long orderId) throws OrderException;
    String getOrderStatus(Long orderId) throws OrderException;
}
