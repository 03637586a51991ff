"""Bad things met while running, against the local server: a damaged request cache or spend
ledger (set aside with one warning line, the run goes on), a reply over the maximum size
(cut, and the cut recorded), and a 200 reply with no choices (retried like a 5xx)."""

from __future__ import annotations

import sqlite3
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.errors import StoreWarning
from pytest_llmbench.execution.budget import LEDGER_FILE
from pytest_llmbench.execution.cache import CACHE_FILE, RequestCache
from pytest_llmbench.execution.store import SqliteStore
from pytest_llmbench.models.base import MAX_REPLY_CHARS, ModelReply
from tests.conftest import EXPLAIN_SCENARIO, read_leaderboard, read_results, write_project
from tests.llm_server import FakeLLMServer


def _args(server: FakeLLMServer, *extra: str) -> list[str]:
    return [
        "--llm-model=openai/m",
        f"--llm-api-base={server.base_url}",
        "--llm-attempts=1",
        "--llm-retry-backoff=0.01",
        "--llm-cache-dir=cache",
        *extra,
    ]


def _garbage(path: Path) -> None:
    path.write_bytes(b"this is not a database\x00" * 300)


def _wrong_schema(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE replies (k TEXT, v BLOB)")


def _truncated(path: Path) -> None:
    cache = RequestCache(path.parent)
    for i in range(3000):
        cache.put(f"key{i}", ModelReply("m", "x" * 500, 1.0))
    cache.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


def _folder(path: Path) -> None:
    (path / "inside").mkdir(parents=True)


DAMAGE: dict[str, Callable[[Path], None]] = {
    "garbage-bytes": _garbage,
    "wrong-schema": _wrong_schema,
    "truncated": _truncated,
    "a-folder": _folder,
}


def _run(pytester: pytest.Pytester, *args: str) -> str:
    result = pytester.runpytest(*args)
    output = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in output and "INTERNALERROR" not in output, output
    result.assert_outcomes(passed=1)
    return output


@pytest.mark.timeout(120)
@pytest.mark.parametrize("damage", list(DAMAGE), ids=list(DAMAGE))
def test_a_damaged_request_cache_is_set_aside_and_the_run_goes_on(
    pytester: pytest.Pytester, llm_server: FakeLLMServer, damage: str
) -> None:
    write_project(pytester.path, {"explanation/ExplainMini.yaml": EXPLAIN_SCENARIO})
    cache = pytester.path / "cache" / CACHE_FILE
    cache.parent.mkdir()
    DAMAGE[damage](cache)
    output = _run(pytester, *_args(llm_server))
    warned = [line for line in output.splitlines() if "moved to requests.sqlite3.corrupt-" in line]
    assert len(warned) == 1 and "cannot be used" in warned[0], output
    assert len(list(cache.parent.glob(f"{CACHE_FILE}.corrupt-*"))) == 1
    assert read_results(pytester.path)[0]["status"] == "scored"
    # The fresh cache works: the same run again is answered from it.
    before = llm_server.total_calls()
    output = _run(pytester, *_args(llm_server))
    assert llm_server.total_calls() == before and "corrupt" not in output


@pytest.mark.timeout(120)
def test_a_damaged_spend_ledger_is_set_aside(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    write_project(pytester.path, {"explanation/ExplainMini.yaml": EXPLAIN_SCENARIO})
    ledger = pytester.path / "reports" / LEDGER_FILE
    ledger.parent.mkdir()
    _garbage(ledger)
    output = _run(pytester, *_args(llm_server, "--llm-budget-usd=5", "--llm-price=openai/m=1/1"))
    assert any(f"moved to {LEDGER_FILE}.corrupt-" in line for line in output.splitlines())
    assert read_leaderboard(pytester.path)["leaderboard"]["models"]


@pytest.mark.timeout(120)
def test_a_reply_over_the_maximum_is_cut_and_the_cut_recorded(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    write_project(pytester.path, {"explanation/ExplainMini.yaml": EXPLAIN_SCENARIO})
    extra = 12_345
    llm_server.policy.candidate = lambda request: (
        "add(a, b) is the sum. " + "x" * (MAX_REPLY_CHARS + extra)
    )
    _run(pytester, *_args(llm_server))
    attempt = read_results(pytester.path)[0]["attempts"][0]
    call = attempt["calls"][0]
    assert len(attempt["answer"]) == len(call["response"]) == MAX_REPLY_CHARS
    assert call["truncated_chars"] == len("add(a, b) is the sum. ") + extra
    assert (pytester.path / "reports" / "results.jsonl").stat().st_size < 3 * MAX_REPLY_CHARS


@pytest.mark.timeout(120)
def test_a_reply_with_a_lone_surrogate_is_recorded_with_a_replacement_character(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    """Valid JSON (an escaped half of a surrogate pair) that no UTF-8 file can hold."""
    write_project(pytester.path, {"explanation/ExplainMini.yaml": EXPLAIN_SCENARIO})
    llm_server.policy.candidate = lambda request: "add(a, b) is the sum \ud83d of a and b."
    _run(pytester, *_args(llm_server))
    result = read_results(pytester.path)[0]
    assert result["status"] == "scored"
    assert result["attempts"][0]["answer"] == "add(a, b) is the sum \ufffd of a and b."


@pytest.mark.timeout(120)
def test_a_reply_with_no_choices_is_retried(
    pytester: pytest.Pytester, llm_server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(pytester.path, {"explanation/ExplainMini.yaml": EXPLAIN_SCENARIO})
    answer = llm_server.reply
    replies = 0

    def first_empty(body: dict[str, Any], wire: dict[str, Any] | None = None) -> dict[str, Any]:
        nonlocal replies
        replies += 1
        return {**answer(body, wire), "choices": []} if replies == 1 else answer(body, wire)

    monkeypatch.setattr(llm_server, "reply", first_empty)
    _run(pytester, *_args(llm_server, "--llm-cache=off"))
    result = read_results(pytester.path)[0]
    assert result["status"] == "scored"
    assert result["attempts"][0]["calls"][0]["retries"] == 1


def test_a_file_another_worker_already_replaced_is_not_set_aside_again(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    _garbage(path)
    damaged = path.stat().st_ino
    schema = ["CREATE TABLE IF NOT EXISTS t (a TEXT)"]
    first, second = (SqliteStore(path, schema, "SELECT a FROM t LIMIT 1") for _ in range(2))
    with pytest.warns(StoreWarning, match="moved to store.sqlite3.corrupt-"):
        first.run(lambda db: db.execute("INSERT INTO t VALUES ('kept')"))
    # The second worker met the same damaged file before the first replaced it.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        second._recover(sqlite3.DatabaseError("file is not a database"), damaged)
        rows = second.run(lambda db: db.execute("SELECT a FROM t").fetchall())
    assert len(list(tmp_path.glob("store.sqlite3.corrupt-*"))) == 1
    assert rows == []  # the first worker's row is not committed yet
    first.run(lambda db: db.commit())
    # Both now use the same fresh file: the second sees what the first wrote.
    assert second.run(lambda db: db.execute("SELECT a FROM t").fetchall()) == [("kept",)]
