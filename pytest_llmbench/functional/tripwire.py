"""Tripwires: canary tests made up for one run, which tell whether the verdict was forged.

Each run gets canaries with random names and random contents, written like the ordinary
tests of its runner: some that must fail (an expectation that cannot hold) and some that
must pass. They go where the answer's code runs: before the tests of each of node's
hidden `*.test.mjs` (imports under random aliases; first, so that a test process the
answer's code brings down has run them), after those of pytest's test modules, Cargo's
`tests/*.rs` and Catch's `*_test.cpp`, a generated test class compiled and run in the
same JVM (JUnit), a test file of the hidden tests' package (Go), a spec file beside the
hidden specs (Jest), or, for an answer's own tests (mutation mode), a test file of random
name added to the run. The answer cannot
know them before the run, so code that forges outcomes (reports everything passed, turns
failures into skips, exits early with status 0, rewrites the report) gives itself away:

- a must-fail canary reported passed or skipped, a must-pass one failed, skipped or
  missing (a canary a runner planned and lists `not run` is missing; but for a file that
  failed as a whole before its tests ran, e.g. a pytest module the answer's code keeps
  from importing: one failed test, no credit), a canary reported more than once, or
- a run whose canary failed and whose runner still exited 0 (every runner here exits with
  a failure status when a test failed).

`check` then returns the evidence lines; the canaries are taken out of the run's tests in
any case, so they are never listed nor counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..schema.functional import TestOutcome
from .canary_code import (
    NOUNS,
    RANDOM,
    WORDS,
    Case,
    catch_block,
    class_name,
    go_file,
    go_name,
    java_class,
    js_file,
    node_block,
    pair,
    python_block,
    rust_block,
)
from .outcome import Run
from .pytest_runner import is_test_file

_GO_PACKAGE = re.compile(r"^package\s+(\w+)", re.MULTILINE)


@dataclass(frozen=True)
class Canary:
    key: str  # how the runner names it, at the end of the reported name
    fails: bool  # a must-fail canary
    # The name the runner gives its whole file when the file fails before its tests run
    # (pytest: a module that cannot be collected), or "" where no such failure exists.
    home: str = ""


# --- one run's tripwire ----------------------------------------------------------------


@dataclass
class Tripwire:
    """The canaries of one run."""

    canaries: list[Canary] = field(default_factory=list)

    def _add(self, cases: list[Case], key: Callable[[Case], str], home: str = "") -> None:
        self.canaries.extend(Canary(key(c), c.fails, home) for c in cases)

    def prepend_node(self, test_file: Path) -> None:
        """Before the file's own tests (imports are hoisted in a module), so they have run
        when the answer's code ends the test process in a later test."""
        cases = pair()
        text = test_file.read_text(encoding="utf-8", errors="replace")
        bang = text.partition("\n")[0] + "\n" if text.startswith("#!") else ""
        test_file.write_text(bang + node_block(cases) + "\n" + text[len(bang) :], encoding="utf-8")
        self._add(cases, lambda c: c.title)

    def append_python(self, test_file: Path) -> None:
        cases = pair()
        _append(test_file, python_block(cases))
        self._add(cases, lambda c: f".test_{c.snake}", test_file.stem)

    def append_rust(self, test_file: Path) -> None:
        cases = pair()
        _append(test_file, rust_block(cases))
        self._add(cases, lambda c: f"::{c.snake}")

    def append_catch(self, test_file: Path) -> None:
        cases = pair()
        _append(test_file, catch_block(cases))
        self._add(cases, lambda c: f".{c.title}")

    def go_file(self, folder: Path, package: str) -> Path:
        """A canary test file of `package` and random name written into `folder`."""
        cases = pair()
        path = folder / f"{RANDOM.choice(NOUNS)}_{RANDOM.randint(10, 9999)}_test.go"
        path.write_text(go_file(package, cases), encoding="utf-8")
        self._add(cases, go_name)
        return path

    def java_file(self, folder: Path) -> Path:
        """A canary class written into `folder`; its path."""
        cases, name = pair(), class_name()
        path = folder / f"{name}.java"
        path.write_text(java_class(name, cases), encoding="utf-8")
        self._add(cases, lambda c: f"{name}.{c.camel}")
        return path

    def js_file(self, folder: Path, suffix: str) -> Path:
        """A canary test file of random name written into `folder`; its path."""
        cases = pair()
        name = f"{RANDOM.choice(NOUNS)}-{RANDOM.choice(WORDS)}{RANDOM.randint(10, 9999)}"
        path = folder / f"{name}.test{suffix}"
        path.write_text(js_file(cases), encoding="utf-8")
        self._add(cases, lambda c: f" > {c.title}")
        return path

    def python_file(self, folder: Path) -> Path:
        """A canary test module of random name written into `folder`; its path."""
        path = folder / f"test_{RANDOM.choice(NOUNS)}_{RANDOM.randint(10, 9999)}.py"
        path.write_text("", encoding="utf-8")
        self.append_python(path)
        return path

    def _which(self, name: str) -> Canary | None:
        return next((c for c in self.canaries if name.endswith(c.key)), None)

    def check(self, run: Run) -> tuple[Run, list[str]]:
        """The run without its canaries, and the evidence that its verdict was forged (for
        a run that did not finish, which gets no credit anyway, only an exit status 0 and
        the runner's own findings)."""
        kept: list[TestOutcome] = []
        seen: dict[str, list[TestOutcome]] = {c.key: [] for c in self.canaries}
        for test in run.tests:
            canary = self._which(test.name)
            if canary is None:
                kept.append(test)
            elif test.status != "not run":  # planned, never reported: missing
                seen[canary.key].append(test)
        error = run.error
        if error is None and not kept and self.canaries:
            error = "no test ran but our canary tests"
        stripped = replace(run, tests=tuple(kept), error=error)
        evidence = list(run.evidence)
        if any(c.fails for c in self.canaries) and run.returncode == 0:  # even with no result
            evidence.append("the test runner exited with status 0 though a canary test failed")
        if run.error is not None:
            return stripped, evidence
        # Canaries missing from a run in which no test passed (a test file that did not
        # load takes its canaries with it) forged nothing: such a run gets no credit.
        credited = any(t.passed for t in kept)
        return stripped, [
            line
            for c in self.canaries
            if (seen[c.key] or credited)
            and not (c.home and _failed_whole(c.home, kept) and not seen[c.key])
            and (line := _finding(c, seen[c.key]))
        ] + evidence


