"""--llm-feedback: an attempt that fails hidden tests is followed by one that continues its
conversation (the prompt, the model's answer) with a user message naming each failing
test and its message, as Aider's benchmark does with test output.

What the model is told: each failing test's name and its failure message (the test's own
assertion message, or node's), and why the run did not finish if it did not. Never the
test code: message lines that are the hidden files' code (node quotes the source of a
failed `assert.ok(...)`; an answer's code could read the hidden files and throw them)
are left out, and no file of the hidden tests is ever sent. Messages are the reporter's
(at most 8 lines, 600 characters per test), and at most MAX_LISTED tests are named.

The chain (tasks/pipeline.py `run_item`):
  - attempt 1 is the plain prompt; pass@1 is its result alone;
  - after an attempt that failed some hidden test, the next continues its conversation
    with the feedback (`functional.feedback` is true on it);
  - the first attempt that passes every hidden test ends the item: there is nothing left
    to tell, and neither pass@1 nor pass-after-feedback (passed by attempt N at the
    latest) depends on later attempts, so models stay comparable;
  - a run that produced no test outcome (the tests could not start) has nothing to feed
    back: the next attempt is a fresh one, on the plain prompt.
  - a run marked tampered (the answer attacked the verdict) has nothing to feed back
    either: the next attempt is a fresh one. Telling the model its attack was seen, or
    naming what gave it away (the evidence, a tripwire test's name), would teach it how
    to hide the next one; the evidence goes to the report only.
Dialog scenarios get no feedback in this version: their attempts stay independent (their
hidden tests still run on the final workspace), and pass_after_feedback stays null.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..schema.functional import FunctionalResult
from ..schema.results import AttemptResult
from .case import Case, Generation

Messages = tuple[dict[str, Any], ...]
MAX_LISTED = 20  # failing tests named in one message; the rest are counted
_CODE_LINE_MIN = 8  # a shorter message line is code only when it is a whole line of it


def _code_lines(sources: Iterable[str]) -> list[str]:
    return [line.strip() for text in sources for line in text.splitlines() if line.strip()]


def _is_code(line: str, code: list[str]) -> bool:
    """`line` is a piece of the hidden files' code, not a message they wrote as a string."""
    text = line.strip()
    if len(text) < _CODE_LINE_MIN:
        return text in code  # a whole short line of code, such as `});`
    quoted = [f"{q}{text}{q}" for q in ("'", '"', "`")]
    return any(text in c and not any(q in c for q in quoted) for c in code)


def _shown(message: str, code: list[str]) -> list[str]:
    lines = [line.rstrip() for line in message.splitlines()]
    kept = [line for line in lines if line.strip() and not _is_code(line, code)]
    return kept or ["(no message)"]


def feedback_message(result: FunctionalResult, hidden_sources: Iterable[str]) -> str | None:
    """The user message after a failed attempt, or None when there is nothing to tell
    (every test passed, no test ran, or the run was tampered with). `hidden_sources`: the
    hidden files' text, whose lines are kept out of the messages."""
    failing = [t for t in result.tests if not t.passed]
    if not result.tests or result.all_passed or result.tampered:
        return None
    if result.mode == "mutation" and not failing and result.error is None:
        return _survivors_message(result)
    code = _code_lines(hidden_sources)
    head = (
        "Your tests were run against the code as given, unchanged, where every test must "
        f"pass. {len(failing)} of {len(result.tests)} failed:"
        if result.mode == "mutation"
        else "Your answer was run against hidden acceptance tests, which you cannot see. "
        f"{len(failing)} of {len(result.tests)} failed:"
    )
    lines = [head, ""]
    for number, test in enumerate(failing[:MAX_LISTED], start=1):
        lines.append(f"{number}. {test.name}")
        lines += [f"   {line}" for line in _shown(test.message, code)]
    if len(failing) > MAX_LISTED:
        lines.append(f"... and {len(failing) - MAX_LISTED} more failing tests.")
    if result.error:
        lines += ["", f"The test run did not finish: {result.error}"]
    lines += [
        "",
        "Fix the code so that these tests pass. Reply with your complete corrected answer "
        "in the form the task asked for: every file the answer needs, in full, not only "
        "the changed lines.",
    ]
    return "\n".join(lines)


def _survivors_message(result: FunctionalResult) -> str:
    """Mutation mode, every test passing: the injected bugs the tests did not catch."""
    survivors = [m for m in result.mutants if not m.killed]
    lines = [
        f"Your tests pass on the code as given, but {len(survivors)} of {len(result.mutants)} "
        "small bugs injected into that code went unnoticed (every test still passed):",
        "",
    ]
    lines += [f"{n}. {m.description or m.id}" for n, m in enumerate(survivors[:MAX_LISTED], 1)]
    lines += [
        "",
        "Add or sharpen tests so that each of these bugs makes a test fail, keeping every "
        "test passing on the code as given. Reply with your complete corrected answer in the "
        "form the task asked for: every file, in full.",
    ]
    return "\n".join(lines)


def continued(asked: Messages, answer: str, note: str) -> Messages:
    """The conversation of the attempt that gets the feedback."""
    return (*asked, {"role": "assistant", "content": answer}, {"role": "user", "content": note})


def next_conversation(
    case: Case, gen: Generation, asked: Messages, attempt: AttemptResult
) -> tuple[Messages, bool]:
    """The messages of the attempt after `attempt` (asked with `asked`) and whether they
    carry feedback."""
    fresh = tuple(case.messages())
    hidden = case.scenario.functional_for(case.dataset)
    if not gives_feedback(case, gen) or attempt.functional is None or hidden is None:
        return fresh, False
    note = feedback_message(attempt.functional, (f.text for f in hidden.files))
    if note is None:
        return fresh, False
    return continued(asked, attempt.answer, note), True


def gives_feedback(case: Case, gen: Generation) -> bool:
    """Whether the item's attempts form a feedback chain."""
    return gen.feedback and gen.functional and not case.scenario.is_dialog


def last_attempt(
    case: Case, gen: Generation, quality: float | None, functional: FunctionalResult | None
) -> bool:
    """No attempt follows the one of this `quality` and hidden tests' result: with
    feedback, it passed every hidden test; else it reached the best quality."""
    if gives_feedback(case, gen) and functional is not None:
        return functional.all_passed
    return quality is not None and quality >= 1.0
