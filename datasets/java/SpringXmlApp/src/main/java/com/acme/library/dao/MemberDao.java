package com.acme.library.dao;

import com.acme.library.model.Member;

public interface MemberDao {
    Member findById(Long id);
    void setBlocked(Long memberId, boolean blocked);
}
