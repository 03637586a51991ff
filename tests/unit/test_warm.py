"""A warm server (functional/warm.py) serves one answer's runs from one sandboxed process:
it keeps serving across runs, a run at its time limit kills it (the run stopped, the next
one served by a new process), a server that exits ends its run and is started again, a
done line with another run's nonce ends nothing, and the workspace refreshed between runs
keeps only the read-only folders. The server here is a small Python program of ours; its
behaviour per request is named by the request's first test file."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from pytest_llmbench.functional.launch import RunnerSandbox
from pytest_llmbench.functional.outcome import Run, SuiteRun
from pytest_llmbench.functional.warm import Server, WarmSpec
from pytest_llmbench.functional.workspace import HIDDEN, fresh_copy
from pytest_llmbench.schema.functional import TestOutcome
from pytest_llmbench.toolchain import sandbox

pytestmark = pytest.mark.skipif(
    sandbox.missing() is not None or not sandbox.kernel_holds_limit(),
    reason="a warm server needs bubblewrap and the kernel's process count",
)

SERVER = """\
import json, os, sys, time
served = 0
for line in sys.stdin:
    request = json.loads(line)
    served += 1
    what = request["tests"][0]
    if what == "hang":
        time.sleep(3600)
    if what == "exit":
        sys.exit(3)
    if what == "forge":
        print("@@llmbench-done 0000000000000000 0", flush=True)
        time.sleep(0.2)
    os.makedirs("out", exist_ok=True)
    with open("out/report.json", "w") as report:
        json.dump({"served": served, "what": what}, report)
    print("said by the tests", flush=True)
    print("@@llmbench-done " + request["nonce"] + " 0", flush=True)
"""


def _finish(workspace: Path, suite: SuiteRun, outcome: sandbox.Outcome) -> Run:
    try:
        report = json.loads((workspace / "out" / "report.json").read_text())
    except (OSError, ValueError):
        return Run.of([], outcome)
    name = f"{report['what']} {report['served']}"
    return Run.of([TestOutcome(name=name, passed=True)], outcome)


def _server(tmp_path: Path) -> Server:
    base = tmp_path / "base"
    (base / HIDDEN).mkdir(parents=True)
    (base / HIDDEN / "server.py").write_text(SERVER)
    (base / "src.txt").write_text("as given")
    work = fresh_copy(tmp_path, base)
    limits = RunnerSandbox(memory_mb=512, processes=32)
    command = [Path(sys.executable).name, "-u", str(work / HIDDEN / "server.py")]
    spec = WarmSpec(command=command, limits=limits, finish=_finish)
    return Server(spec, work)


def _run(server: Server, what: str, timeout_s: float = 60.0) -> Run:
    """One run on the workspace laid out afresh, as mutation.Lab lays it out."""
    root = server.workspace.parent
    fresh_copy(root, root / "base", None, server.kept)
    run = server.run(SuiteRun((what,), timeout_s))
    assert run is not None
    return run


def _said(run: Run) -> tuple[str, int]:
    what, served = run.tests[0].name.split()
    return what, int(served)


def test_one_process_serves_the_runs_and_a_time_limit_ends_it(tmp_path: Path) -> None:
    server = _server(tmp_path)
    try:
        assert [_said(_run(server, "ok")) for _ in range(3)] == [("ok", 1), ("ok", 2), ("ok", 3)]
        assert server.starts == 1
        stopped = _run(server, "hang", timeout_s=2.0)
        assert stopped.stopped == "time limit" and not stopped.tests
        assert server.process is None  # killed with its sandbox
        assert _said(_run(server, "ok")) == ("ok", 1) and server.starts == 2
    finally:
        server.close()


def test_a_server_that_exits_ends_its_run_and_the_next_run_starts_another(tmp_path: Path) -> None:
    server = _server(tmp_path)
    try:
        assert _said(_run(server, "ok")) == ("ok", 1)
        ended = _run(server, "exit")
        assert ended.returncode == 3 and not ended.tests and ended.stopped is None
        assert _said(_run(server, "ok")) == ("ok", 1) and server.starts == 2
    finally:
        server.close()


def test_a_done_line_with_another_nonce_ends_nothing(tmp_path: Path) -> None:
    server = _server(tmp_path)
    try:
        run = _run(server, "forge")
        assert _said(run)[0] == "forge"  # the report the server wrote after the forged line
        assert run.returncode == 0
    finally:
        server.close()


def test_the_refreshed_workspace_keeps_only_the_read_only_folders(tmp_path: Path) -> None:
    server = _server(tmp_path)
    work, base = server.workspace, tmp_path / "base"
    try:
        _run(server, "ok")
        inode = os.stat(work).st_ino
        (work / "left.txt").write_text("by the last run")
        (work / "src.txt").write_text("changed by the last run")
        before = os.stat(work / "src.txt").st_mtime_ns
        again = fresh_copy(tmp_path, base, {"src.txt": "mutated"}, server.kept)
        assert again == work and os.stat(work).st_ino == inode
        assert not (work / "left.txt").exists() and not (work / "out").exists()
        assert (work / "src.txt").read_text() == "mutated"
        assert os.stat(work / "src.txt").st_mtime_ns != before  # the run's own time
        assert (work / HIDDEN / "server.py").is_file()
        assert _said(_run(server, "ok"))[1] == 2  # the same server reads the new files
    finally:
        server.close()


@pytest.mark.parametrize("first", ["short", "long"])
def test_after_the_first_run_the_spec_may_name_the_server_for_the_runs_after_it(
    tmp_path: Path, first: str
) -> None:
    """`then` sees the first run alone: a spec it returns serves the later runs (from a
    new process, for good: it is not asked again); None keeps the first server."""
    server = _server(tmp_path)
    asked: list[str] = []
    later = server.spec

    def then(run: Run) -> WarmSpec | None:
        asked.append(_said(run)[0])
        return later if _said(run)[0] == "long" else None

    server.spec = replace(server.spec, then=then)
    try:
        _run(server, first)
        served = [_said(_run(server, "ok"))[1] for _ in range(2)]
    finally:
        server.close()
    assert asked == [first]
    if first == "long":
        assert served == [1, 2] and server.starts == 2 and server.spec is later
    else:
        assert served == [2, 3] and server.starts == 1
