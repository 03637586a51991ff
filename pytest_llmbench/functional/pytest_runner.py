"""Python tests run by pytest: hidden tests (`test_*.py` in the hidden folder) against the
workspace's code, or an answer's own tests (mutation mode), in the sandbox.

pytest starts from our driver (pydriver/driver.py) under `python -I`: pytest is imported
before the workspace is on sys.path, and the workspace is appended (not prepended), as
are the test files' folders (`--import-mode=append`), so no answer file can shadow pytest
or the standard library. Our own configuration only: `-c` names an empty ini file of
ours (an answer's pytest.ini, setup.cfg or pyproject settings, addopts included, are not
read), `--noconftest` (a conftest.py is refused anyway: reserved.py), no plugin autoload
(PYTEST_DISABLE_PLUGIN_AUTOLOAD), no cache, no bytecode written. A module that cannot be
collected (the answer's code does not import) is one failed test named by the module,
its cause first, and the other modules still run. Outcomes come from
pytest's JUnit XML, written to OUT, named `module.test` (`module.Class.test` inside a
class); the run's canaries (tripwire.py) check them and the exit status.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path

from ..toolchain import sandbox
from .junit import read_reports
from .launch import RunnerSandbox
from .outcome import Run, SuiteRun, read_lines
from .warm import WarmSpec
from .workspace import HIDDEN, OUT

SANDBOX = RunnerSandbox(memory_mb=1024, processes=sandbox.PROCESS_LIMIT)
_REPORTS = "pytest-reports"
DRIVER = Path(__file__).with_name("pydriver") / "driver.py"
_MARK = "llmbench-driver:"  # the driver's lines (pydriver/driver.py)
NO_TESTS = "no test file to run (test_*.py or *_test.py)"


def missing() -> str | None:
    """Why this machine cannot run pytest tests, or None."""
    if importlib.util.find_spec("pytest") is None:  # pragma: no cover - we run under pytest
        return f"pytest is not installed for {sys.executable}"
    return None


def patched(stderr: str) -> tuple[str, ...]:
    """The driver's findings: pytest's own functions replaced during the run, the
    workspace's modules that one of a tool or the standard library hid."""
    lines = (line.split(_MARK, 1)[1].strip() for line in stderr.splitlines() if _MARK in line)
    return tuple(dict.fromkeys(line[:300] for line in lines))[:10]


def is_test_file(path: Path) -> bool:
    return path.suffix == ".py" and (path.name.startswith("test_") or path.stem.endswith("_test"))


def hidden(
    workspace: Path, hidden_folder: Path, timeout_s: float, *, processes: int | None = None
) -> Run:
    """The hidden tests (acceptance)."""
    files = sorted(p.relative_to(workspace).as_posix() for p in hidden_folder.rglob("*.py"))
    return suite(workspace, SuiteRun(tuple(files), timeout_s, processes=processes))


def _arguments(workspace: Path, run: SuiteRun) -> list[str] | None:
    """pytest's command line for the test modules of `run` (None: none to run), our ini
    file written. The canary module, when there is one, is collected first and the run
    stops at the first failure after its must-fail test."""
    tests = [f for f in run.tests if is_test_file(Path(f))]
    if not tests:
        return None
    own = workspace / HIDDEN
    own.mkdir(exist_ok=True)
    (own / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    arguments = [
        "-q", "-c", f"{HIDDEN}/pytest.ini", "--rootdir", ".", "--import-mode=append",
        "--noconftest", "-p", "no:cacheprovider", "-o", "addopts=",
        "--continue-on-collection-errors",
        f"--junitxml={OUT}/{_REPORTS}/TEST-pytest.xml",
    ]  # fmt: skip
    if run.canaries:
        arguments.append("--maxfail=2")
        tests = [run.canaries, *(t for t in tests if t != run.canaries)]
    return arguments + tests


ENV = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "LLMBENCH_PLANNED": f"{OUT}/{_REPORTS}/planned.txt"}


def _finish(workspace: Path, outcome: sandbox.Outcome) -> Run:
    reports = workspace / OUT / _REPORTS
    # the driver's list of the tests it collected, one name a line
    done = Run.of(read_reports(reports), outcome).with_planned(read_lines(reports / "planned.txt"))
    # a served run's output is one stream (stdout); a run of its own's findings are on stderr
    found = patched(f"{outcome.stderr}\n{outcome.stdout}")
    return replace(done.stable(workspace), evidence=found)


def suite(workspace: Path, run: SuiteRun) -> Run:
    """The test modules of `run` (an answer's own tests in mutation mode, the hidden ones in
    acceptance) in one pytest process; per-test outcomes."""
    arguments = _arguments(workspace, run)
    if arguments is None:
        return Run.broken(NO_TESTS)
    command = [sys.executable, "-I", "-B", str(DRIVER), str(workspace.resolve()), *arguments]
    outcome = SANDBOX.run(
        command, workspace, run.timeout_s, run.processes, env=ENV, reads=[DRIVER.parent]
    )
    return _finish(workspace, outcome)


def warm(workspace: Path, run: SuiteRun) -> WarmSpec | None:
    """Served runs (warm.py): our driver imports pytest once, and forks each run from that
    untouched state (pydriver/driver.py `serve`)."""
    if _arguments(workspace, run) is None:
        return None

    def prepare(workspace: Path, run: SuiteRun) -> str | None:
        return NO_TESTS if _arguments(workspace, run) is None else None

    return WarmSpec(
        command=[sys.executable, "-I", "-B", str(DRIVER), str(workspace.resolve()), "--serve"],
        limits=SANDBOX,
        finish=lambda workspace, run, outcome: _finish(workspace, outcome),
        env=ENV,
        reads=(DRIVER.parent,),
        prepare=prepare,
        extra=lambda workspace, run: {"argv": _arguments(workspace, run) or []},
    )
