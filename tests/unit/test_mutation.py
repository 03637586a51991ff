"""Mutation mode: the mutants file, the answer files that go into the workspace, Vitest's
JSON report, the mutator's candidates, and one small run end to end."""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from pytest_llmbench.errors import MutantsError
from pytest_llmbench.formats.dataset import Dataset, DatasetIndex, SourceFile
from pytest_llmbench.formats.functional import Functional, HiddenFile
from pytest_llmbench.formats.mutants import load_mutants
from pytest_llmbench.formats.scenario import load_scenario
from pytest_llmbench.functional.jest import modules_dir as jest_modules
from pytest_llmbench.functional.jsreport import read_report
from pytest_llmbench.functional.mutation import Lab, killed, run_mutation
from pytest_llmbench.functional.suite_files import answer_files_used, is_test_path, runs_as_test
from pytest_llmbench.functional.vitest import NEEDED
from pytest_llmbench.toolchain.node_packages import modules_dir
from tests.conftest import REPO

needs_vitest = pytest.mark.skipif(modules_dir(NEEDED) is None, reason="npm packages missing")
RUNNERS = [
    pytest.param("vitest", marks=needs_vitest),
    pytest.param(
        "jest", marks=pytest.mark.skipif(jest_modules() is None, reason="runners/jest-react16")
    ),
]
needs_mutator = pytest.mark.skipif(
    modules_dir(("typescript", "esbuild")) is None, reason="npm packages missing"
)

CALC = """\
export function clamp(value, low, high) {
  if (value < low) return low;
  if (value > high) return high;
  return value;
}

export function isEven(n) {
  return n % 2 === 0;
}
"""
FILES = {"src/calc.js": CALC}
ONE = "- {id: a, file: src/calc.js, find: 'n % 2 === 0', replace: 'n % 2 !== 0'}\n"


# --- the mutants file -----------------------------------------------------------------


def test_a_mutant_is_located_and_applied() -> None:
    (mutant,) = load_mutants(ONE, "m.yaml", FILES)
    assert (mutant.id, mutant.file) == ("a", "src/calc.js")
    assert "return n % 2 !== 0;" in mutant.apply(CALC)
    assert mutant.apply(CALC).replace("!==", "===") == CALC


def test_line_picks_one_of_several_occurrences() -> None:
    text = "- {id: b, file: ./src/calc.js, find: return, replace: 'return -1 ||', line: 3}\n"
    (mutant,) = load_mutants(text, "m.yaml", FILES)
    assert mutant.apply(CALC).splitlines()[2] == "  if (value > high) return -1 || high;"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("- {id: x, file: src/calc.js, find: return, replace: r}\n", "find occurs 4 times in"),
        ("- {id: x, file: src/calc.js, find: nothing, replace: r}\n", "find occurs 0 times"),
        ("- {id: x, file: src/calc.js, find: return, replace: r, line: 1}\n", "on line 1"),
        ("- {id: x, file: src/other.js, find: a, replace: b}\n", "not a file of the dataset"),
        ("- {id: x, file: ../calc.js, find: a, replace: b}\n", "climbs out"),
        ("- {id: x, file: src/calc.js, find: low, replace: low}\n", "the same text"),
        ("- {id: x, file: src/calc.js, replace: b}\n", "find: Field required"),
        ("- {id: x, file: src/calc.js, find: a, replace: b, colour: red}\n", "colour"),
        (ONE + ONE, "mutant a: the id is used twice"),
        ("[]\n", "non-empty YAML list"),
        ("id: [\n", "not valid YAML"),
    ],
)
def test_a_bad_mutants_file_is_one_line_naming_file_and_mutant(text: str, says: str) -> None:
    with pytest.raises(MutantsError) as caught:
        load_mutants(text, "scenarios/x/m.yaml", FILES)
    message = str(caught.value)
    assert message.startswith("scenarios/x/m.yaml: ")
    assert says in message and "\n" not in message
    if text.startswith("- "):
        assert ": mutant x: " in message or ": mutant a: " in message


