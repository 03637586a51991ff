package com.acme.library.model;

import java.util.Date;

public class Loan {

    private Long id;
    private Long bookId;
    private Long memberId;
    private Date loanDate;
    private Date dueDate;
    private Date returnDate;
    private boolean renewed;
    private double fine;

    public boolean isOpen() {
        return returnDate == null;
    }

    public boolean isOverdue(Date today) {
        return returnDate == null && dueDate.before(today);
    }

    public Long getId() { return id; }
    public void setId(Long id) { this.id = id; }
    public Long getBookId() { return bookId; }
    public void setBookId(Long bookId) { this.bookId = bookId; }
    public Long getMemberId() { return memberId; }
    public void setMemberId(Long memberId) { this.memberId = memberId; }
    public Date getLoanDate() { return loanDate; }
    public void setLoanDate(Date loanDate) { this.loanDate = loanDate; }
    public Date getDueDate() { return dueDate; }
    public void setDueDate(Date dueDate) { this.dueDate = dueDate; }
    public Date getReturnDate() { return returnDate; }
    public void setReturnDate(Date returnDate) { this.returnDate = returnDate; }
    public boolean isRenewed() { return renewed; }
    public void setRenewed(boolean renewed) { this.renewed = renewed; }
    public double getFine() { return fine; }
    public void setFine(double fine) { this.fine = fine; }
}
