"""The repository's own catalogue, run end to end: offline, and judged through a local server."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO, model_row, read_leaderboard, read_results
from tests.dialog_project import message
from tests.llm_server import FakeLLMServer


@pytest.fixture
def catalogue(pytester: pytest.Pytester) -> Path:
    """A copy of scenarios/ and datasets/, so runs write their reports outside the checkout."""
    for folder in ("scenarios", "datasets"):
        shutil.copytree(REPO / folder, pytester.path / folder)
    return pytester.path


def _catalogue_items() -> int:
    import yaml

    total = 0
    for path in (REPO / "scenarios").glob("*/*.yaml"):
        total += max(1, len(yaml.safe_load(path.read_text()).get("datasets") or []))
    return total


def test_offline_catalogue_reference_beats_echo(pytester: pytest.Pytester, catalogue: Path) -> None:
    items = _catalogue_items()
    assert items >= 5
    result = pytester.runpytest("scenarios", "--llm-model=llmbench/reference,llmbench/echo")
    result.assert_outcomes(passed=2 * items)
    board = read_leaderboard(catalogue)
    reference, echo = model_row(board, "llmbench/reference"), model_row(board, "llmbench/echo")
    assert reference["pass_rate"] == 1.0, (
        "every check of the catalogue passes on its reference answer"
    )
    assert reference["score"] > echo["score"]
    assert len({r["category"] for r in board["leaderboard"]["categories"]}) >= 3
    # Functional verification: every hidden test passes on the references (every listed
    # mutant killed by the reference tests), under 10% on the unchanged inputs.
    tested = [r for r in read_results(catalogue) if r["functional_rate"] is not None]
    assert len({r["scenario"] for r in tested}) >= 12
    assert {r["category"] for r in tested} >= {"generation", "migration", "testing"}
    assert reference["functional_items"] == echo["functional_items"] == len(tested) // 2
    assert reference["functional_rate"] == 1.0 and reference["functional_pass_at_1"] == 1.0
    assert echo["functional_rate"] < 0.1
    # Each hidden test fails on the unchanged input (every scenario with them asks for a
    # change): the echo model's answers pass none.
    for item in tested:
        if item["model"] == "llmbench/echo":
            runs = [a["functional"] for a in item["attempts"]]
            assert all(r["passed"] == 0 and r["rate"] == 0.0 for r in runs), item["nodeid"]


def test_judged_catalogue_through_a_local_server(
    pytester: pytest.Pytester, catalogue: Path, llm_server: FakeLLMServer
) -> None:
    # The judge passes a step when the answer names something the criterion quotes in backticks.
    def verdict(step_id: str, criterion: str, answer: str) -> bool:
        quoted = criterion.split("`")[1::2]
        return not quoted or any(q in answer for q in quoted)

    llm_server.policy.verdict = verdict
    # Single-shot items get a small component; dialogs (tools offered) finish every step.
    llm_server.policy.candidate = lambda request: (
        message("", [("finish_step", "{}")])
        if request.get("tools")
        else "```jsx\nexport default function App() { return null; }\n```"
    )
    result = pytester.runpytest(
        "scenarios",
        "--llm-model=openai/cand",
        "--llm-judge=openai/judge",
        f"--llm-api-base={llm_server.base_url}",
        "--llm-attempts=1",
    )
    result.assert_outcomes(passed=_catalogue_items())
    row = model_row(read_leaderboard(catalogue), "openai/cand")
    results = read_results(catalogue)
    # One grade per metric and item; a dialog item has one per turn.
    reports = sum(
        len(i["attempts"][0]["dialog"]["turns"]) if i["category"] == "dialog" else 1
        for i in results
    )
    assert row["metric_sources"] == {"judges": 2 * _catalogue_items()}
    assert row["grade_methods"] == {"logprobs": 2 * reports}
    for item in results:
        attempt = item["attempts"][0]
        dialog = attempt["dialog"]
        parts = [(t, f"T{t['number']}.") for t in dialog["turns"]] if dialog else [(attempt, "")]
        for part, prefix in parts:
            for metric in ("accuracy", "completeness"):
                (grade,) = part[metric]["grades"]
                # The metric is the grader's weighted grade, which the server derives from the verdicts.
                assert part[metric]["value"] == pytest.approx(grade["weighted"])
                assert grade["argmax"] == 1 + round(3 * _passed_share(attempt, metric, prefix))


def _passed_share(attempt: dict, metric: str, prefix: str = "") -> float:
    steps = [s for s in attempt["steps"] if s["metric"] == metric and s["id"].startswith(prefix)]
    return sum(s["judges"]["openai/judge"]["passed"] for s in steps) / len(steps)


def test_offline_run_never_imports_litellm(pytester: pytest.Pytester, catalogue: Path) -> None:
    pytester.makeconftest(
        "import sys\n"
        "def pytest_terminal_summary(terminalreporter):\n"
        "    terminalreporter.write_line(f'litellm imported: {\"litellm\" in sys.modules}')\n"
    )
    result = pytester.runpytest_subprocess(
        "scenarios",
        "--llm-model=llmbench/reference",
        "--llm-functional=off",
        "-p",
        "no:cacheprovider",
    )
    result.assert_outcomes(passed=_catalogue_items())
    result.stdout.fnmatch_lines(["litellm imported: False"])
