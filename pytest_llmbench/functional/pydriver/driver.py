"""The pytest runner's driver (pytest_runner.py), started as

    python -I -B driver.py WORKSPACE PYTEST-ARGUMENTS...

pytest is imported first, from the interpreter's own installation (`-I`: no PYTHONPATH,
no user site-packages, neither the working folder nor this folder on the path), and only
then is the workspace APPENDED to sys.path: no file of the answer (a `pytest.py`, a
`sitecustomize.py`, a module named like one pytest loads) can stand in for pytest or
anything of the standard library.

The functions through which pytest makes and records a test's outcome are noted before
any test module is imported; one replaced by the end of the run (an answer that patches
pytest's reports) is written to stderr as a line `MARK name`, which the runner takes as
evidence of tampering. The folder holds this file alone: the sandbox shows it read-only
to the run."""

import os
import sys

import _pytest.junitxml
import _pytest.python
import _pytest.reports
import _pytest.runner
import pytest  # before the workspace is on the path

MARK = "llmbench-driver: pytest was patched:"
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


def main() -> int:
    workspace, *arguments = sys.argv[1:]
    before = _noted()
    sys.path.append(workspace)
    status = int(pytest.main(arguments))
    for (owner, name), was, now in zip(GUARDED, before, _noted(), strict=True):
        if was is not now:
            _write(2, f"\n{MARK} {getattr(owner, '__name__', owner)}.{name}\n".encode())
    return status


if __name__ == "__main__":
    raise SystemExit(main())