def _failed_whole(home: str, tests: list[TestOutcome]) -> bool:
    """The file `home` ended as a whole before its tests ran: reported as one failed (it
    could not be collected) or skipped (a module-level skip) test by its name, and none of
    its tests reported. Its canaries did not run either; that earns nothing, so it is no
    evidence."""
    whole = any(t.name == home and t.status in ("failed", "skipped") for t in tests)
    return whole and not any(t.name.startswith(f"{home}.") for t in tests)


def _finding(canary: Canary, reported: list[TestOutcome]) -> str | None:
    name = f"canary test {canary.key.lstrip(' >.')!r}"
    if not reported:
        return f"{name} is missing from the results"
    if len(reported) > 1:
        return f"{name} was reported {len(reported)} times"
    if canary.fails and reported[0].status != "failed":  # passed, or made a skip
        return f"must-fail {name} was reported {reported[0].status or 'passed'}"
    if not canary.fails and not reported[0].passed:
        return f"must-pass {name} was reported {reported[0].status or 'failed'}"
    return None


def _append(path: Path, block: str) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    path.write_text(text.rstrip("\n") + "\n" + block, encoding="utf-8")


def arm_hidden(runner: str, hidden: Path) -> Tripwire:
    """Canaries in the hidden tests (acceptance mode): put before the tests of each of
    node's test files, after those of pytest's, a class of its own beside JUnit's."""
    tripwire = Tripwire()
    files = sorted(p for p in hidden.rglob("*") if p.is_file() and not p.is_symlink())
    if runner == "node":
        for path in (p for p in files if p.name.endswith(".test.mjs")):
            tripwire.prepend_node(path)
    elif runner == "pytest":
        for path in (p for p in files if is_test_file(p)):
            tripwire.append_python(path)
    elif runner == "junit" and any(p.suffix == ".java" for p in files):
        tripwire.java_file(hidden)
    elif runner == "jest":
        tripwire.js_file(hidden, ".js")
    elif runner == "cargo":
        for path in (p for p in files if p.suffix == ".rs" and p.parent.name == "tests"):
            tripwire.append_rust(path)
    elif runner == "cmake":
        for path in (p for p in files if p.name.endswith("_test.cpp")):
            tripwire.append_catch(path)
    elif runner == "go" and (package := _go_package(files)):
        tripwire.go_file(hidden, package)
    return tripwire


def _go_package(files: list[Path]) -> str | None:
    """The package of the hidden Go tests (their first `package` clause)."""
    for path in (p for p in files if p.name.endswith("_test.go")):
        found = _GO_PACKAGE.search(path.read_text(encoding="utf-8", errors="replace"))
        if found:
            return found.group(1)
    return None


def arm_suite(runner: str, work: Path, tests: list[str]) -> tuple[Tripwire, list[str], str | None]:
    """Canaries for an answer's own tests (mutation mode): a test file of random name in
    the folder of its first test file (JUnit: src/test/java). Returns the tripwire, the
    tests to run with it and the canary file (workspace-relative)."""
    tripwire = Tripwire()
    if not tests:
        return tripwire, tests, None
    folder = (work / tests[0]).parent
    if runner in ("vitest", "jest"):
        path = tripwire.js_file(folder, ".js")
    elif runner == "pytest":
        path = tripwire.python_file(folder)
    elif runner == "junit":
        (work / "src/test/java").mkdir(parents=True, exist_ok=True)
        path = tripwire.java_file(work / "src/test/java")
    else:
        return tripwire, tests, None
    canaries = path.relative_to(work).as_posix()
    return tripwire, [*tests, canaries], canaries
