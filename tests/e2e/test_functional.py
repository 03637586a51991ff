"""Hidden acceptance tests in a run: each answer's code runs against the scenario's hidden
tests (node:test + the jsdom harness, in the sandbox); --llm-feedback gives a failing
attempt's test names and messages to the next; --llm-functional=off skips the runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import read_leaderboard, read_results
from tests.functional_project import (
    ENTRY,
    TEST_MESSAGE,
    TEST_NAME,
    answer,
    write_functional_project,
)
from tests.llm_server import FakeLLMServer, text_of

pytestmark = pytest.mark.timeout(300)


def _items(root: Path) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["scenario"], r["model"]): r for r in read_results(root)}


def test_reference_passes_the_hidden_tests_and_echo_fails_them(
    pytester: pytest.Pytester,
) -> None:
    write_functional_project(pytester.path, dialog=True)
    result = pytester.runpytest("--llm-model=llmbench/reference,llmbench/echo", "--llm-attempts=1")
    result.assert_outcomes(passed=4)
    items = _items(pytester.path)
    for scenario, step in (("GreetTested", "A1"), ("GreetInSteps", "T1.A1")):
        reference = items[(scenario, "llmbench/reference")]
        (attempt,) = reference["attempts"]
        functional = attempt["functional"]
        assert functional["tests"] == [
            {"name": TEST_NAME, "passed": True, "message": "", "status": "passed"}
        ]
        assert (functional["rate"], functional["error"], functional["unmatched"]) == (1, None, [])
        assert reference["functional_rate"] == 1.0 and reference["pass_at_1"] is True
        assert reference["pass_after_feedback"] is None  # no --llm-feedback
        by_id = {s["id"]: s for s in attempt["steps"]}
        assert by_id[step]["tests_passed"] is True
        assert all(s["tests_passed"] is None for i, s in by_id.items() if i != step)
        echo = items[(scenario, "llmbench/echo")]
        assert echo["functional_rate"] == 0.0 and echo["pass_at_1"] is False
        assert {s["id"]: s["tests_passed"] for s in echo["attempts"][0]["steps"]}[step] is False
    # echo leaves app.js as it was: greet cannot be imported, and the test says so.
    (echo_test,) = items[("GreetTested", "llmbench/echo")]["attempts"][0]["functional"]["tests"]
    assert "greet" in echo_test["message"] and "does not build" in echo_test["message"]


def test_feedback_names_the_failing_test_and_the_next_attempt_passes(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    write_functional_project(pytester.path)
    # Without the exclamation mark until told what failed.
    llm_server.policy.candidate = lambda body: answer(
        "Hello, ${name}!" if len(body["messages"]) > 2 else "Hello, ${name}"
    )
    result = pytester.runpytest(
        "--llm-model=openai/cand",
        f"--llm-api-base={llm_server.base_url}",
        "--llm-attempts=3",
        "--llm-feedback",
    )
    result.assert_outcomes(passed=1)
    requests = [r for r in llm_server.requests if r["_role"] == "candidate"]
    assert len(requests) == 2  # attempt 2 passed: the chain ends there
    first, second = (r["messages"] for r in requests)
    assert second[: len(first)] == first
    assert second[len(first)] == {"role": "assistant", "content": answer("Hello, ${name}")}
    note = text_of(second[-1]["content"])
    assert second[-1]["role"] == "user"
    assert TEST_NAME in note and TEST_MESSAGE in note and "1 of 1 failed" in note
    assert ENTRY not in str(second) and "openApp" not in str(second)
    (item,) = read_results(pytester.path)
    one, two = item["attempts"]
    assert one["functional"]["feedback"] is False and one["functional"]["rate"] == 0.0
    assert two["functional"]["feedback"] is True and two["functional"]["rate"] == 1.0
    assert (item["pass_at_1"], item["pass_after_feedback"]) == (False, True)
    assert item["functional_rate"] == 0.5
    assert [s["tests_passed"] for s in one["steps"]] == [False, None]


def test_functional_off_runs_no_hidden_test(pytester: pytest.Pytester) -> None:
    write_functional_project(pytester.path)
    pytester.runpytest("--llm-functional=off").assert_outcomes(passed=1)
    (item,) = read_results(pytester.path)
    assert item["attempts"][0]["functional"] is None
    assert (item["functional_rate"], item["pass_at_1"], item["pass_after_feedback"]) == (
        None,
        None,
        None,
    )
    assert item["status"] == "scored" and item["accuracy"] == 4.0
    bad = pytester.runpytest("--llm-functional=off", "--llm-feedback")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    bad.stderr.fnmatch_lines(["*--llm-feedback: needs the hidden tests*--llm-functional=off*"])


def test_a_missing_toolchain_leaves_the_item_judged_and_out_of_the_functional_figures(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    write_functional_project(pytester.path)
    monkeypatch.setenv("LLMBENCH_NODE_MODULES", str(tmp_path))  # no package in it
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
    (item,) = read_results(pytester.path)
    functional = item["attempts"][0]["functional"]
    assert functional["error"].startswith("node's test packages are missing: run scripts/")
    assert functional["tests"] == [] and functional["unavailable"] is True
    # The machine's lack, not the answer's: no figure rather than a 0.
    assert (item["functional_rate"], item["pass_at_1"]) == (None, None)
    assert item["status"] == "scored" and item["accuracy"] == 4.0
    assert "hidden tests not run on 1 attempt(s): node's test packages are missing" in (
        result.stdout.str()
    )
    assert item["attempts"][0]["steps"][0]["tests_passed"] is None


def test_a_judged_run_reports_each_judge_against_the_hidden_tests(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    """Through the local server: a judge that passes every criterion is measured against
    the hidden tests of the functional criterion (A1, `tests: ["greets *"]`)."""
    write_functional_project(pytester.path)
    # Two candidates: `good` greets correctly, `bad` forgets the exclamation mark.
    llm_server.policy.candidate = lambda body: answer(
        "Hello, ${name}!" if body["model"] == "good" else "Hello, ${name}"
    )
    llm_server.policy.verdict = lambda step_id, criterion, text: True  # an over-trusting judge
    result = pytester.runpytest(
        "--llm-model=openai/good,openai/bad",
        "--llm-judge=openai/judge",
        f"--llm-api-base={llm_server.base_url}",
        "--llm-attempts=2",
    )
    result.assert_outcomes(passed=2)
    board = read_leaderboard(pytester.path)["leaderboard"]
    by_verifier = {c["verifier"]: c for c in board["calibration"]}
    judge = by_verifier["openai/judge"]
    # good: 2 attempts, Pass and tests pass; bad: 2 attempts (not perfect: both run), Pass
    # while the test fails.
    assert (judge["n"], judge["both_pass"], judge["pass_tests_fail"]) == (4, 2, 2)
    assert (judge["both_fail"], judge["fail_tests_pass"]) == (0, 0)
    assert judge["agreement"] == 0.5
    # The deterministic check (contains "function greet") says Pass for both, as the judge.
    assert by_verifier["checks"]["pass_tests_fail"] == 2
    rows = {r["model"]: r for r in board["models"]}
    assert rows["openai/good"]["functional_rate"] == 1.0
    assert rows["openai/bad"]["functional_rate"] == 0.0


def test_min_functional_gates_on_the_hidden_tests_and_they_are_never_the_users_tests(
    pytester: pytest.Pytester,
) -> None:
    root = write_functional_project(pytester.path)
    # the benchmark's own Python files, beside the user's own test: data, never collected
    failing = "def test_would_fail():\n    assert False\n"
    (root / "scenarios/generation/functional/GreetTested/Mini/test_hidden.py").write_text(failing)
    (root / "scenarios/generation/test_beside.py").write_text(failing)
    (root / "datasets/javascript/Mini/test_dataset.py").write_text(failing)
    (root / "test_own.py").write_text("def test_own():\n    assert True\n")
    result = pytester.runpytest(
        "--llm-model=llmbench/reference,llmbench/echo",
        "--llm-attempts=1",
        "--llm-min-functional=0.5",
    )
    result.assert_outcomes(passed=2, failed=1)  # the reference, test_own; echo fails
    result.stdout.fnmatch_lines(
        ["*test_scenario?GreetTested-Mini-llmbench/echo?*", "functional rate 0.000 is below "
         "--llm-min-functional 0.5"]
    )  # fmt: skip
    assert "test_would_fail" not in result.stdout.str()
    bad = pytester.runpytest("--llm-min-functional=2")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    bad.stderr.fnmatch_lines(["*--llm-min-functional*"])
