"""One item from prompt to result: attempts, checks, judges, grades, best attempt.

Each attempt is a conversation (a list of chat messages) so that a multi-turn dialog
or image parts fit without changing this module's callers.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from statistics import mean
from typing import Any

from ..errors import RunError
from ..formats.dataset import Dataset
from ..formats.scenario import METRICS, CriterionStep, Metric, Scenario
from ..metrics.answer import measure_answer
from ..metrics.complexity import Complexity
from ..models.base import Model, ModelRequest, TaskContext
from ..reporting.formulas import quality
from ..reporting.statistics import exact_agreement
from ..results import (
    AttemptResult,
    CallRecord,
    ItemResult,
    MetricResult,
    StepResult,
    Usage,
    Verdict,
)
from .checks import run_check
from .judging import JudgeOutcome, JudgeSetup, Submission, call_record, judge_answer


@dataclass(frozen=True)
class Generation:
    """How the candidate is asked."""

    attempts: int
    temperature: float | None
    max_tokens: int | None
    timeout: float


@dataclass(frozen=True)
class Case:
    """One scenario x dataset; a pytest item is a case x model."""

    scenario: Scenario
    dataset: Dataset | None
    complexity: Complexity | None = None  # of the dataset, measured once at collection

    @property
    def label(self) -> str:
        return f"{self.scenario.id}-{self.dataset.name}" if self.dataset else self.scenario.id

    def messages(self) -> list[dict[str, Any]]:
        return [
            {"role": "system", "content": self.scenario.system},
            {"role": "user", "content": self.scenario.prompt_for(self.dataset)},
        ]


def weighted_rate(pairs: list[tuple[float, bool]]) -> float | None:
    total = sum(w for w, _ in pairs)
    return sum(w for w, ok in pairs if ok) / total if total else None


def majority(verdicts: dict[str, Verdict]) -> bool | None:
    if not verdicts:
        return None
    return sum(v.passed for v in verdicts.values()) * 2 >= len(verdicts)


def _step_results(
    steps: tuple[CriterionStep, ...], answer: str, outcomes: list[JudgeOutcome]
) -> list[StepResult]:
    results = []
    for step in steps:
        check = run_check(step.check, answer) if step.check is not None else None
        judges = {o.judge: o.verdicts[step.id] for o in outcomes if step.id in o.verdicts}
        verdict = majority(judges)
        agrees = None if check is None or verdict is None else check.passed == verdict
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


def _metric(metric: Metric, steps: list[StepResult], outcomes: list[JudgeOutcome]) -> MetricResult:
    own = [s for s in steps if s.metric == metric]
    if not own:
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
    if check_rate is None:
        return MetricResult(unscored_reason=f"no judge given and no {metric} step has a check")
    return MetricResult(
        value=1 + 3 * check_rate, source="checks", pass_rate=check_rate, check_pass_rate=check_rate
    )


def _quality(acc: MetricResult, compl: MetricResult) -> float | None:
    if acc.value is None or compl.value is None:
        return None
    return quality(acc.value, compl.value)


async def run_attempt(
    case: Case, model: Model, number: int, gen: Generation, setup: JudgeSetup
) -> AttemptResult:
    messages = case.messages()
    reply = await model.complete(
        ModelRequest(
            messages=tuple(messages),
            role="candidate",
            temperature=gen.temperature,
            max_tokens=gen.max_tokens,
            timeout=gen.timeout,
            task=TaskContext(case.scenario, case.dataset),
            attempt=number,
        )
    )
    calls: list[CallRecord] = [call_record("candidate", reply)]
    steps = case.scenario.steps_for(case.dataset)
    submission = Submission(case.scenario.system, messages[-1]["content"], reply.text)
    judges = setup.judges if steps else ()  # no criteria yet: nothing to ask a judge
    outcomes: list[JudgeOutcome] = list(
        await asyncio.gather(*(judge_answer(j, setup, submission, steps) for j in judges))
    )
    for outcome in outcomes:
        calls += outcome.calls
    step_results = _step_results(steps, reply.text, outcomes)
    acc, compl = (_metric(m, step_results, outcomes) for m in METRICS)
    # Syntax checks run subprocesses: off the event loop, so other items' calls go on.
    code = await asyncio.to_thread(
        measure_answer,
        reply.text,
        case.scenario.reference_for(case.dataset),
        case.dataset,
        case.complexity,
    )
    # From the reply's own figures: offline models give no token counts, so no rate;
    # llmbench/replay gives the published run's recorded tokens and execution time.
    rate = None
    if reply.completion_tokens and reply.latency_s > 0:
        rate = reply.completion_tokens / reply.latency_s
    return AttemptResult(
        attempt=number,
        answer=reply.text,
        answer_latency_s=reply.latency_s,
        generation_rate=rate,
        accuracy=acc,
        completeness=compl,
        quality=_quality(acc, compl),
        steps=step_results,
        reports=[o.report for o in outcomes],
        calls=calls,
        code=code,
    )


def _usage(calls: list[CallRecord]) -> Usage:
    costs = [c.cost_usd for c in calls if c.cost_usd is not None]
    return Usage(
        prompt_tokens=sum(c.prompt_tokens or 0 for c in calls),
        completion_tokens=sum(c.completion_tokens or 0 for c in calls),
        cost_usd=sum(costs) if costs else None,
        calls=len(calls),
    )


def judge_agreement(attempt: AttemptResult) -> float | None:
    """Share of judge pairs whose argmax grades agree, over accuracy and completeness."""
    return exact_agreement(
        [
            {g.judge: g.score for g in metric.grades if g.score is not None}
            for metric in (attempt.accuracy, attempt.completeness)
        ]
    )


def summarise(case: Case, model: Model, attempts: list[AttemptResult]) -> ItemResult:
    """Pick the best attempt (the first reaching the best quality) and fill the item's figures."""
    scored = [a for a in attempts if a.quality is not None]
    # max() keeps the first of equal attempts, which is the one the method counts.
    best = max(scored, key=lambda a: a.quality or 0.0) if scored else None
    calls = [c for a in attempts for c in a.calls]
    result = ItemResult(
        scenario=case.scenario.id,
        category=case.scenario.category,
        dataset=case.dataset.name if case.dataset else None,
        model=model.name,
        complexity=case.complexity.as_dict() if case.complexity else {},
        prompt=case.messages()[-1]["content"],
        status="scored" if best else "unscored",
        attempts=attempts,
        candidate_usage=_usage([c for c in calls if c.role == "candidate"]),
        judge_usage=_usage([c for c in calls if c.role != "candidate"]),
    )
    if best is None:
        if not attempts:
            return result
        last = attempts[-1]
        result.reason = "; ".join(
            f"{name}: {m.unscored_reason}"
            for name, m in (("accuracy", last.accuracy), ("completeness", last.completeness))
            if m.unscored_reason
        )
        return result
    result.best_attempt = best.attempt
    result.accuracy = best.accuracy.value
    result.completeness = best.completeness.value
    rates = [r for r in (best.accuracy.pass_rate, best.completeness.pass_rate) if r is not None]
    result.pass_rate = mean(rates) if rates else None
    result.generation_rate = best.generation_rate
    result.latency_s = best.answer_latency_s
    result.judge_agreement = judge_agreement(best)
    result.code = best.code
    return result


async def run_item(case: Case, model: Model, gen: Generation, setup: JudgeSetup) -> ItemResult:
    """Run up to `gen.attempts` attempts; stop early once an attempt cannot be beaten.

    A call that fails makes the item an error with that reason; the attempts finished
    before it stay in the result.
    """
    attempts: list[AttemptResult] = []
    for number in range(1, gen.attempts + 1):
        try:
            attempt = await run_attempt(case, model, number, gen, setup)
        except RunError as exc:
            result = summarise(case, model, attempts)
            result.status = "error"
            result.reason = f"attempt {number}: {exc}"
            return result
        attempts.append(attempt)
        if attempt.quality is not None and attempt.quality >= 1.0:
            break
    return summarise(case, model, attempts)
