"""The compiled languages' runners (go test, cargo test, CMake with Catch) and Jest specs
as acceptance tests, on small exercises written here: per-test outcomes with stable
names and the real error, skipped tests listed, a build failure in one line without
temporary paths, the hidden tests laid beside the answer and out of its reach, and the
run's canaries firing on an answer that forges the verdict."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pytest_llmbench.formats.functional import Functional, HiddenFile
from pytest_llmbench.functional import cargo, cmake, gotest, jest, junit
from pytest_llmbench.functional.cargo import read_output
from pytest_llmbench.functional.gotest import read_events
from pytest_llmbench.functional.verify import run_functional
from pytest_llmbench.schema.functional import FunctionalResult

pytestmark = pytest.mark.timeout(600)


def _needs(why: str | None) -> None:
    if why is not None:
        pytest.skip(why)


def _run(runner: str, hidden: dict[str, str], answer: dict[str, str]) -> FunctionalResult:
    files = tuple(HiddenFile(p, t) for p, t in hidden.items())
    return run_functional(
        Functional(runner, "acceptance", "empty", 300.0, files), None, list(answer.items())
    )


def _statuses(result: FunctionalResult) -> dict[str, str | None]:
    return {t.name: t.status for t in result.tests}


# --- Go -----------------------------------------------------------------------------------

GO_MOD = "module calc\n\ngo 1.18\n"
GO_TEST = """package calc

import "testing"

