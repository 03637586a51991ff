"""End-to-end runs of the plugin with the built-in offline models, through pytester."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_llmbench.metrics import eslint_ci
from pytest_llmbench.schema.results import SCHEMA_VERSION
from tests.conftest import json_report_results, model_row, read_leaderboard, read_results

OFFLINE = "--llm-model=llmbench/reference,llmbench/echo"


def test_items_have_readable_ids_and_markers(pytester: pytest.Pytester, project: Path) -> None:
    result = pytester.runpytest("--collect-only", "-q", OFFLINE)
    lines = result.stdout.lines
    assert (
        "scenarios/explanation/ExplainMini.yaml::test_scenario[ExplainMini-Mini-llmbench/reference]"
        in lines
    )
    assert (
        "scenarios/generation/AddGreeting.yaml::test_scenario[AddGreeting-Mini-llmbench/echo]"
        in lines
    )
    result.stdout.fnmatch_lines(["4 tests collected*"])
    # Mini has CI 1 over 3 lines: GCI 0.33 (high), LoC 3 (low).
    selected = pytester.runpytest(
        "--collect-only", "-q", OFFLINE, "-m", "explanation and complexity_high and size_low"
    )
    selected.stdout.fnmatch_lines(["2/4 tests collected (2 deselected)*"])
    by_keyword = pytester.runpytest("--collect-only", "-q", OFFLINE, "-k", "AddGreeting and echo")
    by_keyword.stdout.fnmatch_lines(["1/4 tests collected (3 deselected)*"])


def test_offline_run_writes_leaderboard_where_reference_beats_echo(
    pytester: pytest.Pytester, project: Path
) -> None:
    result = pytester.runpytest(OFFLINE)
    result.assert_outcomes(passed=4)
    # Two scenarios cannot tell two models apart (the paired test's smallest p is 1/2).
    result.stdout.fnmatch_lines(["*llmbench leaderboard*", "| 1-2 | llmbench/reference |*"])
    board = read_leaderboard(project)
    reference, echo = model_row(board, "llmbench/reference"), model_row(board, "llmbench/echo")
    assert reference["score"] > echo["score"]
    assert reference["pass_rate"] == 1.0
    assert echo["pass_rate"] < reference["pass_rate"]
    assert reference["metric_sources"] == {"checks": 4}
    assert board["schema_version"] == SCHEMA_VERSION == 5 and board["created_utc"].endswith(
        "+00:00"
    )
    assert "plugin_version" in board and "git_commit" in board
    assert (
        (project / "reports" / "leaderboard.md")
        .read_text()
        .startswith("# pytest-llmbench leaderboard")
    )
    assert len(read_results(project)) == 4


def test_steps_without_check_are_unscored_not_zero(
    pytester: pytest.Pytester, project: Path
) -> None:
    pytester.runpytest("--llm-model=llmbench/reference", "-k", "AddGreeting").assert_outcomes(
        passed=1
    )
    (item,) = read_results(project)
    assert item["complexity"] == {
        "ci": 1,
        "loc": 3,
        "nloc": 3,
        "functions": 1,
        "gci": 0.3333,
        "complexity": "high",
        "size": "low",
        "counter": eslint_ci.counter() or "lizard",  # which counted the figures
    }
    steps = {s["id"]: s for s in item["attempts"][0]["steps"]}
    assert steps["A2"]["check"] is None and steps["A2"]["judges"] == {}
    # Accuracy counts only its checked step A1, which passes: 1 + 3 * 1.0.
    assert item["accuracy"] == 4.0
    # Completeness weights: "Defines greet" weight 2 and "Keeps add" weight 1, both pass.
    assert item["completeness"] == 4.0


def test_echo_runs_all_attempts_and_reports_the_first_best(
    pytester: pytest.Pytester, project: Path
) -> None:
    pytester.runpytest(
        "--llm-model=llmbench/echo", "--llm-attempts=2", "-k", "AddGreeting"
    ).assert_outcomes(passed=1)
    (item,) = read_results(project)
    assert [a["attempt"] for a in item["attempts"]] == [1, 2]
    assert item["best_attempt"] == 1
    # The echo keeps add (weight 1) but lacks greet (weight 2): completeness 1 + 3 * 1/3.
    assert item["completeness"] == pytest.approx(2.0)


def test_reference_stops_after_a_perfect_attempt(pytester: pytest.Pytester, project: Path) -> None:
    pytester.runpytest("--llm-model=llmbench/reference", "-k", "AddGreeting").assert_outcomes(
        passed=1
    )
    (item,) = read_results(project)
    assert len(item["attempts"]) == 1


def test_json_report_carries_item_results_and_leaderboard(
    pytester: pytest.Pytester, project: Path
) -> None:
    pytester.runpytest(OFFLINE).assert_outcomes(passed=4)
    report = json.loads((project / "reports" / "report.json").read_text())
    results = json_report_results(project / "reports")
    assert len(results) == 4 and all(r["status"] == "scored" for r in results)
    assert report["llmbench"]["leaderboard"]["models"][0]["model"] == "llmbench/reference"


def _stable(board: dict) -> dict:
    """The leaderboard without the fields that differ from run to run (wall-clock latency)."""
    stable = json.loads(json.dumps(board["leaderboard"]))
    for row in stable["models"] + stable["categories"]:
        del row["latency_s"]
    return stable


def test_same_leaderboard_with_and_without_xdist(pytester: pytest.Pytester, project: Path) -> None:
    pytester.runpytest(OFFLINE).assert_outcomes(passed=4)
    serial = _stable(read_leaderboard(project))
    serial_items = sorted(r["nodeid"] for r in read_results(project))
    pytester.runpytest(OFFLINE, "-n", "2").assert_outcomes(passed=4)
    parallel = _stable(read_leaderboard(project))
    assert parallel == serial
    assert sorted(r["nodeid"] for r in read_results(project)) == serial_items


def test_missing_reference_is_an_item_error_and_the_run_goes_on(
    pytester: pytest.Pytester, project: Path
) -> None:
    scenario = project / "scenarios" / "explanation" / "ExplainMini.yaml"
    text = scenario.read_text()
    scenario.write_text(text[: text.index("references:")] + text[text.index("criteria:") :])
    result = pytester.runpytest("--llm-model=llmbench/reference")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*ExplainMini.yaml has no reference answer for Mini*"])
    assert "Traceback" not in result.stdout.str()
    statuses = sorted(r["status"] for r in read_results(project))
    assert statuses == ["error", "scored"]
    assert model_row(read_leaderboard(project), "llmbench/reference")["errors"] == 1


def test_a_run_without_benchmark_items_leaves_the_report_dir_alone(
    pytester: pytest.Pytester, project: Path
) -> None:
    pytester.runpytest(OFFLINE).assert_outcomes(passed=4)
    before = {p.name: p.read_text() for p in (project / "reports").iterdir()}
    pytester.makepyfile(test_unit="def test_plain():\n    assert 1 + 1 == 2\n")
    result = pytester.runpytest("test_unit.py")
    result.assert_outcomes(passed=1)
    assert "llmbench leaderboard" not in result.stdout.str()
    assert {p.name: p.read_text() for p in (project / "reports").iterdir()} == before
