"""Run one attempt's functional check: build the workspace, run the scenario's runner in
the sandbox, and turn what it found into a FunctionalResult. Runs are bounded by a pool
of one slot per core, in threads that only wait on the sandboxed processes."""

from __future__ import annotations

import asyncio
import hashlib
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal, Protocol

from ..cpu import cores_per_worker, lower_priority, note_wait
from ..formats.dataset import Dataset
from ..formats.functional import Functional
from ..schema.functional import FunctionalResult, acceptance_rate
from ..toolchain import sandbox
from . import cargo, cmake, gotest, jest_hidden, reserved
from .jest import missing as jest_missing
from .junit import hidden as run_junit_hidden
from .junit import missing as junit_missing
from .mutation import run_mutation
from .node import missing as node_missing
from .node import run_node
from .outcome import Run, add_phases
from .pytest_runner import hidden as run_pytest_hidden
from .pytest_runner import missing as pytest_missing
from .tripwire import arm_hidden
from .vitest import missing as vitest_missing
from .workspace import materialise


class Runner(Protocol):
    def __call__(
        self, workspace: Path, hidden: Path, timeout_s: float, /, *, processes: int | None = None
    ) -> Run: ...


RUNNERS: dict[str, Runner] = {
    "node": run_node,
    "junit": run_junit_hidden,
    "pytest": run_pytest_hidden,
    "jest": jest_hidden.hidden,
    "go": gotest.hidden,
    "cargo": cargo.hidden,
    "cmake": cmake.hidden,
}


_POOL = ThreadPoolExecutor(
    max_workers=cores_per_worker(),
    thread_name_prefix="llmbench-tests",
    # Each test thread at the lowest priority, inherited by the test processes it
    # starts: answers and judge calls are handled first when the cores are busy.
    initializer=lower_priority,
)


def run_acceptance(
    functional: Functional, dataset: Dataset | None, answer_files: Iterable[tuple[str, str]]
) -> FunctionalResult:
    """The hidden tests on the dataset with the answer's files applied (blocking), with
    this run's canaries among them (tripwire.py)."""
    started = time.monotonic()
    files = list(answer_files)
    runner = RUNNERS.get(functional.runner)
    with tempfile.TemporaryDirectory(prefix="llmbench-tests-") as folder:
        root = Path(folder)
        hidden = materialise(root, functional, dataset, files)
        tripwire = arm_hidden(functional.runner, hidden)
        if runner is None:
            run = Run.broken(f"no runner named {functional.runner!r} on this machine")
        else:
            run = runner(root, hidden, functional.timeout_s, processes=functional.processes)
    run, found = tripwire.check(run)
    evidence = reserved.refused(files) + found
    return FunctionalResult(
        runner=functional.runner,
        mode="acceptance",
        passed=run.passed,
        total=len(run.tests),
        tests=list(run.tests),
        rate=0.0 if evidence else acceptance_rate(run.passed, len(run.tests), run.error),
        error=run.error,
        seconds=round(time.monotonic() - started, 3),
        phases=add_phases({}, run.phases),
        tampered=bool(evidence),
        tamper_evidence=evidence,
    )


Mode = Callable[[Functional, "Dataset | None", Iterable[tuple[str, str]]], FunctionalResult]
MODES: dict[str, Mode] = {"acceptance": run_acceptance, "mutation": run_mutation}


# Per runner: why this machine cannot run it (a missing toolchain), or None.
MISSING: dict[str, Callable[[], str | None]] = {
    "node": node_missing,
    "junit": junit_missing,
    "vitest": vitest_missing,
    "jest": jest_missing,
    "pytest": pytest_missing,
    "go": gotest.missing,
    "cargo": cargo.missing,
    "cmake": cmake.missing,
}


def _mode_name(functional: Functional) -> Literal["acceptance", "mutation"]:
    return "mutation" if functional.mode == "mutation" else "acceptance"


def unavailable(functional: Functional) -> FunctionalResult | None:
    """The result of a check this machine cannot run now (no sandbox, or the runner's
    toolchain is missing: the machine's lack, not the answer's), or None."""
    why = sandbox.missing()  # never unconfined: without bubblewrap nothing of the answer runs
    if why is None and functional.runner in MISSING:
        why = MISSING[functional.runner]()
    if why is None:
        return None
    return FunctionalResult(
        runner=functional.runner, mode=_mode_name(functional), error=why, unavailable=True
    )


def run_functional(
    functional: Functional, dataset: Dataset | None, answer_files: Iterable[tuple[str, str]]
) -> FunctionalResult:
    if (lack := unavailable(functional)) is not None:
        return lack
    mode = MODES.get(functional.mode)
    if mode is None:
        return FunctionalResult(
            runner=functional.runner,
            mode=_mode_name(functional),
            error=f"{functional.mode} runs are not available in this version",
        )
    return mode(functional, dataset, answer_files)


def run_key(
    functional: Functional, dataset: Dataset | None, answer_files: list[tuple[str, str]]
) -> str:
    """What a run's outcome depends on: the hidden tests, the dataset and the answer's files."""
    digest = hashlib.sha256(functional.digest.encode())
    digest.update((dataset.content_hash if dataset else "").encode())
    for path, text in sorted(answer_files):
        digest.update(b"\0" + path.encode() + b"\0" + text.encode())
    return digest.hexdigest()


# Runs of this process by run_key: an answer given again (another attempt, or the echo
# model's unchanged files) shares the first run instead of running the same code again.
_RUNS: dict[str, asyncio.Future[FunctionalResult]] = {}


def _failed(running: asyncio.Future[FunctionalResult]) -> bool:
    return running.done() and (running.cancelled() or running.exception() is not None)


async def verify(
    functional: Functional, dataset: Dataset | None, answer_files: list[tuple[str, str]]
) -> FunctionalResult:
    """run_functional in the test pool, off the event loop; identical inputs run once per
    process (the result is copied, so callers may update their own)."""
    key = run_key(functional, dataset, answer_files)
    loop = asyncio.get_running_loop()
    asked = time.monotonic()
    running = _RUNS.get(key)
    shared = running is not None and running.get_loop() is loop and not _failed(running)
    if shared and (lack := unavailable(functional)) is not None:
        return lack  # a run made while the toolchain was there is not handed out now
    if running is None or not shared:
        running = loop.run_in_executor(_POOL, run_functional, functional, dataset, answer_files)
        _RUNS[key] = running
    result = await asyncio.shield(running)
    # waiting for a slot of the pool, or for another item's run of the same answer
    note_wait(time.monotonic() - asked - result.seconds)
    return result.model_copy(deep=True)
