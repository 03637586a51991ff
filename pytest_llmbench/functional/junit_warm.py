"""The JUnit runner's warm runs (mutation mode, warm.py): one JVM per answer, our
java_warm/llmbench/junit/WarmServer, started in the runner's sandbox with the workspace as its
working folder, runs each of the suite's runs on request: it compiles the workspace with
the JDK's javac in its own JVM (a later run only what changed: WarmBuild, WarmCarry),
loads the answer's and the dataset's classes and the tests in a class loader of the
run's own, and runs them through the JUnit Platform launcher as the cold run's console
launcher does (every class, the canary class among them), writing the same XML reports
and plan (PlannedTests) into WORK, read here by junit.read_reports and junit.read_plan.
WarmRun.java says what is per run and what stays in the server's loader.

The server is made once per JDK and jar list (jvm_share.server): our java/ sources in a
jar, and a class data archive of what it loads on the warm-up test. Its JVM has the cold
run's flags and the client compiler (C1) alone: with tiered compilation, a suite of short
tests (the usual one) has the server spend about 40% of its CPU on C2 compiling javac and
the test tools, for runs that end before that code pays off (LegacyEJBService's suite:
C1 alone halves the server's CPU, docs/measurements.md). A suite whose clean run's
tests took LONG_TESTS_S or more is served after it by a JVM with tiered compilation, as
the cold run's tests are: code that computes much runs faster once C2 compiled it.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from functools import partial
from pathlib import Path

from ..toolchain import jvm_share, sandbox
from .junit import (
    SANDBOX,
    SUPPORT,
    compile_errors,
    read_plan,
    read_reports,
    suite_tests,
    surroundings,
    toolchain,
)
from .junit_options import JVM_FLAGS
from .outcome import Run, SuiteRun, read_lines
from .warm import WarmSpec
from .workspace import OUT

SERVER = Path(__file__).with_name("java_warm")  # the server's own sources (with SUPPORT's)
MAIN = "llmbench.junit.WarmServer"
WORK = f"{OUT}/junit"  # the server's folder in the workspace, made afresh each run
COMPILED = "compiled.txt"  # `ok SECONDS` or `failed SECONDS`, then javac's errors a line
LONG_TESTS_S = 2.0  # the clean run's tests, on C1 alone, from which C2 is worth its CPU


def _warm_up() -> tuple[list[str], str]:
    """The server's arguments after its class path, and the two requests of its warm-up
    (jvm_share.server): a full build, then a build of nothing changed."""
    request = {"tests": [f"src/test/java/{jvm_share.WARM_UP_CLASS}.java"], "first": None}
    lines = [json.dumps({**request, "nonce": nonce, "bail": False}) for nonce in ("a1", "b2")]
    return [MAIN, WORK], "\n".join(lines) + "\n"


def warm(workspace: Path, suite: SuiteRun) -> WarmSpec | None:
    """The warm server for the suite's runs, or None (no JDK or jars, no .java test, the
    server could not be made): the runs then go on their own (junit.suite)."""
    tools = toolchain()
    if isinstance(tools, str) or not suite_tests(workspace, suite):
        return None
    sources = (SUPPORT, SERVER)
    server = jvm_share.server(tools.javac, tools.java, tools.jars, sources, _warm_up())
    if server is None:
        return None
    classpath = os.pathsep.join([*(str(j) for j in tools.jars), str(server.jar)])
    command = [
        tools.java, *JVM_FLAGS, *server.java, f"-Djava.io.tmpdir={WORK}/tmp",
        "-cp", classpath, MAIN, WORK,
    ]  # fmt: skip
    env, reads = surroundings(tools, jvm_share.Archives(folder=server.folder))
    tiered = WarmSpec(
        command=command,
        limits=SANDBOX,
        finish=finish,
        env=env,
        reads=tuple(reads),
        prepare=_prepare,
    )
    short = [command[0], *jvm_share.C1_ONLY, *command[1:]]
    return replace(tiered, command=short, then=partial(_computing, tiered))


def _computing(tiered: WarmSpec, clean: Run) -> WarmSpec | None:
    """The tiered server for the runs after a clean run whose tests took long."""
    return tiered if clean.phases.get("tests", 0.0) >= LONG_TESTS_S else None


def _prepare(workspace: Path, suite: SuiteRun) -> str | None:
    suite_tests(workspace, suite)  # Mockito 5's names, as a run of its own has them
    return None


def finish(workspace: Path, suite: SuiteRun, outcome: sandbox.Outcome) -> Run:
    """The run as the server left it in WORK: javac's errors (a broken run), or the tests'
    outcomes from the XML reports and the plan, as a run of its own reads them."""
    work = workspace / WORK
    head, *errors = read_lines(work / COMPILED) or [""]
    state, _, seconds = head.partition(" ")
    if state == "failed":
        why = compile_errors(sandbox.Outcome(1, "", "\n".join(errors)))
        return Run.broken(f"the tests and src/main/java do not compile: {why}")
    run = Run.of(read_reports(work / "reports"), outcome)
    run = run.with_planned(read_plan(work / "planned.tsv"))
    return replace(run, build_s=min(_seconds(seconds), outcome.seconds))


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        return 0.0
    return value if 0 <= value < 3600 else 0.0
