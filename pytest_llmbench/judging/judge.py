"""Evaluator then grader (method.md section 5) for one answer and one judge."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..cpu import off_loop
from ..formats.images import ScenarioImage
from ..formats.scenario import CriterionStep
from ..models.base import Model, ModelReply, ModelRequest
from ..schema.results import CallRecord, Grade, JudgeReport, Verdict
from ..schema.vocabulary import METRICS, GradeMethod, Metric
from .parsing import (
    ReportParseError,
    distribution_from_samples,
    grade_distribution_from_logprobs,
    grade_from_text,
    match_steps,
    parse_evaluator_reply,
    summarise_distribution,
)
from .prompts import REPAIR_REQUEST, evaluator_messages, grader_messages, metric_report

TOP_LOGPROBS = 5


@dataclass(frozen=True)
class JudgeSetup:
    """Who judges and how; shared by every item of a run."""

    judges: tuple[Model, ...]
    grader: Model | None  # None: each judge grades its own report
    grader_samples: int
    timeout: float


@dataclass(frozen=True)
class Submission:
    """What a judge is shown: the task as the candidate saw it, and the candidate's answer."""

    system: str
    prompt: str  # readable text; images are named in it by their notes
    answer: str
    # The task's images, when the scenario says the criteria need them (judge_images).
    images: tuple[ScenarioImage, ...] = ()


@dataclass
class JudgeOutcome:
    judge: str
    report: JudgeReport
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    grades: dict[Metric, Grade] = field(default_factory=dict)
    calls: list[CallRecord] = field(default_factory=list)


def call_record(role: str, reply: ModelReply) -> CallRecord:
    return CallRecord(
        role=role,  # type: ignore[arg-type]
        model=reply.model,
        prompt_tokens=reply.prompt_tokens,
        completion_tokens=reply.completion_tokens,
        latency_s=reply.latency_s,
        cost_usd=reply.cost_usd,
        response=reply.text,
        thoughts=reply.thoughts,
        cached=bool(reply.extra.get("cached", False)),
        retries=int(reply.extra.get("retries", 0)),
    )


async def evaluate(
    judge: Model, setup: JudgeSetup, submission: Submission, steps: Sequence[CriterionStep]
) -> JudgeOutcome:
    """Ask one judge for per-step verdicts; one repair retry if its reply cannot be read."""
    messages = evaluator_messages(
        submission.system, submission.prompt, submission.answer, steps, submission.images
    )
    outcome = JudgeOutcome(judge=judge.name, report=JudgeReport(judge=judge.name, text=""))
    for try_number in (1, 2):
        reply = await judge.complete(
            ModelRequest(
                messages=tuple(messages), role="evaluator", temperature=0.0, timeout=setup.timeout
            )
        )
        outcome.calls.append(call_record("evaluator", reply))
        try:
            # Parsing a long report is CPU work: off the event loop.
            parsed = await off_loop(parse_evaluator_reply, reply.text)
        except ReportParseError as exc:
            outcome.report = JudgeReport(
                judge=judge.name, text=reply.text, error=f"unreadable report: {exc}"
            )
            if try_number == 1:
                messages = messages + [
                    {"role": "assistant", "content": reply.text},
                    {"role": "user", "content": REPAIR_REQUEST.format(problem=exc)},
                ]
            continue
        matched = match_steps(parsed.steps, steps)
        outcome.verdicts = {
            step_id: Verdict(passed=p.passed, confidence=p.confidence, reason=p.reason)
            for step_id, p in matched.items()
        }
        missing = [s.id for s in steps if s.id not in matched]
        error = f"no verdict for {', '.join(missing)}" if missing else None
        outcome.report = JudgeReport(
            judge=judge.name, text=reply.text, form=parsed.form, error=error
        )
        break
    return outcome


def _grade_from(
    metric: Metric,
    judge: str,
    grader: str,
    method: GradeMethod,
    dist: dict[int, float],
    samples: int,
) -> Grade:
    score, weighted, confident = summarise_distribution(dist)
    return Grade(
        metric=metric,
        judge=judge,
        grader=grader,
        method=method,
        score=score,
        weighted=weighted,
        distribution={str(k): dist.get(k, 0.0) for k in range(1, 5)},
        confident=confident,
        samples=samples,
    )


async def grade(
    grader: Model, setup: JudgeSetup, judge_name: str, metric: Metric, report: str
) -> tuple[Grade, list[CallRecord]]:
    """One grade 1-4 with its distribution: logprobs of the first token, else K samples."""
    messages = tuple(grader_messages(metric, report))
    first = await grader.complete(
        ModelRequest(
            messages=messages,
            role="grader",
            temperature=0.0,
            max_tokens=2,
            top_logprobs=TOP_LOGPROBS,
            timeout=setup.timeout,
        )
    )
    calls = [call_record("grader", first)]
    dist = grade_distribution_from_logprobs(first.first_token_logprobs or [])
    if dist is not None:
        return _grade_from(metric, judge_name, grader.name, "logprobs", dist, 1), calls
    # No logprobs from this provider: sample the grader and use the empirical distribution.
    # No token cap here: providers without logprobs include reasoning models, which spend
    # tokens thinking before they answer the digit.
    sample = ModelRequest(messages=messages, role="grader", temperature=1.0, timeout=setup.timeout)
    replies = await asyncio.gather(
        *(grader.complete(replace(sample, sample=i)) for i in range(setup.grader_samples))
    )
    calls += [call_record("grader", r) for r in replies]
    grades = [g for g in (grade_from_text(r.text) for r in replies) if g is not None]
    if not grades:
        shown = (replies[0] if replies else first).text[:80]
        error = f"no grade 1-4 in {len(replies)} grader replies (e.g. {shown!r})"
        return Grade(
            metric=metric,
            judge=judge_name,
            grader=grader.name,
            method="sampling",
            samples=0,
            error=error,
        ), calls
    dist = distribution_from_samples(grades)
    return _grade_from(metric, judge_name, grader.name, "sampling", dist, len(grades)), calls


async def judge_answer(
    judge: Model, setup: JudgeSetup, submission: Submission, steps: Sequence[CriterionStep]
) -> JudgeOutcome:
    outcome = await evaluate(judge, setup, submission, steps)
    if not outcome.verdicts:
        return outcome  # nothing to grade; the metric stays unscored with the report's error
    grader = setup.grader or judge
    # A metric without steps (criteria_missing) has nothing to grade.
    metrics = [m for m in METRICS if any(s.metric == m for s in steps)]
    graded = await asyncio.gather(
        *(
            grade(
                grader,
                setup,
                judge.name,
                metric,
                metric_report(metric, [s for s in steps if s.metric == metric], outcome.verdicts),
            )
            for metric in metrics
        )
    )
    for metric, (metric_grade, calls) in zip(metrics, graded, strict=True):
        outcome.grades[metric] = metric_grade
        outcome.calls += calls
    return outcome
