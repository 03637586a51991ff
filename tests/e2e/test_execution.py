"""Concurrency, retries, the request cache, resume and the budget, end to end through
pytester against the local server (tests/llm_server.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.execution import retry
from pytest_llmbench.execution.retry import backoff_delay
from tests.conftest import EXPLAIN_SCENARIO, read_leaderboard, read_results, write_project
from tests.llm_server import FakeLLMServer

MODEL = "openai/m"


def _project(root: Path, items: int) -> Path:
    return write_project(
        root,
        {
            f"explanation/Explain{i}.yaml": EXPLAIN_SCENARIO.replace(
                "id: ExplainMini", f"id: Explain{i}"
            ).replace("Explain this code.", f"Explain this code (variant {i}).")
            for i in range(items)
        },
    )


def _args(server: FakeLLMServer, *extra: str) -> list[str]:
    return [
        f"--llm-model={MODEL}",
        f"--llm-judge={MODEL}",
        f"--llm-api-base={server.base_url}",
        "--llm-attempts=1",
        "--llm-retry-backoff=0.01",
        *extra,
    ]


def _candidate_prompts(server: FakeLLMServer) -> list[str]:
    return [r["messages"][-1]["content"] for r in server.requests if r["_role"] == "candidate"]


@pytest.mark.parametrize(
    "xdist", [[], ["-n", "2"], ["-n", "2", "--dist=load"]], ids=["no-xdist", "n2", "n2-load"]
)
def test_calls_of_many_items_overlap_within_the_limit_and_none_is_made_twice(
    pytester: pytest.Pytester, llm_server: FakeLLMServer, xdist: list[str]
) -> None:
    _project(pytester.path, 8)
    llm_server.policy.latency = 0.2
    extra = xdist
    result = pytester.runpytest(
        *_args(llm_server, "--llm-concurrency=4", "--llm-cache=off"), *extra
    )
    result.assert_outcomes(passed=8)
    peak = llm_server.peak_in_flight["m"]  # litellm sends the name without "openai/"
    # Several calls were in flight at once, never more than the limit. (With an explicit
    # --dist each worker runs one item at a time: only its two grader calls overlap.)
    assert 2 <= peak <= 4
    # Each item's candidate, evaluator and two grader calls reached the server exactly once.
    prompts = _candidate_prompts(llm_server)
    assert len(prompts) == 8 and len(set(prompts)) == 8
    assert Counter(llm_server.roles()) == {"candidate": 8, "evaluator": 8, "grader": 16}


def test_under_xdist_each_model_reaches_its_whole_limit_whatever_worker_has_its_items(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    """Items alternate between two models, so with -n 2 every item of model a lands on
    gw0 and every item of model b on gw1: each must still reach 4 calls in flight."""
    _project(pytester.path, 6)
    llm_server.policy.latency = 0.3
    llm_server.policy.hold_until = 4  # reached whatever the machine's load, if sent
    args = _args(llm_server, "--llm-concurrency=4", "--llm-cache=off")
    args[0] = "--llm-model=openai/a,openai/b"
    result = pytester.runpytest(*args, "-n", "2")
    result.assert_outcomes(passed=12)
    # Each item makes two grader calls at once: 6 items of one model reach the limit.
    assert llm_server.peak_in_flight["a"] == 4
    assert llm_server.peak_in_flight["b"] == 4
    assert llm_server.peak_in_flight["m"] <= 4  # the judge: one limit over both workers


def test_failed_calls_are_retried_honouring_retry_after(
    pytester: pytest.Pytester, llm_server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(pytester.path, 1)
    llm_server.policy.retry_after = "0.3"
    llm_server.policy.status = lambda role, n: (
        {1: 429, 2: 500}.get(n, 200) if role == "candidate" else 200
    )
    waits: list[float] = []  # what each retry waits (the run is in this process)

    def spy(*args: Any) -> float:
        waits.append(backoff_delay(*args))
        return waits[-1]

    monkeypatch.setattr(retry, "backoff_delay", spy)
    result = pytester.runpytest(*_args(llm_server))
    result.assert_outcomes(passed=1)
    assert llm_server.calls["candidate"] == 3
    (item,) = read_results(pytester.path)
    (candidate,) = [c for c in item["attempts"][0]["calls"] if c["role"] == "candidate"]
    assert candidate["retries"] == 2 and candidate["cached"] is False
    assert len(waits) == 2 and waits[0] == 0.3  # the 429's Retry-After, not the 0.01 s backoff
    assert waits[1] <= 0.02  # the 500 had none: the backoff (0.01 s x 2, jittered)
    result.stdout.fnmatch_lines(["*llmbench usage*", f"{MODEL} * 4 * 0 * 2 *"])


def test_an_item_whose_calls_keep_failing_is_an_error_and_the_others_go_on(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    _project(pytester.path, 3)
    llm_server.policy.status_of_request = lambda body: (
        503 if "variant 1)" in body["messages"][-1]["content"] else None
    )
    result = pytester.runpytest(*_args(llm_server, "--llm-max-retries=2"))
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["attempt 1: openai/m (candidate)*503 (gave up after 2 retries)"])
    statuses = {r["scenario"]: r["status"] for r in read_results(pytester.path)}
    assert statuses == {"Explain0": "scored", "Explain1": "error", "Explain2": "scored"}


def test_cache_modes(pytester: pytest.Pytester, llm_server: FakeLLMServer) -> None:
    _project(pytester.path, 2)

    def run(*extra: str) -> tuple[pytest.RunResult, int]:
        before = llm_server.total_calls()
        result = pytester.runpytest(*_args(llm_server, *extra))
        return result, llm_server.total_calls() - before

    # A replay with nothing recorded makes no call and reports each miss as an error.
    result, calls = run("--llm-cache=replay")
    assert calls == 0
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*no cached reply*--llm-cache=replay*"])
    # Identical requests are answered once (the two items' grader requests are the same).
    distinct = (6,)
    result, calls = run()  # on: records
    result.assert_outcomes(passed=2)
    assert calls in distinct
    # Every call record says whether its reply came from the cache.
    assert sum(c["cached"] for c in _calls(pytester.path)) == 8 - calls
    first = read_leaderboard(pytester.path)["leaderboard"]["models"][0]
    for mode in ("on", "replay"):
        result, calls = run(f"--llm-cache={mode}")
        result.assert_outcomes(passed=2)
        assert calls == 0
        assert all(c["cached"] for c in _calls(pytester.path))
        again = read_leaderboard(pytester.path)["leaderboard"]["models"][0]
        assert again["accuracy"] == first["accuracy"]
    for mode, expected in (("refresh", distinct), ("off", (8,))):
        result, calls = run(f"--llm-cache={mode}")
        result.assert_outcomes(passed=2)
        assert calls in expected
        assert sum(c["cached"] for c in _calls(pytester.path)) == 8 - calls
    # No key or authorization header is stored: requests only carry model and messages.
    blob = (pytester.path / ".llmbench_cache" / "requests.sqlite3").read_bytes()
    assert b"llmbench-no-key" not in blob and b"Bearer" not in blob


def test_the_cache_never_stores_the_api_key(
    pytester: pytest.Pytester, llm_server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(pytester.path, 1)
    secret = "sk-llmbench-test-4f1c9e0b7d"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    pytester.runpytest(*_args(llm_server)).assert_outcomes(passed=1)
    assert f"Bearer {secret}" in llm_server.authorizations  # the key did go out ...
    stored = b"".join(  # ... but no file of the cache (database, WAL, ...) holds it
        p.read_bytes() for p in (pytester.path / ".llmbench_cache").rglob("*") if p.is_file()
    )
    assert b"server verdict on answer" in stored  # the files read hold the replies
    assert secret.encode() not in stored and b"Bearer" not in stored


def _calls(root: Path) -> list[dict[str, Any]]:
    return [c for r in read_results(root) for a in r["attempts"] for c in a["calls"]]


def test_resume_after_a_killed_run_loses_nothing_and_calls_nothing_twice(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    _project(pytester.path, 6)
    llm_server.policy.latency = 0.15
    # Cache off: only --llm-resume may keep finished items from being called again.
    args = _args(llm_server, "--llm-concurrency=1", "--llm-cache=off")
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
    proc = subprocess.Popen(command, cwd=pytester.path, env=env, stdout=subprocess.DEVNULL)
    results = pytester.path / "reports" / "results.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if results.exists() and len(results.read_text().splitlines()) >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    finished = {r["nodeid"]: r for r in read_results(pytester.path)}
    assert 2 <= len(finished) < 6, "the run was not killed half-way"
    done_prompts = {
        f"Explain this code (variant {r['scenario'].removeprefix('Explain')})."
        for r in finished.values()
    }
    before = len(_candidate_prompts(llm_server))
    result = pytester.runpytest(*args, "--llm-resume")
    result.assert_outcomes(passed=6 - len(finished), skipped=len(finished))
    asked = [p.splitlines()[0] for p in _candidate_prompts(llm_server)[before:]]
    assert len(asked) == 6 - len(finished)  # the unfinished ones, once each
    assert not set(asked) & done_prompts
    after = {r["nodeid"]: r for r in read_results(pytester.path)}
    assert len(after) == 6
    assert all(after[n] == r for n, r in finished.items())  # stored results kept as they were
    row = read_leaderboard(pytester.path)["leaderboard"]["models"][0]
    assert row["items"] == 6 and row["scored"] == 6


@pytest.mark.parametrize("workers", [0, 2])
def test_resume_reruns_errored_items(
    pytester: pytest.Pytester, llm_server: FakeLLMServer, workers: int
) -> None:
    _project(pytester.path, 3)
    xdist = ["-n", str(workers)] if workers else []
    llm_server.policy.status_of_request = lambda body: (
        500 if "variant 0)" in body["messages"][-1]["content"] else None
    )
    args = _args(llm_server, "--llm-max-retries=0", "--llm-cache=off")
    pytester.runpytest(*args, *xdist).assert_outcomes(passed=2, errors=1)
    llm_server.policy.status_of_request = lambda body: None
    before = len(_candidate_prompts(llm_server))
    result = pytester.runpytest(*args, "--llm-resume", *xdist)
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines(["*2 skipped*"])
    # The usage table counts this run's calls (one item: 4); the earlier 8 are apart.
    result.stdout.fnmatch_lines(
        [f"{MODEL} * 4 * 0 * 0 *", "earlier runs (--llm-resume): 8 calls*not counted above"]
    )
    # Only the errored item was asked again.
    assert [p.splitlines()[0] for p in _candidate_prompts(llm_server)[before:]] == [
        "Explain this code (variant 0)."
    ]
    assert sorted(r["status"] for r in read_results(pytester.path)) == ["scored"] * 3


@pytest.mark.parametrize("workers", [0, 2])
def test_budget_stops_new_calls_and_skips_the_remaining_items(
    pytester: pytest.Pytester, llm_server: FakeLLMServer, workers: int
) -> None:
    _project(pytester.path, 6)
    # The run's low estimate (about 3,900 tokens over its 6 items) is within the budget, so
    # it starts; but the candidate writes 8,000 words (tokens, to this server), so the
    # first call alone costs more than the whole budget. (Its stream repeats one chunk
    # 8,000 times: a looping model's answer is kept, not refused as litellm would.)
    llm_server.policy.candidate = lambda body: " ".join(["word"] * 8000)
    price = f"--llm-price={MODEL}=160/160"
    xdist = ["-n", str(workers)] if workers else []
    # Under -n 2 each worker gets max(1, 2 // 2) = 1 call in flight.
    concurrency = f"--llm-concurrency={max(1, workers)}"
    result = pytester.runpytest(
        *_args(llm_server, concurrency, "--llm-budget-usd=1", price), *xdist
    )
    items = read_results(pytester.path)
    skipped = [r for r in items if r["status"] == "skipped"]
    assert len(skipped) == 6  # the first call spends it all: its item cannot finish either
    assert all("budget of 1 USD spent" in r["reason"] for r in skipped)
    # One call in flight per worker when the budget is spent, and none after it.
    assert 1 <= llm_server.total_calls() <= max(1, workers)
    result.assert_outcomes(skipped=6)
    assert json.loads((pytester.path / "reports" / "results.jsonl").read_text().splitlines()[0])


def test_budget_counts_judge_cost_apart_and_lets_items_finish_within_it(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    _project(pytester.path, 2)
    # A model litellm does not know, priced in the configuration (the ini twin).
    pytester.makeini(f"[pytest]\nllm_price = {MODEL}=1/2\n")
    result = pytester.runpytest(*_args(llm_server, "--llm-budget-usd=100"))
    result.assert_outcomes(passed=2)
    for item in read_results(pytester.path):
        (candidate,) = [c for c in item["attempts"][0]["calls"] if c["role"] == "candidate"]
        expected = (candidate["prompt_tokens"] * 1 + candidate["completion_tokens"] * 2) / 1e6
        assert item["candidate_usage"]["cost_usd"] == pytest.approx(expected)
        assert item["judge_usage"]["cost_usd"] > 0


def test_a_model_hook_that_raises_errors_its_items_only(pytester: pytest.Pytester) -> None:
    write_project(pytester.path)
    pytester.makeconftest(
        """
        def pytest_llmbench_make_model(name, settings):
            if name == "openai/broken":
                raise RuntimeError("no such deployment")
        """
    )
    result = pytester.runpytest("--llm-model=llmbench/reference,openai/broken")
    result.assert_outcomes(passed=2, errors=2)
    assert "INTERNALERROR" not in result.stdout.str()
    result.stdout.fnmatch_lines(["*RuntimeError: no such deployment*"])


def test_collect_only_with_a_real_model_does_not_import_litellm(
    pytester: pytest.Pytester,
) -> None:
    _project(pytester.path, 2)
    pytester.makeconftest(
        "import sys\n"
        "def pytest_collection_finish(session):\n"
        "    print('litellm imported:', 'litellm' in sys.modules)\n"
    )
    result = pytester.runpytest_subprocess(
        "--collect-only", f"--llm-model={MODEL}", f"--llm-judge={MODEL}", "-p", "no:cacheprovider"
    )
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*litellm imported: False*", "*2 tests collected*"])
