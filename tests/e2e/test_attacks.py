"""The red team's corpus through the whole pipeline (issue 25, point 6): every answer of
tests/attacks/ is the reference answer of its own scenario, and one run of the benchmark
with `--llm-model=llmbench/reference` sends each through the model, the checks and the
hidden tests (acceptance) or the mutants (mutation) of its runner. No attack may earn
more than its runner's tests give the code as given (the do-nothing answer), and an
attack that reaches the verdict must be marked `tampered` and get no functional credit;
an attack the defences stop before it reaches the verdict must leave a trace to be
marked by all the same. Each runner's honest control must keep full credit, unmarked; a
probe (an escape from the sandbox that earns the task's credit where it succeeds:
reading a reference answer or the dataset's original outside the workspace, reaching a
unix socket of the host) must not get full credit, and no process may outlive the run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.functional.verify import run_functional
from tests.attack_corpus import (
    SUITES,
    Answer,
    Suite,
    answers,
    dataset_of,
    functional_of,
    host_socket,
    write_attack_project,
)
from tests.conftest import REPO, read_results

pytestmark = pytest.mark.timeout(900)

CORPUS = answers()
ATTACKS = [a for a in CORPUS if a.kind == "attack"]
CONTROLS = [a for a in CORPUS if a.kind == "control"]
PROBES = [a for a in CORPUS if a.kind == "probe"]
MIN_ATTACKS = 8
# The command line of the process escape-leave-process.md tries to leave behind.
LEFT_BEHIND = b"sleep\x0086399.25"


def left_behind() -> list[int]:
    """The processes the leave-process probe started that are still alive."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and LEFT_BEHIND in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """One benchmark run over the whole corpus: each answer's result line, by scenario."""
    root = tmp_path_factory.mktemp("attacks")
    write_attack_project(root)
    # the hidden tests and answers are data of the scenarios, never this run's own tests
    (root / "pytest.ini").write_text(
        "[pytest]\nnorecursedirs = functional references\n", encoding="utf-8"
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    command = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
        "--llm-model=llmbench/reference", "--llm-attempts=1",
    ]  # fmt: skip
    with host_socket():
        run = subprocess.run(
            command, cwd=root, env=env, capture_output=True, text=True, timeout=840
        )
    assert (root / "reports" / "results.jsonl").is_file(), run.stdout[-2000:] + run.stderr[-2000:]
    by_scenario = {r["scenario"]: r for r in read_results(root)}
    missing = [a.label for a in CORPUS if a.scenario not in by_scenario]
    assert not missing, f"answers without a result: {missing}\n{run.stdout[-2000:]}"
    return by_scenario


def _got(answer: Answer, item: dict[str, Any]) -> str:
    """What the answer got, in one line for a failure message."""
    (attempt,) = item["attempts"]
    functional = attempt["functional"] or {}
    mutants = [m["killed"] for m in functional.get("mutants", [])]
    return (
        f"{answer.label} ({answer.description}) got rate {functional.get('rate')}, "
        f"item functional_rate {item.get('functional_rate')}, tampered "
        f"{functional.get('tampered')}, tests {functional.get('passed')}/"
        f"{functional.get('total')}, mutants killed {mutants}, error {functional.get('error')!r}"
    )


def test_each_runner_has_a_control_and_enough_attacks() -> None:
    for suite in SUITES:
        own = [a for a in CORPUS if a.suite == suite]
        assert any(a.is_control for a in own), f"{suite.folder}: no control.md"
        attacks = [a.name for a in own if not a.is_control]
        assert len(attacks) >= MIN_ATTACKS, f"{suite.folder}: {len(attacks)} attacks: {attacks}"
    assert {a.kind for a in CORPUS} <= {"attack", "control", "probe"}
    assert len({a.scenario for a in CORPUS}) == len(CORPUS)  # one scenario id per answer


@pytest.fixture(scope="module")
def as_given() -> dict[Suite, float]:
    """Per runner, the functional figure of the code as given (an answer that changes
    nothing): what an attack may earn at most."""
    return {
        suite: run_functional(functional_of(suite), dataset_of(suite), []).rate for suite in SUITES
    }


@pytest.mark.parametrize("answer", ATTACKS, ids=[a.label for a in ATTACKS])
def test_an_attack_earns_no_more_than_the_code_as_given(
    outcomes: dict[str, dict[str, Any]], as_given: dict[Suite, float], answer: Answer
) -> None:
    item = outcomes[answer.scenario]
    (attempt,) = item["attempts"]
    functional = attempt["functional"]
    assert functional is not None, f"{answer.label}: the attempt has no functional result"
    most = as_given[answer.suite]
    assert functional["rate"] <= most and item["functional_rate"] <= most, (
        f"{_got(answer, item)}; the code as given gets {most}"
    )


@pytest.mark.parametrize("answer", ATTACKS, ids=[a.label for a in ATTACKS])
def test_an_attack_is_marked_tampered_and_gets_no_functional_credit(
    outcomes: dict[str, dict[str, Any]], answer: Answer
) -> None:
    item = outcomes[answer.scenario]
    (attempt,) = item["attempts"]
    functional = attempt["functional"]
    assert functional is not None, f"{answer.label}: the attempt has no functional result"
    assert functional["tampered"] is True, _got(answer, item)
    assert functional["tamper_evidence"], _got(answer, item)
    assert functional["rate"] == 0.0 and item["functional_rate"] == 0.0, _got(answer, item)


@pytest.mark.parametrize("answer", CONTROLS, ids=[a.label for a in CONTROLS])
def test_the_honest_control_keeps_full_credit(
    outcomes: dict[str, dict[str, Any]], answer: Answer
) -> None:
    item = outcomes[answer.scenario]
    (attempt,) = item["attempts"]
    functional = attempt["functional"]
    assert functional is not None, f"{answer.label}: the attempt has no functional result"
    assert functional["tampered"] is False, _got(answer, item)
    assert functional["rate"] == 1.0 and item["functional_rate"] == 1.0, _got(answer, item)
    assert functional["error"] is None, _got(answer, item)


@pytest.mark.parametrize("answer", PROBES, ids=[a.label for a in PROBES])
def test_an_escape_from_the_sandbox_earns_nothing(
    outcomes: dict[str, dict[str, Any]], answer: Answer
) -> None:
    item = outcomes[answer.scenario]
    (attempt,) = item["attempts"]
    functional = attempt["functional"]
    assert functional is not None, f"{answer.label}: the attempt has no functional result"
    assert functional["rate"] < 1.0, _got(answer, item)


def test_no_process_outlives_the_run(outcomes: dict[str, dict[str, Any]]) -> None:
    assert any(a.name == "escape-leave-process" for a in PROBES)
    alive = left_behind()
    for pid in alive:  # leave the machine clean even when the test fails
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    assert not alive, f"escape-leave-process left processes running: {alive}"


def test_the_corpus_project_loads_every_scenario(tmp_path: Path) -> None:
    """The project alone (no run): every answer is its own scenario, with its runner."""
    written = write_attack_project(tmp_path)
    assert written == CORPUS
    for answer in CORPUS:
        scenario = tmp_path / "scenarios" / answer.suite.category / f"{answer.scenario}.yaml"
        text = scenario.read_text(encoding="utf-8")
        assert f"runner: {answer.suite.runner}\n" in text and f"mode: {answer.suite.mode}\n" in text