func TestAdd(t *testing.T) {
\tfor _, c := range []struct{ name string; a, b, want int }{{"small", 1, 2, 3}, {"zero", 0, 0, 0}} {
\t\tt.Run(c.name, func(t *testing.T) {
\t\t\tif got := Add(c.a, c.b); got != c.want {
\t\t\t\tt.Fatalf("Add(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
\t\t\t}
\t\t})
\t}
}

func TestLater(t *testing.T) { t.Skip("not yet") }
"""
GO_RIGHT = "package calc\n\nfunc Add(a, b int) int { return a + b }\n"
GO_WRONG = "package calc\n\nfunc Add(a, b int) int { return a - b }\n"
# exits 0 before any test has run: the must-fail canary did not fail
GO_EXIT = (
    'package calc\n\nimport "os"\n\nfunc init() { os.Exit(0) }\n\n' + GO_RIGHT.split("\n", 2)[2]
)


def test_go_outcomes_per_subtest_with_the_failure() -> None:
    _needs(gotest.missing())
    hidden = {"calc_test.go": GO_TEST}
    right = _run("go", hidden, {"go.mod": GO_MOD, "calc.go": GO_RIGHT})
    assert _statuses(right) == {
        "TestAdd/small": "passed", "TestAdd/zero": "passed", "TestLater": "skipped",
    }  # fmt: skip
    assert (right.passed, right.total, right.tampered) == (2, 3, False)
    wrong = _run("go", hidden, {"go.mod": GO_MOD, "calc.go": GO_WRONG})
    failed = {t.name: t.message for t in wrong.tests if t.status == "failed"}
    assert list(failed) == ["TestAdd/small"] and "Add(1, 2) = -1, want 3" in failed["TestAdd/small"]
    broken = _run("go", hidden, {"go.mod": GO_MOD, "calc.go": "package calc\n"})
    assert (
        broken.error and "undefined: Add" in broken.error and "llmbench-tests" not in broken.error
    )


def test_go_answer_that_replaces_the_tests_or_exits_early_gets_nothing() -> None:
    _needs(gotest.missing())
    hidden = {"calc_test.go": GO_TEST}
    # its own calc_test.go is overwritten by the hidden one
    replaced = _run(
        "go", hidden,
        {"go.mod": GO_MOD, "calc.go": GO_WRONG, "calc_test.go": "package calc\n"},
    )  # fmt: skip
    assert "TestAdd/small" in _statuses(replaced) and replaced.rate < 1.0
    exits = _run("go", hidden, {"go.mod": GO_MOD, "calc.go": GO_EXIT})
    assert (exits.rate, exits.passed, exits.tampered) == (0.0, 0, True)
    assert any("status 0" in line for line in exits.tamper_evidence)


def test_go_events_are_read_without_parents_of_subtests() -> None:
    stdout = "\n".join(
        [
            '{"Action":"run","Test":"TestA"}',
            '{"Action":"run","Test":"TestA/one"}',
            '{"Action":"output","Test":"TestA/one","Output":"    a_test.go:9: boom\\n"}',
            '{"Action":"fail","Test":"TestA/one"}',
            '{"Action":"fail","Test":"TestA"}',
            '{"Action":"run","Test":"TestB"}',
            "not json",
        ]
    )
    tests, other = read_events(stdout)
    assert [(t.name, t.status, t.message) for t in tests] == [
        ("TestA/one", "failed", "a_test.go:9: boom"),
        ("TestB", "not run", ""),  # the run ended before it finished
    ]
    assert other == ["not json"]


# --- Rust ---------------------------------------------------------------------------------

CARGO_TOML = '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n'
RUST_TEST = """use calc::add;

#[test]
fn adds_small_numbers() {
    assert_eq!(add(1, 2), 3);
}

#[test]
#[ignore]
fn later() {}
"""
RUST_RIGHT = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"
RUST_WRONG = "pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n"
# its own unit test, which would count if the answer's tests ran
RUST_EXTRA = RUST_RIGHT + "#[cfg(test)]\nmod own {\n    #[test]\n    fn mine() {}\n}\n"


def test_cargo_runs_the_hidden_tests_only_with_their_outcomes() -> None:
    _needs(cargo.missing())
    hidden = {"tests/calc.rs": RUST_TEST}
    right = _run("cargo", hidden, {"Cargo.toml": CARGO_TOML, "src/lib.rs": RUST_EXTRA})
    assert _statuses(right) == {"calc::adds_small_numbers": "passed", "calc::later": "skipped"}
    assert not right.tampered
    wrong = _run("cargo", hidden, {"Cargo.toml": CARGO_TOML, "src/lib.rs": RUST_WRONG})
    (failed,) = [t for t in wrong.tests if t.status == "failed"]
    assert "left: `-1`" in failed.message and "right: `3`" in failed.message
    broken = _run("cargo", hidden, {"Cargo.toml": CARGO_TOML, "src/lib.rs": "pub fn other() {}\n"})
    assert broken.error and "does not build" in broken.error and "add" in broken.error


def test_cargo_output_names_each_test_after_its_file() -> None:
    text = "\n".join(
        [
            "     Running tests/alpha.rs (target/debug/deps/alpha-1234)",
            "running 2 tests",
            "test one ... ok",
            "test two ... FAILED",
            "failures:",
            "",
            "---- two stdout ----",
            "thread 'two' panicked at 'boom', tests/alpha.rs:9:5",
            "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
            "",
            "failures:",
            "    two",
            "     Running tests/beta.rs (target/debug/deps/beta-99)",
            "test one ... ignored",
        ]
    )
    assert [(t.name, t.status, t.message) for t in read_output(text)] == [
        ("alpha::one", "passed", ""),
        ("alpha::two", "failed", "thread 'two' panicked at 'boom', tests/alpha.rs:9:5"),
        ("beta::one", "skipped", ""),
    ]


# --- C++ with Catch -----------------------------------------------------------------------

CATCH = Path("/usr/include/catch2/catch.hpp")
CPP_TEST = """#include "calc.h"
#include "test/catch.hpp"

TEST_CASE("adds small numbers") { REQUIRE(calc::add(1, 2) == 3); }

#if defined(EXERCISM_RUN_ALL_TESTS)
TEST_CASE("adds zero") { REQUIRE(calc::add(0, 0) == 0); }
#endif
"""
CPP_HEADER = "#pragma once\nnamespace calc { int add(int a, int b); }\n"


def _catch() -> dict[str, str]:
    if not CATCH.is_file():
        pytest.skip("Catch 2's header is not installed (Debian: catch2)")
    return {
        "calc_test.cpp": "#define EXERCISM_RUN_ALL_TESTS\n" + CPP_TEST,
        "test/catch.hpp": CATCH.read_text(encoding="utf-8"),
        "test/tests-main.cpp": '#define CATCH_CONFIG_MAIN\n#include "catch.hpp"\n',
    }


def test_cmake_builds_and_runs_catch_tests() -> None:
    _needs(cmake.missing())
    hidden = _catch()
    right = _run("cmake", hidden, {
        "calc.h": CPP_HEADER,
        "calc.cpp": '#include "calc.h"\nint calc::add(int a, int b) { return a + b; }\n',
        "CMakeLists.txt": "this is not read\n",
    })  # fmt: skip
    assert _statuses(right) == {"global.adds small numbers": "passed", "global.adds zero": "passed"}
    assert not right.tampered
    wrong = _run("cmake", hidden, {
        "calc.h": CPP_HEADER,
        "calc.cpp": '#include "calc.h"\n#include <cstdlib>\nint calc::add(int a, int b) { return a * b; }\n',
    })  # fmt: skip
    assert _statuses(wrong) == {"global.adds small numbers": "failed", "global.adds zero": "passed"}
    broken = _run("cmake", hidden, {"calc.h": CPP_HEADER, "calc.cpp": "int oops(\n"})
    assert broken.error and "do not build" in broken.error and "llmbench-tests" not in broken.error


def test_cmake_answer_that_exits_zero_at_start_is_caught() -> None:
    _needs(cmake.missing())
    forged = _run("cmake", _catch(), {
        "calc.h": CPP_HEADER,
        "calc.cpp": '#include "calc.h"\n#include <cstdlib>\nint calc::add(int a, int b) { return a + b; }\n'
        "static int quit = (std::exit(0), 0);\n",
    })  # fmt: skip
    assert (forged.rate, forged.passed, forged.tampered) == (0.0, 0, True)


# --- Jest specs ---------------------------------------------------------------------------

SPEC = """import { add } from './calc';

describe('calc', () => {
  test('adds small numbers', () => {
    expect(add(1, 2)).toEqual(3);
  });
  test.skip('later', () => {});
});
"""


def test_jest_specs_run_as_hidden_tests_beside_the_answer() -> None:
    _needs(jest.missing())
    hidden = {"calc.spec.js": SPEC, "jest.json": '{"environment": "node"}\n'}
    right = _run("jest", hidden, {"calc.js": "export const add = (a, b) => a + b;\n"})
    assert _statuses(right) == {
        "calc.spec.js > calc adds small numbers": "passed",
        "calc.spec.js > calc later": "skipped",
    }
    assert not right.tampered
    # the answer's own calc.spec.js is replaced by the hidden one
    wrong = _run("jest", hidden, {
        "calc.js": "export const add = (a, b) => a - b;\n",
        "calc.spec.js": "test('fine', () => {});\n",
    })  # fmt: skip
    (failed,) = [t for t in wrong.tests if t.status == "failed"]
    assert (
        failed.name == "calc.spec.js > calc adds small numbers" and "Received: -1" in failed.message
    )
    # a forged verdict: the process ends with status 0 at import
    forged = _run(
        "jest", hidden, {"calc.js": "process.exit(0);\nexport const add = (a, b) => a + b;\n"}
    )
    assert forged.rate == 0.0


def test_an_unknown_toolchain_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(shutil, "which", lambda *a, **k: None)
    assert "go is not installed" in (gotest.missing() or "")
    assert "not installed" in (cmake.missing() or "")


# --- JUnit: a scenario's jars and JVM options (junit.json) ---------------------------------

JSON_TEST = """import static org.junit.jupiter.api.Assertions.assertEquals;

import org.json.JSONObject;
import org.junit.jupiter.api.Test;

class NamesTest {
    @Test
    void readsTheName() throws Exception {
        assertEquals("ada", Names.of(new JSONObject("{\\"name\\": \\"ada\\"}")));
    }

    @Test
    void runsWithTheScenariosOptions() {
        assertEquals("yes", System.getProperty("llmbench.polyglot"));
    }
}
"""
NAMES = (
    "import org.json.JSONObject;\n\nclass Names {\n"
    '    static String of(JSONObject o) throws Exception {\n        return o.getString("name");\n    }\n}\n'
)


def test_junit_options_add_jars_and_jvm_options(tmp_path: Path) -> None:
    _needs(junit.missing())
    jar = Path("/usr/share/java/com.android.json.jar")  # Android's org.json API
    if not jar.is_file():
        pytest.skip("Debian's libandroid-json-java is not installed")
    options = '{"classpath": ["com.android.json.jar"], "jvmOptions": ["-Dllmbench.polyglot=yes"]}'
    answer = {"src/main/java/Names.java": NAMES}
    ran = _run("junit", {"NamesTest.java": JSON_TEST, "junit.json": options}, answer)
    assert _statuses(ran) == {
        "NamesTest.readsTheName": "passed",
        "NamesTest.runsWithTheScenariosOptions": "passed",
    }
    missing = _run(
        "junit", {"NamesTest.java": JSON_TEST, "junit.json": '{"classpath": ["nope.jar"]}'}, answer
    )
    assert missing.error == "junit.json of the hidden tests: classpath: not found: nope.jar"
    bad = _run("junit", {"NamesTest.java": JSON_TEST, "junit.json": '{"jars": []}'}, answer)
    assert bad.error and bad.error.startswith("junit.json of the hidden tests: jars:")


def test_cmake_a_crashing_test_program_is_an_unfinished_run_not_a_forgery() -> None:
    _needs(cmake.missing())
    crashes = _run("cmake", _catch(), {
        "calc.h": CPP_HEADER,
        "calc.cpp": '#include "calc.h"\n#include <cstdlib>\nint calc::add(int a, int b) { std::abort(); }\n',
    })  # fmt: skip
    assert crashes.error and "crashed in 'global.adds small numbers' (SIGABRT)" in crashes.error
    assert (crashes.rate, crashes.tampered) == (0.0, False)


def test_go_a_panicking_test_binary_is_an_unfinished_run_not_a_forgery() -> None:
    _needs(gotest.missing())
    panics = 'package calc\n\nfunc Add(a, b int) int { panic("Please implement Add") }\n'
    result = _run("go", {"calc_test.go": GO_TEST}, {"go.mod": GO_MOD, "calc.go": panics})
    assert result.error and "panic: Please implement Add" in result.error
    assert (result.rate, result.tampered) == (0.0, False)
