"""Hidden tests written for node's test runner (`*.test.mjs`), with the jsdom harness
(harness/harness.mjs) that builds the answer's app with esbuild and opens it in a page.
Two reporters of ours run in node's own process, outside the test files' processes the
answer's code runs in: reporter.mjs writes the finished tests, planner.mjs each test as
node queues it, before it runs; a queued test that never reported is listed `not run`."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

from ..schema.functional import TestOutcome
from ..toolchain import sandbox
from ..toolchain.node_packages import modules_dir, node_missing, node_program
from . import node_bundles, node_share
from .launch import RunnerSandbox
from .outcome import Run, read_lines, report_seconds
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
BUILD_STEP_S = 30.0  # the step before a run that makes its bundles (node_bundles.py)


def missing() -> str | None:
    """Why this machine cannot run node tests, or None."""
    return node_missing(modules_dir(NEEDED), "node's test", "scripts/install-runners")


def read_results(path: Path) -> tuple[list[TestOutcome], set[str]]:
    """The reporter's lines (reporter.mjs): the tests, and the names of the suites that
    passed (no tests: their tests have lines of their own); a line that is neither is
    ignored. A skipped or todo test is listed as skipped: it counts as not passed."""
    outcomes: list[TestOutcome] = []
    suites: set[str] = set()
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return outcomes, suites
    for line in lines:
        try:
            row = json.loads(line)
            skipped = bool(row.get("skipped"))
            passed = bool(row["passed"]) and not skipped
            if row.get("suite") and passed:
                suites.add(str(row["name"])[:300])
                continue
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
    return outcomes, suites


def read_plan(path: Path) -> list[str]:
    """The names of the tests the run queued (planner.mjs: one JSON object a line, {name}),
    from the file's head (outcome.read_lines); a line that is not one is ignored."""
    names = []
    for line in read_lines(path):
        try:
            names.append(str(json.loads(line)["name"])[:300])
        except (ValueError, KeyError, TypeError):
            continue
    return names


def run_node(
    workspace: Path, hidden: Path, timeout_s: float, *, processes: int | None = None
) -> Run:
    modules = modules_dir(NEEDED)
    if modules is None:  # verify.MISSING said so before the run; gone meanwhile
        return Run.broken(missing() or "node's test packages are missing")
    tests = sorted(p.relative_to(workspace).as_posix() for p in hidden.rglob("*.test.mjs"))
    if not tests:
        return Run.broken("the hidden tests folder has no *.test.mjs file")
    results, plan = workspace / OUT / "results.jsonl", workspace / OUT / "planned.jsonl"
    command = [
        node_program(),
        *NODE_FLAGS,
        "--test",
        "--test-concurrency=1",
        f"--test-reporter=./{hidden.name}/reporter.mjs",
        f"--test-reporter-destination=./{OUT}/{results.name}",
        f"--test-reporter=./{hidden.name}/planner.mjs",
        f"--test-reporter-destination=./{OUT}/{plan.name}",
        *tests,
    ]
    env = {
        "LLMBENCH_WORKSPACE": str(workspace.resolve()),
        "LLMBENCH_NODE_MODULES": str(modules),
        # the test files' own processes too, whatever node passes on to them
        "NODE_OPTIONS": " ".join(NODE_FLAGS),
    }
    tests_key = node_bundles.tests_key(hidden)
    prebuilt, build_s = _prebuilt(workspace, hidden, modules, tests_key, env, timeout_s)
    reads = [modules]
    if prebuilt is not None:
        env["LLMBENCH_BUNDLES"] = str(prebuilt)
        reads.append(prebuilt)  # this answer's bundles alone, read-only
    if (share := node_share.shared(modules)) is not None:
        env["LLMBENCH_NODE_SHARE"] = str(share)
        reads.append(share)
    outcome = SANDBOX.run(
        command, workspace, timeout_s, processes, env=env, reads=reads, protect=[hidden]
    )
    finished, suites = read_results(results)
    # each queued test that never reported is listed as not run (a suite is accounted for
    # by its line in the results: the plan only ever adds)
    planned = [name for name in read_plan(plan) if name not in suites]
    run = Run.of(finished, outcome).with_planned(planned).stable(workspace)
    run = replace(run, seconds=run.seconds + build_s, build_s=build_s)
    run = escapes(run, outcome, workspace / OUT / ESCAPES)
    if not run.evidence:  # requests of code seen reaching for Node are not learnt
        node_bundles.LEARNT.learn(tests_key, workspace / OUT / node_bundles.ASKED)
    return run


def _prebuilt(
    workspace: Path, hidden: Path, modules: Path, tests_key: str, env: dict[str, str], limit: float
) -> tuple[Path | None, float]:
    """The cache's folder of bundles of this workspace (node_bundles.py), or None when it
    has none, after the step before the run made the learnt requests it lacked; and the
    step's seconds (0.0 when it had all)."""
    try:
        root = node_bundles.cache_folder()
        folder = root / node_bundles.salt(workspace, modules)
    except OSError:
        return None, 0.0
    wanted = [s for s in node_bundles.LEARNT.specs(tests_key) if not node_bundles.made(folder, s)]
    seconds = 0.0
    if wanted:
        out = workspace / OUT
        (out / node_bundles.SPECS).write_text(json.dumps(wanted), encoding="utf-8")
        made = out / node_bundles.PREBUILT
        shutil.rmtree(made, ignore_errors=True)  # only the step's own bundles are stored
        step = [
            node_program(), *NODE_FLAGS, f"./{hidden.name}/prebuild.mjs",
            f"./{OUT}/{node_bundles.SPECS}", f"./{OUT}/{made.name}",
        ]  # fmt: skip
        done = SANDBOX.run(
            step,
            workspace,
            min(limit, BUILD_STEP_S),
            None,
            env=env,
            reads=[modules],
            protect=[hidden],
        )
        seconds = done.seconds
        if node_bundles.store(made, folder):
            node_bundles.prune(root)
        shutil.rmtree(made, ignore_errors=True)
    return (folder if folder.is_dir() else None), seconds


# V8's message when code asks the outer realm's Function constructor (reached through an
# object of jsdom) to compile a string: the page's own eval is allowed, so an answer meets
# it only on its way out of the page, to Node.
ESCAPE = "Code generation from strings disallowed"
# The harness's notes of code strings compiled in the page that name Node's globals
# (harness.mjs, guardCodeStrings): one JSON object a line, {kind, source}.
ESCAPES = "escapes.jsonl"


def _noted(path: Path) -> list[str]:
    """The harness's notes, each as `kind: the string's start`: the first 20 lines of the
    file's first 64 KB (outcome.read_lines)."""
    notes = []
    for line in read_lines(path, 64_000, 20):
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
