"""Code metrics end to end: per item in results.jsonl, per model and category in the
leaderboard, the disk cache of dataset complexity, and the `file` check in a scenario."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import MINI_SCENARIO, model_row, read_leaderboard, read_results, write_project

OFFLINE = "--llm-model=llmbench/reference,llmbench/echo"


def test_code_metrics_per_item_and_per_model(pytester: pytest.Pytester, project: Path) -> None:
    pytester.runpytest(OFFLINE).assert_outcomes(passed=4)
    items = {(i["scenario"], i["model"]): i for i in read_results(project)}

    reference = items[("AddGreeting", "llmbench/reference")]["code"]
    # The reference answer: add and greet, CI 2 over 7 lines, against the input's 1 over 3.
    assert (reference["ci"], reference["loc"], reference["gci"]) == (2, 7, 0.2857)
    assert (reference["input_gci"], reference["gci_change"]) == (0.3333, -0.0476)
    assert reference["similarity"] == 1.0 and reference["similarity_normalised"] == 1.0
    assert reference["paths"] == ["src/app.js"]
    assert reference["executability"] == 1.0
    assert [(c["path"], c["checker"], c["status"]) for c in reference["syntax"]] == [
        ("src/app.js", "node", "pass")
    ]

    echo = items[("AddGreeting", "llmbench/echo")]["code"]
    # Echoing the input is the do-nothing answer: no better than the baseline.
    assert echo["similarity"] == echo["similarity_baseline"] < 1.0
    assert echo["similarity_normalised"] == 0.0
    assert (echo["ci"], echo["loc"], echo["gci_change"]) == (1, 3, 0.0)

    explained = items[("ExplainMini", "llmbench/reference")]["code"]
    # A prose reference is compared as text; an answer without code has no executability.
    assert explained["similarity"] == 1.0 and explained["executability"] is None
    assert explained["executability_reason"] == "no checkable code"

    board = read_leaderboard(project)
    code = model_row(board, "llmbench/reference")["code"]
    assert code["similarity"] == {"mean": 1.0, "n": 2}
    assert code["executability"] == {"mean": 1.0, "n": 1}
    assert code["gci_change"] == {"mean": -0.0476, "n": 1}
    echo_row = model_row(board, "llmbench/echo")["code"]
    assert echo_row["similarity_normalised"]["mean"] == 0.0
    categories = {
        (r["model"], r["category"]): r["code"] for r in board["leaderboard"]["categories"]
    }
    assert categories[("llmbench/reference", "generation")]["ci"] == {"mean": 2, "n": 1}
    markdown = (project / "reports" / "leaderboard.md").read_text()
    assert "## Code metrics" in markdown and "1.000 (2)" in markdown


def test_dataset_complexity_is_cached_on_disk(pytester: pytest.Pytester, project: Path) -> None:
    pytester.runpytest("--collect-only", "-q", OFFLINE).assert_outcomes()
    (cached,) = (project / ".llmbench_cache" / "complexity").glob("*.json")
    # A changed cache file is what the next run reads: the figures come from the cache.
    cached.write_text(cached.read_text().replace('"size": "low"', '"size": "high"'))
    result = pytester.runpytest("--collect-only", "-q", OFFLINE, "-m", "size_high")
    result.stdout.fnmatch_lines(["4 tests collected*"])


def test_file_check_in_a_scenario(pytester: pytest.Pytester) -> None:
    scenario = MINI_SCENARIO.replace(
        "    - Uses a template literal or string concatenation",
        "    - criterion: Returns src/app.js\n      check: {file: src/app.js}",
    )
    write_project(pytester.path, {"generation/AddGreeting.yaml": scenario})
    pytester.runpytest("--llm-model=llmbench/reference").assert_outcomes(passed=1)
    (item,) = read_results(pytester.path)
    steps = {s["id"]: s for s in item["attempts"][0]["steps"]}
    assert steps["A2"]["check"] == {
        "passed": True,
        "confidence": None,
        "reason": "names src/app.js",
    }
