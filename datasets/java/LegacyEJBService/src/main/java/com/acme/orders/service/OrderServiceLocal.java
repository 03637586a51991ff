package com.acme.orders.service;

import java.util.List;
import java.util.Map;

import javax.ejb.Local;

import com.acme.orders.entity.PurchaseOrder;
import com.acme.orders.exception.OrderException;

@Local
public interface OrderServiceLocal {

    /** Places an order; items maps product id to quantity. */
    PurchaseOrder placeOrder(Long customerId, Map<Long, Integer> items) throws OrderException;
    void approveOrder(Long orderId) throws OrderException;
    void shipOrder(Long orderId) throws OrderException;
    void cancelOrder(Long orderId) throws OrderException;
    List<PurchaseOrder> findOrdersForCustomer(Long customerId);
}
