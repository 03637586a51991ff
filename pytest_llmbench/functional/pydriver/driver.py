"""The pytest runner's driver (pytest_runner.py), started as

    python -I -B driver.py WORKSPACE PYTEST-ARGUMENTS...
    python -I -B driver.py WORKSPACE --serve      (served runs: `serve`)

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
import time

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


def run(workspace: str, arguments: list[str]) -> int:
    """One pytest run of the workspace's tests, its findings written to stderr."""
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


def _state(pid: str) -> tuple[int, str] | None:
    """(parent pid, state letter) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return int(fields[1]), fields[0].decode()
    except (OSError, ValueError, IndexError):
        return None


def _sweep() -> None:
    """Every process of the sandbox but this one and those above it killed, and gone
    before the next run (served runs share the sandbox): until no other one is left
    (one forking meanwhile is found again), at most 200 rounds."""
    keep, pid = set(), os.getpid()
    while pid > 0 and pid not in keep:
        keep.add(pid)
        found = _state(str(pid))
        pid = found[0] if found else 0
    for _ in range(200):
        others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in keep]
        alive = [p for p in others if (found := _state(p)) is not None and found[1] != "Z"]
        if not alive:
            return
        for other in alive:
            try:
                os.kill(int(other), 9)
            except OSError:
                pass
        time.sleep(0.005)


def serve(workspace: str) -> int:
    """Served runs (functional/warm.py): per request line, {"nonce", "argv"} in JSON, one
    run in a child forked from this process, which imported pytest and never runs a test
    itself, so every run starts from the same untouched state; then every process the run
    left is killed and `@@llmbench-done NONCE STATUS` written."""
    import json

    out = os.dup(1)
    for line in sys.stdin:
        try:
            request = json.loads(line)
            nonce, arguments = str(request["nonce"]), [str(a) for a in request["argv"]]
        except (ValueError, KeyError, TypeError):
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        child = os.fork()
        if child == 0:  # the run: no requests to read, its own exit
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
            os.close(out)
            status = run(workspace, arguments)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)
        _, waited = os.waitpid(child, 0)
        _sweep()
        os.write(out, f"@@llmbench-done {nonce} {os.waitstatus_to_exitcode(waited)}\n".encode())
    return 0


def main() -> int:
    workspace, *arguments = sys.argv[1:]
    if arguments == ["--serve"]:
        return serve(workspace)
    return run(workspace, arguments)


if __name__ == "__main__":
    raise SystemExit(main())
