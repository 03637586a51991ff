"""`llmbench import-polyglot` on a small clone written here (exercises of our own in the
benchmark's layout): files sorted into stubs, hidden tests and reference, the tests
prepared so every test runs, scenarios that load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_llmbench.cli import main
from pytest_llmbench.formats.dataset import DatasetIndex
from pytest_llmbench.formats.scenario import load_scenario
from pytest_llmbench.polyglot.exercises import read_exercise, solution_path


def _exercise(
    root: Path, lang: str, name: str, files: dict[str, str], roles: dict[str, list[str]]
) -> Path:
    folder = root / lang / "exercises" / "practice" / name
    for rel, text in {
        **files,
        ".docs/instructions.md": f"# Instructions\n\nSolve {name}.\n",
    }.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    (folder / ".meta").mkdir(exist_ok=True)
    (folder / ".meta" / "config.json").write_text(json.dumps({"files": roles}), encoding="utf-8")
    return folder


def _clone(root: Path) -> Path:
    _exercise(
        root, "javascript", "add-two",
        {"add-two.js": "export const add = () => {};\n",
         "add-two.spec.js": "import { add } from './add-two';\n"
            "test('a', () => {});\nxtest('b', () => {});\nxit('c', () => {});\ntest.skip('d', () => {});\n",
         ".meta/proof.ci.js": "export const add = (a, b) => a + b;\n", "package.json": "{}\n",
         "data/poem.txt": "words\n", ".eslintrc": "{}\n"},
        {"solution": ["add-two.js"], "test": ["add-two.spec.js"], "example": [".meta/proof.ci.js"]},
    )  # fmt: skip
    _exercise(
        root, "java", "add-two",
        {"src/main/java/AddTwo.java": "class AddTwo {}\n", "src/main/java/Given.java": "class Given {}\n",
         "src/test/java/AddTwoTest.java": "class AddTwoTest {\n  @Disabled(\"Remove to run test\")\n  @Test\n  void b() {}\n}\n",
         ".meta/src/reference/java/AddTwo.java": "class AddTwo { int x; }\n",
         ".meta/src/reference/java/Helper.java": "class Helper {}\n", "build.gradle": "x\n"},
        {"solution": ["src/main/java/AddTwo.java"], "test": ["src/test/java/AddTwoTest.java"],
         "example": [".meta/src/reference/java/AddTwo.java", ".meta/src/reference/java/Helper.java"],
         "editor": ["src/main/java/Given.java"]},
    )  # fmt: skip
    _exercise(
        root, "rust", "add-two",
        {"src/lib.rs": "pub fn add() {}\n", "Cargo.toml": "[package]\nname = \"add_two\"\n",
         "tests/add-two.rs": "#[test]\nfn a() {}\n\n#[test]\n#[ignore]\nfn b() {}\n",
         ".meta/example.rs": "pub fn add(a: i32, b: i32) -> i32 { a + b }\n",
         ".meta/Cargo-example.toml": "[package]\nname = \"add_two\"\n[dependencies]\nrand = \"0.8\"\n",
         "tests/step_2.rs": "#[test]\n#[ignore]\nfn c() {}\n"},
        {"solution": ["src/lib.rs", "Cargo.toml"], "test": ["tests/add-two.rs"], "example": [".meta/example.rs"]},
    )  # fmt: skip
    _exercise(
        root, "go", "add-two",
        {"add_two.go": "package addtwo\n", "go.mod": "module addtwo\n\ngo 1.18\n",
         "add_two_test.go": "package addtwo\n", "cases_test.go": "package addtwo\n",
         "defs.go": "package addtwo\n", ".meta/example.go": "package addtwo\n\nfunc Add() {}\n",
         "impl.go": "package addtwo\n", "step2_test.go": "package addtwo\n"},
        {"solution": ["add_two.go"], "test": ["add_two_test.go"], "example": [".meta/example.go"],
         "editor": ["cases_test.go", "defs.go"], "invalidator": ["go.mod"]},
    )  # fmt: skip
    _exercise(
        root, "cpp", "add-two",
        {"add_two.h": "#pragma once\n", "add_two.cpp": "#include \"add_two.h\"\n",
         "add_two_test.cpp": "#include \"test/catch.hpp\"\n", "test/catch.hpp": "// catch\n",
         "test/tests-main.cpp": "// main\n", "CMakeLists.txt": "project(x)\n",
         ".meta/example.h": "#pragma once\nint add(int a, int b);\n"},
        {"solution": ["add_two.cpp", "add_two.h"], "test": ["add_two_test.cpp"], "example": [".meta/example.h"]},
    )  # fmt: skip
    return root


def test_files_are_sorted_and_tests_enabled(tmp_path: Path) -> None:
    clone = _clone(tmp_path / "clone")
    js = read_exercise("javascript", clone / "javascript/exercises/practice/add-two")
    assert js.key == "javascript_add_two"
    assert set(js.stubs) == {"add-two.js"}  # package.json is the runner's, not the model's
    assert "xtest" not in js.tests["add-two.spec.js"] and "xit(" not in js.tests["add-two.spec.js"]
    assert (
        js.tests["add-two.spec.js"].count("test(") == 3
        and ".skip" not in js.tests["add-two.spec.js"]
    )
    assert js.example == {"add-two.js": "export const add = (a, b) => a + b;\n"}
    java = read_exercise("java", clone / "java/exercises/practice/add-two")
    assert set(java.stubs) == {"src/main/java/AddTwo.java", "src/main/java/Given.java"}
    assert "@Disabled" not in java.tests["src/test/java/AddTwoTest.java"]
    assert set(java.example) == {"src/main/java/AddTwo.java", "src/main/java/Helper.java"}
    rust = read_exercise("rust", clone / "rust/exercises/practice/add-two")
    assert "#[ignore]" not in rust.tests["tests/add-two.rs"]
    assert rust.tests["tests/add-two.rs"].count("#[test]") == 2
    assert "#[ignore]" not in rust.tests["tests/step_2.rs"]  # unlisted tests are prepared too
    assert set(rust.example) == {"src/lib.rs", "Cargo.toml"} and "Cargo.toml" in rust.stubs
    assert "rand" in rust.example["Cargo.toml"]  # the example's own manifest
    go = read_exercise("go", clone / "go/exercises/practice/add-two")
    # files the config does not list: sources to the stubs, tests and data to the hidden
    assert set(go.stubs) == {"add_two.go", "defs.go", "go.mod", "impl.go"}
    assert set(go.tests) == {"add_two_test.go", "cases_test.go", "step2_test.go"}
    assert set(js.tests) == {"add-two.spec.js", "data/poem.txt"}
    cpp = read_exercise("cpp", clone / "cpp/exercises/practice/add-two")
    assert set(cpp.tests) == {"add_two_test.cpp", "test/catch.hpp", "test/tests-main.cpp"}
    assert cpp.tests["add_two_test.cpp"].startswith("#define EXERCISM_RUN_ALL_TESTS")
    assert set(cpp.example) == {"add_two.h"} and "CMakeLists.txt" not in cpp.stubs


def test_solution_path() -> None:
    rust = ["src/lib.rs", "Cargo.toml"]
    assert solution_path(".meta/example.rs", [".meta/example.rs"], rust) == "src/lib.rs"
    assert solution_path(".meta/proof.ci.js", [".meta/proof.ci.js"], ["x.js"]) == "x.js"
    java = [".meta/src/reference/java/Game.java", ".meta/src/reference/java/Frame.java"]
    solutions = ["src/main/java/Game.java"]
    assert [solution_path(e, java, solutions) for e in java] == [
        "src/main/java/Game.java",
        "src/main/java/Frame.java",  # a class of its own, beside the solution
    ]


def test_import_writes_loadable_scenarios(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clone, out = _clone(tmp_path / "clone"), tmp_path / "out"
    assert main(["import-polyglot", str(clone), "-o", str(out)]) == 0
    assert "exercises imported: 5 (cpp 1, go 1, java 1, javascript 1, python 0, rust 1)" in (
        capsys.readouterr().out
    )
    index = DatasetIndex(out / "datasets")
    for key in ("cpp_add_two", "go_add_two", "java_add_two", "javascript_add_two", "rust_add_two"):
        scenario = load_scenario(out / "scenarios" / "generation" / f"{key}.yaml", index)
        (dataset,) = scenario.datasets
        assert dataset.name == key
        prompt = scenario.prompt_for(dataset)
        assert "Solve add-two." in prompt and "### " in prompt
        reference = scenario.reference_for(dataset) or ""
        assert reference.startswith("### ")
        functional = scenario.functional_for(dataset)
        assert functional is not None and functional.files
        assert all(s.tests == ("*",) for s in scenario.steps_for(dataset))
    java = (out / "scenarios/generation/java_add_two.yaml").read_text(encoding="utf-8")
    assert "processes: 1280" in java and "### src/main/java/Helper.java" in java
    js_options = out / "scenarios/generation/functional/javascript_add_two/jest.json"
    assert json.loads(js_options.read_text(encoding="utf-8")) == {"environment": "node"}
    # a second import replaces the first; an unrelated folder is refused
    assert main(["import-polyglot", str(clone), "-o", str(out), "--languages", "go"]) == 0
    assert not (out / "scenarios/generation/java_add_two.yaml").exists()
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "keep.txt").write_text("x", encoding="utf-8")
    assert main(["import-polyglot", str(clone), "-o", str(tmp_path / "mine")]) == 2
    assert "is not empty" in capsys.readouterr().err


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import-polyglot", str(tmp_path), "-o", str(tmp_path / "out")]) == 2
    assert "has no <lang>/exercises/practice" in capsys.readouterr().err
    clone = _clone(tmp_path / "clone")
    (clone / "go/exercises/practice/add-two/.meta/config.json").write_text("{", encoding="utf-8")
    assert main(["import-polyglot", str(clone), "-o", str(tmp_path / "out")]) == 0
    assert "skipped go/exercises/practice/add-two:" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["import-polyglot", str(clone), "-o", str(tmp_path / "o2"), "--languages", "cobol"])
