"""The score formula and the aggregation into rows."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_llmbench.judging import formulas
from pytest_llmbench.reporting import leaderboard, markdown
from pytest_llmbench.schema.leaderboard import Leaderboard
from pytest_llmbench.schema.results import (
    AttemptResult,
    CodeMetrics,
    Grade,
    ItemResult,
    MetricResult,
    StepResult,
    Usage,
)
from pytest_llmbench.schema.vocabulary import ItemStatus, Metric


def _metric(value: float | None, grades: dict[str, int | None], metric: Metric) -> MetricResult:
    return MetricResult(
        value=value,
        source="judges",
        grades=[
            Grade(metric=metric, judge=j, grader="g", method="logprobs", argmax=g)
            for j, g in grades.items()
        ],
    )


def _item(
    model: str,
    category: str,
    acc: float | None,
    compl: float | None,
    rate: float | None,
    attempt: int | None,
    status: ItemStatus = "scored",
) -> ItemResult:
    attempts = (
        [
            AttemptResult(
                attempt=attempt,
                answer="",
                answer_latency_s=0.0,
                accuracy=_metric(acc, {"j": None}, "accuracy"),
                completeness=_metric(compl, {"j": None}, "completeness"),
                steps=[],
            )
        ]
        if attempt
        else []
    )
    return ItemResult(
        scenario="S",
        dataset=None,
        model=model,
        category=category,
        status=status,
        accuracy=acc,
        completeness=compl,
        generation_rate=rate,
        best_attempt=attempt,
        attempts=attempts,
        candidate_usage=Usage(prompt_tokens=10, completion_tokens=5, cost_usd=0.01),
        judge_usage=Usage(prompt_tokens=3, completion_tokens=1, cost_usd=None),
    )


def _score(item: ItemResult, top: float | None, attempts: int, formula: str | None = None) -> float:
    return leaderboard.item_score(item, item.generation_rate, top, attempts, formula)


def test_score_follows_the_method_formula() -> None:
    value = _score(_item("m", "c", 3.0, 2.0, 50.0, 2), top=100.0, attempts=3)
    assert value == pytest.approx(0.4 * 3 / 4 + 0.4 * 2 / 4 + 0.1 * 0.5 + 0.1 * (3 - 2) / 2)


def test_score_with_one_attempt_gives_full_attempt_term() -> None:
    assert _score(_item("m", "c", 4, 4, 10, 1), top=10.0, attempts=1) == pytest.approx(1.0)


def test_missing_rate_is_a_noted_zero_term() -> None:
    board = leaderboard.build([_item("m", "c", 4, 4, None, 1)], attempts=3)
    (row,) = board.models
    assert row.score == pytest.approx(0.9)
    assert "rate term 0" in row.notes[0]


def test_unscored_row_has_no_score() -> None:
    board = leaderboard.build([_item("m", "c", None, None, None, None, "unscored")], attempts=3)
    (row,) = board.models
    assert (row.score, row.score_ci, row.notes) == (None, None, ["no scored items"])


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        # Acc 3, Compl 2 on 1..4: on 0..1 they are 2/3 and 1/3.
        ("sum8", (3 + 2) / 8),
        ("unit", (2 / 3 + 1 / 3) / 2),
        ("multimodal", 0.9 * 2 / 3 + 0.1 * 1 / 3),
    ],
)
def test_published_variants_ignore_rate_and_attempt(formula: str, expected: float) -> None:
    fast = _score(_item("m", "c", 3, 2, 100, 1), top=100.0, attempts=3, formula=formula)
    slow = _score(_item("m", "c", 3, 2, None, 3), top=100.0, attempts=3, formula=formula)
    assert fast == slow == pytest.approx(expected)


def test_leaderboard_names_its_formula() -> None:
    board = leaderboard.build([_item("m", "c", 3, 2, None, 1)], attempts=3, formula="sum8")
    assert board.formula == "sum8"
    assert board.formulas == {"sum8": "(Acc + Compl)/8 on 1..4"}
    assert board.models[0].score == pytest.approx(5 / 8)
    assert "Score formula `sum8`" in markdown.render(board)


def test_multimodal_category_uses_its_formula_by_default_and_rows_say_so() -> None:
    # Acc 4, Compl 1: multimodal = 0.9*1 + 0.1*0 = 0.9; weighted (no rate, attempt 1 of 3)
    # = 0.4 + 0.1 + 0 + 0.1 = 0.6.
    items = [_item("m", "multimodal", 4, 1, None, 1), _item("m", "analysis", 4, 1, None, 1)]
    board = leaderboard.build(items, attempts=3)
    rows = {r.category: r for r in board.categories}
    assert rows["multimodal"].score == pytest.approx(0.9)
    assert rows["multimodal"].formula == "multimodal"
    assert rows["analysis"].score == pytest.approx(0.6)
    assert rows["analysis"].formula == "weighted"
    # The model's row averages item scores, each by its category's formula, on one 0..1 scale.
    (model,) = board.models
    assert model.score == pytest.approx((0.9 + 0.6) / 2)
    assert model.formula == "multimodal,weighted"
    assert board.formula == "multimodal,weighted"
    assert set(board.formulas) == {"multimodal", "weighted"}
    text = markdown.render(board)
    assert "| Model | Category | Formula | # in category | Score |" in text
    assert "| m | multimodal | multimodal | 1 | 0.900 |" in text
    assert "| m | analysis | weighted | 1 | 0.600 |" in text
    # An explicit choice applies to every category.
    chosen = leaderboard.build(items, attempts=3, formula="sum8")
    assert {r.formula for r in chosen.categories} == {"sum8"}
    assert chosen.models[0].score == pytest.approx(5 / 8)
    assert formulas.formula_for("multimodal", "weighted").name == "weighted"


def test_max_rate_is_over_models_so_scores_depend_on_each_other() -> None:
    items = [
        _item("fast", "migration", 3, 3, 100, 1),
        _item("fast", "migration", 3, 3, 60, 1),
        _item("slow", "migration", 3, 3, 40, 1),
    ]
    board = leaderboard.build(items, attempts=3)
    assert board.max_rate == 80
    rows = {r.model: r for r in board.models}
    fast, slow = rows["fast"].score, rows["slow"].score
    assert fast is not None and slow is not None
    assert fast - slow == pytest.approx(0.1 * (80 - 40) / 80)
    assert [r.model for r in board.models] == ["fast", "slow"]
    # The rate term is the model's mean rate over MaxRate, the same for each of its items:
    # fast's two items score alike (0.6 + 0.1 + 0.1), so its interval is a point.
    assert rows["fast"].score_ci == pytest.approx([0.8, 0.8])


def test_unscored_and_error_items_are_counted_not_averaged_as_zero() -> None:
    items = [
        _item("m", "analysis", 4, 4, 10, 1),
        _item("m", "analysis", None, None, None, None, "error"),
        _item("m", "testing", None, None, None, None, "unscored"),
    ]
    board = leaderboard.build(items, attempts=3)
    (row,) = board.models
    assert (row.items, row.scored, row.errors, row.unscored) == (3, 1, 1, 1)
    assert row.accuracy == 4
    assert {(r.category, r.scored) for r in board.categories} == {
        ("analysis", 1),
        ("testing", 0),
    }
    assert row.candidate_cost_usd == pytest.approx(0.03)
    assert row.judge_cost_usd is None


def test_markdown_lists_models_in_score_order() -> None:
    board = leaderboard.build(
        [_item("b", "analysis", 2, 2, 5, 3), _item("a", "analysis", 4, 4, 5, 1)], attempts=3
    )
    text = markdown.render(board)
    # One item each cannot tell the two apart: they share the rank range.
    assert text.index("| 1-2 | a |") < text.index("| 1-2 | b |")
    assert "## By category" in text


def test_code_metrics_are_means_over_the_items_that_have_them() -> None:
    code = dict.fromkeys(leaderboard.CODE_METRICS)
    first = _item("m", "generation", 4, 4, None, 1)
    first.code = CodeMetrics.model_validate({**code, "files": 1, "similarity": 0.5})
    second = _item("m", "migration", 4, 4, None, 1)
    second.code = CodeMetrics.model_validate(
        {**code, "files": 1, "similarity": 1.0, "executability": 0.0}
    )
    unscored = _item("m", "migration", None, None, None, None, "unscored")
    board = leaderboard.build([first, second, unscored], attempts=3)
    (row,) = board.models
    assert row.code.similarity.model_dump() == {"mean": 0.75, "n": 2}
    # An executability of 0 is a figure; a missing one is not averaged in as 0.
    assert row.code.executability.model_dump() == {"mean": 0.0, "n": 1}
    assert row.code.ci.model_dump() == {"mean": None, "n": 0}
    migration = next(r for r in board.categories if r.category == "migration")
    assert migration.code.similarity.model_dump() == {"mean": 1.0, "n": 1}
    assert "0.750 (2)" in markdown.render(board)


def _attempt(
    number: int, acc: float, compl: float, grades: dict[str, tuple[int, int]], agrees: list[Any]
) -> AttemptResult:
    """An attempt whose judges gave (accuracy, completeness) argmax grades."""
    return AttemptResult(
        attempt=number,
        answer="",
        answer_latency_s=0.0,
        accuracy=_metric(acc, {j: g[0] for j, g in grades.items()}, "accuracy"),
        completeness=_metric(compl, {j: g[1] for j, g in grades.items()}, "completeness"),
        steps=[
            StepResult(id=f"A{n}", metric="accuracy", criterion="c", weight=1.0, check_agrees=a)
            for n, a in enumerate(agrees, start=1)
        ],
    )


def test_row_statistics_from_attempts_judges_and_usage() -> None:
    first = _item("m", "c", 4, 3, None, 2)
    first.attempts = [
        # Not the best attempt: its grades would change alpha if they were counted.
        _attempt(1, 2, 2, {"j1": (4, 4), "j2": (1, 1)}, [False, False]),
        _attempt(2, 4, 3, {"j1": (1, 2), "j2": (1, 3)}, [True, False, None]),
        _attempt(3, 1, 1, {"j1": (1, 1), "j2": (1, 1)}, []),
    ]
    first.latency_s = 2.0
    first.candidate_usage.prompt_tokens = 25
    second = _item("m", "c", 4, 4, None, 1)
    second.attempts = [_attempt(1, 4, 4, {"j1": (3, 1), "j2": (3, 3)}, [True])]
    second.latency_s = 4.0
    second.candidate_usage = Usage(prompt_tokens=100, completion_tokens=50, cost_usd=0.03)
    (row,) = leaderboard.build([first, second], attempts=3).models
    # pass@k: first ran 3 attempts with one pass (quality 7/8): pass@1 = 1/3, pass@3 = 1;
    # second stopped after a perfect first attempt: 1 and 1.
    assert row.pass_at_1 == pytest.approx((1 / 3 + 1) / 2)
    assert row.pass_at_k == pytest.approx(1.0)
    # Best attempts' grades, units 1,1 | 2,3 | 3,3 | 1,3: the hand-computed case of
    # test_statistics (ordinal alpha 0.3375); 2 of 4 judge pairs agree.
    assert row.judge_alpha == pytest.approx(0.3375)
    assert row.judge_exact_agreement == pytest.approx(0.5)
    assert row.check_judge_agreement == pytest.approx(2 / 3)
    # Tokens 30 and 150, latency 2 and 4: median and p95 by linear interpolation.
    assert row.tokens.model_dump() == pytest.approx({"median": 90, "p95": 144})
    assert row.latency_s.model_dump() == pytest.approx({"median": 3.0, "p95": 3.9})
    assert row.cost_usd.model_dump() == pytest.approx({"median": 0.02, "p95": 0.029})
    # Two items: the intervals of the means span the two values (see test_statistics).
    assert row.accuracy_ci == pytest.approx([4.0, 4.0])
    assert row.completeness_ci == pytest.approx([3.0, 4.0])
    assert row.score_ci is not None and row.score is not None
    assert row.score_ci[0] < row.score < row.score_ci[1]


def test_the_pass_threshold_reads_under_its_former_name_too() -> None:
    board = leaderboard.build([_item("m", "c", 3, 3, None, 1)], attempts=3)
    data = board.model_dump(mode="json")
    assert data["pass_threshold"] == leaderboard.PASS_THRESHOLD == 0.75
    assert "pass_quality" not in data
    # A leaderboard.json written before schema 3 named it pass_quality.
    del data["pass_threshold"]
    old = Leaderboard.model_validate({**data, "pass_quality": 0.75})
    assert old.pass_threshold == 0.75 and "pass_quality" not in old.model_dump()
