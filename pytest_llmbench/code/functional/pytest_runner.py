"""Python tests run by pytest: hidden tests (`test_*.py` in the hidden folder) against the
workspace's code, or an answer's own tests (mutation mode), in the sandbox.

Our own configuration only: `-c` names an empty ini file of ours (an answer's pytest.ini,
setup.cfg or pyproject settings, addopts included, are not read), `--noconftest` (an
answer's conftest.py is never imported: it could rewrite outcomes), no plugin autoload
(PYTEST_DISABLE_PLUGIN_AUTOLOAD), no cache. The workspace is on PYTHONPATH, so tests
import its modules by their names. Outcomes come from pytest's JUnit XML, named
`module.test` (`module.Class.test` inside a class).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from .. import sandbox
from .junit import read_reports
from .outcome import Run
from .workspace import HIDDEN

MEMORY_MB = 1024
_REPORTS = "pytest-reports"


def missing() -> str | None:
    """Why this machine cannot run pytest tests, or None."""
    if importlib.util.find_spec("pytest") is None:  # pragma: no cover - we run under pytest
        return f"pytest is not installed for {sys.executable}"
    return None


def run_pytest(workspace: Path, tests: list[str], timeout_s: float) -> Run:
    """`tests` (paths relative to the workspace) in one pytest process; per-test outcomes."""
    if not tests:
        return Run.broken("no test file to run (test_*.py or *_test.py)")
    own = workspace / HIDDEN
    own.mkdir(exist_ok=True)
    (own / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    reports = own / _REPORTS
    command = [
        sys.executable, "-m", "pytest", "-q", "-c", f"{HIDDEN}/pytest.ini", "--rootdir", ".",
        "--noconftest", "-p", "no:cacheprovider", "-o", "addopts=",
        f"--junitxml={HIDDEN}/{_REPORTS}/TEST-pytest.xml", *tests,
    ]  # fmt: skip
    env = {
        "PYTHONPATH": str(workspace.resolve()),
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    outcome = sandbox.run(command, workspace, timeout=timeout_s, memory_mb=MEMORY_MB, env=env)
    return Run.of(read_reports(reports), outcome)


def is_test_file(path: Path) -> bool:
    return path.suffix == ".py" and (path.name.startswith("test_") or path.stem.endswith("_test"))


def hidden(workspace: Path, hidden_folder: Path, timeout_s: float) -> Run:
    """The hidden tests (acceptance)."""
    tests = sorted(
        p.relative_to(workspace).as_posix() for p in hidden_folder.rglob("*.py") if is_test_file(p)
    )
    return run_pytest(workspace, tests, timeout_s)


def suite(workspace: Path, test_files: list[str], timeout_s: float) -> Run:
    """An answer's own tests (mutation mode): its test modules among `test_files`."""
    return run_pytest(workspace, [f for f in test_files if is_test_file(Path(f))], timeout_s)
