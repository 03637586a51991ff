"""One test run's outcome, as every runner reports it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ..schema.functional import TestOutcome
from ..toolchain import sandbox

NO_OUTCOME = "no outcome: the run ended before it reported this test"
PLAN_BYTES = 2_000_000  # a plan's head read (read_lines)
PLAN_LINES = 10_000


def read_lines(path: Path, max_bytes: int = PLAN_BYTES, max_lines: int = PLAN_LINES) -> list[str]:
    """The lines of a file a runner's own code wrote during the run (a plan of its tests,
    the harness's notes), read as the run may have left it: its first `max_bytes` (a line
    the limit cut is dropped), at most `max_lines` lines; none from a link (our code never
    writes one) or an unreadable file."""
    try:
        if path.is_symlink():
            return []
        with path.open("rb") as written:
            head = written.read(max_bytes + 1)
    except OSError:
        return []
    lines = head[:max_bytes].decode("utf-8", errors="replace").splitlines()
    if len(head) > max_bytes and lines:
        lines.pop()
    return lines[:max_lines]


@dataclass(frozen=True)
class SuiteRun:
    """What one run of a suite is given (mutation mode, and pytest's hidden tests): the
    test files (workspace-relative; a runner runs those of them it can), the time limit,
    the run's canary file among them (tripwire.py; then run first, and the run stops at
    the first failing test after its must-fail one: a mutant's run needs one failure) and
    the scenario's process limit (None: the runner's own)."""

    tests: tuple[str, ...]
    timeout_s: float
    canaries: str | None = None
    processes: int | None = None
    # workspace-relative files the run may read but not change (hidden specs laid over
    # the workspace: jest_hidden.py)
    protect: tuple[str, ...] = ()
    # the folder the runs of one answer share, outside the workspace (carry.py): the first
    # run leaves there what later ones reuse; None: every run builds all
    carry: Path | None = None
    # the clean run of mutation mode: the runner writes which files each test file ran
    # (coverage.py), where it can
    coverage: bool = False


@dataclass(frozen=True)
class Run:
    tests: tuple[TestOutcome, ...]
    error: str | None = None  # the run could not start or did not finish
    returncode: int | None = None  # the runner's exit status (None: stopped, or never started)
    stopped: str | None = None  # the sandbox's limit that stopped the run ("time limit", ...)
    evidence: tuple[str, ...] = ()  # what the runner itself saw of tampering (tripwire.py)
    seconds: float = 0.0  # wall time of the run's commands
    build_s: float = 0.0  # of which building (javac; node's bundles, node_bundles.py)

    @property
    def phases(self) -> dict[str, float]:
        """The run's seconds by phase (schema FunctionalResult.phases), or {} when the runner
        did not time its tests."""
        timed = [t.seconds for t in self.tests if t.seconds is not None]
        if not timed or self.seconds <= 0:
            return {}
        tests = min(sum(timed), self.seconds - self.build_s)
        return {
            "runs": 1.0,
            "build": self.build_s,
            "tests": tests,
            "start-up": max(0.0, self.seconds - self.build_s - tests),
        }

    @property
    def passed(self) -> int:
        return sum(t.passed for t in self.tests)

    @property
    def all_passed(self) -> bool:
        return self.error is None and bool(self.tests) and self.passed == len(self.tests)

    def stable(self, workspace: Path) -> Run:
        """The run with the workspace's temporary folder taken out of its tests' names and
        messages (`/tmp/llmbench-tests-x1y2/src/a.js` -> `src/a.js`): the same answer gives
        the same names, run after run."""
        prefixes = {f"{workspace}/", f"{workspace.resolve()}/"}

        def clean(text: str) -> str:
            for prefix in prefixes:
                text = text.replace(prefix, "")
            return text

        tests = tuple(
            t.model_copy(update={"name": clean(t.name), "message": clean(t.message)})
            for t in self.tests
        )
        return replace(self, tests=tests, error=clean(self.error) if self.error else None)

    def with_planned(self, planned: list[str]) -> Run:
        """The run with each planned test it did not report listed as `not run` (not
        passed): the tests a run stopped early never reached."""
        reported = {t.name for t in self.tests}
        missing = [name for name in dict.fromkeys(planned) if name not in reported]
        unrun = tuple(
            TestOutcome(name=name[:300], passed=False, status="not run", message=NO_OUTCOME)
            for name in missing
        )
        return replace(self, tests=self.tests + unrun) if unrun else self

    @classmethod
    def broken(cls, why: str) -> Run:
        return cls((), why)

    @classmethod
    def of(cls, tests: list[TestOutcome], outcome: sandbox.Outcome) -> Run:
        error = None
        if outcome.killed:
            error = f"the test run was stopped at the {outcome.killed}"
        elif not tests:
            tail = (outcome.stderr or outcome.stdout).strip().splitlines()[-3:]
            error = "no test ran" + (f": {' '.join(tail)[:400]}" if tail else "")
        return cls(tuple(tests), error, outcome.returncode, outcome.killed, seconds=outcome.seconds)


def report_seconds(value: object, scale: float = 1.0) -> float | None:
    """A test's time as a report gives it (`scale`: to seconds), or None when it is not a
    plain non-negative number; capped at an hour."""
    if not isinstance(value, (int, float, str)) or isinstance(value, bool):
        return None
    try:
        seconds = float(value) * scale
    except ValueError:
        return None
    return min(seconds, 3600.0) if seconds >= 0 else None  # NaN is not >= 0


def add_phases(total: dict[str, float], more: dict[str, float]) -> dict[str, float]:
    """Two runs' phases summed (FunctionalResult.phases of an attempt's runs)."""
    return {k: round(total.get(k, 0.0) + more.get(k, 0.0), 3) for k in {*total, *more}}
