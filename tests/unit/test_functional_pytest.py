"""The pytest runner: hidden Python tests against an answer, and an answer's own Python
tests against mutants of a dataset, in the sandbox with our own configuration."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_llmbench.formats.dataset import load_dataset
from pytest_llmbench.formats.functional import Functional, HiddenFile
from pytest_llmbench.functional.verify import run_functional

HIDDEN_TESTS = """\
from calc import add, halve

def test_adds():
    assert add(2, 3) == 5

def test_halves():
    assert halve(9) == 4.5, "halve(9) should be 4.5"
"""
ANSWER = "def add(a, b):\n    return a + b\n\ndef halve(x):\n    return x // 2\n"
# An answer's conftest that would turn every failure into a pass: never imported.
CHEAT = """\
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
"""


def test_hidden_python_tests_run_on_the_answer_and_its_conftest_is_refused() -> None:
    functional = Functional(
        "pytest", "acceptance", "empty", 60.0, (HiddenFile("test_calc.py", HIDDEN_TESTS),)
    )
    files = [
        ("calc.py", ANSWER),
        ("conftest.py", CHEAT),
        ("pytest.ini", "[pytest]\naddopts = -x\n"),
    ]
    result = run_functional(functional, None, files)
    assert result.error is None, result.error
    by_name = {t.name: t for t in result.tests}
    assert set(by_name) == {"test_calc.test_adds", "test_calc.test_halves"}
    assert by_name["test_calc.test_adds"].passed
    halves = by_name["test_calc.test_halves"]
    assert not halves.passed and "halve(9) should be 4.5" in halves.message
    # the conftest.py was refused (a reserved path): the attempt is marked, with no credit
    assert (result.passed, result.total, result.rate) == (1, 2, 0.0)
    assert result.tampered and result.tamper_evidence == ["reserved path: conftest.py"]
    honest = run_functional(functional, None, [f for f in files if f[0] != "conftest.py"])
    assert (honest.passed, honest.total, honest.rate, honest.tampered) == (1, 2, 0.5, False)


OTHER_TESTS = "def test_stands_alone():\n    assert 1 + 1 == 2\n"


def test_an_answer_that_does_not_import_fails_its_module_with_the_cause_unmarked() -> None:
    """An honest answer with a syntax error: the hidden module that imports it is one
    failed test, named by the module, its first line the cause (no temporary path); its
    canaries never ran, which is no evidence of tampering; the other module still runs."""
    functional = Functional(
        "pytest",
        "acceptance",
        "empty",
        60.0,
        (HiddenFile("test_calc.py", HIDDEN_TESTS), HiddenFile("test_other.py", OTHER_TESTS)),
    )
    result = run_functional(functional, None, [("calc.py", "def add(a, b:\n    return a\n")])
    assert (result.tampered, result.tamper_evidence, result.error) == (False, [], None)
    by_name = {t.name: t for t in result.tests}
    assert set(by_name) == {"test_calc", "test_other.test_stands_alone"}
    broken = by_name["test_calc"]
    assert broken.status == "failed" and "llmbench-tests" not in broken.message
    assert broken.message.splitlines()[0] == 'File "calc.py", line 1'
    assert "SyntaxError" in broken.message
    assert (result.passed, result.total, result.rate) == (1, 2, 0.5)


def test_a_hidden_module_skipped_whole_counts_as_not_passed_and_is_no_evidence() -> None:
    skipped = "import pytest\n\npytest.skip('not on this machine', allow_module_level=True)\n"
    functional = Functional(
        "pytest",
        "acceptance",
        "empty",
        60.0,
        (HiddenFile("test_calc.py", HIDDEN_TESTS), HiddenFile("test_later.py", skipped)),
    )
    result = run_functional(functional, None, [("calc.py", ANSWER.replace("//", "/"))])
    assert (result.tampered, result.error) == (False, None), result.tamper_evidence
    by_name = {t.name: t.status for t in result.tests}
    assert by_name["test_later"] == "skipped"
    assert (result.passed, result.total, result.rate) == (2, 3, 2 / 3)


def test_a_run_stopped_at_its_time_limit_lists_the_collected_tests_as_not_run() -> None:
    waits = "import time\n\ndef test_first():\n    pass\n\ndef test_waits():\n    time.sleep(600)\n"
    # a limit pytest reaches its tests within even on a loaded machine; the test waits longer
    limit = 15.0
    functional = Functional(
        "pytest", "acceptance", "empty", limit, (HiddenFile("test_w.py", waits),)
    )
    result = run_functional(functional, None, [])
    assert result.error == "the test run was stopped at the time limit"
    assert [(t.name, t.status, t.passed) for t in result.tests] == [
        ("test_w.test_first", "not run", False),
        ("test_w.test_waits", "not run", False),
    ]  # the canaries were collected too, and are never listed
    assert (result.rate, result.tampered) == (0.0, False)


def test_an_answers_python_tests_are_scored_by_the_mutants_they_kill(tmp_path: Path) -> None:
    root = tmp_path / "Calc"
    root.mkdir()
    (root / "dataset.yaml").write_text("technology: Python 3\ndescription: a calculator\n")
    (root / "calc.py").write_text(
        "def add(a, b):\n    return a + b\n\ndef double(x):\n    return x * 2\n"
    )
    dataset = load_dataset(root)
    mutants = (
        "- {id: M1, file: calc.py, find: 'a + b', replace: 'a - b', description: add subtracts}\n"
        "- {id: M2, file: calc.py, find: 'x * 2', replace: 'x * 3', description: double triples}\n"
    )
    functional = Functional(
        "pytest", "mutation", "dataset", 60.0, (HiddenFile("README.md", "no hidden tests"),),
        mutants, "mutants.yaml",
    )  # fmt: skip
    own_tests = "from calc import add\n\ndef test_add():\n    assert add(2, 2) == 4\n"
    result = run_functional(functional, dataset, [("tests/test_calc.py", own_tests)])
    assert result.error is None, result.error
    assert (result.passed, result.total) == (1, 1)
    assert {m.id: m.killed for m in result.mutants} == {"M1": True, "M2": False}
    assert result.rate == pytest.approx(0.5)
