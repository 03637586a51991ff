"""What running the answers' code found, in the leaderboard: per row the functional rate
and pass figures, and per judge how its verdicts on functional criteria match the tests.

Row figures are over the row's *functional items*: items with a functional rate (the
scenario has hidden tests for the dataset and an attempt ran), in any status, since the
tests ran whether or not the judges could score the answer.

- `functional_rate`: mean of the items' `functional_rate` (each the mean over its
  attempts of hidden tests passed / tests, or mutants killed / mutants), with its 95%
  bootstrap interval; `functional_items` counts the items.
- `functional_pass_at_1`: share of those items whose first attempt passed every hidden
  test (`ItemResult.pass_at_1`).
- `functional_pass_after_feedback`: share of the items run with --llm-feedback
  (`pass_after_feedback` set) where some attempt passed every hidden test, the later
  attempts having been told what failed; null when no item of the row had feedback.
- `tampered`: items of the row (in any status) with an attempt whose run was marked
  tampered (the answer attacked the verdict); the terminal names them (`tampered_line`).

A row without functional items has null figures and `functional_items` 0, never 0 rates.

Calibration: a *functional criterion* names hidden tests (`tests:` patterns); its step's
`tests_passed` is the execution verdict (every named test passed). For each judge, over
every attempt's steps that have both its verdict and a test verdict: `agreement` is the
share where the judge's Pass/Fail equals the tests', `kappa` Cohen's kappa of the two,
and the four counts of the confusion table (`pass_tests_fail`: the judge trusted an
answer whose tests fail). The deterministic checks of such steps get the same figures
under the name `checks`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from statistics import fmean
from typing import Any

from ..judging import statistics as st
from ..schema.leaderboard import Calibration
from ..schema.results import ItemResult, StepResult

CHECKS = "checks"


def _share(values: Sequence[bool]) -> float | None:
    return sum(values) / len(values) if values else None


def row_figures(items: Sequence[ItemResult]) -> dict[str, Any]:
    """The Row fields `functional_*` of these items."""
    tested = [i for i in items if i.functional_rate is not None]
    rates = [i.functional_rate for i in tested if i.functional_rate is not None]
    interval = st.bootstrap_ci(rates)
    return {
        "functional_items": len(tested),
        "functional_rate": fmean(rates) if rates else None,
        "functional_rate_ci": list(interval) if interval else None,
        "functional_pass_at_1": _share([i.pass_at_1 for i in tested if i.pass_at_1 is not None]),
        "functional_pass_after_feedback": _share(
            [i.pass_after_feedback for i in tested if i.pass_after_feedback is not None]
        ),
        "tampered": sum(i.tampered for i in items),
    }


def tested_steps(items: Iterable[ItemResult]) -> Iterable[StepResult]:
    """Every attempt's steps that have a test verdict."""
    for item in items:
        for attempt in item.attempts:
            yield from (s for s in attempt.steps if s.tests_passed is not None)


def _figures(verifier: str, kind: str, pairs: list[tuple[bool, bool]]) -> Calibration:
    """`pairs`: (the verifier's Pass, the tests passed) per step."""
    counts = {(v, t): sum(p == (v, t) for p in pairs) for v in (True, False) for t in (True, False)}
    return Calibration.model_validate(
        {
            "verifier": verifier,
            "kind": kind,
            "n": len(pairs),
            "agreement": _share([v == t for v, t in pairs]),
            "kappa": st.cohen_kappa(pairs),
            "both_pass": counts[(True, True)],
            "both_fail": counts[(False, False)],
            "pass_tests_fail": counts[(True, False)],
            "fail_tests_pass": counts[(False, True)],
        }
    )


def calibration(items: Iterable[ItemResult]) -> list[Calibration]:
    """Each judge (by name), then the checks, against the hidden tests."""
    judges: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
    checks: list[tuple[bool, bool]] = []
    for step in tested_steps(items):
        tests = bool(step.tests_passed)
        for judge, verdict in step.judges.items():
            judges[judge].append((verdict.passed, tests))
        if step.check is not None:
            checks.append((step.check.passed, tests))
    rows = [_figures(judge, "judge", pairs) for judge, pairs in sorted(judges.items())]
    return rows + ([_figures(CHECKS, "check", checks)] if checks else [])


def tampered_line(items: Iterable[ItemResult]) -> str | None:
    """The terminal's line naming the items tampered with, by model; None when none was."""
    by_model: dict[str, list[str]] = defaultdict(list)
    for item in items:
        if item.tampered:
            by_model[item.model].append(f"{item.scenario}[{item.dataset or '-'}]")
    if not by_model:
        return None
    count = sum(map(len, by_model.values()))
    named = "; ".join(f"{model}: {', '.join(names)}" for model, names in sorted(by_model.items()))
    return (
        f"llmbench: {count} item{'s' if count > 1 else ''} tampered with their verdict "
        f"(functional figure 0; evidence in results.jsonl and report.html): {named}"
    )


def unavailable_lines(items: Iterable[ItemResult]) -> list[str]:
    """One terminal line per reason hidden tests did not run for want of a toolchain."""
    reasons: dict[str, int] = defaultdict(int)
    for item in items:
        for attempt in item.attempts:
            if attempt.functional is not None and attempt.functional.unavailable:
                reasons[attempt.functional.error or "the runner is missing"] += 1
    return [
        f"llmbench: hidden tests not run on {count} attempt(s): {why}"
        for why, count in sorted(reasons.items())
    ]
