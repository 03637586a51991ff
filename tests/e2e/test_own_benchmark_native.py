"""A user's own benchmark in Go, Rust, C++ and JavaScript (Jest specs), outside the
catalogue: one scenario per runner, scored by checks alone, whose criteria name hidden
tests. The reference answers pass every hidden test; the do-nothing echo model passes
none and ranks below. A runner whose toolchain is missing here is left out."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pytest_llmbench.functional import cargo, cmake, gotest, jest
from tests.conftest import read_leaderboard, read_results

pytestmark = pytest.mark.timeout(900)
CATCH = Path("/usr/include/catch2/catch.hpp")


def _scenario(sid: str, dataset: str, runner: str, reference: str, patterns: str) -> str:
    return f"""\
id: {sid}
category: generation
datasets: [{dataset}]
prompt: |
  Write `add`: the sum of two numbers.
  {{{{ dataset | inline_files }}}}
references:
  {dataset}: |
{textwrap.indent(reference, "    ")}
criteria:
  accuracy:
    - criterion: adds
      tests: ["{patterns}"]
  completeness:
    - criterion: every test passes
      tests: ["*"]
functional:
  {dataset}:
    runner: {runner}
    tests: functional/{sid}
    timeout_s: 300
"""


GO = {
    "datasets/go/GoCalc/go.mod": "module calc\n\ngo 1.18\n",
    "datasets/go/GoCalc/calc.go": "package calc\n\nfunc Add(a, b int) int { panic(\"todo\") }\n",
    "scenarios/generation/functional/GoAdd/calc_test.go": (
        'package calc\n\nimport "testing"\n\n'
        "func TestAddSmall(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"1+2\")\n\t}\n}\n"
    ),
    "scenarios/generation/GoAdd.yaml": _scenario(
        "GoAdd", "GoCalc", "go",
        "### calc.go\n```go\npackage calc\n\nfunc Add(a, b int) int { return a + b }\n```\n",
        "TestAdd*",
    ),
}  # fmt: skip
RUST = {
    "datasets/rust/RustCalc/Cargo.toml": '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
    "datasets/rust/RustCalc/src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 {\n    todo!()\n}\n",
    "scenarios/generation/functional/RustAdd/tests/calc.rs": (
        "#[test]\nfn adds_small() {\n    assert_eq!(calc::add(1, 2), 3);\n}\n"
    ),
    "scenarios/generation/RustAdd.yaml": _scenario(
        "RustAdd", "RustCalc", "cargo",
        "### src/lib.rs\n```rust\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n```\n",
        "calc::adds*",
    ),
}  # fmt: skip
JS = {
    "datasets/javascript/JsCalc/calc.js": "export const add = () => {\n  throw new Error('todo');\n};\n",
    "scenarios/generation/functional/JsAdd/calc.spec.js": (
        "import { add } from './calc';\n\ntest('adds small', () => {\n  expect(add(1, 2)).toBe(3);\n});\n"
    ),
    "scenarios/generation/functional/JsAdd/jest.json": '{"environment": "node"}\n',
    "scenarios/generation/JsAdd.yaml": _scenario(
        "JsAdd", "JsCalc", "jest",
        "### calc.js\n```javascript\nexport const add = (a, b) => a + b;\n```\n",
        "*adds small",
    ),
}  # fmt: skip
CPP = {
    "datasets/cpp/CppCalc/calc.h": "#pragma once\nint add(int a, int b);\n",
    "datasets/cpp/CppCalc/calc.cpp": '#include "calc.h"\n',
    "scenarios/generation/functional/CppAdd/calc_test.cpp": (
        '#include "calc.h"\n#include "test/catch.hpp"\n\nTEST_CASE("adds small") { REQUIRE(add(1, 2) == 3); }\n'
    ),
    "scenarios/generation/functional/CppAdd/test/tests-main.cpp": (
        '#define CATCH_CONFIG_MAIN\n#include "catch.hpp"\n'
    ),
    "scenarios/generation/CppAdd.yaml": _scenario(
        "CppAdd", "CppCalc", "cmake",
        '### calc.cpp\n```cpp\n#include "calc.h"\nint add(int a, int b) { return a + b; }\n```\n',
        "*adds small",
    ),
}  # fmt: skip
PROJECTS = {"go": (GO, gotest.missing), "cargo": (RUST, cargo.missing), "jest": (JS, jest.missing)}


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if rel.startswith("datasets/") and not (path.parent / "dataset.yaml").exists():
            folder = Path(rel).parts[2]
            (path.parent / "dataset.yaml").write_text(
                f"technology: {folder}\ndescription: a calculator\n", encoding="utf-8"
            )


def test_native_suites_rank_by_execution(pytester: pytest.Pytester) -> None:
    chosen = [files for files, missing in PROJECTS.values() if missing() is None]
    if cmake.missing() is None and CATCH.is_file():
        catch = {"scenarios/generation/functional/CppAdd/test/catch.hpp": CATCH.read_text("utf-8")}
        chosen.append({**CPP, **catch})
    if not chosen:
        pytest.skip("no Go, Rust, Jest or C++ toolchain here")
    for files in chosen:
        _write(pytester.path, files)
    result = pytester.runpytest("--llm-model=llmbench/reference,llmbench/echo", "--llm-attempts=1")
    result.assert_outcomes(passed=2 * len(chosen))
    items = read_results(pytester.path)
    for item in items:
        (attempt,) = item["attempts"]
        functional = attempt["functional"]
        if item["model"] == "llmbench/reference":
            assert item["functional_rate"] == 1.0, functional
            assert (item["accuracy"], item["completeness"]) == (4.0, 4.0)
        else:
            assert item["functional_rate"] == 0.0 and item["accuracy"] == 1.0, functional
        assert not functional["tampered"]
        assert all("llmbench-tests" not in t["name"] for t in functional["tests"])
    board = read_leaderboard(pytester.path)["leaderboard"]["models"]
    assert [r["model"] for r in board] == ["llmbench/reference", "llmbench/echo"]
    assert board[1]["score"] < board[0]["score"]
