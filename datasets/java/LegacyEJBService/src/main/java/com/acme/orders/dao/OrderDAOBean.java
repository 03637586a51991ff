package com.acme.orders.dao;

import java.math.BigDecimal;
import java.util.List;

import javax.ejb.Stateless;
import javax.persistence.EntityManager;
import javax.persistence.PersistenceContext;

import com.acme.orders.entity.*;

@Stateless
public class OrderDAOBean implements OrderDAO {

    @PersistenceContext(unitName = "ordersPU")
    private EntityManager em;

    public Customer findCustomer(Long id) {
        return em.find(Customer.class, id);
    }

    public Product findProduct(Long id) {
        return em.find(Product.class, id);
    }

    public PurchaseOrder findOrder(Long id) {
        return em.find(PurchaseOrder.class, id);
    }

    @SuppressWarnings("unchecked")
    public List<PurchaseOrder> findOrdersByCustomer(Long customerId) {
        return em.createNamedQuery("PurchaseOrder.byCustomer")
                .setParameter("customerId", customerId)
                .getResultList();
    }

    public BigDecimal sumOpenOrders(Long customerId) {
        BigDecimal sum = (BigDecimal) em.createNamedQuery("PurchaseOrder.openTotal")
                .setParameter("customerId", customerId)
                .getSingleResult();
        return sum == null ? BigDecimal.ZERO : sum;
    }

    public void save(PurchaseOrder order) {
        em.persist(order);
    }

    public PurchaseOrder update(PurchaseOrder order) {
        return em.merge(order);
    }
}
