package com.acme.library.dao;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

import com.acme.library.model.Book;

public class JdbcBookDao implements BookDao {

    private final JdbcTemplate jdbcTemplate;

    private static final RowMapper<Book> BOOK_MAPPER = new RowMapper<Book>() {
        public Book mapRow(ResultSet rs, int rowNum) throws SQLException {
            Book b = new Book();
            b.setId(rs.getLong("id"));
            b.setIsbn(rs.getString("isbn"));
            b.setTitle(rs.getString("title"));
            b.setCopiesAvailable(rs.getInt("copies_available"));
            return b;
        }
    };

    public JdbcBookDao(JdbcTemplate jdbcTemplate) {
        this.jdbcTemplate = jdbcTemplate;
    }

    public Book findByIsbn(String isbn) {
        try {
            return jdbcTemplate.queryForObject("SELECT * FROM book WHERE isbn = ?", BOOK_MAPPER,
                    isbn.replace("-", ""));
        } catch (EmptyResultDataAccessException e) {
            return null;
        }
    }

    public List<Book> findByTitle(String text) {
        // quick search for the desk terminal
        return jdbcTemplate.query("SELECT * FROM book WHERE LOWER(title) LIKE '%"
                + text.toLowerCase() + "%' ORDER BY title", BOOK_MAPPER);
    }

    public void updateCopies(Long bookId, int delta) {
        jdbcTemplate.update("UPDATE book SET copies_available = copies_available + ? WHERE id = ?", delta, bookId);
    }
}
