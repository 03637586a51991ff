"""A metric without judges: from the steps' checks and, for functional criteria without a
check, whether every hidden test they name passed."""

from __future__ import annotations

from pytest_llmbench.judging.scoring import metric_result
from pytest_llmbench.schema.results import StepResult, Verdict


def _step(id: str, weight: float = 1.0, check: bool | None = None) -> StepResult:
    verdict = None if check is None else Verdict(passed=check)
    return StepResult(id=id, metric="accuracy", criterion=id, weight=weight, check=verdict)


def test_the_hidden_tests_score_a_functional_criterion_without_a_check() -> None:
    steps = [_step("A1", check=True), _step("A2", weight=3.0)]
    scored = metric_result("accuracy", steps, [], {"A2": False})
    assert (scored.value, scored.source, scored.pass_rate) == (1 + 3 * 0.25, "checks", 0.25)
    assert scored.check_pass_rate == 1.0  # the checks' own rate leaves the tests out
    assert metric_result("accuracy", steps, [], {"A2": True}).value == 4.0


def test_a_check_keeps_its_verdict_over_the_tests() -> None:
    steps = [_step("A1", check=False)]
    assert metric_result("accuracy", steps, [], {"A1": True}).value == 1.0


def test_without_a_check_or_tests_the_metric_is_unscored() -> None:
    scored = metric_result("accuracy", [_step("A1")], [])
    assert scored.value is None
    assert scored.unscored_reason == (
        "no judge given and no accuracy step has a check or hidden tests"
    )
