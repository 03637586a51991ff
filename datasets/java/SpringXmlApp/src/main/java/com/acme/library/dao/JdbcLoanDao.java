package com.acme.library.dao;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Date;
import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

import com.acme.library.model.Loan;

public class JdbcLoanDao implements LoanDao {

    private JdbcTemplate jdbcTemplate;

    private final RowMapper<Loan> loanMapper = new RowMapper<Loan>() {
        public Loan mapRow(ResultSet rs, int rowNum) throws SQLException {
            Loan l = new Loan();
            l.setId(rs.getLong("id"));
            l.setBookId(rs.getLong("book_id"));
            l.setMemberId(rs.getLong("member_id"));
            l.setLoanDate(rs.getDate("loan_date"));
            l.setDueDate(rs.getDate("due_date"));
            l.setReturnDate(rs.getDate("return_date"));
            l.setRenewed(rs.getBoolean("renewed"));
            l.setFine(rs.getDouble("fine"));
            return l;
        }
    };

    public void setJdbcTemplate(JdbcTemplate jdbcTemplate) {
        this.jdbcTemplate = jdbcTemplate;
    }

    public Loan findById(Long id) {
        List<Loan> found = jdbcTemplate.query("SELECT * FROM loan WHERE id = ?", loanMapper, id);
        return found.isEmpty() ? null : found.get(0);
    }

    public List<Loan> findOpenByMember(Long memberId) {
        return jdbcTemplate.query("SELECT * FROM loan WHERE member_id = ? AND return_date IS NULL",
                loanMapper, memberId);
    }

    public List<Loan> findOverdue(Date today) {
        return jdbcTemplate.query("SELECT * FROM loan WHERE return_date IS NULL AND due_date < ? ORDER BY due_date",
                loanMapper, new java.sql.Date(today.getTime()));
    }

    public void insert(Loan loan) {
        jdbcTemplate.update("INSERT INTO loan (book_id, member_id, loan_date, due_date, renewed, fine) VALUES (?, ?, ?, ?, ?, ?)",
                loan.getBookId(), loan.getMemberId(), new java.sql.Date(loan.getLoanDate().getTime()),
                new java.sql.Date(loan.getDueDate().getTime()), loan.isRenewed(), loan.getFine());
    }

    public void update(Loan loan) {
        jdbcTemplate.update("UPDATE loan SET due_date = ?, return_date = ?, renewed = ?, fine = ? WHERE id = ?",
                new java.sql.Date(loan.getDueDate().getTime()),
                loan.getReturnDate() == null ? null : new java.sql.Date(loan.getReturnDate().getTime()),
                loan.isRenewed(), loan.getFine(), loan.getId());
    }
}
