"""What the JavaScript test runners share: the packages linked into the workspace, their
run in the sandbox, and the JSON report Jest writes (`--json`) and Vitest copies
(`--reporter=json`) read into per-test outcomes."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from ..schema.functional import TestOutcome
from ..toolchain import sandbox
from ..toolchain.node_packages import node_missing
from .carry import copy_folder
from .coverage import COVERAGE
from .launch import RunnerSandbox
from .node import MEMORY_MB
from .outcome import Run, SuiteRun, report_seconds
from .warm import WarmSpec
from .workspace import OUT

_SKIPPED = {"skipped", "pending", "todo", "disabled"}
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_FRAME = re.compile(r"\s+at .+")
_UNHANDLED = re.compile(r"Vitest caught \d+ unhandled errors?[^\n]*")


M = TypeVar("M", bound=BaseModel)
SANDBOX = RunnerSandbox(memory_mb=MEMORY_MB, processes=sandbox.PROCESS_LIMIT)


def read_options(path: Path, model: type[M]) -> M:
    """A runner's options file in the hidden tests (its defaults when there is none);
    ValueError naming the file and field when it is bad."""
    if not path.is_file():
        return model()
    try:
        return model.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "file"
        raise ValueError(f"{path.name} of the hidden tests: {field}: {first['msg']}") from None


def link_modules(workspace: Path, modules: Path) -> str | None:
    """`workspace/node_modules` made a link to `modules` (read-only in the sandbox), so
    packages resolve as in a project; or why not."""
    link = workspace / "node_modules"
    if link.is_symlink():
        link.unlink()
    if link.exists():
        return "the workspace has its own node_modules folder"
    link.symlink_to(modules, target_is_directory=True)
    return None


def clean_message(lines: list[str] | str) -> str:
    """The failure without colours and stack frames."""
    text = _ANSI.sub("", "\n".join(lines) if isinstance(lines, list) else lines)
    kept = [line for line in text.splitlines() if not _FRAME.match(line)]
    return "\n".join(kept).strip()[:600]


def _file_outcomes(entry: dict[str, object], workspace: Path) -> list[TestOutcome]:
    name = str(entry.get("name", "?"))
    try:
        name = Path(name).resolve().relative_to(workspace.resolve()).as_posix()
    except ValueError:
        pass
    outcomes: list[TestOutcome] = []
    assertions = entry.get("assertionResults")
    for test in assertions if isinstance(assertions, list) else []:
        if not isinstance(test, dict):
            continue
        title = str(test.get("fullName") or test.get("title") or "?")
        passed = test.get("status") == "passed"
        skipped = test.get("status") in _SKIPPED
        message = "" if passed or skipped else clean_message(test.get("failureMessages") or [])
        status = "passed" if passed else "skipped" if skipped else "failed"
        outcomes.append(
            TestOutcome(
                name=f"{name} > {title}"[:300],
                passed=passed,
                message=message,
                status=status,
                seconds=report_seconds(test.get("duration"), 0.001),
            )
        )
    if entry.get("status") == "failed" and not any(t.status == "failed" for t in outcomes):
        why = clean_message(str(entry.get("message") or "the file failed outside its tests"))
        outcomes.append(TestOutcome(name=name[:300], passed=False, message=why, status="failed"))
    return outcomes


def _entries(text: str) -> list[object]:
    """The per-file entries of a JSON report, or of JSON lines each one entry."""
    try:
        report = json.loads(text)
    except ValueError:
        pass
    else:
        if isinstance(report, dict) and "testResults" in report:
            files = report["testResults"]
            return files if isinstance(files, list) else []
        return [report]  # one line
    entries: list[object] = []
    for line in text.splitlines():
        try:
            entries.append(json.loads(line))
        except ValueError:
            continue
    return entries


def read_report(path: Path, workspace: Path) -> list[TestOutcome]:
    """Per-test outcomes of a Jest-format JSON report, or of JSON lines holding one file's
    entry each (skipped and todo tests listed as skipped); a test file that failed outside its tests (it
    did not load, a hook threw) is one failed outcome."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    outcomes: list[TestOutcome] = []
    for entry in _entries(text):
        if isinstance(entry, dict):
            outcomes.extend(_file_outcomes(entry, workspace))
    return outcomes


def finish(report: Path, workspace: Path, outcome: sandbox.Outcome) -> Run:
    """The run from its report; errors the runner caught outside the tests (Vitest's
    unhandled errors: only its output tells) are one failed outcome. The exit status says
    nothing here: a run's canary test always fails (tripwire.py)."""
    tests = read_report(report, workspace)
    output = _ANSI.sub("", f"{outcome.stdout}\n{outcome.stderr}")
    if tests and (found := _UNHANDLED.search(output)):
        why = f"the test runner caught an error outside the tests: {found.group(0)}"
        tests.append(TestOutcome(name="test run", passed=False, message=why, status="failed"))
    return Run.of(tests, outcome)


