package com.acme.library.dao;

import java.util.Date;
import java.util.List;

import com.acme.library.model.Loan;

public interface LoanDao {
    Loan findById(Long id);
    List<Loan> findOpenByMember(Long memberId);
    List<Loan> findOverdue(Date today);
    void insert(Loan loan);
    void update(Loan loan);
}
