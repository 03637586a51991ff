"""The pytest runner's driver (pytest_runner.py), started as

    python -I -B driver.py WORKSPACE PYTEST-ARGUMENTS...

pytest is imported first, from the interpreter's own installation (`-I`: no PYTHONPATH,
no user site-packages, neither the working folder nor this folder on the path), and only
then is the workspace APPENDED to sys.path: no file of the answer (a `pytest.py`, a
`sitecustomize.py`, a module named like one pytest loads) can stand in for pytest or
anything of the standard library.

The functions through which pytest makes and records a test's outcome are noted before
any test module is imported; one replaced by the end of the run (an answer that patches
pytest's reports) is written to stderr as a line `MARK pytest was patched: name`. So is a
module of the workspace that a module of the same name loaded from elsewhere hides (an
answer's `shlex.py` beside pytest's `shlex`: written to stand in for a tool's module, it
never runs): `MARK the workspace's module ... is hidden ...`. The runner takes each such
line as evidence of tampering. The folder holds this file alone: the sandbox shows it
read-only to the run."""

import os
import sys

import _pytest.junitxml
import _pytest.python
import _pytest.reports
import _pytest.runner
import pytest  # before the workspace is on the path

MARK = "llmbench-driver:"
GUARDED = (
    (_pytest.reports.TestReport, "from_item_and_call"),
    (_pytest.reports.TestReport, "__init__"),
    (_pytest.reports.BaseReport, "passed"),
    (_pytest.reports.BaseReport, "failed"),
    (_pytest.reports.BaseReport, "skipped"),
    (_pytest.runner.CallInfo, "from_call"),
    (_pytest.runner, "call_and_report"),
    (_pytest.runner, "call_runtest_hook"),
    (_pytest.runner, "runtestprotocol"),
    (_pytest.runner, "pytest_runtest_makereport"),
    (_pytest.python.Function, "runtest"),
    (_pytest.python, "pytest_pyfunc_call"),
    (_pytest.junitxml.LogXML, "pytest_runtest_logreport"),
    (_pytest.junitxml.LogXML, "pytest_sessionfinish"),
)
_write = os.write


def _noted() -> list[object]:
    return [vars(owner).get(name) for owner, name in GUARDED]


def _inside(path: str, folder: str) -> bool:
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return path == folder or path.startswith(folder + os.sep)


def _modules_in(folder: str) -> dict[str, str]:
    """The top-level modules a folder on sys.path offers: name -> file or package."""
    found: dict[str, str] = {}
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return found
    for entry in entries:
        if entry.name.endswith(".py") and entry.is_file(follow_symlinks=False):
            found[entry.name[:-3]] = entry.name
        elif entry.is_dir(follow_symlinks=False):
            if os.path.isfile(os.path.join(entry.path, "__init__.py")):
                found[entry.name] = entry.name + "/"
    return found


def _hidden(workspace: str) -> list[str]:
    """The workspace's modules that a module of the same name loaded from outside the
    workspace (the standard library's, a test tool's) stood in for during the run."""
    lines = []
    for folder in dict.fromkeys(p for p in sys.path if _inside(p, workspace)):
        for name, file in sorted(_modules_in(folder).items()):
            module = sys.modules.get(name)
            origin = getattr(module, "__file__", None) if module is not None else ""
            if module is not None and not (origin and _inside(origin, workspace)):
                where = os.path.relpath(os.path.join(folder, file), workspace)
                lines.append(
                    f"the workspace's module {where} is hidden by {name!r} of {origin or 'the interpreter'}"
                )
    return lines


class Planned:
    """Writes the names of the tests collected, as the runner names them from the JUnit
    XML (`module.test`, `Class.test`), one a line, to the file LLMBENCH_PLANNED names:
    the tests a run that stops early did not reach are then listed as not run."""

    def __init__(self, path: str) -> None:
        self.path = path

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        names = []
        for item in session.items:
            parts = _pytest.junitxml.mangle_test_address(item.nodeid)
            owner = parts[-2].rsplit(".", 1)[-1] if len(parts) > 1 else ""
            names.append(f"{owner}.{parts[-1]}" if owner else parts[-1])
        os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
        with open(self.path, "w", encoding="utf-8") as out:
            out.write("".join(f"{name}\n" for name in names))


def main() -> int:
    workspace, *arguments = sys.argv[1:]
    before = _noted()
    sys.path.append(workspace)
    planned = os.environ.get("LLMBENCH_PLANNED")
    status = int(pytest.main(arguments, plugins=[Planned(planned)] if planned else []))
    found = [
        f"pytest was patched: {getattr(owner, '__name__', owner)}.{name}"
        for (owner, name), was, now in zip(GUARDED, before, _noted(), strict=True)
        if was is not now
    ]
    for line in found + _hidden(workspace):
        _write(2, f"\n{MARK} {line}\n".encode())
    return status


if __name__ == "__main__":
    raise SystemExit(main())
