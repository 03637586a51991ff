"""Hidden tests written for node's test runner (`*.test.mjs`), with the jsdom harness
(harness/harness.mjs) that builds the answer's app with esbuild and opens it in a page."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from ..schema.functional import TestOutcome
from ..toolchain import sandbox
from ..toolchain.node_packages import modules_dir, node_missing
from .launch import RunnerSandbox
from .outcome import Run, report_seconds
from .workspace import OUT

NEEDED = (
    "esbuild",
    "jsdom",
    "react",
    "react-dom",
    "@testing-library/dom",
    "@testing-library/user-event",
)
MEMORY_MB = 2048  # jsdom and esbuild in one process; RLIMIT_DATA, not address space
SANDBOX = RunnerSandbox(memory_mb=MEMORY_MB, processes=sandbox.RUNNER_PROCESS_LIMIT)
# No code compiled from strings in Node's realm: the app runs in a jsdom page, and an object
# of Node's realm within its reach (`x.constructor.constructor('return process')()`) would
# hand it Node. The page's own realm keeps eval and Function (Angular's JIT compiler).
NODE_FLAGS = ("--disallow-code-generation-from-strings",)


def missing() -> str | None:
    """Why this machine cannot run node tests, or None."""
    return node_missing(modules_dir(NEEDED), "node's test", "scripts/install-runners")


def read_results(path: Path) -> list[TestOutcome]:
    """The reporter's lines (reporter.mjs); a line that is not one is ignored. A skipped
    or todo test is listed as skipped: it counts as not passed."""
    outcomes: list[TestOutcome] = []
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return outcomes
    for line in lines:
        try:
            row = json.loads(line)
            skipped = bool(row.get("skipped"))
            passed = bool(row["passed"]) and not skipped
            outcomes.append(
                TestOutcome(
                    name=str(row["name"])[:300],
                    passed=passed,
                    message=str(row.get("message", ""))[:600],
                    status="skipped" if skipped else "passed" if passed else "failed",
                    seconds=report_seconds(row.get("duration_ms"), 0.001),
                )
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    return outcomes


def run_node(
    workspace: Path, hidden: Path, timeout_s: float, *, processes: int | None = None
) -> Run:
    modules = modules_dir(NEEDED)
    if modules is None:  # verify.MISSING said so before the run; gone meanwhile
        return Run.broken(missing() or "node's test packages are missing")
    tests = sorted(p.relative_to(workspace).as_posix() for p in hidden.rglob("*.test.mjs"))
    if not tests:
        return Run.broken("the hidden tests folder has no *.test.mjs file")
    results = workspace / OUT / "results.jsonl"
    command = [
        "node",
        *NODE_FLAGS,
        "--test",
        "--test-concurrency=1",
        f"--test-reporter=./{hidden.name}/reporter.mjs",
        f"--test-reporter-destination=./{OUT}/{results.name}",
        *tests,
    ]
    env = {
        "LLMBENCH_WORKSPACE": str(workspace.resolve()),
        "LLMBENCH_NODE_MODULES": str(modules),
        # the test files' own processes too, whatever node passes on to them
        "NODE_OPTIONS": " ".join(NODE_FLAGS),
    }
    outcome = SANDBOX.run(
        command, workspace, timeout_s, processes, env=env, reads=[modules], protect=[hidden]
    )
    run = Run.of(read_results(results), outcome).stable(workspace)
    return escapes(run, outcome, workspace / OUT / ESCAPES)


# V8's message when code asks the outer realm's Function constructor (reached through an
# object of jsdom) to compile a string: the page's own eval is allowed, so an answer meets
# it only on its way out of the page, to Node.
ESCAPE = "Code generation from strings disallowed"
# The harness's notes of code strings compiled in the page that name Node's globals
# (harness.mjs, guardCodeStrings): one JSON object a line, {kind, source}.
ESCAPES = "escapes.jsonl"


def _noted(path: Path) -> list[str]:
    """The harness's notes, each as `kind: the string's start`: the first 20 lines of the
    file's first 64 KB (a link, which the harness never writes, is not followed)."""
    try:
        if path.is_symlink():
            return []
        with path.open("rb") as notes_file:
            head = notes_file.read(64_000)
    except OSError:
        return []
    lines = head.decode("utf-8", errors="replace").splitlines()
    notes = []
    for line in lines[:20]:
        try:
            row = json.loads(line)
            notes.append(f"{row['kind']}: {' '.join(str(row['source']).split())[:80]}")
        except (ValueError, KeyError, TypeError):
            continue
    return notes


def escapes(run: Run, outcome: sandbox.Outcome, notes: Path) -> Run:
    """The run with evidence when the answer's code tried to leave the page for Node: a
    refused compilation in Node's realm, or a string compiled in the page that names
    Node's globals."""
    where = [t.name for t in run.tests if ESCAPE in t.message]
    if ESCAPE in outcome.stderr:
        where.append("the test process")
    found = []
    if where:
        found.append(
            f"the answer's code reached for Node outside its page (refused) in: {', '.join(where)}"
        )
    if noted := _noted(notes):
        found.append(f"the answer's code compiled strings that reach for Node: {'; '.join(noted)}")
    if not found:
        return run
    return replace(run, evidence=(*run.evidence, *(line[:400] for line in found)))
