package com.acme.orders.service;

import java.math.BigDecimal;
import java.util.*;
import java.util.logging.Level;
import java.util.logging.Logger;

import javax.ejb.*;

import com.acme.orders.dao.OrderDAO;
import com.acme.orders.entity.*;
import com.acme.orders.exception.CreditLimitExceededException;
import com.acme.orders.exception.InsufficientStockException;
import com.acme.orders.exception.OrderException;

@Stateless
public class OrderServiceBean implements OrderServiceLocal, OrderServiceRemote {

    private static final Logger log = Logger.getLogger(OrderServiceBean.class.getName());

    static final int BULK_QUANTITY = 10;
    static final BigDecimal BULK_FACTOR = new BigDecimal("0.95");
    static final BigDecimal FREE_SHIPPING_FROM = new BigDecimal("100.00");
    static final BigDecimal SHIPPING_FEE = new BigDecimal("7.50");
    static final BigDecimal MANUAL_APPROVAL_FROM = new BigDecimal("5000.00");
    static final int MAX_LINES = 50;

    @EJB
    private OrderDAO orderDao;

    public PurchaseOrder placeOrder(Long customerId, Map<Long, Integer> items) throws OrderException {
        if (items == null || items.isEmpty()) {
            throw new OrderException("Order must contain at least one line");
        }
        if (items.size() > MAX_LINES) {
            throw new OrderException("Too many lines: " + items.size());
        }
        Customer customer = orderDao.findCustomer(customerId);
        if (customer == null) {
            throw new OrderException("Unknown customer " + customerId);
        }
        if ("BLOCKED".equals(customer.getStatus())) {
            throw new OrderException("Customer " + customerId + " is blocked");
        }

        PurchaseOrder order = new PurchaseOrder();
        order.setCustomer(customer);
        BigDecimal subtotal = BigDecimal.ZERO;
        for (Map.Entry<Long, Integer> item : items.entrySet()) {
            Integer qty = item.getValue();
            if (qty == null || qty.intValue() <= 0) {
                throw new OrderException("Invalid quantity for product " + item.getKey());
            }
            Product product = orderDao.findProduct(item.getKey());
            if (product == null || !product.isActive()) {
                throw new OrderException("Product not available: " + item.getKey());
            }
            if (product.getStock() < qty.intValue()) {
                throw new InsufficientStockException(product.getSku(), qty.intValue(), product.getStock());
            }
            BigDecimal lineTotal = product.getPrice().multiply(new BigDecimal(qty.intValue()));
            if (qty.intValue() >= BULK_QUANTITY) {
                lineTotal = lineTotal.multiply(BULK_FACTOR);
            }
            lineTotal = lineTotal.setScale(2, BigDecimal.ROUND_HALF_UP);

            OrderLine line = new OrderLine();
            line.setProduct(product);
            line.setQuantity(qty.intValue());
            line.setUnitPrice(product.getPrice());
            line.setLineTotal(lineTotal);
            order.addLine(line);
            subtotal = subtotal.add(lineTotal);
        }

        boolean vip = "VIP".equals(customer.getStatus());
        BigDecimal total = subtotal;
        if (!vip && subtotal.compareTo(FREE_SHIPPING_FROM) < 0) {
            total = total.add(SHIPPING_FEE);
        }

        BigDecimal exposure = orderDao.sumOpenOrders(customerId).add(total);
        if (customer.getCreditLimit() != null && exposure.compareTo(customer.getCreditLimit()) > 0) {
            throw new CreditLimitExceededException(customerId, exposure, customer.getCreditLimit());
        }

        // reserve stock only once every line has been checked
        for (OrderLine line : order.getLines()) {
            Product p = line.getProduct();
            p.setStock(p.getStock() - line.getQuantity());
        }

        order.setTotal(total);
        order.setOrderDate(new Date());
        if (!vip && total.compareTo(MANUAL_APPROVAL_FROM) > 0) {
            order.setStatus("NEW");
        } else {
            order.setStatus("APPROVED");
        }
        orderDao.save(order);
        log.info("Order placed for customer " + customerId + ", total " + total + ", status " + order.getStatus());
        return order;
    }

    public Long submitOrder(Long customerId, Map<Long, Integer> items) throws OrderException {
        return placeOrder(customerId, items).getId();
    }

    public void approveOrder(Long orderId) throws OrderException {
        PurchaseOrder order = loadOrder(orderId);
        if (!"NEW".equals(order.getStatus())) {
            throw new OrderException("Only NEW orders can be approved, order " + orderId + " is " + order.getStatus());
        }
        if ("BLOCKED".equals(order.getCustomer().getStatus())) {
            throw new OrderException("Orders of blocked customers cannot be approved");
        }
        order.setStatus("APPROVED");
        orderDao.update(order);
    }

    public void shipOrder(Long orderId) throws OrderException {
        PurchaseOrder order = loadOrder(orderId);
        if (!"APPROVED".equals(order.getStatus())) {
            throw new OrderException("Order " + orderId + " is not approved");
        }
        if (order.getLines().isEmpty()) {
            throw new OrderException("Order " + orderId + " has no lines to ship");
        }
        order.setStatus("SHIPPED");
        order.setShippedDate(new Date());
        orderDao.update(order);
    }

    public void cancelOrder(Long orderId) throws OrderException {
        PurchaseOrder order = loadOrder(orderId);
        if ("CANCELLED".equals(order.getStatus())) {
            return; // already cancelled, nothing to do
        }
        if ("SHIPPED".equals(order.getStatus())) {
            throw new OrderException("Shipped orders cannot be cancelled: " + orderId);
        }
        for (OrderLine line : order.getLines()) {
            Product p = line.getProduct();
            if (p.isActive()) { // discontinued products are not restocked
                p.setStock(p.getStock() + line.getQuantity());
            }
        }
        order.setStatus("CANCELLED");
        orderDao.update(order);
    }

    public String getOrderStatus(Long orderId) throws OrderException {
        String status = loadOrder(orderId).getStatus();
        return status == null ? "UNKNOWN" : status;
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<PurchaseOrder> findOrdersForCustomer(Long customerId) {
        if (customerId == null) {
            return new ArrayList<PurchaseOrder>();
        }
        try {
            return orderDao.findOrdersByCustomer(customerId);
        } catch (Exception e) {
            log.log(Level.WARNING, "Could not load orders of customer " + customerId, e);
            return new ArrayList<PurchaseOrder>();
        }
    }

    private PurchaseOrder loadOrder(Long orderId) throws OrderException {
        PurchaseOrder order = orderDao.findOrder(orderId);
        if (order == null) {
            throw new OrderException("Unknown order " + orderId);
        }
        return order;
    }
}
