"""One item result as a sample of Inspect's log format (inspect_ai's `EvalSample`).

The JSON is written by hand from the field names of inspect_ai's log models, so the
package does not import inspect_ai (a test-only dependency); `inspect_log.py` puts the
samples into a log. Every value comes from results.jsonl, nothing is recomputed but the
sums of usage.

Epochs: an item is one sample of epoch 1, holding its chosen attempt (`best_attempt`,
the attempt its figures come from; the last one run when none was scored). Our attempts
are tries of which the best counts, not repeats to be averaged as Inspect's epochs are;
every attempt's figures are in the sample's metadata (`attempts`), beside the chosen
attempt's evaluator reports as written (`reports`) and a summary of its hidden tests
(`functional`).

Per sample:
- `input`: the prompt as recorded (the last user message sent to the candidate);
  `messages`: the turns we recorded, the prompt and the answer, or a dialog's whole
  conversation with its tool calls. The system prompt is not in results.jsonl, so it is
  not here either.
- `target`: the criteria the answer was checked against, `A1: ...`, `C1: ...`.
- `scores`, named as results.jsonl and the leaderboard name them: `accuracy` and
  `completeness` (1-4; explanation: every verdict on the metric's steps, by the checks
  and each judge, with their reasons; metadata: the grades with their distributions and
  judge and grader names), `quality` ((Acc + Compl)/8), `score` (the leaderboard's
  formula; its weighted form depends on the other models of the run) and
  `functional_rate` (hidden tests passed / tests, or mutants killed / mutants) where the
  item has one. A figure the item does not have is left out (never a zero): an unscored
  item has no scores.
- `error`: an item that errored or was skipped, with its reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..schema.results import (
    AttemptResult,
    CallRecord,
    ItemResult,
    MetricResult,
    StepResult,
)
from ..schema.vocabulary import METRICS
from .usage import ModelUsage, by_model, item_calls

JsonDict = dict[str, Any]

# Our finish reasons (the provider's words) as Inspect's stop reasons.
_STOP_REASONS = {
    "stop": "stop",
    "length": "max_tokens",
    "tool_calls": "tool_calls",
    "content_filter": "content_filter",
}
_ROLES = ("system", "user", "assistant", "tool")


def _inspect_usage(row: ModelUsage) -> JsonDict:
    """Inspect's ModelUsage of our figures (usage.py counts the calls)."""
    return {
        "input_tokens": row.prompt_tokens,
        "output_tokens": row.completion_tokens,
        "total_tokens": row.prompt_tokens + row.completion_tokens,
        "input_tokens_cache_write": row.cache_write_tokens,
        "input_tokens_cache_read": row.cache_read_tokens,
    }


def usage(calls: Iterable[CallRecord]) -> JsonDict:
    """Inspect's ModelUsage of some calls: their tokens summed."""
    row = ModelUsage()
    for call in calls:
        row.count(call)
    return _inspect_usage(row)


def model_usage(calls: Iterable[CallRecord]) -> dict[str, JsonDict]:
    """Usage per model (candidate, evaluators and graders alike), in first-call order."""
    return {model: _inspect_usage(row) for model, row in by_model(calls).items()}


def chosen_attempt(item: ItemResult) -> AttemptResult | None:
    """The attempt the item's figures come from: the best one, else the last one run."""
    for attempt in item.attempts:
        if attempt.attempt == item.best_attempt:
            return attempt
    return item.attempts[-1] if item.attempts else None


def _message(role: str, content: str, **fields: Any) -> JsonDict:
    source = "generate" if role == "assistant" else "input"
    return {"role": role, "content": content, "source": source, **fields}


def _text(content: object) -> str:
    """A chat message's content as text: a list of parts keeps its text and names its images."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, dict) and part.get("type") == "image_url":
                parts.append("[image]")
        return "\n".join(parts)
    return str(content)


def _tool_call(call: object) -> JsonDict:
    """An OpenAI-format tool call as Inspect's ToolCall (arguments parsed from their JSON)."""
    raw = call if isinstance(call, dict) else {}
    named = raw.get("function")
    function = named if isinstance(named, dict) else {}
    name, arguments = str(function.get("name", "")), function.get("arguments", "")
    parsed: object = arguments
    error = None
    if isinstance(arguments, str):
        try:
            parsed = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as exc:
            parsed, error = {}, f"arguments are not JSON ({exc.msg})"
    if not isinstance(parsed, dict):
        parsed = {"value": parsed}
    return {
        "id": str(raw.get("id", "")),
        "function": name,
        "arguments": parsed,
        "type": "function",
        "parse_error": error,
    }