@dataclass(frozen=True)
class JsRunner:
    """What sets a JavaScript test runner (Jest, Vitest) apart; `run` does the rest: our
    files in `own`, read-only to the run, its packages linked into the workspace and
    readable, its temporary files in OUT/tmp, its report read by `finish`."""

    name: str  # as the messages name it: "Jest"
    languages: str  # of the test files it runs: "JavaScript"
    suffixes: tuple[str, ...]  # of the test files it runs
    install: str  # what installs its packages
    own: str  # the folder of our config and setup files in the workspace
    report: str  # its report's name in OUT
    modules: Callable[[], Path | None]  # its package tree, None when it is missing
    # (workspace, modules, runnable test files, canaries) -> the command, our files written;
    # ValueError naming the scenario's options file and field when they are bad
    command: Callable[[Path, Path, list[str], str | None], list[str]]
    # its cache folder in the workspace, carried from a suite's first run to the later ones
    # (SuiteRun.carry), or None
    cache: str | None = None

    def missing(self) -> str | None:
        """Why this machine cannot run the runner's tests, or None."""
        return node_missing(self.modules(), f"{self.name}'s", self.install)

    def runnable(self, suite: SuiteRun) -> list[str]:
        """The test files of `suite` this runner runs, in the suite's order."""
        return [t for t in suite.tests if t.endswith(self.suffixes)]

    def _carried(self, suite: SuiteRun) -> Path | None:
        return suite.carry / "cache" if suite.carry and self.cache else None

    def prepare(self, workspace: Path, suite: SuiteRun) -> str | None:
        """What a run needs in its freshly laid workspace: its packages linked, OUT/tmp,
        the cache a first run left (SuiteRun.carry); why the run cannot go, or None."""
        if not self.runnable(suite):
            return f"the answer has no {self.languages} test files for {self.name}"
        modules = self.modules()
        if modules is None:  # missing() said so before the run (verify.MISSING); gone meanwhile
            return self.missing() or f"{self.name}'s packages are missing"
        why = link_modules(workspace, modules)
        if why is not None:
            return why
        (workspace.resolve() / OUT / "tmp").mkdir(parents=True, exist_ok=True)
        carried = self._carried(suite)
        if carried is not None and self.cache:
            copy_folder(carried, workspace / self.cache)
        return None

    def finished(self, workspace: Path, suite: SuiteRun, outcome: sandbox.Outcome) -> Run:
        """The run from its report; the first run's cache kept for the later ones."""
        carried = self._carried(suite)
        if carried is not None and self.cache and not carried.exists():
            copy_folder(workspace / self.cache, carried)
        return finish(workspace / OUT / self.report, workspace, outcome)

    def env(self, workspace: Path, suite: SuiteRun) -> dict[str, str]:
        """The run's environment: LLMBENCH_FIRST names its canary file (run first),
        LLMBENCH_ORDER the order of the others, LLMBENCH_COVERAGE where the files each test
        file ran go (coverage.py)."""
        root = workspace.resolve()
        env = {"CI": "1", "NO_COLOR": "1", "TMPDIR": str(root / OUT / "tmp")}
        if suite.canaries:
            env["LLMBENCH_FIRST"] = str(root / suite.canaries)
        if suite.coverage:
            env["LLMBENCH_COVERAGE"] = str(root / OUT / COVERAGE)
        env["LLMBENCH_ORDER"] = json.dumps([str(root / t) for t in self.runnable(suite)])
        return env

    def protected(self, workspace: Path, suite: SuiteRun) -> list[Path]:
        return [workspace / self.own, *(workspace / p for p in suite.protect)]

    def run(self, workspace: Path, suite: SuiteRun) -> Run:
        """The answer's test files of `suite` that this runner runs, under our config (the
        canary file first, when there is one: see SuiteRun)."""
        why = self.prepare(workspace, suite)
        modules = self.modules()
        if why is not None or modules is None:
            return Run.broken(why or f"{self.name}'s packages are missing")
        try:
            command = self.command(workspace, modules, self.runnable(suite), suite.canaries)
        except ValueError as exc:
            return Run.broken(str(exc))
        outcome = SANDBOX.run(
            command,
            workspace,
            suite.timeout_s,
            suite.processes,
            env=self.env(workspace, suite),
            reads=[modules],
            protect=self.protected(workspace, suite),
        )
        return self.finished(workspace, suite, outcome)

    def served(
        self, workspace: Path, suite: SuiteRun, server: Callable[[Path, Path], list[str]]
    ) -> WarmSpec | None:
        """The warm side of this runner (warm.py) for an answer's workspace laid out for
        its first run: `server(workspace, modules)` writes our server's files into `own`
        and gives its command (ValueError for bad options: the runs go on their own, and
        say so); None when it cannot serve."""
        modules = self.modules()
        if self.prepare(workspace, suite) is not None or modules is None:
            return None
        try:
            command = server(workspace, modules)
        except ValueError:
            return None
        return WarmSpec(
            command=command,
            limits=SANDBOX,
            finish=self.finished,
            env=self.env(workspace, suite),
            reads=(modules,),
            protect=tuple(self.protected(workspace, suite)),
            prepare=self.prepare,
            select=self.runnable,
        )
