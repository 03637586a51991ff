"""-x / --maxfail: waiting calls are served in pytest's item order, so the first failure
is known early and a stopped run pays for little beyond it (execution/limiter.py)."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import REPO
from tests.llm_server import FakeLLMServer


def test_a_stopped_run_makes_at_most_a_quarter_of_the_full_run_s_calls(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    for folder in ("scenarios", "datasets"):
        shutil.copytree(REPO / folder, pytester.path / folder)
    llm_server.policy.latency = 0.3
    llm_server.policy.verdict = lambda step_id, criterion, answer: False  # every step fails
    args = [
        "scenarios",
        "-m",
        "explanation or documentation",
        "--llm-model=openai/cand",
        "--llm-judge=openai/judge",
        f"--llm-api-base={llm_server.base_url}",
        "--llm-concurrency=2",
        "--llm-min-score=0.9",
        "--llm-cache=off",
        "-p",
        "no:randomly",
    ]
    full = pytester.runpytest(*args)
    items = full.parseoutcomes()["failed"]
    assert items >= 4
    full_calls = llm_server.total_calls()
    stopped = pytester.runpytest(*args, "-x")
    stopped.assert_outcomes(failed=1)
    stopped_calls = llm_server.total_calls() - full_calls
    print(f"calls: full run {full_calls} ({items} items), -x run {stopped_calls}")
    assert stopped_calls * 4 <= full_calls, (full_calls, stopped_calls)
