"""One item from prompt to result: attempts, checks, judges, grades, hidden tests, best
attempt.

Each attempt is a conversation (a list of chat messages) so that a multi-turn dialog,
image parts or a feedback chain (tasks/feedback.py) fit without changing this module's
callers. An answer's hidden tests (tasks/functional.py) start as soon as it arrives and
run while its checks, metrics and judges are done.
"""

from __future__ import annotations

import asyncio
import weakref
from statistics import mean

from ..cpu import off_loop, off_process
from ..errors import AttemptFailed, RunError
from ..judging.checks import run_check
from ..judging.judge import (
    JUDGING_STAGES,
    JudgeOutcome,
    JudgeSetup,
    Submission,
    call_record,
    judge_answer,
)
from ..judging.scoring import (
    metric_result,
    step_results,
    unseen,
)
from ..judging.statistics import judge_agreement
from ..metrics.answer_metrics import prepare_baseline
from ..models.base import BATCHABLE, CALLS_AFTER, Model, ModelRequest, TaskContext
from ..schema.results import (
    AttemptResult,
    CallRecord,
    ImageRecord,
    ItemResult,
    Usage,
)
from ..schema.vocabulary import METRICS
from .attempt import ItemRun, JudgedAttempt, measure
from .case import Case, Generation
from .dialog import run_dialog_attempt
from .feedback import Messages, gives_feedback, last_attempt, next_conversation
from .functional import (
    answer_files,
    cancelling,
    criterion_patterns,
    finish_tests,
    functional_figures,
    start_tests,
)


def candidate_request(
    case: Case, number: int, gen: Generation, messages: Messages | None
) -> ModelRequest:
    """Attempt `number`'s request to the candidate (`messages`: default, the case's own)."""
    return ModelRequest(
        messages=messages if messages is not None else tuple(case.messages()),
        role="candidate",
        temperature=gen.temperature,
        max_tokens=gen.max_tokens,
        timeout=gen.timeout,
        task=TaskContext(case.scenario, case.dataset),
        attempt=number,
        # A feedback chain's messages start with the case's own: the same prefix holds.
        stable_prefix=case.stable_prefix(),
    )


# One attempt's calls, one after another: the candidate, then its judging.
_CHAIN = 1 + JUDGING_STAGES


def _chain_after(case: Case, gen: Generation, number: int) -> int:
    """Calls the item still makes one after another after attempt `number`'s answer:
    its judging, then every later attempt (a dialog's turns each add a round and a grade)."""
    per_attempt = _CHAIN + 2 * len(case.scenario.turns_for(case.dataset))
    return per_attempt - 1 + per_attempt * (gen.attempts - number)


async def run_attempt(
    run: ItemRun, number: int, messages: Messages | None = None, feedback: bool = False
) -> JudgedAttempt:
    """Attempt `number`, judged; `messages`: the conversation to send (default: the case's
    prompt); `feedback`: it carries the previous attempt's failing tests."""
    case, gen, setup = run.case, run.gen, run.setup
    if case.scenario.is_dialog:
        return await run_dialog_attempt(run, number)
    reply = await run.model.complete(candidate_request(case, number, gen, messages))
    testing = start_tests(case, gen, lambda: answer_files(reply.text))
    calls = [call_record("candidate", reply)]
    steps, scenario = case.scenario.steps_for(case.dataset), case.scenario
    images = scenario.images if scenario.judge_images else ()
    submission = Submission(scenario.system, case.prompt_text(), reply.text, images)
    # No criteria yet, or a model that did not see the task: nothing to ask a judge.
    judges = setup.judges if steps and not reply.degraded else ()
    # Checks (CPU pool) and code metrics (worker processes) run while the judges are asked.
    checking = asyncio.ensure_future(
        off_loop(
            lambda: {
                id(s.check): run_check(s.check, reply.text, case.cache_dir)
                for s in steps
                if s.check
            }
        )
    )
    measuring = asyncio.ensure_future(measure(run, reply.text))
    asking = asyncio.gather(*(judge_answer(j, setup, submission, steps) for j in judges))
    try:
        outcomes: list[JudgeOutcome] = list(await cancelling(asking, checking, measuring, testing))
    except RunError as exc:  # the budget: judge failures leave metrics unscored
        raise AttemptFailed(exc, calls) from exc
    verdicts = await checking
    checked = step_results(steps, lambda check: verdicts[id(check)], outcomes)
    patterns = criterion_patterns(case)
    acc, compl = (unseen(reply.degraded) or metric_result(m, checked, outcomes) for m in METRICS)
    return JudgedAttempt(
        number=number,
        answer=reply.text,
        candidate_calls=calls,
        judge_calls=[call for outcome in outcomes for call in outcome.calls],
        accuracy=acc,
        completeness=compl,
        steps=checked,
        reports=[o.report for o in outcomes],
        degraded=reply.degraded,
        measuring=measuring,
        finishing=asyncio.ensure_future(finish_tests(testing, checked, patterns, feedback)),
        linked=frozenset(patterns),
    )


