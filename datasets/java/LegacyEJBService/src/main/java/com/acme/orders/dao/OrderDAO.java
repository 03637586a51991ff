package com.acme.orders.dao;

import java.math.BigDecimal;
import java.util.List;

import javax.ejb.Local;

import com.acme.orders.entity.Customer;
import com.acme.orders.entity.Product;
import com.acme.orders.entity.PurchaseOrder;

@Local
public interface OrderDAO {

    Customer findCustomer(Long id);
    Product findProduct(Long id);
    PurchaseOrder findOrder(Long id);
    List<PurchaseOrder> findOrdersByCustomer(Long customerId);
    BigDecimal sumOpenOrders(Long customerId);
    void save(PurchaseOrder order);
    PurchaseOrder update(PurchaseOrder order);
}