def _mutation_scenarios() -> list[Path]:
    found = []
    for path in sorted((REPO / "scenarios").rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        if "functional:" in text and "mode: mutation" in text:
            found.append(path)
    return found


def test_every_committed_mutants_file_applies_to_its_dataset() -> None:
    index = DatasetIndex(REPO / "datasets")
    checked = 0
    for path in _mutation_scenarios():
        scenario = load_scenario(path, index)
        for dataset in scenario.datasets:
            functional = scenario.functional_for(dataset)
            if functional is None or functional.mode != "mutation":
                continue
            files = {f.path: f.text for f in dataset.files}
            mutants = load_mutants(
                functional.mutants_text or "", str(functional.mutants_file), files
            )
            assert len(mutants) >= 5, f"{path.name} {dataset.name}"
            assert not any(is_test_path(m.file) for m in mutants)
            checked += 1
    assert checked >= 1


def test_a_mutant_copy_keeps_the_path_and_the_file_times(tmp_path: Path) -> None:
    from pytest_llmbench.functional.workspace import fresh_copy as _fresh

    base = tmp_path / "base"
    (base / "src").mkdir(parents=True)
    (base / "src" / "calc.js").write_text(CALC)
    (mutant,) = load_mutants(ONE, "m.yaml", FILES)
    clean = _fresh(tmp_path, base)
    assert clean == tmp_path / "work" and (clean / "src" / "calc.js").read_text() == CALC
    work = _fresh(tmp_path, base, {mutant.file: mutant.apply(CALC)})
    assert work == clean and "n % 2 !== 0" in (work / "src" / "calc.js").read_text()
    stat, original = (work / "src" / "calc.js").stat(), (base / "src" / "calc.js").stat()
    assert stat.st_mtime_ns == original.st_mtime_ns
    assert (base / "src" / "calc.js").read_text() == CALC


# --- which answer files go into the workspace ------------------------------------------


def test_only_tests_and_new_helper_modules_of_the_answer_are_used() -> None:
    dataset = {
        "src/calc.js",
        "src/calc.test.js",
        "src/util.ts",
        "src/widgets/index.ts",
        "package.json",
    }
    answer = [
        ("src/calc.js", "production rewritten"),
        ("src/calc.test.js", "a test replacing the dataset's"),
        ("src/__tests__/more.js", "a test by folder"),
        ("src/__mocks__/api.js", "a mock: applied, not run"),
        ("src/setupTests.ts", "a new setup module"),
        ("src/test-utils/render.tsx", "a new helper"),
        ("src/util.js", "shadows src/util.ts"),
        ("src/widgets.ts", "shadows src/widgets/index.ts"),
        ("vitest.config.ts", "a tool's config"),
        ("package.json", "changed"),
        ("node_modules/x.test.js", "into the packages"),
        (".llmbench-vitest/report.json", "into our folder"),
        ("../escape.test.js", "outside"),
        ("README.md", "not code"),
    ]
    used, tests = answer_files_used(answer, dataset)
    assert [p for p, _ in used] == [
        "src/__mocks__/api.js",
        "src/__tests__/more.js",
        "src/calc.test.js",
        "src/setupTests.ts",
        "src/test-utils/render.tsx",
    ]
    assert tests == ["src/__tests__/more.js", "src/calc.test.js"]


def test_test_paths_of_each_convention() -> None:
    for path in ("a/b.test.tsx", "x.spec.js", "src/__tests__/h.js", "src/test/java/AppTest.java"):
        assert is_test_path(path), path
    for path in ("src/testing.js", "src/App.java", "src/latest.ts", "contest.py"):
        assert not is_test_path(path), path
    assert is_test_path("FooTest.java") and is_test_path("tests/test_x.py")
    assert runs_as_test("src/test/java/a/AppTest.java") and runs_as_test("a/b.test.tsx")
    assert runs_as_test("src/test/java/a/Fixtures.java")  # the JUnit runner picks the tests
    for path in ("src/__mocks__/api.js", "__snapshots__/a.test.js.snap"):
        assert is_test_path(path) and not runs_as_test(path), path


# --- Vitest's JSON report ---------------------------------------------------------------


def test_the_json_report_gives_one_outcome_per_test(tmp_path: Path) -> None:
    report = {
        "success": False,
        "testResults": [
            {
                "name": str(tmp_path / "src/a.test.ts"),
                "status": "failed",
                "message": "",
                "assertionResults": [
                    {"fullName": "a adds", "status": "passed", "failureMessages": []},
                    {
                        "fullName": "a subtracts",
                        "status": "failed",
                        "failureMessages": [
                            "\x1b[31mAssertionError: expected 1 to be 2\x1b[39m\n    at f (a.ts:1:1)"
                        ],
                    },
                    {"fullName": "a later", "status": "skipped", "failureMessages": []},
                    {"fullName": "a someday", "status": "todo", "failureMessages": []},
                ],
            },
            {
                "name": str(tmp_path / "src/b.test.ts"),
                "status": "failed",
                "message": "Transform failed with 1 error",
                "assertionResults": [],
            },
        ],
    }
    (tmp_path / "report.json").write_text(json.dumps(report))
    outcomes = read_report(tmp_path / "report.json", tmp_path)
    assert [(o.name, o.passed, o.status) for o in outcomes] == [
        ("src/a.test.ts > a adds", True, "passed"),
        ("src/a.test.ts > a subtracts", False, "failed"),
        ("src/a.test.ts > a later", False, "skipped"),
        ("src/a.test.ts > a someday", False, "skipped"),
        ("src/b.test.ts", False, "failed"),
    ]
    assert outcomes[1].message == "AssertionError: expected 1 to be 2"
    assert outcomes[4].message == "Transform failed with 1 error"


def test_json_lines_of_file_entries_are_read_too(tmp_path: Path) -> None:
    entry = {
        "name": str(tmp_path / "t.test.js"),
        "status": "failed",
        "message": "",
        "assertionResults": [{"fullName": "t one", "status": "failed", "failureMessages": ["no"]}],
    }
    (tmp_path / "one.jsonl").write_text(json.dumps(entry) + "\n")
    (tmp_path / "two.jsonl").write_text(json.dumps(entry) + "\nnot json\n" + json.dumps(entry))
    assert [o.name for o in read_report(tmp_path / "one.jsonl", tmp_path)] == ["t.test.js > t one"]
    assert len(read_report(tmp_path / "two.jsonl", tmp_path)) == 2


def test_a_missing_or_broken_report_gives_no_outcomes(tmp_path: Path) -> None:
    assert read_report(tmp_path / "absent.json", tmp_path) == []
    (tmp_path / "r.json").write_text('{"testResults": [1, {"name": 3}]')
    assert read_report(tmp_path / "r.json", tmp_path) == []


# --- the mutator ------------------------------------------------------------------------


@needs_mutator
def test_the_mutator_proposes_each_kind_and_never_touches_strings_or_types() -> None:
    from pytest_llmbench.functional.mutator import propose

    source = """\
type Flag = true | false;
const label = 'a === b && c';
export function f(xs: number[], on: boolean): number {
  // x < 1 in a comment
  if (xs.length > 0 && on) {
    console.log('go');
  }
  return xs.length - 1 === 0 ? 1 : on === true ? 2 : 3;
}
"""
    found = propose({"src/f.ts": source})
    kinds = {c.kind for c in found}
    assert kinds == {"eq", "boundary", "logic", "arith", "bool", "negate", "remove-call"}
    for candidate in found:
        assert candidate.find in source and candidate.find != candidate.replace
        assert "'a === b" not in candidate.find and "type Flag" not in candidate.find
        assert "comment" not in candidate.find
    removal = next(c for c in found if c.kind == "remove-call")
    assert (removal.find, removal.replace) == ("console.log('go');", "")
    negated = next(c for c in found if c.kind == "negate")
    assert negated.replace == "if (!(xs.length > 0 && on)) {"
    off_by_one = next(c for c in found if c.kind == "arith")
    assert "xs.length + 1 === 0" in off_by_one.replace


# --- end to end -------------------------------------------------------------------------

SUITE = """\
import { clamp, isEven } from './calc.js';

describe('calc', () => {
  it('clamps below the range', () => expect(clamp(-5, 0, 10)).toBe(0));
  it('knows an even number', () => expect(isEven(4)).toBe(true));
});
"""
MUTANTS = """\
- {id: even-flipped, file: src/calc.js, find: 'n % 2 === 0', replace: 'n % 2 !== 0', description: caught}
- {id: high-boundary, file: src/calc.js, find: value > high, replace: value >= high, description: untested}
"""


def _case(tmp_path: Path, runner: str = "vitest") -> tuple[Functional, Dataset]:
    options = HiddenFile(f"{runner}.json", '{"environment": "node"}')
    functional = Functional(
        runner, "mutation", "dataset", 60.0, (options,), MUTANTS, "scratch/mutants.yaml"
    )
    files = (SourceFile("src/calc.js", CALC), SourceFile("package.json", "{}"))
    return functional, Dataset("Scratch", "javascript", tmp_path, "JS", "scratch", files)


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_suite_that_kills_one_of_two_mutants_scores_half(tmp_path: Path, runner: str) -> None:
    functional, dataset = _case(tmp_path, runner)
    answer = [("src/calc.test.js", SUITE), ("src/calc.js", "export const clamp = () => 0;")]
    result = run_mutation(functional, dataset, answer)
    assert result.error is None, result.error
    assert (result.passed, result.total) == (2, 2)
    assert {m.id: m.killed for m in result.mutants} == {
        "even-flipped": True,
        "high-boundary": False,
    }
    assert result.rate == 0.5 and result.mode == "mutation" and result.seconds > 0


# Kills every mutant without testing behaviour: it compares the source's text.
READS_THE_SOURCE = """\
const fs = require('fs');
const original = %s;

test('calc is unchanged', () => {
  expect(fs.readFileSync('src/calc.js', 'utf8')).toBe(original);
});
"""


@pytest.mark.parametrize("runner", RUNNERS)
def test_tests_that_read_the_source_are_marked_by_the_equivalent_mutant(
    tmp_path: Path, runner: str
) -> None:
    functional, dataset = _case(tmp_path, runner)
    answer = [("src/calc.test.js", READS_THE_SOURCE % json.dumps(CALC))]
    result = run_mutation(functional, dataset, answer)
    assert (result.passed, result.total, result.error) == (1, 1, None)  # passes on the dataset
    assert result.tampered and result.rate == 0.0 and result.mutants == []
    assert "equivalent mutant" in result.tamper_evidence[0]


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_suite_that_exits_0_early_gets_nothing(tmp_path: Path, runner: str) -> None:
    """Jest: the process ends with status 0 though the canaries' must-fail test failed
    (tampered); Vitest catches process.exit in its worker and fails the file itself."""
    functional, dataset = _case(tmp_path, runner)
    answer = [("src/calc.test.js", SUITE + "\nafterAll(() => process.exit(0));\n")]
    result = run_mutation(functional, dataset, answer)
    assert result.rate == 0.0 and result.mutants == []
    if runner == "jest":
        assert result.tampered
        assert result.tamper_evidence == [
            "the test runner exited with status 0 though a canary test failed"
        ]
    else:
        assert not result.tampered and result.passed < result.total


@needs_vitest
def test_a_suite_failing_on_the_clean_code_scores_nothing(tmp_path: Path) -> None:
    functional, dataset = _case(tmp_path)
    wrong = SUITE.replace("toBe(0)", "toBe(-5)")
    result = run_mutation(functional, dataset, [("src/calc.test.js", wrong)])
    assert result.rate == 0.0 and result.mutants == []
    assert [(t.name, t.passed) for t in result.tests] == [
        ("src/calc.test.js > calc clamps below the range", False),
        ("src/calc.test.js > calc knows an even number", True),
    ]
    assert result.tests[0].message == "AssertionError: expected +0 to be -5 // Object.is equality"


def test_no_tests_or_bad_mutants_score_nothing_with_the_reason(tmp_path: Path) -> None:
    functional, dataset = _case(tmp_path)
    result = run_mutation(functional, dataset, [("src/calc.js", CALC)])
    assert (result.rate, result.error) == (0.0, "the answer gives no test files")
    broken = Functional(
        "vitest", "mutation", "dataset", 60.0, (), ONE.replace("n % 2", "n % 3"), "m.yaml"
    )
    result = run_mutation(broken, dataset, [("src/calc.test.js", SUITE)])
    assert result.rate == 0.0 and result.error is not None
    assert result.error.startswith("m.yaml: mutant a: find occurs 0 times")


def test_make_mutants_explains_its_use() -> None:
    out = subprocess.run(
        [str(REPO / "scripts" / "make-mutants"), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0 and "--count" in out.stdout


# Passes on the first run only: it leaves a mark where the runner keeps its cache, which
# the later runs of the suite start from (Jest's is carried: functional/carry.py).
FIRST_RUN_ONLY = """\
const fs = require('fs');

test('passes on the first run only', () => {
  const mark = '.llmbench-out/cache/mark';
  const seen = fs.existsSync(mark);
  fs.mkdirSync('.llmbench-out/cache', { recursive: true });
  fs.writeFileSync(mark, 'run');
  expect(seen).toBe(false);
});
"""


@pytest.mark.parametrize("runner", RUNNERS)
def test_state_carried_from_the_clean_run_kills_nothing_for_credit(
    tmp_path: Path, runner: str
) -> None:
    """Every later run starts from the same copy of what the clean run left, the equivalent
    mutant's as the mutants': a suite that fails once it sees its own mark fails on the
    equivalent mutant too, and is marked; it never kills mutants for credit."""
    functional, dataset = _case(tmp_path, runner)
    result = run_mutation(functional, dataset, [("src/calc.test.js", FIRST_RUN_ONLY)])
    assert result.rate == 0.0 and result.passed == 1
    if runner == "jest":
        assert result.tampered and "equivalent mutant" in " ".join(result.tamper_evidence)


@pytest.mark.skipif(jest_modules() is None, reason="runners/jest-react16")
def test_jest_serves_an_answers_runs_from_one_process_and_a_mutant_run_stops_early(
    tmp_path: Path,
) -> None:
    """One warm server (warm.py) serves the clean run and the mutants' runs; a mutant's run
    stops each test file at its first failing test (the later ones skipped, not passed),
    while the canary file runs whole, so its must-pass canaries still count."""
    functional, dataset = _case(tmp_path, "jest")
    three = SUITE.replace(
        "describe('calc', () => {\n",
        "describe('calc', () => {\n  it('knows an odd number', () => expect(isEven(3)).toBe(false));\n",
    )
    used, _ = answer_files_used([("src/calc.test.js", three)], {"src/calc.js", "package.json"})
    (tmp_path / "lab").mkdir()
    lab = Lab.build(tmp_path / "lab", functional, dataset, used)
    try:
        clean = lab.clean()
        assert clean.all_passed and len(clean.tests) == 3
        even, _ = load_mutants(MUTANTS, "m.yaml", {"src/calc.js": CALC})
        run = lab.mutant(even)
        assert run is not None
        assert [t.status for t in run.tests] == ["failed", "skipped", "skipped"]
        assert lab.evidence == [] and killed(run)
        assert lab.server is not None and lab.server.starts == 1 and lab.served
    finally:
        lab.close()


# A package module (React, from the package tree) marked by each test file that loads it.
MARKS_REACT = """\
const React = require('react');
const { isEven } = require('./calc.js');

test('gets a React of its own', () => {
  expect(React.llmbenchMark).toBeUndefined();
  React.llmbenchMark = true;
});
test('knows an even number', () => expect(isEven(4)).toBe(true));
"""


@pytest.mark.skipif(jest_modules() is None, reason="runners/jest-react16")
def test_jest_gives_each_test_file_of_every_run_its_own_package_modules(tmp_path: Path) -> None:
    """The package tree's files are read, transformed and compiled once per process
    (jest.py's runtime), but each test file, of the clean run and of a later served run,
    runs their code in its own realm: a mark one file leaves on React is never seen."""
    functional, dataset = _case(tmp_path, "jest")
    suite = [("src/a.test.js", MARKS_REACT), ("src/b.test.js", MARKS_REACT)]
    used, _ = answer_files_used(suite, {"src/calc.js", "package.json"})
    (tmp_path / "lab").mkdir()
    lab = Lab.build(tmp_path / "lab", functional, dataset, used)
    try:
        clean = lab.clean()
        assert clean.all_passed and len(clean.tests) == 4, clean.tests
        even, _ = load_mutants(MUTANTS, "m.yaml", {"src/calc.js": CALC})
        run = lab.mutant(even)
        assert run is not None and killed(run) and lab.evidence == []
        assert [t.status for t in run.tests][:2] == ["passed", "failed"], run.tests
        assert lab.server is not None and lab.server.starts == 1 and lab.served
    finally:
        lab.close()


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_mutant_runs_only_with_the_test_files_that_ran_its_file(
    tmp_path: Path, runner: str
) -> None:
    """The clean run's coverage (coverage.py): no test file runs `src/other.js`, so its
    mutant survives without a run; calc.js's mutants run with the test file that ran it."""
    functional, dataset = _case(tmp_path, runner)
    other = "export const other = () => 1;\n"
    mutants = MUTANTS + "- {id: other-two, file: src/other.js, find: '=> 1', replace: '=> 2'}\n"
    functional = replace(functional, mutants_text=mutants)
    dataset = replace(dataset, files=(*dataset.files, SourceFile("src/other.js", other)))
    result = run_mutation(functional, dataset, [("src/calc.test.js", SUITE)])
    assert result.error is None and not result.tampered
    assert {m.id: (m.killed, m.ran) for m in result.mutants} == {
        "even-flipped": (True, True),
        "high-boundary": (False, True),
        "other-two": (False, False),
    }
