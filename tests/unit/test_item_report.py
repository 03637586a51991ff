"""What an item's result looks like on pytest's reports: typed on both sides, JSON between."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pytest_llmbench.reporting.item_report import (
    attach,
    attach_calls,
    calls_of,
    has_result,
    result_of,
)
from pytest_llmbench.schema.results import CallRecord, ItemResult, Usage


def _report(props: list[tuple[str, object]]) -> pytest.TestReport:
    location = ("t.py", 0, "x")
    return pytest.TestReport("t.py::x", location, {}, "passed", None, "call", user_properties=props)


def test_a_result_goes_on_the_report_and_comes_back_as_the_same_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-very-secret-value-1234")
    result = ItemResult(
        scenario="S",
        category="c",
        dataset=None,
        model="openai/m",
        status="scored",
        accuracy=4,
        completeness=2,
        reason="the answer quoted sk-very-secret-value-1234",
        candidate_usage=Usage(prompt_tokens=10, completion_tokens=5, cost_usd=0.5),
        judge_usage=Usage(prompt_tokens=1, completion_tokens=1),
    )
    item = SimpleNamespace(user_properties=[("other", 1), ("llmbench", "stale")])
    report = _report([])
    attach(item, result, report)  # type: ignore[arg-type]
    props = dict(report.user_properties)
    assert (props["quality"], props["tokens"], props["cost_usd"], props["dataset"]) == (
        0.75,
        17,
        0.5,
        "",
    )
    assert dict(item.user_properties)["other"] == 1
    assert [k for k, _ in item.user_properties].count("llmbench") == 1  # replaced, not added
    back = result_of(report)
    assert isinstance(back, ItemResult) and has_result(report)
    assert back.model_dump(exclude={"reason"}) == result.model_dump(exclude={"reason"})
    assert back.reason is not None and "sk-very-secret" not in back.reason  # redacted once, here


def test_reports_of_other_tests_carry_nothing_and_calls_round_trip() -> None:
    plain = _report([])
    assert (result_of(plain), has_result(plain), calls_of(plain)) == (None, False, [])
    item = SimpleNamespace(user_properties=[])
    calls = [CallRecord(role="candidate", model="m", prompt_tokens=3, latency_s=1.0)]
    attach_calls(item, calls)  # type: ignore[arg-type]
    attach_calls(item, [*calls, CallRecord(role="evaluator", model="j", latency_s=0.0)])  # type: ignore[arg-type]
    back = calls_of(_report(item.user_properties))
    assert [(c.role, c.model, c.prompt_tokens) for c in back] == [
        ("candidate", "m", 3),
        ("evaluator", "j", None),
    ]
