"""The one redaction rule, over a whole result: every string, the environment read once."""

from __future__ import annotations

import pytest

from pytest_llmbench import redaction


def test_redact_data_reads_the_environment_once_for_all_its_strings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EXAMPLE_API_KEY", "canary-key-0123456789")
    reads: list[int] = []
    real = redaction.secret_values

    def counted() -> list[str]:
        reads.append(1)
        return real()

    monkeypatch.setattr(redaction, "secret_values", counted)
    value = {
        "reason": "401: key canary-key-0123456789 refused",
        "attempts": [{"answer": f"line {i} canary-key-0123456789"} for i in range(50)],
        "calls": ("Authorization: Bearer sk9-abcdefgh12", 3, None),
    }
    out = redaction.redact_data(value)
    assert len(reads) == 1
    assert "canary-key" not in repr(out)
    assert out["reason"] == "401: key [REDACTED] refused"
    assert out["attempts"][49] == {"answer": "line 49 [REDACTED]"}
    assert out["calls"] == ["Authorization: [REDACTED]", 3, None]