def _usage(calls: list[CallRecord]) -> Usage:
    costs = [c.cost_usd for c in calls if c.cost_usd is not None]
    return Usage(
        prompt_tokens=sum(c.prompt_tokens or 0 for c in calls),
        completion_tokens=sum(c.completion_tokens or 0 for c in calls),
        cache_read_tokens=sum(c.cache_read_tokens for c in calls),
        cache_write_tokens=sum(c.cache_write_tokens for c in calls),
        cost_usd=sum(costs) if costs else None,
        calls=len(calls),
    )


def summarise(
    case: Case,
    model: str,
    attempts: list[AttemptResult],
    failed: list[CallRecord] | None = None,
    feedback: bool = False,
) -> ItemResult:
    """Pick the best attempt (the first reaching the best quality) and fill the item's
    figures; `model`: the model's name; `failed`: the paid calls of an attempt an error stopped; `feedback`: the
    attempts formed a feedback chain (pass_after_feedback is set)."""
    scored = [a for a in attempts if a.quality is not None]
    # max() keeps the first of equal attempts, which is the one the method counts.
    best = max(scored, key=lambda a: a.quality or 0.0) if scored else None
    calls = [c for a in attempts for c in a.calls] + (failed or [])
    figures = functional_figures(attempts, feedback)
    result = ItemResult(
        scenario=case.scenario.id,
        category=case.scenario.category,
        dataset=case.dataset.name if case.dataset else None,
        model=model,
        complexity=case.complexity.as_dict() if case.complexity else {},
        prompt=case.prompt_text(),
        images=[
            ImageRecord(file=i.name, media_type=i.media_type, size=i.size, sha256=i.sha256)
            for i in case.scenario.images
        ],
        status="scored" if best else "unscored",
        attempts=attempts,
        failed_calls=failed or [],
        candidate_usage=_usage([c for c in calls if c.role == "candidate"]),
        judge_usage=_usage([c for c in calls if c.role != "candidate"]),
        functional_rate=figures.functional_rate,
        pass_at_1=figures.pass_at_1,
        pass_after_feedback=figures.pass_after_feedback,
        tampered=figures.tampered,
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


# The similarity baselines of a run: one per reference and dataset (the same for every
# model), per event loop (a future belongs to its loop).
_BASELINES: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[tuple[str | None, str | None], asyncio.Future[float | None]]
] = weakref.WeakKeyDictionary()


def _baseline(case: Case) -> asyncio.Future[float | None]:
    """The similarity baseline takes CPU seconds for a large dataset: computed once per
    reference and dataset while the first items' calls run (or read from the cache folder,
    where an earlier run kept it); every attempt's metrics wait for it rather than redo it."""
    reference = case.scenario.reference_for(case.dataset)
    known = _BASELINES.setdefault(asyncio.get_running_loop(), {})
    key = (reference, case.dataset.content_hash if case.dataset else None)
    found = known.get(key)
    if found is None or found.cancelled():
        found = asyncio.ensure_future(
            off_process(prepare_baseline, reference, case.dataset, case.cache_dir)
        )
        found.add_done_callback(lambda done: done.cancelled() or done.exception())
        known[key] = found
    return found


async def run_item(case: Case, model: Model, gen: Generation, setup: JudgeSetup) -> ItemResult:
    """Run up to `gen.attempts` attempts, one after another; stop early once an attempt
    cannot be beaten (with --llm-feedback: once one passes every hidden test).

    A call that fails makes the item an error with that reason; the attempts finished
    before it stay in the result.
    """
    chained = gives_feedback(case, gen)
    # A single-shot item's calls may wait in a provider batch (--llm-batch); a dialog's not.
    BATCHABLE.set(not case.scenario.is_dialog)
    run = ItemRun(case, model, gen, setup, _baseline(case))
    judged: list[JudgedAttempt] = []
    messages: Messages = tuple(case.messages())
    fed, failure = False, None
    for number in range(1, gen.attempts + 1):
        CALLS_AFTER.set(_chain_after(case, gen, number))  # orders its calls (this item only)
        try:
            attempt = await run_attempt(run, number, messages, fed)
        except RunError as exc:
            failure = (number, exc)
            break
        judged.append(attempt)
        # Without a feedback chain no attempt depends on the one before's hidden tests:
        # they finish while the next attempts' calls go on, and are collected at the end.
        # An answer scored by its hidden tests alone has its quality once they end.
        waits = chained or attempt.scored_by_tests
        functional = (await attempt.result()).functional if waits else None
        if last_attempt(case, gen, attempt.quality, functional):
            break
        if chained:
            messages, fed = next_conversation(case, gen, messages, await attempt.result())
    attempts = [await attempt.result() for attempt in judged]
    if failure is None:
        return summarise(case, model.name, attempts, feedback=chained)
    number, error = failure
    paid = error.calls if isinstance(error, AttemptFailed) else []
    result = summarise(case, model.name, attempts, paid, chained)
    result.status = "error"
    result.reason = f"attempt {number}: {error}"
    return result
