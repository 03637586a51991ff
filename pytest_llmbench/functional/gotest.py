"""Hidden Go tests (`*_test.go` of the answer's package) run by `go test` in the sandbox.

The test files are laid over the workspace (overlay.py) and protected; `go test -json`
builds the module offline (GOPROXY=off, GOFLAGS=-mod=mod, no cgo) with a build cache of
the run's own, and reports each test and subtest as JSON events. Outcomes are named as Go
names them (`TestName`, `TestName/subtest`); a test with subtests is listed by its
subtests. A package that does not build is one line of the compiler's first errors."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

from ..schema.functional import Status, TestOutcome
from ..toolchain import sandbox
from .outcome import Run
from .overlay import overlay
from .workspace import HIDDEN, OUT

MEMORY_MB = 2048  # RLIMIT_DATA: the compiler and linker of a small package
PROCESS_LIMIT = 256  # go's build runs compilers side by side, each with its threads
MAX_ERROR_LINES = 6
_PANIC = re.compile(r'"Output":"(panic: (?:[^"\\]|\\.)*)')
_FINAL: dict[str, Status] = {"pass": "passed", "fail": "failed", "skip": "skipped"}


def missing() -> str | None:
    """Why this machine cannot run Go tests, or None."""
    if shutil.which("go") is None:
        return "go is not installed (Debian: golang-go; scripts/install-runners installs it)"
    return None


def read_events(stdout: str) -> tuple[list[TestOutcome], list[str]]:
    """Per-test outcomes of `go test -json`, and the output lines that are not events
    (the build's errors)."""
    final: dict[str, Status] = {}
    output: dict[str, list[str]] = {}
    other: list[str] = []
    for line in stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            other.append(line)
            continue
        if not isinstance(event, dict):
            continue
        test, action = event.get("Test"), event.get("Action")
        if not isinstance(test, str):
            if action == "output" and isinstance(event.get("Output"), str):
                other.append(event["Output"].rstrip("\n"))
            continue
        if action == "run":
            final.setdefault(test, "not run")
        elif action in _FINAL:
            final[test] = _FINAL[action]
        elif action == "output" and isinstance(event.get("Output"), str):
            output.setdefault(test, []).append(event["Output"].rstrip("\n"))
    parents = {name.rsplit("/", 1)[0] for name in final if "/" in name}
    return [
        TestOutcome(
            name=name[:300],
            passed=status == "passed",
            message="" if status == "passed" else _message(output.get(name, [])),
            status=status,
        )
        for name, status in final.items()
        if name not in parents
    ], other


def _message(lines: list[str]) -> str:
    kept = [
        line.strip()
        for line in lines
        if line.strip()
        and not line.lstrip().startswith(("=== RUN", "--- FAIL", "=== PAUSE", "=== CONT"))
    ]
    return "\n".join(kept[:MAX_ERROR_LINES])[:600]


def _build_errors(other: list[str], outcome: sandbox.Outcome) -> str:
    lines = [
        line.strip()
        for line in [*other, *outcome.stderr.splitlines()]
        if line.strip() and not line.startswith(("FAIL", "ok ", "#"))
    ]
    return " | ".join(lines[:MAX_ERROR_LINES])[:800] or f"go test exit {outcome.returncode}"


def hidden(
    workspace: Path, hidden_folder: Path, timeout_s: float, *, processes: int | None = None
) -> Run:
    """The hidden tests, laid over the workspace's package, by `go test`."""
    placed = overlay(workspace, hidden_folder)
    if not any(p.endswith("_test.go") for p in placed):
        return Run.broken("the hidden tests folder has no *_test.go file")
    if not (workspace / "go.mod").is_file():
        return Run.broken("the workspace has no go.mod (the dataset's module file)")
    own = workspace / OUT / "go"
    env = {
        "GOCACHE": str((own / "cache").resolve()),
        "GOPATH": str((own / "path").resolve()),
        "GOTMPDIR": str((own / "tmp").resolve()),
        "GOPROXY": "off",
        "GOFLAGS": "-mod=mod",
        "GOTOOLCHAIN": "local",
        "GOTELEMETRY": "off",
        "CGO_ENABLED": "0",
    }
    for folder in ("cache", "path", "tmp"):
        (own / folder).mkdir(parents=True, exist_ok=True)
    outcome = sandbox.run(
        ["go", "test", "-json", "-count=1", "./..."],
        workspace,
        timeout=timeout_s,
        memory_mb=MEMORY_MB,
        processes=processes or PROCESS_LIMIT,
        env=env,
        protect=[workspace / HIDDEN, *(workspace / p for p in placed)],
    )
    tests, other = read_events(outcome.stdout)
    if not tests and not outcome.killed and outcome.returncode != 0:
        why = _build_errors(other, outcome).replace(str(workspace.resolve()), ".")
        return Run.broken(f"the package does not build with its tests: {why}")
    run = Run.of(tests, outcome)
    panic = _PANIC.search(outcome.stdout)  # a test's output event, or the binary's own
    if panic is not None and run.error is None:  # the tests after it never ran
        return replace(run, error=f"the test program stopped: {panic.group(1)[:200]}")
    return run
