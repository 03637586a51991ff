"""Judged runs against a local OpenAI-compatible server: the real litellm path end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import judged_args as _args
from tests.conftest import model_row, read_leaderboard, read_results
from tests.llm_server import FakeLLMServer


def test_grades_come_from_judge_and_grader_logprobs(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    # The judge fails the steps that mention "template" or "sum": accuracy 1/2 steps pass.
    llm_server.policy.verdict = lambda sid, text, answer: (
        "template" not in text and "sum" not in text
    )
    result = pytester.runpytest(*_args(llm_server))
    result.assert_outcomes(passed=2)
    items = {r["scenario"]: r for r in read_results(project)}
    greeting = items["AddGreeting"]
    (acc_grade,) = greeting["attempts"][0]["accuracy"]["grades"]
    # Grader grade = 1 + round(3 * 1/2) = 3 at p=0.8, 2 and 4 at p=0.1: weighted 3.0.
    assert acc_grade["method"] == "logprobs"
    assert acc_grade["argmax"] == 3
    assert acc_grade["distribution"] == pytest.approx({"1": 0.0, "2": 0.1, "3": 0.8, "4": 0.1})
    assert acc_grade["confident"] is False
    assert greeting["accuracy"] == pytest.approx(3.0)
    assert greeting["completeness"] == pytest.approx(4 * 0.8 + 3 * 0.2)
    assert greeting["attempts"][0]["accuracy"]["source"] == "judges"
    # The deterministic check of A1 sits next to the judge's verdict on the same step.
    step = greeting["attempts"][0]["steps"][0]
    assert step["judges"]["openai/judge"]["passed"] is True
    assert step["check"] is not None and step["check_agrees"] == step["check"]["passed"]
    row = model_row(read_leaderboard(project), "openai/cand")
    assert row["grade_methods"] == {"logprobs": 4}
    assert row["generation_rate"] > 0
    # The answer is console.log('hi') in a js block. Checks vs the judge's verdicts:
    # AddGreeting A1 parses (pass/pass), C1 greet (fail/pass), C2 add (fail/pass);
    # ExplainMini A1 add(a, b) (fail/pass), C1 sum (fail/fail): 2 of 5 agree.
    assert row["check_judge_agreement"] == pytest.approx(2 / 5)
    assert sorted(set(llm_server.roles())) == ["candidate", "evaluator", "grader"]
    grader_requests = [r for r in llm_server.requests if r["_role"] == "grader"]
    assert all(
        r["logprobs"] is True and r["top_logprobs"] == 5 and r["temperature"] == 0
        for r in grader_requests
    )


def test_without_logprobs_the_grader_is_sampled(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.logprobs = False
    pytester.runpytest(
        *_args(llm_server, "--llm-grader-samples=3", "-k", "ExplainMini")
    ).assert_outcomes(passed=1)
    (item,) = read_results(project)
    grade = item["attempts"][0]["accuracy"]["grades"][0]
    assert grade["method"] == "sampling" and grade["samples"] == 3
    assert grade["distribution"]["4"] == 1.0 and grade["confident"] is True
    assert llm_server.roles().count("grader") == 2 * (1 + 3)
    samples = [
        r for r in llm_server.requests if r["_role"] == "grader" and r.get("temperature") == 1
    ]
    assert len(samples) == 2 * 3 and all(r["max_tokens"] == 512 for r in samples)


def test_markdown_evaluator_reports_are_read(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.evaluator_form = "markdown"
    pytester.runpytest(*_args(llm_server, "-k", "AddGreeting")).assert_outcomes(passed=1)
    (item,) = read_results(project)
    assert item["attempts"][0]["reports"][0]["form"] == "markdown"
    assert item["accuracy"] == pytest.approx(3.8)


def test_unreadable_evaluator_reply_is_retried_once_then_unscored(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.evaluator_form = "garbage"
    result = pytester.runpytest(*_args(llm_server, "-k", "ExplainMini"))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*unscored: accuracy: unreadable report*"])
    assert llm_server.roles().count("evaluator") == 2
    (item,) = read_results(project)
    assert item["status"] == "unscored" and item["accuracy"] is None


def test_two_judges_are_kept_apart_and_their_agreement_reported(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    args = _args(llm_server, "--llm-judge=openai/judge2", "-k", "AddGreeting")
    pytester.runpytest(*args).assert_outcomes(passed=1)
    (item,) = read_results(project)
    judges = {g["judge"] for g in item["attempts"][0]["accuracy"]["grades"]}
    assert judges == {"openai/judge", "openai/judge2"}
    assert item["judge_agreement"] == 1.0
    row = model_row(read_leaderboard(project), "openai/cand")
    assert row["judge_exact_agreement"] == 1.0
    # Every grade is the same value: no variation, so Krippendorff's alpha is undefined.
    assert row["judge_alpha"] is None
    # Both judges' reports were graded by the first judge, the default grader.
    graders = {r["model"] for r in llm_server.requests if r["_role"] == "grader"}
    assert graders == {"judge"}


def test_unreachable_server_is_an_error_with_reason_and_the_run_goes_on(
    pytester: pytest.Pytester, project: Path
) -> None:
    result = pytester.runpytest(
        "--llm-model=openai/cand,llmbench/reference",
        "--llm-api-base=http://127.0.0.1:9/v1",
        "--llm-timeout=5",
        "--llm-attempts=1",
    )
    result.assert_outcomes(passed=2, errors=2)
    result.stdout.fnmatch_lines(["*openai/cand (candidate): server: Connection error*"])
    board = read_leaderboard(project)
    assert model_row(board, "openai/cand")["errors"] == 2
    assert model_row(board, "llmbench/reference")["scored"] == 2


def test_judged_run_is_the_same_under_xdist(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    pytester.runpytest(*_args(llm_server, "-n", "2")).assert_outcomes(passed=2)
    row = model_row(read_leaderboard(project), "openai/cand")
    assert row["scored"] == 2 and row["grade_methods"] == {"logprobs": 4}


def test_a_failing_later_attempt_keeps_the_earlier_ones(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.verdict = lambda sid, text, answer: False  # attempt 1 is not perfect
    llm_server.policy.status = lambda role, n: 400 if role == "candidate" and n == 2 else 200
    args = [a for a in _args(llm_server) if a != "--llm-attempts=1"]
    result = pytester.runpytest(*args, "--llm-attempts=2", "-k", "ExplainMini")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*attempt 2: openai/cand (candidate): bad request: scripted failure 400*"]
    )
    (item,) = read_results(project)
    assert item["status"] == "error"
    assert [a["attempt"] for a in item["attempts"]] == [1]
    assert item["attempts"][0]["accuracy"]["value"] == pytest.approx(1.2)


def test_cost_is_recorded_when_litellm_knows_the_model_and_null_otherwise(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    result = pytester.runpytest(
        "--llm-model=openai/gpt-4o-mini,openai/cand",
        f"--llm-api-base={llm_server.base_url}",
        "--llm-attempts=1",
        "-k",
        "ExplainMini",
    )
    result.assert_outcomes(passed=2)
    items = {r["model"]: r for r in read_results(project)}
    known = items["openai/gpt-4o-mini"]["attempts"][0]["calls"][0]
    assert known["role"] == "candidate" and known["cost_usd"] > 0
    assert known["prompt_tokens"] > 0 and known["completion_tokens"] > 0 and known["latency_s"] > 0
    assert known["response"] == items["openai/gpt-4o-mini"]["attempts"][0]["answer"]
    assert items["openai/cand"]["attempts"][0]["calls"][0]["cost_usd"] is None
    assert items["openai/cand"]["candidate_usage"]["cost_usd"] is None
    row = model_row(read_leaderboard(project), "openai/gpt-4o-mini")
    assert row["candidate_cost_usd"] == pytest.approx(known["cost_usd"])
