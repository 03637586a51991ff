"""Steps, metrics and quality of an answer from its check and judge verdicts.

Shared by single-shot items (pipeline.py) and the turns of a dialog (dialog.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from statistics import mean

from ..formats.criteria import Check, CriterionStep
from ..schema.results import CallRecord, MetricResult, StepResult, Verdict
from ..schema.vocabulary import Metric, RateBasis
from .formulas import quality
from .judge import JudgeOutcome


def weighted_rate(pairs: list[tuple[float, bool]]) -> float | None:
    total = sum(w for w, _ in pairs)
    return sum(w for w, ok in pairs if ok) / total if total else None


def majority(verdicts: dict[str, Verdict]) -> bool | None:
    if not verdicts:
        return None
    return sum(v.passed for v in verdicts.values()) * 2 >= len(verdicts)


def step_results(
    steps: Sequence[CriterionStep],
    check_step: Callable[[Check], Verdict | None],
    outcomes: list[JudgeOutcome],
) -> list[StepResult]:
    """Every step with its check's verdict (`check_step` runs a check on the answer) and
    each judge's verdict."""
    results = []
    for step in steps:
        check = check_step(step.check) if step.check is not None else None
        judges = {o.judge: o.verdicts[step.id] for o in outcomes if step.id in o.verdicts}
        most = majority(judges)
        agrees = None if check is None or most is None else check.passed == most
        results.append(
            StepResult(
                id=step.id,
                metric=step.metric,
                criterion=step.text,
                weight=step.weight,
                check=check,
                judges=judges,
                check_agrees=agrees,
            )
        )
    return results


def metric_result(
    metric: Metric,
    steps: list[StepResult],
    outcomes: list[JudgeOutcome],
    executed: Mapping[str, bool] | None = None,
) -> MetricResult:
    """The metric from the judges' grades, or without judges from the steps' checks and,
    for a functional criterion without a check, `executed`: step id -> whether every
    hidden test it names passed (a run that was tampered with or did not finish passes
    none)."""
    own = [s for s in steps if s.metric == metric]
    if not own:  # a scenario imported with criteria_missing: true
        return MetricResult(unscored_reason=f"no criteria: the scenario has no {metric} steps yet")
    check_rate = weighted_rate([(s.weight, s.check.passed) for s in own if s.check is not None])
    judged = [(s.weight, bool(majority(s.judges))) for s in own if s.judges]
    pass_rate = weighted_rate(judged) if judged else check_rate
    grades = [o.grades[metric] for o in outcomes if metric in o.grades]
    if outcomes:
        usable = [g.weighted for g in grades if g.weighted is not None]
        if usable:
            return MetricResult(
                value=mean(usable),
                source="judges",
                pass_rate=pass_rate,
                check_pass_rate=check_rate,
                grades=grades,
            )
        reasons = [g.error for g in grades if g.error] + [
            o.report.error for o in outcomes if o.report.error
        ]
        return MetricResult(
            pass_rate=pass_rate,
            check_pass_rate=check_rate,
            grades=grades,
            unscored_reason="; ".join(r for r in reasons if r) or "no grade from any judge",
        )
    executed = executed or {}
    verdicts = [
        (s.weight, s.check.passed if s.check is not None else executed[s.id])
        for s in own
        if s.check is not None or s.id in executed
    ]
    rate = weighted_rate(verdicts)
    if rate is None:
        return MetricResult(
            unscored_reason=f"no judge given and no {metric} step has a check or hidden tests"
        )
    return MetricResult(
        value=1 + 3 * rate, source="checks", pass_rate=rate, check_pass_rate=check_rate
    )


def unseen(degraded: str | None) -> MetricResult | None:
    """The metric of an answer whose model did not see the task as sent: unscored, with
    why (None when it did see it)."""
    return MetricResult(unscored_reason=degraded) if degraded else None


def attempt_quality(acc: MetricResult, compl: MetricResult) -> float | None:
    if acc.value is None or compl.value is None:
        return None
    return quality(acc.value, compl.value)


def generation_rate(calls: Sequence[CallRecord]) -> tuple[float | None, RateBasis | None]:
    """Completion tokens per second of these candidate calls, and what the seconds are:
    the server's generation time when every call gives it ("generation"); else, when
    every call streamed, the time from its first token to its last, over the tokens after
    the first ("stream": queueing and prompt reading left out); else the calls' whole
    latency ("call"). Offline models give no token counts, so no rate; llmbench/replay
    gives the published run's. A call that waited in a provider batch (--llm-batch)
    measures the batch's wait, not generation: no rate."""
    if any(c.batch_id for c in calls):
        return None, None
    timed = [c.generation_s for c in calls]
    if calls and all(t is not None and t > 0 for t in timed):
        tokens = sum(c.completion_tokens or 0 for c in calls)
        seconds, basis = sum(t or 0.0 for t in timed), "generation"
    elif calls and all(_streamed(c) for c in calls):
        tokens = sum((c.completion_tokens or 1) - 1 for c in calls)
        spans = ((c.last_token_s or 0.0) - (c.first_token_s or 0.0) for c in calls)
        seconds, basis = sum(spans), "stream"
    else:
        tokens = sum(c.completion_tokens or 0 for c in calls)
        seconds, basis = sum(c.latency_s for c in calls), "call"
    if not tokens or seconds <= 0:
        return None, None
    return tokens / seconds, basis  # type: ignore[return-value]


# The shortest time from a stream's first token to its last that measures generation: a
# reply that arrives in one burst (a server or proxy that buffers it) spans microseconds,
# and its "rate" would be the network's.
MIN_STREAM_SPAN_S = 0.05


def _streamed(call: CallRecord) -> bool:
    """A streamed call whose tokens after the first took measurable time."""
    first, last = call.first_token_s, call.last_token_s
    return (
        first is not None
        and last is not None
        and last - first >= MIN_STREAM_SPAN_S
        and (call.completion_tokens or 0) > 1
    )


def first_token_time(calls: Sequence[CallRecord]) -> float | None:
    """Mean time to first token of the streamed calls among `calls`."""
    times = [c.first_token_s for c in calls if c.first_token_s is not None]
    return mean(times) if times else None
