package com.acme.orders.entity;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import javax.persistence.*;

@Entity
@Table(name = "PURCHASE_ORDER")
@NamedQueries({
    @NamedQuery(name = "PurchaseOrder.byCustomer",
        query = "select o from PurchaseOrder o where o.customer.id = :customerId order by o.orderDate desc"),
    @NamedQuery(name = "PurchaseOrder.openTotal",
        query = "select sum(o.total) from PurchaseOrder o where o.customer.id = :customerId"
            + " and o.status in ('NEW', 'APPROVED')")
})
public class PurchaseOrder implements Serializable {

    @Id
    @GeneratedValue
    private Long id;

    @ManyToOne(optional = false)
    @JoinColumn(name = "CUSTOMER_ID")
    private Customer customer;

    @Temporal(TemporalType.TIMESTAMP)
    @Column(name = "ORDER_DATE")
    private Date orderDate;

    @Temporal(TemporalType.TIMESTAMP)
    @Column(name = "SHIPPED_DATE")
    private Date shippedDate;

    /** NEW, APPROVED, SHIPPED or CANCELLED. */
    @Column(name = "STATUS", length = 10)
    private String status;

    @Column(name = "TOTAL", precision = 12, scale = 2)
    private BigDecimal total;

    @OneToMany(mappedBy = "order", cascade = CascadeType.ALL)
    private List<OrderLine> lines = new ArrayList<OrderLine>();

    @Version
    private int version;

    public void addLine(OrderLine line) {
        line.setOrder(this);
        lines.add(line);
    }

    public Long getId() { return id; }
    public void setId(Long id) { this.id = id; }
    public Customer getCustomer() { return customer; }
    public void setCustomer(Customer customer) { this.customer = customer; }
    public Date getOrderDate() { return orderDate; }
    public void setOrderDate(Date orderDate) { this.orderDate = orderDate; }
    public Date getShippedDate() { return shippedDate; }
    public void setShippedDate(Date shippedDate) { this.shippedDate = shippedDate; }
    public String getStatus() { return status; }
    public void setStatus(String status) { this.status = status; }
    public BigDecimal getTotal() { return total; }
    public void setTotal(BigDecimal total) { this.total = total; }
    public List<OrderLine> getLines() { return lines; }
}
