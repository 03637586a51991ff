package com.acme.library.service;

import java.util.List;

import com.acme.library.model.Loan;

public interface LoanService {
    Loan borrowBook(Long memberId, String isbn) throws LibraryException;
    Loan renewLoan(Long loanId) throws LibraryException;
    double returnBook(Long loanId) throws LibraryException;
    List<Loan> findOverdueLoans();
}
