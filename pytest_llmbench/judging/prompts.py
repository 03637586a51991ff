"""The texts the evaluator and the grader are given.

The evaluator sees the task (system prompt and rendered prompt, which inlines the input
code), the answer, and the criteria with their ids; the public system's evaluator saw
neither task nor input, which method.md names as its weakness. The grader sees only the
evaluator's report on one metric.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..formats.criteria import CriterionStep
from ..formats.images import ScenarioImage, user_content
from ..models.base import StablePrefix
from ..schema.results import Verdict
from ..schema.vocabulary import Metric

EVALUATOR_SYSTEM = (
    "You are a meticulous senior software engineer who evaluates answers to engineering "
    "tasks. Judge only what the answer contains. A criterion passes only when the answer "
    "clearly meets it; missing, partial or wrong work fails it."
)

_METRIC_MEANING = {
    "accuracy": "non-functional quality: the code would compile and run, follows the requested "
    "libraries, language and constraints, has no wrong implementation, and follows good practice",
    "completeness": "functional coverage: how much of the required functionality the answer delivers",
}

GRADE_SCALE = "1 = not {m}, 2 = partially {m}, 3 = almost {m}, 4 = fully {m}"


def _evaluator_task(task_system: str, task_prompt: str) -> str:
    """The start of the evaluator's user message: the task, the same for every answer."""
    return f"""Evaluate the answer below against every criterion.

## The task the model was given
### System prompt
{task_system}

### User prompt (includes the input code)
{task_prompt}

"""


def evaluator_prefix(task_system: str, task_prompt: str) -> StablePrefix:
    """The part of evaluator_messages that every answer to the task shares: the evaluator's
    system prompt and the task (with its input code), up to the answer."""
    return StablePrefix(messages=1, chars=len(_evaluator_task(task_system, task_prompt)))


# The grader's system prompt (its rubric) is the same for every report on the metric.
GRADER_PREFIX = StablePrefix(messages=1)


def evaluator_messages(
    task_system: str,
    task_prompt: str,
    answer: str,
    steps: Sequence[CriterionStep],
    images: tuple[ScenarioImage, ...] = (),
) -> list[dict[str, Any]]:
    """The evaluator's request; `images` (the task's, when its criteria need them) follow
    the text as image parts, in the order the notes in the task prompt name them."""
    criteria = "\n".join(f"- {s.id} ({s.metric}): {s.text}" for s in steps)
    user = f"""{_evaluator_task(task_system, task_prompt)}## The model's answer
<answer>
{answer}
</answer>

## Criteria
{criteria}

For every criterion decide Pass or Fail, give your confidence in percent, and a one-sentence reason.
Reply with JSON only, in this form, one entry per criterion, in the order given:
{{"steps": [{{"id": "A1", "criterion": "<criterion text>", "passed": true, "confidence": 90, "explanation": "<reason>"}}]}}"""
    if images:
        user += (
            "\n\nThe images the model was given are attached after this text, in the order "
            "the prompt names them."
        )
    return [
        {"role": "system", "content": EVALUATOR_SYSTEM},
        {"role": "user", "content": user_content(user, images)},
    ]


# The shorter views of the task an evaluator is shown when its prompt does not fit the
# judge's context window: the share of the task prompt (instructions first, then the input
# code) kept, tried in this order. The answer and the criteria are always whole.
TASK_VIEWS = (1.0, 0.5, 0.25, 0.1, 0.0)


def shorter_task(prompt: str, share: float) -> tuple[str, int]:
    """The task prompt cut to `share` of its characters, with a note; (text, chars cut)."""
    if share >= 1.0:
        return prompt, 0
    keep = int(len(prompt) * share)
    cut = len(prompt) - keep
    note = (
        f"[... the rest of the prompt, {cut} characters of input code, is left out here "
        "to fit your context window; judge the answer on what it shows ...]"
    )
    return f"{prompt[:keep]}\n{note}", cut


# The evaluator's report under structured output: one entry per criterion id.
REPORT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "steps": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "passed": {"type": "boolean"},
                    "confidence": {"type": "number"},
                    "reason": {"type": "string"},
                },
                "required": ["id", "passed", "confidence", "reason"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["steps"],
    "additionalProperties": False,
}


REPAIR_REQUEST = (
    "Your reply could not be read ({problem}). Reply again with JSON only, exactly in the form "
    'requested: {{"steps": [{{"id": ..., "criterion": ..., "passed": ..., "confidence": ..., '
    '"explanation": ...}}]}}. Keep each explanation to one sentence.\n\n'
    "Your previous reply, shortened:\n<previous>\n{excerpt}\n</previous>"
)
# Of an unreadable reply, the repair request shows only its start and end: the whole reply
# may be thousands of tokens (a rambling judge) and would overflow the context window.
EXCERPT_CHARS = 300


def excerpt(text: str, chars: int = EXCERPT_CHARS) -> str:
    """The first and last `chars` characters of a text, with how much was left out."""
    if len(text) <= 2 * chars:
        return text
    return f"{text[:chars]}\n[... {len(text) - 2 * chars} characters left out ...]\n{text[-chars:]}"


def repair_messages(
    messages: Sequence[dict[str, Any]], reply: str, problem: str
) -> list[dict[str, Any]]:
    """The evaluator's request again, with what was wrong and an excerpt of the bad reply."""
    request = REPAIR_REQUEST.format(problem=problem, excerpt=excerpt(reply))
    return [*messages, {"role": "user", "content": request}]


def metric_report(
    metric: Metric, steps: Sequence[CriterionStep], verdicts: dict[str, Verdict]
) -> str:
    """One judge's verdicts on one metric, in the public Markdown report form."""
    lines = [f"# Evaluation report: {metric}", ""]
    passed = 0
    evaluated = 0
    for step in steps:
        verdict = verdicts.get(step.id)
        if verdict is None:
            lines.append(f"- **Not evaluated**: {step.text}")
            continue
        evaluated += 1
        passed += verdict.passed
        confidence = f" ({verdict.confidence:.0f}%)" if verdict.confidence is not None else ""
        lines.append(f"- **{'Pass' if verdict.passed else 'Fail'}**{confidence}: {step.text}")
        if verdict.reason:
            lines.append(f"    {verdict.reason}")
    lines += [
        "",
        f"Total steps evaluated: {evaluated}",
        f"Total steps passed: {passed}",
        f"Total steps failed: {evaluated - passed}",
    ]
    return "\n".join(lines)


def grader_messages(metric: Metric, report: str) -> list[dict[str, str]]:
    scale = GRADE_SCALE.format(m="accurate" if metric == "accuracy" else "complete")
    system = (
        f"You grade the {metric} of an answer from an evaluation report. "
        f"{metric.capitalize()} means {_METRIC_MEANING[metric]}. Scale: {scale}. "
        "Reply with the single digit of the grade and nothing else."
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": report}]