def _chat(message: object) -> JsonDict | None:
    """A recorded dialog message (OpenAI chat format) as Inspect's; None for a shape we
    do not know (the conversation is the model's as much as ours)."""
    if not isinstance(message, dict) or message.get("role") not in _ROLES:
        return None
    role, content = str(message["role"]), _text(message.get("content"))
    if role == "assistant":
        calls = message.get("tool_calls")
        listed = [_tool_call(c) for c in calls] if isinstance(calls, list) else []
        return _message(role, content, tool_calls=listed or None)
    if role == "tool":
        name = message.get("name")
        return _message(
            role,
            content,
            tool_call_id=str(message.get("tool_call_id") or ""),
            function=name if isinstance(name, str) else None,
        )
    return _message(role, content)


def messages(item: ItemResult, attempt: AttemptResult | None) -> list[JsonDict]:
    """The turns we recorded: a dialog's conversation, else the prompt and the answer."""
    if attempt is not None and attempt.dialog is not None and attempt.dialog.messages:
        converted = (_chat(m) for m in attempt.dialog.messages)
        return [m for m in converted if m is not None]
    turns = [_message("user", item.prompt)] if item.prompt else []
    if attempt is not None:
        turns.append(_message("assistant", attempt.answer))
    return turns


def output(item: ItemResult, attempt: AttemptResult | None) -> JsonDict:
    """The answer of the chosen attempt, its model, stop reason, usage and time."""
    if attempt is None:
        return {"model": item.model, "choices": [], "error": item.reason}
    candidate = [c for c in attempt.calls if c.role == "candidate"]
    finish = candidate[-1].finish_reason if candidate else None
    choice = {
        "message": _message("assistant", attempt.answer),
        "stop_reason": _STOP_REASONS.get(finish or "", "unknown"),
    }
    return {
        "model": item.model,
        "choices": [choice],
        "usage": usage(candidate),
        "time": attempt.answer_latency_s,
    }


def _verdict_lines(step: StepResult) -> list[str]:
    lines = [f"{step.id} (weight {step.weight:g}): {step.criterion}"]
    if step.check is not None:
        lines.append(f"  check: {'Pass' if step.check.passed else 'Fail'}: {step.check.reason}")
    for judge, verdict in step.judges.items():
        confidence = f" ({verdict.confidence:g}%)" if verdict.confidence is not None else ""
        lines.append(
            f"  {judge}: {'Pass' if verdict.passed else 'Fail'}{confidence}: {verdict.reason}"
        )
    if step.tests_passed is not None:
        lines.append(f"  hidden tests: {'passed' if step.tests_passed else 'failed'}")
    return lines


def _explanation(attempt: AttemptResult, name: str, metric: MetricResult) -> str:
    """Every verdict given on the metric's steps, with its reason (the evaluators' reasoning)."""
    lines = [f"from {metric.source}" if metric.source else "unscored"]
    if metric.unscored_reason:
        lines.append(f"unscored: {metric.unscored_reason}")
    for step in attempt.steps:
        if step.metric == name:
            lines.extend(_verdict_lines(step))
    return "\n".join(lines)


def _grading(metric: MetricResult) -> JsonDict:
    """Where a metric came from: its source, pass rates and every grade with its distribution."""
    grades = [
        g.model_dump(
            mode="json",
            include={"judge", "grader", "method", "argmax", "weighted", "distribution"}
            | {"confident", "samples", "error"},
        )
        for g in metric.grades
    ]
    return {
        "source": metric.source,
        "pass_rate": metric.pass_rate,
        "check_pass_rate": metric.check_pass_rate,
        "judges": sorted({g.judge for g in metric.grades}),
        "graders": sorted({g.grader for g in metric.grades}),
        "grades": grades,
    }


