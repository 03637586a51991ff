"""Canary secrets never reach a file of the report dir or a line of the terminal: keys in
the environment, keys a provider echoes in its error bodies, and the api base's password."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from tests.conftest import EXPLAIN_SCENARIO, report_lines, write_project
from tests.llm_server import FakeLLMServer


def _scenarios(count: int) -> dict[str, str]:
    return {
        f"explanation/Explain{i}.yaml": EXPLAIN_SCENARIO.replace(
            "id: ExplainMini", f"id: Explain{i}"
        ).replace("Explain this code.", f"Explain this code (variant {i}).")
        for i in range(count)
    }


def _results(folder: Path) -> list[dict]:
    return report_lines(folder)


def _status(body: dict) -> int | None:
    """Item 1's candidate is refused (400), item 2's judge keeps failing (500)."""
    text = str(body["messages"])
    if "variant 1)" in text:
        return 400
    if "variant 2)" in text and FakeLLMServer.role_of(body) != "candidate":
        return 500
    return None


def test_canary_secrets_reach_no_file_and_no_terminal_line(
    pytester: pytest.Pytester, llm_server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = uuid.uuid4().hex[:12]
    key = f"sk-canary-key-{mark}"
    other = f"canary-token-{mark}"
    password = f"canary-pass-{mark}"
    monkeypatch.setenv("OPENAI_API_KEY", key)  # sent as Authorization: Bearer <key>
    monkeypatch.setenv("LLMBENCH_TEST_SERVICE_TOKEN", other)  # only in the environment
    llm_server.policy.echo_authorization = True
    llm_server.policy.status_of_request = _status
    write_project(pytester.path, _scenarios(3))
    port = llm_server.base_url.split(":")[2].split("/")[0]
    # The client cannot log in with a URL's user info: every call of this run fails.
    with_password = f"http://canary:{password}@127.0.0.1:{port}/v1"
    lines: list[str] = []
    for name, api_base in (("echoes", llm_server.base_url), ("password", with_password)):
        reports = pytester.path / name
        result = pytester.runpytest(
            "--llm-model=openai/cand",
            "--llm-judge=openai/judge",
            f"--llm-api-base={api_base}",
            "--llm-attempts=1",
            "--llm-max-retries=1",
            "--llm-retry-backoff=0.01",
            "--llm-cache=off",
            f"--llm-report-dir={reports}",
            f"--junitxml={reports / 'junit.xml'}",
            "-rA",
        )
        lines += result.outlines + result.errlines
    assert f"Bearer {key}" in llm_server.authorizations  # the key did go out, and came back
    echoed = {r["scenario"]: r for r in _results(pytester.path / "echoes")}
    assert echoed["Explain0"]["status"] == "scored" and echoed["Explain1"]["status"] == "error"
    assert "request had Authorization: [REDACTED]" in echoed["Explain1"]["reason"]
    assert {r["status"] for r in _results(pytester.path / "password")} == {"error"}
    canaries = [key, other, password, mark]
    files = [p for name in ("echoes", "password") for p in (pytester.path / name).rglob("*")]
    files = [p for p in files if p.is_file()]
    assert {p.name for p in files} >= {
        "results.jsonl",
        "report.json",
        "report.html",
        "leaderboard.json",
        "leaderboard.md",
        "junit.xml",
    }
    leaks = [str(p) for p in files for c in canaries if c.encode() in p.read_bytes()]
    assert leaks == []
    assert [line for line in lines if any(c in line for c in canaries)] == []
    board = (pytester.path / "password" / "leaderboard.json").read_text()
    assert f"http://canary:[REDACTED]@127.0.0.1:{port}/v1" in board


def test_redact_covers_environment_headers_and_urls(monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_llmbench.redaction import redact

    monkeypatch.setenv("ANTHROPIC_API_KEY", "ant-secret-123456")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws/secret+987654321")
    monkeypatch.setenv("AWS_REGION", "eu-west-1-region")  # not a credential: stays
    text = (
        "key ant-secret-123456, aws aws/secret+987654321 in eu-west-1-region; "
        '{"Authorization": "Bearer abc.def-1234567"}; '
        "Bearer authentication is described; token sk-live-555555555 via Bearer sk-live-555555555; "
        "base https://me:hunter22@api.example.com/v1"
    )
    assert redact(text) == (
        "key [REDACTED], aws [REDACTED] in eu-west-1-region; "
        '{"Authorization": "[REDACTED]"}; '
        "Bearer authentication is described; token sk-live-555555555 via Bearer [REDACTED]; "
        "base https://me:[REDACTED]@api.example.com/v1"
    )
