"""Warm runs (mutation mode): one answer's runs served by one sandboxed process, each run
in a fresh realm, so start-up is paid once per answer instead of once per run.

A runner that can serve declares `warm(workspace, suite) -> WarmSpec | None` (mutation.WARM).
`Server` starts its command once, in the runner's sandbox (toolchain/served.py: the same
allow-list, limits and user id as a run of its own), with the workspace as its working
folder, and sends it one request per run, a JSON line on its stdin:

    {"nonce": "<hex>", "tests": [...], "first": "<canary file>" | null, "bail": true | false,
     "coverage": true | false}

The server runs those test files in a fresh realm (a new module registry and vm contexts,
a new class loader), writes the runner's usual report where the run of its own writes it,
and prints `@@llmbench-done <nonce> <code>`: `code` is the exit status the run of its own
would have had. What else it prints (stdout and stderr are one pipe) is the run's output.

The caller refreshes the workspace in place between runs (workspace.fresh_copy: same folder,
every file afresh; the read-only folders, bind mounts of the sandbox, kept); `Server.run`
hands it to the sandbox's user again. At the run's time limit the whole sandbox is killed
and the run is stopped there, as a run of its own would be; a server that ended (a test
called exit) ends that run as its exit would. Either way the next run starts a new server,
as it does every WARM_RUNS runs.

The answer's code runs in the server's process and may leave its realm: nothing the
server says after the first run is trusted more than the run's own report. What keeps
the verdict is elsewhere: every run's canaries (tripwire.py), the equivalent mutants run
among the mutants (mutation.py: a suite that behaves otherwise in later runs than in the
first is caught) and the sandbox's walls.
"""

from __future__ import annotations

import json
import os
import secrets
import select
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..toolchain import confine, sandbox, served
from .launch import RunnerSandbox
from .outcome import Run, SuiteRun
from .workspace import HIDDEN

DONE = b"@@llmbench-done "
OUTPUT_BYTES = 200_000  # of a run's output, its tail kept
WARM_RUNS = 40  # runs one server serves before a new one starts
_READ = 65536


def _nothing(workspace: Path, suite: SuiteRun) -> str | None:
    return None


@dataclass(frozen=True)
class WarmSpec:
    """How a runner serves an answer's runs."""

    command: list[str]  # the server's, started in the workspace
    limits: RunnerSandbox  # the runner's limits
    # the run from its report and the run's output (sandbox.Outcome), as the run of its
    # own reads it
    finish: Callable[[Path, SuiteRun, sandbox.Outcome], Run]
    env: dict[str, str] = field(default_factory=dict)
    reads: tuple[Path, ...] = ()  # outside the workspace, read-only
    protect: tuple[Path, ...] = ()  # in the workspace, read-only (HIDDEN always)
    # what one run needs in the freshly copied workspace before its request (links,
    # carried caches); why the run cannot go, or None
    prepare: Callable[[Path, SuiteRun], str | None] = _nothing
    # the test files of a run the server is asked to run
    select: Callable[[SuiteRun], list[str]] = lambda suite: list(suite.tests)
    # what else a request tells the server (pytest's: its command line)
    extra: Callable[[Path, SuiteRun], dict[str, object]] = lambda workspace, suite: {}
    # after the answer's first run (its clean run): the spec of the servers that serve the
    # runs after it (the server is started again), or None to keep this one
    then: Callable[[Run], WarmSpec | None] = lambda run: None


# A runner's warm side: the spec for an answer whose workspace is laid out for its first
# run, or None (its runs go on their own).
Warm = Callable[[Path, SuiteRun], "WarmSpec | None"]


@dataclass
class Server:
    """One answer's server: started at its first run, again after a limit or an exit."""

    spec: WarmSpec
    workspace: Path
    processes: int | None = None  # the scenario's limit (None: the runner's own)
    process: subprocess.Popen[bytes] | None = None
    uid: int | None = None
    runs: int = 0  # served by the current process
    starts: int = 0  # processes started, over the answer's runs

    @property
    def kept(self) -> list[Path]:
        """The read-only folders of the workspace (bind mounts while a server runs): a
        refresh keeps them as they are."""
        return [self.workspace / HIDDEN, *self.spec.protect]

    def _start(self) -> sandbox.Outcome | None:
        self.close()
        started = served.serve(
            self.spec.command,
            self.workspace,
            memory_mb=self.spec.limits.memory_mb,
            processes=self.processes or self.spec.limits.processes,
            env=self.spec.env,
            reads=self.spec.reads,
            protect=list(dict.fromkeys(self.kept)),
        )
        if isinstance(started, sandbox.Outcome):
            return started
        self.process, self.uid = started
        self.runs = 0
        self.starts += 1
        return None

    def close(self) -> None:
        if self.process is not None:
            served.end(self.process)
        self.process = None

    def run(self, suite: SuiteRun) -> Run | None:
        """One run of `suite` on the workspace as the caller laid it out; None when no
        server can start here (the run goes on its own)."""
        why = self.spec.prepare(self.workspace, suite)
        if why is not None:
            return Run.broken(why)
        started = time.monotonic()
        if self.process is None or self.runs >= WARM_RUNS:
            if self._start() is not None:
                return None
        elif self.uid is not None:
            confine.hand_over(self.workspace.resolve(), self.uid)
        self.runs += 1
        outcome = self._request(suite, started)
        run = replace(self.spec.finish(self.workspace, suite, outcome), seconds=outcome.seconds)
        if self.starts == 1 and self.runs == 1 and (later := self.spec.then(run)) is not None:
            self.close()  # the next run starts the server `later` gives
            self.spec = later
        return run

    def _request(self, suite: SuiteRun, started: float) -> sandbox.Outcome:
        assert self.process is not None and self.process.stdin is not None
        nonce = secrets.token_hex(8)
        request = {
            "nonce": nonce,
            "tests": self.spec.select(suite),
            "first": suite.canaries,
            "bail": suite.canaries is not None,
            "coverage": suite.coverage,
            **self.spec.extra(self.workspace, suite),
        }
        try:
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
        except OSError:  # it ended after its last run: this run starts a new one
            if (refused := self._start()) is not None:
                return refused
            return self._request(suite, started)
        return self._await(nonce, started + suite.timeout_s, started)

    def _await(self, nonce: str, deadline: float, started: float) -> sandbox.Outcome:
        """The run's outcome: its done line, the server's end, or the time limit."""
        assert self.process is not None and self.process.stdout is not None
        pipe = self.process.stdout.fileno()
        marker = DONE + nonce.encode() + b" "
        output = b""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                return _outcome(None, output, started, "time limit")
            ready, _, _ = select.select([pipe], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(pipe, _READ)
            if not chunk:  # the server ended: as the run's process would have
                try:
                    code: int | None = self.process.wait(timeout=2.0)
                except subprocess.TimeoutExpired:  # it closed its output and went on
                    code = None
                self.close()
                return _outcome(code, output, started)
            output = (output + chunk)[-OUTPUT_BYTES:]
            at = output.rfind(marker)
            if at >= 0 and b"\n" in output[at:]:
                line = output[at + len(marker) :].split(b"\n", 1)[0]
                code = int(line) if line.strip().isdigit() else 1
                return _outcome(code, output[:at], started)


def _outcome(
    code: int | None, output: bytes, started: float, killed: str | None = None
) -> sandbox.Outcome:
    text = output.decode("utf-8", errors="replace")
    return sandbox.Outcome(code, text, "", killed, seconds=time.monotonic() - started)
