"""The canaries' code (tripwire.py): made-up checks with random names and values, written
as an ordinary test of each runner's language. A must-fail case expects what its
expression cannot compute; a must-pass one what it does."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass

RANDOM = secrets.SystemRandom()
VERBS = ("totals", "keeps", "counts", "orders", "joins", "merges", "lists", "formats", "picks")
NOUNS = ("items", "rows", "entries", "labels", "values", "tags", "lines", "scores", "names")
WORDS = ("alpha", "amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "haze",
          "iris", "jade", "kite", "lumen", "maple", "noble", "onyx", "pearl", "quill")  # fmt: skip


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


def make_case(fails: bool) -> Case:
    count = RANDOM.randint(3, 5)
    numbers = tuple(RANDOM.randint(2, 99) for _ in range(count))
    words = tuple(RANDOM.sample(WORDS, 3))
    kind = RANDOM.choice(("sum", "max", "join"))
    number = RANDOM.randint(1000, 99999)
    title = f"{RANDOM.choice(VERBS)} {count} {RANDOM.choice(NOUNS)} of {words[0]} {number}"
    return Case(title, numbers, words, kind, fails, RANDOM.randint(1, 9))


def pair() -> list[Case]:
    cases = [make_case(True), make_case(False)]
    RANDOM.shuffle(cases)
    return cases


# --- the canaries in each language -----------------------------------------------------


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
    """Canaries for a `*.test.mjs`, put before its own tests (imports are hoisted)."""
    alias = f"{RANDOM.choice(WORDS)}{RANDOM.randint(100, 999)}"
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


def _numbers(case: Case) -> str:
    return ", ".join(map(str, case.numbers))


def go_file(package: str, cases: list[Case]) -> str:
    """A Go test file of `package` holding the canaries as TestXxx functions."""
    tests = []
    for case in cases:
        if case.kind == "join":
            words = ", ".join(json.dumps(w) for w in case.words)
            actual = f'strings.ToUpper(strings.Join([]string{{{words}}}, "-"))'
        else:
            step = "total += n" if case.kind == "sum" else "if n > total { total = n }"
            actual = (
                f"func() int {{ total := 0; for _, n := range []int{{{_numbers(case)}}} "
                f"{{ {step} }}; return total }}()"
            )
        tests.append(
            f"func {go_name(case)}(t *testing.T) {{\n"
            f"\tif got := {actual}; got != {json.dumps(case.expected())} {{\n"
            f'\t\tt.Fatalf("got %v", got)\n\t}}\n}}\n'
        )
    head = (
        f'package {package}\n\nimport (\n\t"strings"\n\t"testing"\n)\n\nvar _ = strings.ToUpper\n\n'
    )
    return head + "\n".join(tests)


def go_name(case: Case) -> str:
    return "Test" + "".join(w.capitalize() for w in case.title.split())


def rust_block(cases: list[Case]) -> str:
    """Canary #[test] functions appended to a Rust integration test file."""
    blocks = []
    for case in cases:
        if case.kind == "join":
            words = ", ".join(json.dumps(w) for w in case.words)
            actual = f'[{words}].iter().map(|w| w.to_uppercase()).collect::<Vec<_>>().join("-")'
        elif case.kind == "sum":
            actual = f"[{_numbers(case)}].iter().sum::<i64>()"
        else:
            actual = f"*[{_numbers(case)}].iter().max().unwrap()"
        blocks.append(
            f"\n#[test]\nfn {case.snake}() {{\n"
            f"    assert_eq!({actual}, {json.dumps(case.expected())});\n}}\n"
        )
    return "".join(blocks)


def catch_block(cases: list[Case]) -> str:
    """Canary TEST_CASEs appended to a Catch test source."""
    blocks = ["\n#include <algorithm>\n#include <string>\n"]
    for case in cases:
        if case.kind == "join":
            actual = ' + "-" + '.join(f"std::string({json.dumps(w.upper())})" for w in case.words)
        elif case.kind == "sum":
            actual = "(" + " + ".join(map(str, case.numbers)) + ")"
        else:
            actual = f"std::max({{{_numbers(case)}}})"
        blocks.append(
            f'\nTEST_CASE("{case.title}") {{\n'
            f"    REQUIRE({actual} == {json.dumps(case.expected())});\n}}\n"
        )
    return "".join(blocks)


def class_name() -> str:
    first, second = RANDOM.sample(WORDS, 2)
    return f"{first.capitalize()}{second.capitalize()}{RANDOM.randint(100, 99999)}Test"
