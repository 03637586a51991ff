package com.acme.orders.service;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.ejb.EJB;
import javax.ejb.Remove;
import javax.ejb.Stateful;

import com.acme.orders.dao.OrderDAO;
import com.acme.orders.entity.Product;
import com.acme.orders.entity.PurchaseOrder;
import com.acme.orders.exception.OrderException;

@Stateful
public class ShoppingCartBean implements ShoppingCartLocal {

    @EJB
    private OrderServiceLocal orderService;

    @EJB
    private OrderDAO orderDao;

    private Long customerId;
    private Map<Long, Integer> items = new LinkedHashMap<Long, Integer>();

    public void setCustomer(Long customerId) {
        this.customerId = customerId;
    }

    public void addItem(Long productId, int quantity) {
        if (quantity <= 0 || quantity > 999) {
            throw new IllegalArgumentException("quantity must be between 1 and 999");
        }
        Integer current = items.get(productId);
        items.put(productId, current == null ? quantity : current + quantity);
    }

    public void removeItem(Long productId) {
        items.remove(productId);
    }

    public Map<Long, Integer> getItems() {
        return items;
    }

    /** Same pricing as OrderServiceBean.placeOrder, kept here for the cart page. */
    public BigDecimal getEstimatedTotal() {
        BigDecimal subtotal = BigDecimal.ZERO;
        for (Map.Entry<Long, Integer> item : items.entrySet()) {
            Product product = orderDao.findProduct(item.getKey());
            if (product == null) {
                continue;
            }
            BigDecimal lineTotal = product.getPrice().multiply(new BigDecimal(item.getValue()));
            if (item.getValue() >= 10) {
                lineTotal = lineTotal.multiply(new BigDecimal("0.95"));
            }
            subtotal = subtotal.add(lineTotal.setScale(2, BigDecimal.ROUND_HALF_UP));
        }
        if (subtotal.signum() > 0 && subtotal.compareTo(new BigDecimal("100.00")) < 0) {
            subtotal = subtotal.add(new BigDecimal("7.50"));
        }
        return subtotal;
    }

    @Remove
    public Long checkout() throws OrderException {
        if (customerId == null) {
            throw new OrderException("No customer selected");
        }
        PurchaseOrder order = orderService.placeOrder(customerId, items);
        items.clear();
        return order.getId();
    }

    @Remove
    public void cancel() {
        items.clear();
        customerId = null;
    }
}
