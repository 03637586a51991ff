"""The score formula and the aggregation into rows."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_llmbench.reporting import leaderboard, markdown


def _item(
    model: str,
    category: str,
    acc: float | None,
    compl: float | None,
    rate: float | None,
    attempt: int | None,
    status: str = "scored",
) -> dict[str, Any]:
    metric = {"source": "judges", "grades": [{"method": "logprobs"}]}
    return {
        "model": model,
        "category": category,
        "status": status,
        "accuracy": acc,
        "completeness": compl,
        "pass_rate": None,
        "generation_rate": rate,
        "best_attempt": attempt,
        "judge_agreement": None,
        "attempts": [{"attempt": attempt, "accuracy": metric, "completeness": metric}]
        if attempt
        else [],
        "candidate_usage": {"prompt_tokens": 10, "completion_tokens": 5, "cost_usd": 0.01},
        "judge_usage": {"prompt_tokens": 3, "completion_tokens": 1, "cost_usd": None},
    }


def test_score_follows_the_method_formula() -> None:
    row = {"accuracy": 3.0, "completeness": 2.0, "generation_rate": 50.0, "attempt": 2.0}
    value, notes = leaderboard.score(row, max_rate=100.0, attempts=3)
    assert value == pytest.approx(0.4 * 3 / 4 + 0.4 * 2 / 4 + 0.1 * 0.5 + 0.1 * (3 - 2) / 2)
    assert notes == []


def test_score_with_one_attempt_gives_full_attempt_term() -> None:
    row = {"accuracy": 4.0, "completeness": 4.0, "generation_rate": 10.0, "attempt": 1.0}
    assert leaderboard.score(row, max_rate=10.0, attempts=1)[0] == pytest.approx(1.0)


def test_missing_rate_is_a_noted_zero_term() -> None:
    row = {"accuracy": 4.0, "completeness": 4.0, "generation_rate": None, "attempt": 1.0}
    value, notes = leaderboard.score(row, max_rate=None, attempts=3)
    assert value == pytest.approx(0.9)
    assert "rate term 0" in notes[0]


def test_unscored_row_has_no_score() -> None:
    row = {"accuracy": None, "completeness": 3.0, "generation_rate": 1.0, "attempt": 1.0}
    assert leaderboard.score(row, max_rate=1.0, attempts=3) == (None, ["no scored items"])


def test_max_rate_is_over_models_so_scores_depend_on_each_other() -> None:
    items = [
        _item("fast", "migration", 3, 3, 100, 1),
        _item("fast", "migration", 3, 3, 60, 1),
        _item("slow", "migration", 3, 3, 40, 1),
    ]
    board = leaderboard.build(items, attempts=3)
    assert board["max_rate"] == 80
    rows = {r["model"]: r for r in board["models"]}
    assert rows["fast"]["score"] - rows["slow"]["score"] == pytest.approx(0.1 * (80 - 40) / 80)
    assert [r["model"] for r in board["models"]] == ["fast", "slow"]


def test_unscored_and_error_items_are_counted_not_averaged_as_zero() -> None:
    items = [
        _item("m", "analysis", 4, 4, 10, 1),
        _item("m", "analysis", None, None, None, None, "error"),
        _item("m", "testing", None, None, None, None, "unscored"),
    ]
    board = leaderboard.build(items, attempts=3)
    (row,) = board["models"]
    assert (row["items"], row["scored"], row["errors"], row["unscored"]) == (3, 1, 1, 1)
    assert row["accuracy"] == 4
    assert {(r["category"], r["scored"]) for r in board["categories"]} == {
        ("analysis", 1),
        ("testing", 0),
    }
    assert row["candidate_cost_usd"] == pytest.approx(0.03)
    assert row["judge_cost_usd"] is None


def test_markdown_lists_models_in_rank_order() -> None:
    board = leaderboard.build(
        [_item("b", "analysis", 2, 2, 5, 3), _item("a", "analysis", 4, 4, 5, 1)], attempts=3
    )
    text = markdown.render(board)
    assert text.index("| 1 | a |") < text.index("| 2 | b |")
    assert "## By category" in text


def test_code_metrics_are_means_over_the_items_that_have_them() -> None:
    code = dict.fromkeys(leaderboard.CODE_METRICS)
    first = {**_item("m", "generation", 4, 4, None, 1), "code": {**code, "similarity": 0.5}}
    second = {
        **_item("m", "migration", 4, 4, None, 1),
        "code": {**code, "similarity": 1.0, "executability": 0.0},
    }
    unscored = {**_item("m", "migration", None, None, None, None, "unscored"), "code": None}
    board = leaderboard.build([first, second, unscored], attempts=3)
    (row,) = board["models"]
    assert row["code"]["similarity"] == {"mean": 0.75, "n": 2}
    # An executability of 0 is a figure; a missing one is not averaged in as 0.
    assert row["code"]["executability"] == {"mean": 0.0, "n": 1}
    assert row["code"]["ci"] == {"mean": None, "n": 0}
    migration = next(r for r in board["categories"] if r["category"] == "migration")
    assert migration["code"]["similarity"] == {"mean": 1.0, "n": 1}
    assert "0.750 (2)" in markdown.render(board)
