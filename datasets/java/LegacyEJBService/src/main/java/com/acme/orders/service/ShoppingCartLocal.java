package com.acme.orders.service;

import java.math.BigDecimal;
import java.util.Map;

import javax.ejb.Local;

import com.acme.orders.exception.OrderException;

@Local
public interface ShoppingCartLocal {

    void setCustomer(Long customerId);
    void addItem(Long productId, int quantity);
    void removeItem(Long productId);
    Map<Long, Integer> getItems();
    BigDecimal getEstimatedTotal();
    Long checkout() throws OrderException;
    void cancel();
}
