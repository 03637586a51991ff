"""Tripwires: canary tests made up for one run, which tell whether the verdict was forged.

Each run gets canaries with random names and random contents, written like the ordinary
tests of its runner: some that must fail (an expectation that cannot hold) and some that
must pass. They go where the answer's code runs: appended to each hidden test file
(node's `*.test.mjs` with imports under random aliases, pytest's test modules), a
generated test class compiled and run in the same JVM (JUnit), or, for an answer's own
tests (mutation mode), a test file of random name added to the run. The answer cannot
know them before the run, so code that forges outcomes (reports everything passed, turns
failures into skips, exits early with status 0, rewrites the report) gives itself away:

- a must-fail canary reported passed or skipped, a must-pass one failed, skipped or
  missing (but for a file that failed as a whole before its tests ran, e.g. a pytest
  module the answer's code keeps from importing: one failed test, no credit), a canary
  reported more than once, or
- a run whose canary failed and whose runner still exited 0 (every runner here exits with
  a failure status when a test failed).

`check` then returns the evidence lines; the canaries are taken out of the run's tests in
any case, so they are never listed nor counted.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..schema.functional import TestOutcome
from .outcome import Run
from .pytest_runner import is_test_file

_RANDOM = secrets.SystemRandom()
_VERBS = ("totals", "keeps", "counts", "orders", "joins", "merges", "lists", "formats", "picks")
_NOUNS = ("items", "rows", "entries", "labels", "values", "tags", "lines", "scores", "names")
_WORDS = ("alpha", "amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "haze",
          "iris", "jade", "kite", "lumen", "maple", "noble", "onyx", "pearl", "quill")  # fmt: skip


@dataclass(frozen=True)
class Canary:
    key: str  # how the runner names it, at the end of the reported name
    fails: bool  # a must-fail canary
    # The name the runner gives its whole file when the file fails before its tests run
    # (pytest: a module that cannot be collected), or "" where no such failure exists.
    home: str = ""


@dataclass(frozen=True)
class Case:
    """One canary's parts: the values it checks, in any language."""

    title: str  # words and a number, e.g. "totals 4 rows of cedar 5831"
    numbers: tuple[int, ...]
    words: tuple[str, ...]
    kind: str  # "sum", "max" or "join"
    fails: bool
    delta: int  # how far a must-fail canary's expected number is off

    @property
    def snake(self) -> str:
        return "_".join(self.title.split())

    @property
    def camel(self) -> str:
        first, *rest = self.title.split()
        return first + "".join(w.capitalize() for w in rest)

    def expected(self) -> int | str:
        """What the expression computes, or (must-fail) a value it cannot."""
        if self.kind == "join":
            joined = "-".join(w.upper() for w in self.words)
            return "-".join(w.upper() for w in reversed(self.words)) if self.fails else joined
        value = sum(self.numbers) if self.kind == "sum" else max(self.numbers)
        return value + self.delta if self.fails else value


def _case(fails: bool) -> Case:
    count = _RANDOM.randint(3, 5)
    numbers = tuple(_RANDOM.randint(2, 99) for _ in range(count))
    words = tuple(_RANDOM.sample(_WORDS, 3))
    kind = _RANDOM.choice(("sum", "max", "join"))
    number = _RANDOM.randint(1000, 99999)
    title = f"{_RANDOM.choice(_VERBS)} {count} {_RANDOM.choice(_NOUNS)} of {words[0]} {number}"
    return Case(title, numbers, words, kind, fails, _RANDOM.randint(1, 9))


def _pair() -> list[Case]:
    cases = [_case(True), _case(False)]
    _RANDOM.shuffle(cases)
    return cases


# --- the canaries in each language ------------------------------------------------------


def _js_check(case: Case, expect: str) -> str:
    numbers = ", ".join(map(str, case.numbers))
    if case.kind == "sum":
        actual = f"[{numbers}].reduce((total, n) => total + n, 0)"
    elif case.kind == "max":
        actual = f"Math.max(...[{numbers}])"
    else:
        words = ", ".join(f"'{w}'" for w in case.words)
        actual = f"[{words}].map((word) => word.toUpperCase()).join('-')"
    return expect % {"actual": actual, "expected": repr(case.expected())}


def _js_tests(cases: list[Case], test: str, expect: str) -> str:
    return "".join(
        f"\n{test}('{c.title}', () => {{\n  {_js_check(c, expect)};\n}});\n" for c in cases
    )


def node_block(cases: list[Case]) -> str:
    """Canaries appended to a `*.test.mjs` (imports are hoisted in a module)."""
    alias = f"{_RANDOM.choice(_WORDS)}{_RANDOM.randint(100, 999)}"
    head = (
        f"\nimport {{ test as test_{alias} }} from 'node:test';\n"
        f"import assert_{alias} from 'node:assert/strict';\n"
    )
    check = f"assert_{alias}.deepEqual(%(actual)s, %(expected)s)"
    return head + _js_tests(cases, f"test_{alias}", check)


