package com.acme.library.dao;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

import com.acme.library.model.Member;

public class JdbcMemberDao implements MemberDao {

    private JdbcTemplate jdbcTemplate;

    public void setJdbcTemplate(JdbcTemplate jdbcTemplate) {
        this.jdbcTemplate = jdbcTemplate;
    }

    public Member findById(Long id) {
        List<Member> found = jdbcTemplate.query("SELECT * FROM member WHERE id = ?", new RowMapper<Member>() {
            public Member mapRow(ResultSet rs, int rowNum) throws SQLException {
                Member m = new Member();
                m.setId(rs.getLong("id"));
                m.setName(rs.getString("name"));
                m.setBlocked(rs.getBoolean("blocked"));
                return m;
            }
        }, id);
        return found.isEmpty() ? null : found.get(0);
    }

    public void setBlocked(Long memberId, boolean blocked) {
        jdbcTemplate.update("UPDATE member SET blocked = ? WHERE id = ?", blocked, memberId);
    }
}