def _score(value: float, explanation: str, metadata: JsonDict) -> JsonDict:
    # `answer` stays null: our checks and judges read the whole answer, which is the
    # sample's output, rather than an answer extracted from it.
    return {"value": value, "answer": None, "explanation": explanation, "metadata": metadata}


def scores(item: ItemResult, attempt: AttemptResult | None, score: float | None) -> JsonDict:
    """The item's figures as named Scores; one the item does not have is left out."""
    if attempt is None:
        return {}
    found: JsonDict = {}
    for name, metric in zip(METRICS, attempt.metrics(), strict=True):
        value = getattr(item, name)
        if value is not None:
            found[name] = _score(value, _explanation(attempt, name, metric), _grading(metric))
    if attempt.quality is not None:
        found["quality"] = _score(attempt.quality, "(accuracy + completeness) / 8", {})
    if score is not None:
        found["score"] = _score(score, "the leaderboard's formula (see the results)", {})
    if item.functional_rate is not None:
        found["functional_rate"] = _score(
            item.functional_rate,
            "mean over the attempts of hidden tests passed / tests (or mutants killed / "
            "mutants); a tampered run counts 0",
            {
                "pass_at_1": item.pass_at_1,
                "pass_after_feedback": item.pass_after_feedback,
                "tampered": item.tampered,
            },
        )
    return found


def _functional(attempt: AttemptResult | None) -> JsonDict | None:
    """A summary of the chosen attempt's hidden-test run (its failures by name)."""
    run = attempt.functional if attempt is not None else None
    if run is None:
        return None
    return {
        "runner": run.runner,
        "mode": run.mode,
        "passed": run.passed,
        "total": run.total,
        "rate": run.rate,
        "failed": [t.name for t in run.tests if not t.passed],
        "mutants_killed": sum(m.killed for m in run.mutants),
        "mutants": len(run.mutants),
        "error": run.error,
        "tampered": run.tampered,
        "tamper_evidence": run.tamper_evidence,
    }


def _attempts(item: ItemResult) -> list[JsonDict]:
    return [
        {
            "attempt": a.attempt,
            "accuracy": a.accuracy.value,
            "completeness": a.completeness.value,
            "quality": a.quality,
            "functional_rate": a.functional.rate if a.functional is not None else None,
            "degraded": a.degraded,
        }
        for a in item.attempts
    ]


def metadata(item: ItemResult, attempt: AttemptResult | None) -> JsonDict:
    """What the item is (scenario, dataset, category, complexity buckets) and how it went."""
    reports = attempt.reports if attempt is not None else []
    return {
        "scenario": item.scenario,
        "dataset": item.dataset,
        "category": item.category,
        "nodeid": item.nodeid,
        "complexity": item.complexity,
        "status": item.status,
        "outcome": item.outcome,
        "reason": item.reason,
        "best_attempt": item.best_attempt,
        "attempts": _attempts(item),
        "functional": _functional(attempt),
        "tampered": item.tampered,
        "reports": [r.model_dump(mode="json") for r in reports],
        "finished_utc": item.finished_utc,
    }


def sample(item: ItemResult, sample_id: str, score: float | None) -> JsonDict:
    """The item as one sample (epoch 1: its chosen attempt); `score`: its leaderboard score."""
    attempt = chosen_attempt(item)
    error = None
    if item.status in ("error", "skipped"):
        message = f"{item.status}: {item.reason or 'no reason recorded'}"
        error = {"message": message, "traceback": "", "traceback_ansi": ""}
    target = [f"{s.id}: {s.criterion}" for s in attempt.steps] if attempt is not None else []
    found = scores(item, attempt, score)
    return {
        "id": sample_id,
        "epoch": 1,
        "input": item.prompt,
        "target": target or "",
        "messages": messages(item, attempt),
        "output": output(item, attempt),
        "scores": found or None,
        "metadata": metadata(item, attempt),
        "store": {},
        "events": [],
        "model_usage": model_usage(item_calls(item)),
        "error": error,
        "attachments": {},
    }