def js_file(cases: list[Case]) -> str:
    """A canary test file for Vitest (globals) or Jest."""
    return _js_tests(cases, "test", "expect(%(actual)s).toEqual(%(expected)s)").lstrip()


def python_block(cases: list[Case]) -> str:
    """Canary test functions appended to a pytest module."""
    blocks = []
    for case in cases:
        if case.kind == "join":
            actual = f'"-".join(word.upper() for word in {list(case.words)!r})'
        else:
            actual = f"{case.kind}({list(case.numbers)!r})"
        blocks.append(f"\n\ndef test_{case.snake}():\n    assert {actual} == {case.expected()!r}\n")
    return "".join(blocks)


def java_class(name: str, cases: list[Case]) -> str:
    """A JUnit 5 test class (default package) holding the canaries as methods."""
    methods = []
    for case in cases:
        numbers = ", ".join(map(str, case.numbers))
        if case.kind == "join":
            words = ", ".join(f'"{w}"' for w in case.words)
            actual = f'String.join("-", java.util.List.of({words})).toUpperCase()'
            expected = f'"{case.expected()}"'
        else:
            stream = f"java.util.stream.IntStream.of({numbers})"
            actual = f"{stream}.sum()" if case.kind == "sum" else f"{stream}.max().getAsInt()"
            expected = str(case.expected())
        methods.append(
            f"    @Test\n    void {case.camel}() {{\n"
            f"        assertEquals({expected}, {actual});\n    }}\n"
        )
    return (
        "import org.junit.jupiter.api.Test;\n\n"
        "import static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
        f"class {name} {{\n" + "\n".join(methods) + "}\n"
    )


def _class_name() -> str:
    first, second = _RANDOM.sample(_WORDS, 2)
    return f"{first.capitalize()}{second.capitalize()}{_RANDOM.randint(100, 99999)}Test"


# --- one run's tripwire ----------------------------------------------------------------


@dataclass
class Tripwire:
    """The canaries of one run."""

    canaries: list[Canary] = field(default_factory=list)

    def _add(self, cases: list[Case], key: Callable[[Case], str], home: str = "") -> None:
        self.canaries.extend(Canary(key(c), c.fails, home) for c in cases)

    def append_node(self, test_file: Path) -> None:
        cases = _pair()
        _append(test_file, node_block(cases))
        self._add(cases, lambda c: c.title)

    def append_python(self, test_file: Path) -> None:
        cases = _pair()
        _append(test_file, python_block(cases))
        self._add(cases, lambda c: f".test_{c.snake}", test_file.stem)

    def java_file(self, folder: Path) -> Path:
        """A canary class written into `folder`; its path."""
        cases, name = _pair(), _class_name()
        path = folder / f"{name}.java"
        path.write_text(java_class(name, cases), encoding="utf-8")
        self._add(cases, lambda c: f"{name}.{c.camel}")
        return path

    def js_file(self, folder: Path, suffix: str) -> Path:
        """A canary test file of random name written into `folder`; its path."""
        cases = _pair()
        name = f"{_RANDOM.choice(_NOUNS)}-{_RANDOM.choice(_WORDS)}{_RANDOM.randint(10, 9999)}"
        path = folder / f"{name}.test{suffix}"
        path.write_text(js_file(cases), encoding="utf-8")
        self._add(cases, lambda c: f" > {c.title}")
        return path

    def python_file(self, folder: Path) -> Path:
        """A canary test module of random name written into `folder`; its path."""
        path = folder / f"test_{_RANDOM.choice(_NOUNS)}_{_RANDOM.randint(10, 9999)}.py"
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
            (kept if canary is None else seen[canary.key]).append(test)
        error = run.error
        if error is None and not kept and self.canaries:
            error = "no test ran but our canary tests"
        stripped = replace(run, tests=tuple(kept), error=error)
        evidence = list(run.evidence)
        if any(c.fails for c in self.canaries) and run.returncode == 0:  # even with no result
            evidence.append("the test runner exited with status 0 though a canary test failed")
        if run.error is not None:
            return stripped, evidence
        return stripped, [
            line
            for c in self.canaries
            if not (c.home and _failed_whole(c.home, kept) and not seen[c.key])
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
    """Canaries in the hidden tests (acceptance mode): appended to each of node's and
    pytest's test files, a class of its own beside JUnit's."""
    tripwire = Tripwire()
    files = sorted(p for p in hidden.rglob("*") if p.is_file() and not p.is_symlink())
    if runner == "node":
        for path in (p for p in files if p.name.endswith(".test.mjs")):
            tripwire.append_node(path)
    elif runner == "pytest":
        for path in (p for p in files if is_test_file(p)):
            tripwire.append_python(path)
    elif runner == "junit" and any(p.suffix == ".java" for p in files):
        tripwire.java_file(hidden)
    return tripwire


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
