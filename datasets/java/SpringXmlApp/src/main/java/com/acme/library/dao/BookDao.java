package com.acme.library.dao;

import java.util.List;

import com.acme.library.model.Book;

public interface BookDao {
    Book findByIsbn(String isbn);
    List<Book> findByTitle(String text);
    void updateCopies(Long bookId, int delta);
}
