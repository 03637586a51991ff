"""Evaluator then grader (method.md section 5) for one answer and one judge."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..cpu import off_loop
from ..errors import ContextWindowError, ModelError, ReportParseError
from ..formats.criteria import CriterionStep
from ..formats.images import ScenarioImage
from ..models.base import CALLS_AFTER, Model, ModelReply, ModelRequest
from ..schema.results import CallRecord, Grade, JudgeReport, Verdict
from ..schema.vocabulary import METRICS, GradeMethod, Metric, StructuredForm
from .parsing import (
    distribution_from_samples,
    grade_distribution_from_logprobs,
    grade_from_text,
    match_steps,
    parse_evaluator_reply,
    summarise_distribution,
)
from .prompts import (
    GRADER_PREFIX,
    REPORT_SCHEMA,
    TASK_VIEWS,
    evaluator_messages,
    evaluator_prefix,
    grader_messages,
    metric_report,
    repair_messages,
    shorter_task,
)

TOP_LOGPROBS = 5
# The logprob call reads only the first token; a few more show what the grader meant.
GRADE_TOKENS = 16


@dataclass(frozen=True)
class JudgeSetup:
    """Who judges and how; shared by every item of a run."""

    judges: tuple[Model, ...]
    grader: Model | None  # None: each judge grades its own report
    grader_samples: int
    timeout: float
    judge_max_tokens: int | None = 2048  # per evaluator reply (--llm-judge-max-tokens)
    grader_max_tokens: int | None = 512  # per sampled grader reply (--llm-grader-max-tokens)
    # Judges asked for their report under prompts.REPORT_SCHEMA (--llm-structured-output)
    structured: frozenset[str] = frozenset()


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
        role=role,
        model=reply.model,
        prompt_tokens=reply.prompt_tokens,
        completion_tokens=reply.completion_tokens,
        latency_s=reply.latency_s,
        cost_usd=reply.cost_usd,
        cache_read_tokens=reply.cache_read_tokens,
        cache_write_tokens=reply.cache_write_tokens,
        response=reply.text,
        thoughts=reply.thoughts,
        cached=bool(reply.extra.get("cached", False)),
        retries=int(reply.extra.get("retries", 0)),
        truncated_chars=reply.truncated_chars,
        finish_reason=reply.finish_reason,
        generation_s=reply.generation_s,
        first_token_s=reply.first_token_s,
        last_token_s=reply.last_token_s,
        batch_id=reply.batch_id,
        batch_priced=reply.batch_priced,
    )


def asked_form(request: ModelRequest, reply: ModelReply) -> StructuredForm:
    """How the report was asked for: the form the model says it sent the schema in, else
    as the request asked."""
    if reply.structured is not None:
        return reply.structured
    return "schema" if request.response_schema else "text"


def cut_note(reply: ModelReply, limit: int | None) -> str:
    """' (cut at the N-token limit)' when the reply ended at its token limit, else ''."""
    if reply.finish_reason != "length":
        return ""
    return f" (cut at the {limit}-token limit)" if limit else " (cut at the token limit)"


async def _ask_evaluator(
    judge: Model,
    setup: JudgeSetup,
    submission: Submission,
    steps: Sequence[CriterionStep],
    repair: tuple[str, str] | None,
) -> tuple[ModelRequest, ModelReply, int]:
    """The evaluator's reply to the fullest view of the task that fits the judge's window
    (prompts.TASK_VIEWS), with the characters of the task prompt left out. `repair`: the
    unreadable reply and its problem, for the repair request."""
    for share in TASK_VIEWS:
        prompt, cut = shorter_task(submission.prompt, share)
        messages = evaluator_messages(
            submission.system, prompt, submission.answer, steps, submission.images
        )
        if repair is not None:
            messages = repair_messages(messages, *repair)
        request = ModelRequest(
            messages=tuple(messages),
            role="evaluator",
            temperature=0.0,
            max_tokens=setup.judge_max_tokens,
            timeout=setup.timeout,
            response_schema=REPORT_SCHEMA if judge.name in setup.structured else None,
            stable_prefix=evaluator_prefix(submission.system, prompt),
        )
        try:
            return request, await judge.complete(request), cut
        except ContextWindowError:
            if share == TASK_VIEWS[-1]:
                raise  # even without the input code it does not fit
    raise AssertionError("TASK_VIEWS ends with the shortest view")


async def evaluate(
    judge: Model, setup: JudgeSetup, submission: Submission, steps: Sequence[CriterionStep]
) -> JudgeOutcome:
    """Ask one judge for per-step verdicts; one repair retry if its reply cannot be read.

    A failed call ends the evaluation with the failure as the report's error: the
    candidate's answer stays, its metrics are unscored with that reason."""
    outcome = JudgeOutcome(judge=judge.name, report=JudgeReport(judge=judge.name, text=""))
    repair: tuple[str, str] | None = None
    for _ in (1, 2):
        try:
            request, reply, input_cut = await _ask_evaluator(
                judge, setup, submission, steps, repair
            )
        except ModelError as exc:
            before = f"{outcome.report.error}; the repair " if outcome.report.error else "judge "
            outcome.report = JudgeReport(
                judge=judge.name, text=outcome.report.text, error=f"{before}call: {exc}"
            )
            break
        outcome.calls.append(call_record("evaluator", reply))
        cut = cut_note(reply, setup.judge_max_tokens)
        try:
            # Parsing a long report is CPU work: off the event loop.
            parsed = await off_loop(parse_evaluator_reply, reply.text)
        except ReportParseError as exc:
            problem = f"{exc}{cut}"
            outcome.report = JudgeReport(
                judge=judge.name,
                text=reply.text,
                error=f"unreadable report: {problem}",
                input_cut=input_cut,
                output=asked_form(request, reply),
            )
            judge.forget(request)  # unusable: the next run asks again
            repair = (reply.text, problem)
            continue
        matched = match_steps(parsed.steps, steps)
        outcome.verdicts = {
            step_id: Verdict(passed=p.passed, confidence=p.confidence, reason=p.reason)
            for step_id, p in matched.items()
        }
        missing = [s.id for s in steps if s.id not in matched]
        error = f"no verdict for {', '.join(missing)}{cut}" if missing else None
        outcome.report = JudgeReport(
            judge=judge.name,
            text=reply.text,
            form=parsed.form,
            error=error,
            input_cut=input_cut,
            output=asked_form(request, reply),
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
    argmax, weighted, confident = summarise_distribution(dist)
    return Grade(
        metric=metric,
        judge=judge,
        grader=grader,
        method=method,
        argmax=argmax,
        weighted=weighted,
        distribution={str(k): dist.get(k, 0.0) for k in range(1, 5)},
        confident=confident,
        samples=samples,
    )


async def _samples(grader: Model, request: ModelRequest, count: int) -> list[ModelReply | str]:
    """K grader samples; a failed call is its one-line reason (the others still count)."""
    replies = await asyncio.gather(
        *(grader.complete(replace(request, sample=i)) for i in range(count)),
        return_exceptions=True,
    )
    out: list[ModelReply | str] = []
    for reply in replies:
        if isinstance(reply, ModelError):
            out.append(str(reply))
        elif isinstance(reply, BaseException):
            raise reply  # the budget, a cancellation: not the grader's failure
        else:
            out.append(reply)
    return out


async def grade(
    grader: Model, setup: JudgeSetup, judge_name: str, metric: Metric, report: str
) -> tuple[Grade, list[CallRecord]]:
    """One grade 1-4 with its distribution: logprobs of the first token when the grade
    tokens carry enough of its probability (parsing.MIN_GRADE_SHARE), else K samples."""
    messages = tuple(grader_messages(metric, report))
    failed = Grade(metric=metric, judge=judge_name, grader=grader.name, method="logprobs")
    limit = setup.grader_max_tokens
    try:
        first = await grader.complete(
            ModelRequest(
                messages=messages,
                role="grader",
                temperature=0.0,
                max_tokens=min(GRADE_TOKENS, limit) if limit else GRADE_TOKENS,
                top_logprobs=TOP_LOGPROBS,
                timeout=setup.timeout,
                stable_prefix=GRADER_PREFIX,
            )
        )
    except ModelError as exc:
        return failed.model_copy(update={"error": f"grader call: {exc}", "samples": 0}), []
    calls = [call_record("grader", first)]
    top = first.first_token_logprobs
    dist, why = grade_distribution_from_logprobs(top or [])
    if dist is not None:
        found = _grade_from(metric, judge_name, grader.name, "logprobs", dist, 1)
        return found.model_copy(update={"top_logprobs": top}), calls
    # Sample the grader and use the empirical distribution. Bounded: one sample at
    # temperature 1 can otherwise ramble until the call times out.
    sample = ModelRequest(
        messages=messages,
        role="grader",
        temperature=1.0,
        max_tokens=limit,
        timeout=setup.timeout,
        stable_prefix=GRADER_PREFIX,
    )
    replies = await _samples(grader, sample, setup.grader_samples)
    answered = [r for r in replies if isinstance(r, ModelReply)]
    calls += [call_record("grader", r) for r in answered]
    grades = [g for g in (grade_from_text(r.text) for r in answered) if g is not None]
    if not grades:
        shown = (
            f"e.g. {answered[0].text[:80]!r}{cut_note(answered[0], limit)}"
            if answered
            else next(r for r in replies if isinstance(r, str))
        )
        error = f"no grade 1-4 in {len(replies)} grader replies ({shown})"
        found = Grade(
            metric=metric, judge=judge_name, grader=grader.name, method="sampling", samples=0
        )
        update = {"error": error, "top_logprobs": top, "sampled_because": why}
        return found.model_copy(update=update), calls
    dist = distribution_from_samples(grades)
    found = _grade_from(metric, judge_name, grader.name, "sampling", dist, len(grades))
    return found.model_copy(update={"top_logprobs": top, "sampled_because": why}), calls


# The calls of one judging, one after another: the evaluator, then the graders side by
# side; judge_answer lowers CALLS_AFTER by one before each.
JUDGING_STAGES = 2


async def judge_answer(
    judge: Model, setup: JudgeSetup, submission: Submission, steps: Sequence[CriterionStep]
) -> JudgeOutcome:
    # Run as a task of its own (gather): CALLS_AFTER, one less per stage, stays in it.
    CALLS_AFTER.set(CALLS_AFTER.get() - 1)  # the evaluator comes after the answer
    outcome = await evaluate(judge, setup, submission, steps)
    if not outcome.verdicts:
        return outcome  # nothing to grade; the metric stays unscored with the report's error
    grader = setup.grader or judge
    CALLS_AFTER.set(CALLS_AFTER.get() - 1)  # the graders come after the evaluator
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
