"""Real models behind local servers (issue 19): the local test server plays how small
models misbehave, and each test shows what pytest-llmbench does about it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import judged_args as _args
from tests.conftest import read_results
from tests.llm_server import FakeLLMServer, text_of


def _requests(server: FakeLLMServer, role: str) -> list[dict]:
    return [r for r in server.requests if r["_role"] == role]


def test_a_rambling_judge_is_bounded_cut_recorded_and_repaired_briefly(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.real.ramble_words = 20_000
    result = pytester.runpytest(*_args(llm_server, "--llm-judge-max-tokens=300", "-k", "Explain"))
    result.assert_outcomes(failed=1)
    (item,) = read_results(project)
    # The candidate's answer stays; its metrics are unscored with the reason.
    assert item["status"] == "unscored"
    (attempt,) = item["attempts"]
    assert attempt["answer"].startswith("```js")
    assert "cut at the 300-token limit" in attempt["accuracy"]["unscored_reason"]
    evaluator_calls = [c for c in attempt["calls"] if c["role"] == "evaluator"]
    assert [c["finish_reason"] for c in evaluator_calls] == ["length", "length"]
    sent = _requests(llm_server, "evaluator")
    assert [r["max_tokens"] for r in sent] == [300, 300]
    # The repair request shows an excerpt of the 300-word reply, not the reply itself.
    repair = text_of(sent[1]["messages"][-1]["content"])
    assert "characters left out" in repair and repair.count("hmm,") < 200


def test_a_judge_call_that_fails_keeps_the_answer_unscored(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    # The repair request overflows the window (as in the issue): the attempt stays.
    llm_server.policy.evaluator_form = "garbage"
    llm_server.policy.status = lambda role, n: 400 if role == "evaluator" and n == 2 else 200
    result = pytester.runpytest(*_args(llm_server, "-k", "Explain"))
    result.assert_outcomes(failed=1)
    (item,) = read_results(project)
    assert item["status"] == "unscored" and len(item["attempts"]) == 1
    reason = item["attempts"][0]["accuracy"]["unscored_reason"]
    assert "unreadable report" in reason and "the repair call: " in reason
    assert item["attempts"][0]["answer"]


def test_an_unreadable_judge_reply_is_not_replayed_from_the_cache(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.evaluator_form = "garbage"
    pytester.runpytest(*_args(llm_server, "-k", "Explain")).assert_outcomes(failed=1)
    first = llm_server.roles().count("evaluator")
    llm_server.policy.evaluator_form = "json"
    pytester.runpytest(*_args(llm_server, "-k", "Explain")).assert_outcomes(passed=1)
    assert llm_server.roles().count("candidate") == 1  # the candidate's reply was replayed
    assert llm_server.roles().count("evaluator") == first + 1  # the judge was asked again
    (item,) = read_results(project)
    assert item["status"] == "scored"


def test_a_grader_whose_first_tokens_are_words_is_sampled_and_says_why(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.real.grader_words_first = True
    pytester.runpytest(
        *_args(llm_server, "--llm-grader-samples=2", "-k", "Explain")
    ).assert_outcomes(passed=1)
    (item,) = read_results(project)
    grade = item["attempts"][0]["accuracy"]["grades"][0]
    assert grade["method"] == "sampling" and grade["distribution"]["3"] == 1.0
    assert "below 50%" in grade["sampled_because"]
    assert grade["top_logprobs"][3] == ["1", -3.2]
    samples = [r for r in _requests(llm_server, "grader") if r.get("temperature") == 1]
    assert len(samples) == 2 * 2 and all(r["max_tokens"] == 512 for r in samples)
    first = [r for r in _requests(llm_server, "grader") if r.get("logprobs")]
    assert first and all(r["max_tokens"] == 16 for r in first)
