"""Hidden tests in an item's pipeline: each attempt's answer runs against the scenario's
hidden acceptance tests (functional/) while its judges are asked; a criterion with
`tests:` patterns gets their verdict (StepResult.tests_passed); the item gets its
functional figures (functional_rate, pass_at_1, pass_after_feedback, tampered).

A run the runner marked tampered (the answer attacked the verdict: schema/functional.py)
has rate 0, passes nothing and gives its criteria no execution verdict: whatever its
tests reported may be forged. The item is marked tampered when any attempt's run was.

The runs go to the tests' own thread pool (functional/verify.py), whose threads only
wait on sandboxed processes: no model call waits for them, and the attempt awaits its
run only once its judges have answered.

A run that cannot start (node or its packages missing, a runner this machine lacks)
leaves the attempt judged as usual; its FunctionalResult carries the one-line error and
rates 0, as a run the answer broke does (an answer cannot escape its tests by breaking
the run, so the two are not told apart in the figures).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from fnmatch import fnmatchcase
from statistics import mean
from typing import Any, NamedTuple, TypeVar

from ..cpu import off_loop
from ..formats.dataset import Dataset
from ..formats.functional import Functional
from ..formats.workspace import answer_workspace
from ..functional.verify import verify
from ..schema.functional import FunctionalResult
from ..schema.results import AttemptResult, StepResult
from .case import Case, Generation

Files = list[tuple[str, str]]
T = TypeVar("T")
_ERROR_CHARS = 400


def answer_files(answer: str) -> Files:
    """The files a single-shot answer names: its code blocks headed by a safe path (the
    later block of a path wins, as formats/workspace.py says)."""
    return [(f.path, f.code) for f in answer_workspace(answer).files if f.path]


def start_tests(
    case: Case, gen: Generation, files: Callable[[], Files]
) -> asyncio.Future[FunctionalResult] | None:
    """The hidden tests on the answer's `files`, started now as a task; None when the
    scenario has none for this dataset or --llm-functional is off."""
    functional = case.scenario.functional_for(case.dataset)
    if not gen.functional or functional is None:
        return None
    return asyncio.ensure_future(_guarded(functional, case.dataset, files))


async def _guarded(
    functional: Functional, dataset: Dataset | None, files: Callable[[], Files]
) -> FunctionalResult:
    """verify(), with any failure of ours recorded as the run's error line."""
    try:
        named = await off_loop(files)  # parsing a long answer's blocks is CPU work
        return await verify(functional, dataset, named)
    except OSError as exc:  # e.g. node not installed, no room for the workspace
        where = f" ({exc.filename})" if exc.filename else ""
        why = f"the hidden tests could not run: {exc.strerror or exc}{where}"
    except Exception as exc:  # recorded, never a traceback: the attempt is judged all the same
        why = f"the hidden tests could not run: {type(exc).__name__}: {exc}"
    mode = "mutation" if functional.mode == "mutation" else "acceptance"
    return FunctionalResult(runner=functional.runner, mode=mode, error=why[:_ERROR_CHARS])


async def cancelling(work: Awaitable[T], *pending: asyncio.Future[Any] | None) -> T:
    """`work`'s result; should it fail, the `pending` tasks (checks, metrics, hidden tests
    whose results would go unused) are cancelled."""
    try:
        return await work
    except BaseException:
        for task in pending:
            if task is not None:
                task.cancel()
        raise


def criterion_patterns(case: Case) -> dict[str, tuple[str, ...]]:
    """Step id, as the attempt's steps are named (dialogs: `T<turn>.<id>`) -> the hidden-test
    name patterns of that functional criterion."""
    scenario, dataset = case.scenario, case.dataset
    if scenario.is_dialog:
        return {
            f"T{turn.number}.{step.id}": step.tests
            for turn in scenario.turns_for(dataset)
            for step in turn.steps
            if step.tests
        }
    return {step.id: step.tests for step in scenario.steps_for(dataset) if step.tests}


def mark_tests(
    steps: list[StepResult], patterns: Mapping[str, Sequence[str]], result: FunctionalResult
) -> list[str]:
    """Set each functional criterion's `tests_passed` (every test its patterns match
    passed; None when none matched, or the run has an error or was tampered with) and
    return the patterns that matched no test, as "STEP: PATTERN" (only known when the
    whole run finished untouched)."""
    unmatched: list[str] = []
    trusted = result.error is None and not result.tampered
    for step in steps:
        wanted = patterns.get(step.id, ())
        if not wanted:
            continue
        matched = [t for t in result.tests if any(fnmatchcase(t.name, p) for p in wanted)]
        step.tests_passed = all(t.passed for t in matched) if matched and trusted else None
        if trusted:
            names = [t.name for t in result.tests]
            unmatched += [
                f"{step.id}: {p}" for p in wanted if not any(fnmatchcase(n, p) for n in names)
            ]
    return unmatched


async def finish_tests(
    running: asyncio.Future[FunctionalResult] | None,
    steps: list[StepResult],
    patterns: Mapping[str, Sequence[str]],
    feedback: bool,
) -> FunctionalResult | None:
    """The run's result once it ends, mapped onto the attempt's functional criteria."""
    if running is None:
        return None
    result = await running
    unmatched = mark_tests(steps, patterns, result)
    # Validated again, not copied: the schema's rules (a tampered run rates 0) hold
    # however the runner marked the run.
    fields = {**result.model_dump(), "unmatched": unmatched, "feedback": feedback}
    return FunctionalResult.model_validate(fields)


class ItemFigures(NamedTuple):
    """An item's functional figures (the ItemResult fields of the same names)."""

    functional_rate: float | None
    pass_at_1: bool | None
    pass_after_feedback: bool | None
    tampered: bool


def functional_figures(attempts: list[AttemptResult], feedback: bool) -> ItemFigures:
    """The mean rate of the item's attempts' runs (a tampered run rates 0); whether attempt
    1 passed every hidden test; with feedback, whether some attempt did; whether some
    attempt's run was tampered with. The first three are None when no attempt ran hidden
    tests (a machine without the runner's toolchain runs none: those attempts are left
    out, not counted as failures)."""
    runs = [
        a.functional for a in attempts if a.functional is not None and not a.functional.unavailable
    ]
    tampered = any(r.tampered for r in runs)
    if not runs:
        return ItemFigures(None, None, None, tampered)
    first = next((r for a in attempts if a.attempt == 1 and (r := a.functional) in runs), None)
    return ItemFigures(
        mean(r.rate for r in runs),
        first.all_passed if first is not None else None,
        any(r.all_passed for r in runs) if feedback else None,
        tampered,
    )
