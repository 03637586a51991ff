package com.acme.library.cli;

import java.util.List;

import org.springframework.context.support.ClassPathXmlApplicationContext;

import com.acme.library.dao.BookDao;
import com.acme.library.model.Book;
import com.acme.library.model.Loan;
import com.acme.library.service.LibraryException;
import com.acme.library.service.LoanService;

public class LibraryDesk {

    public static void main(String[] args) {
        if (args.length == 0) {
            System.out.println("usage: borrow MEMBER ISBN | renew LOAN | return LOAN | overdue | search TEXT");
            System.exit(1);
        }
        ClassPathXmlApplicationContext ctx = new ClassPathXmlApplicationContext("applicationContext.xml");
        LoanService loanService = (LoanService) ctx.getBean("loanService");
        BookDao bookDao = (BookDao) ctx.getBean("bookDao");
        try {
            String cmd = args[0];
            if ("borrow".equals(cmd)) {
                Loan loan = loanService.borrowBook(Long.valueOf(args[1]), args[2]);
                System.out.println("Due back on " + loan.getDueDate());
            } else if ("renew".equals(cmd)) {
                Loan loan = loanService.renewLoan(Long.valueOf(args[1]));
                System.out.println("Renewed until " + loan.getDueDate());
            } else if ("return".equals(cmd)) {
                double fine = loanService.returnBook(Long.valueOf(args[1]));
                System.out.println(fine > 0 ? "Fine to pay: " + String.format("%.2f", fine) : "Returned in time");
            } else if ("overdue".equals(cmd)) {
                List<Loan> loans = loanService.findOverdueLoans();
                for (Loan l : loans) {
                    System.out.println(l.getId() + "\tmember " + l.getMemberId() + "\tbook " + l.getBookId() + "\tdue " + l.getDueDate());
                }
                System.out.println(loans.size() + " overdue loan(s)");
            } else if ("search".equals(cmd)) {
                for (Book b : bookDao.findByTitle(args[1])) {
                    System.out.println(b.getIsbn() + "  " + b.getTitle() + " (" + b.getCopiesAvailable() + " available)");
                }
            } else {
                System.out.println("Unknown command " + cmd);
            }
        } catch (LibraryException e) {
            System.out.println("Refused: " + e.getMessage());
        } catch (Exception e) {
            e.printStackTrace();
        } finally {
            ctx.close();
        }
    }
}
