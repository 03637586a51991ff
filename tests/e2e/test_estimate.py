"""Cost before the run (issue 28, point 1): --llm-estimate prints calls, tokens and cost
per model and role and calls nothing; --llm-budget-usd refuses a run whose low estimate
is over it; after one run the estimate reads that run's own figures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import read_results
from tests.llm_server import FakeLLMServer

PRICED = "openai/gpt-4o-mini"  # in litellm's price table; served by the local server
EXPLAINED = "The module exports add(a, b), which returns the sum of its two arguments."
GREETED = (
    "### src/app.js\n```javascript\nexport function add(a, b) {\n  return a + b;\n}\n\n"
    "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n```\n"
)


def _args(server: FakeLLMServer, *extra: str) -> list[str]:
    return [
        f"--llm-model={PRICED}",
        f"--llm-judge={PRICED}",
        f"--llm-api-base={server.base_url}",
        "--llm-attempts=1",
        "--llm-cache=off",
        *extra,
    ]


def _expected_total(result: pytest.RunResult) -> float:
    line = next(x for x in result.outlines if x.startswith("total cost USD: "))
    low, expected, high = (float(v) for v in re.findall(r"\d+\.\d+", line))
    assert low <= expected <= high
    return expected


def _paid(project: Path) -> float:
    calls = [c for i in read_results(project) for a in i["attempts"] for c in a["calls"]]
    assert calls and all(c["cost_usd"] is not None for c in calls)
    return float(sum(c["cost_usd"] for c in calls))


def test_the_estimate_is_printed_and_no_model_is_called(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    result = pytester.runpytest(*_args(llm_server, "--llm-estimate", "-n", "2"))
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [
            "estimate for 2 item(s): low / expected / high",
            f"{PRICED} *candidate *2/2/2 *",
            f"{PRICED} *evaluator *2/2/4 *",
            f"{PRICED} *grader *4/4/24 *",
            "total cost USD: *",
            "output tokens from: 2 item(s) reference answers",
            "*no model was called*",
        ]
    )
    assert llm_server.total_calls() == 0


@pytest.mark.parametrize("workers", [0, 2])
def test_a_run_whose_low_estimate_is_over_the_budget_does_not_start(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer, workers: int
) -> None:
    xdist = ["-n", str(workers)] if workers else []
    result = pytester.runpytest(*_args(llm_server, "--llm-budget-usd=0.0000001"), *xdist)
    # xdist's workers stop the run with the line: it ends as interrupted.
    assert result.ret == (pytest.ExitCode.INTERRUPTED if workers else pytest.ExitCode.USAGE_ERROR)
    result.stdout.fnmatch_lines(
        [
            "*llmbench: not started: the low estimate of this run is * USD, over --llm-budget-usd 1e-07*"
        ]
    )
    assert llm_server.total_calls() == 0


def test_after_one_run_the_estimate_is_that_runs_cost(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    # The candidate writes an answer the size of the scenario's reference.
    llm_server.policy.candidate = lambda body: (
        EXPLAINED if "Explain this code" in str(body["messages"]) else GREETED
    )
    fresh = _expected_total(pytester.runpytest(*_args(llm_server, "--llm-estimate")))
    pytester.runpytest(*_args(llm_server))
    first = _paid(project)
    estimate = pytester.runpytest(*_args(llm_server, "--llm-estimate"))
    estimate.stdout.fnmatch_lines(["output tokens from: 2 item(s) an earlier run"])
    informed = _expected_total(estimate)
    pytester.runpytest(*_args(llm_server))
    second = _paid(project)
    print(
        f"no history: {fresh:.6f} USD; after one run: {informed:.6f}; runs paid {first:.6f}, {second:.6f}"
    )
    assert informed == pytest.approx(second, rel=0.10)
    assert first / 2 <= fresh <= first * 2


def test_items_the_request_cache_will_answer_cost_nothing(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    cached = [a for a in _args(llm_server) if a != "--llm-cache=off"]
    pytester.runpytest(*cached)
    estimate = pytester.runpytest(*cached, "--llm-estimate")
    estimate.stdout.fnmatch_lines(["output tokens from: 2 item(s) the request cache (no cost)"])
    assert _expected_total(estimate) == 0.0
    calls = llm_server.total_calls()
    pytester.runpytest(*cached)
    assert llm_server.total_calls() == calls  # and so it was: nothing was paid
    # Without the cache, the earlier run's own figures.
    uncached = pytester.runpytest(*cached, "--llm-cache=off", "--llm-estimate")
    uncached.stdout.fnmatch_lines(["output tokens from: 2 item(s) an earlier run"])
    assert _expected_total(uncached) > 0
