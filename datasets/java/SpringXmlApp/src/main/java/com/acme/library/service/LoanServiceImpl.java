package com.acme.library.service;

import java.util.Calendar;
import java.util.Date;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import com.acme.library.dao.*;
import com.acme.library.model.*;

public class LoanServiceImpl implements LoanService {

    private static final Log log = LogFactory.getLog(LoanServiceImpl.class);
    private static final long DAY_MS = 24L * 60 * 60 * 1000;

    private BookDao bookDao;
    private MemberDao memberDao;
    private LoanDao loanDao;
    private int maxLoans = 5;
    private int loanDays = 21;
    private double finePerDay = 0.25;
    private double blockFineFrom = 10.0;

    public Loan borrowBook(Long memberId, String isbn) throws LibraryException {
        Member member = memberDao.findById(memberId);
        if (member == null) {
            throw new LibraryException("No member with id " + memberId);
        }
        if (member.isBlocked()) {
            throw new LibraryException("Member " + member.getName() + " is blocked");
        }
        List<Loan> open = loanDao.findOpenByMember(memberId);
        if (open.size() >= maxLoans) {
            throw new LibraryException("Loan limit of " + maxLoans + " reached");
        }
        Date today = today();
        for (Loan l : open) {
            if (l.isOverdue(today)) {
                throw new LibraryException("Member has overdue loans, return them first");
            }
        }
        Book book = bookDao.findByIsbn(isbn);
        if (book == null) {
            throw new LibraryException("Unknown ISBN " + isbn);
        }
        if (book.getCopiesAvailable() <= 0) {
            throw new LibraryException("No copy of '" + book.getTitle() + "' available");
        }
        Loan loan = new Loan();
        loan.setBookId(book.getId());
        loan.setMemberId(memberId);
        loan.setLoanDate(today);
        loan.setDueDate(new Date(today.getTime() + loanDays * DAY_MS));
        loanDao.insert(loan);
        bookDao.updateCopies(book.getId(), -1);
        log.info("Lent " + book.getIsbn() + " to member " + memberId + " until " + loan.getDueDate());
        return loan;
    }

    public Loan renewLoan(Long loanId) throws LibraryException {
        Loan loan = loadOpenLoan(loanId);
        if (loan.isRenewed()) {
            throw new LibraryException("Loan " + loanId + " was already renewed once");
        }
        if (loan.isOverdue(today())) {
            throw new LibraryException("Overdue loans cannot be renewed");
        }
        loan.setDueDate(new Date(loan.getDueDate().getTime() + loanDays * DAY_MS));
        loan.setRenewed(true);
        loanDao.update(loan);
        return loan;
    }

    /** Takes a book back and returns the fine to pay (0 when returned in time). */
    public double returnBook(Long loanId) throws LibraryException {
        Loan loan = loadOpenLoan(loanId);
        Date today = today();
        double fine = 0;
        if (loan.isOverdue(today)) {
            long daysLate = (today.getTime() - loan.getDueDate().getTime()) / DAY_MS;
            fine = daysLate * finePerDay;
        }
        loan.setReturnDate(today);
        loan.setFine(fine);
        loanDao.update(loan);
        bookDao.updateCopies(loan.getBookId(), 1);
        if (fine >= blockFineFrom) {
            memberDao.setBlocked(loan.getMemberId(), true);
            log.warn("Member " + loan.getMemberId() + " blocked, fine " + fine);
        }
        return fine;
    }

    public List<Loan> findOverdueLoans() {
        return loanDao.findOverdue(today());
    }

    private Loan loadOpenLoan(Long loanId) throws LibraryException {
        Loan loan = loanDao.findById(loanId);
        if (loan == null) {
            throw new LibraryException("No loan with id " + loanId);
        }
        if (!loan.isOpen()) {
            throw new LibraryException("Loan " + loanId + " is already closed");
        }
        return loan;
    }

    /** Midnight of the current day. */
    private Date today() {
        Calendar c = Calendar.getInstance();
        c.set(Calendar.HOUR_OF_DAY, 0);
        c.set(Calendar.MINUTE, 0);
        c.set(Calendar.SECOND, 0);
        c.set(Calendar.MILLISECOND, 0);
        return c.getTime();
    }

    public void setBookDao(BookDao bookDao) { this.bookDao = bookDao; }
    public void setMemberDao(MemberDao memberDao) { this.memberDao = memberDao; }
    public void setLoanDao(LoanDao loanDao) { this.loanDao = loanDao; }
    public void setMaxLoans(int maxLoans) { this.maxLoans = maxLoans; }
    public void setLoanDays(int loanDays) { this.loanDays = loanDays; }
    public void setFinePerDay(double finePerDay) { this.finePerDay = finePerDay; }
    public void setBlockFineFrom(double blockFineFrom) { this.blockFineFrom = blockFineFrom; }
}
