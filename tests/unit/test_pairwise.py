"""Pairs of models on the leaderboard, honest ranks and self-preference."""

from __future__ import annotations

import pytest

from pytest_llmbench.reporting import families, leaderboard, markdown
from pytest_llmbench.schema.results import AttemptResult, Grade, ItemResult, MetricResult
from pytest_llmbench.schema.vocabulary import Metric


def _metric(metric: Metric, grades: dict[str, float]) -> MetricResult:
    return MetricResult(
        value=sum(grades.values()) / len(grades),
        source="judges",
        grades=[
            Grade(metric=metric, judge=j, grader="g", method="logprobs", weighted=w)
            for j, w in grades.items()
        ],
    )


def _item(
    model: str,
    scenario: str,
    grade: float,
    judges: dict[str, float] | None = None,
    category: str = "c",
) -> ItemResult:
    grades = judges or {"judge/x": grade}
    acc = _metric("accuracy", grades)
    attempt = AttemptResult(
        attempt=1,
        answer="",
        answer_latency_s=0.0,
        accuracy=acc,
        completeness=_metric("completeness", grades),
        quality=acc.value / 4 if acc.value else None,
        steps=[],
    )
    return ItemResult(
        nodeid=f"scenarios/c/{scenario}.yaml::test_scenario[{scenario}-D-{model}]",
        scenario=scenario,
        category=category,
        dataset="D",
        model=model,
        status="scored",
        accuracy=acc.value,
        completeness=acc.value,
        best_attempt=1,
        attempts=[attempt],
    )


def _board(grades: dict[str, list[float]]) -> leaderboard.Leaderboard:
    items = [
        _item(model, f"S{n:02d}", grade)
        for model, values in grades.items()
        for n, grade in enumerate(values)
    ]
    return leaderboard.build(items, attempts=1, formula="sum8")


def test_a_clear_difference_is_significant_and_ranks_differ() -> None:
    board = _board({"good": [4.0] * 20, "bad": [1.0] * 20})
    (pair,) = board.pairs
    assert (pair.a, pair.b, pair.items, pair.scenarios) == ("good", "bad", 20, 20)
    assert pair.difference == pytest.approx((8 - 2) / 8)
    assert pair.p is not None and pair.p < 0.001 and pair.significant
    # Every item passed by good alone: McNemar's exact p = 2 / 2**20.
    assert (pair.pass_at_1.a_only, pair.pass_at_1.b_only) == (20, 0)
    assert pair.pass_at_1.p == pytest.approx(2 / 2**20, abs=1e-12)
    assert pair.tests_pass_at_1.items == 0 and pair.tests_pass_at_1.p is None
    assert [r.rank for r in board.models] == ["1", "2"]
    assert board.ranking is not None and board.ranking.level == 0.95
    assert markdown.ranks_line(board) is None  # no shared range to explain


def test_identical_answers_share_the_rank() -> None:
    grades = [4.0, 2.0, 3.0, 1.0, 3.5] * 4
    board = _board({"first": grades, "second": list(grades)})
    (pair,) = board.pairs
    assert pair.difference == 0 and pair.difference_ci == [0.0, 0.0]
    assert pair.p == 1.0 and not pair.significant
    assert [r.rank for r in board.models] == ["1-2", "1-2"]
    text = markdown.render(board)
    assert "## Pairwise comparisons" in text and "| 1-2 | first |" in text
    assert "cannot tell apart (p >= 0.05 after Holm)" in (markdown.ranks_line(board) or "")


def test_paired_test_sees_what_the_per_model_intervals_do_not() -> None:
    # Items differ widely in difficulty; "new" is better by one grade on 8 of 30.
    difficulty = [1.0 + 3 * ((n * 7) % 30) / 29 for n in range(30)]
    better = [g + (0.5 if n % 4 == 0 and g < 3.5 else 0.0) for n, g in enumerate(difficulty)]
    board = _board({"new": better, "old": difficulty})
    rows = {r.model: r for r in board.models}
    new_ci, old_ci = rows["new"].score_ci, rows["old"].score_ci
    assert new_ci is not None and old_ci is not None
    assert new_ci[0] < old_ci[1]  # the per-model intervals overlap
    (pair,) = board.pairs
    assert pair.difference_ci is not None and pair.difference_ci[0] > 0
    assert pair.p is not None and pair.p < 0.05 and pair.significant
    assert [rows["new"].rank, rows["old"].rank] == ["1", "2"]
    assert pair.detectable is not None and 0 < pair.detectable < pair.difference * 2


def test_ranks_are_ranges_over_the_pairs_that_differ() -> None:
    # a beats c clearly; b sits between and differs from neither after Holm.
    board = _board({"a": [4.0] * 12, "b": [4.0] * 6 + [1.0] * 6, "c": [1.0] * 12})
    by_pair = {(p.a, p.b): p for p in board.pairs}
    assert by_pair[("a", "c")].significant
    assert by_pair[("a", "b")].p == pytest.approx(2 / 2**6)
    assert by_pair[("a", "b")].p_holm == pytest.approx(2 * 2 / 2**6)
    assert by_pair[("a", "c")].p_holm == pytest.approx(3 * 2 / 2**12)
    assert not by_pair[("a", "b")].significant and not by_pair[("b", "c")].significant
    assert [(r.model, r.rank) for r in board.models] == [("a", "1-2"), ("b", "1-3"), ("c", "2-3")]


def test_category_rows_are_ranked_within_their_category() -> None:
    items = [_item("a", f"X{n}", 4.0, category="clear") for n in range(10)]
    items += [_item("b", f"X{n}", 1.0, category="clear") for n in range(10)]
    items += [_item(m, f"Y{n}", 3.0, category="tied") for m in "ab" for n in range(10)]
    board = leaderboard.build(items, attempts=1, formula="sum8")
    ranks = {(r.model, r.category): r.rank for r in board.categories}
    assert ranks == {
        ("a", "clear"): "1",
        ("b", "clear"): "2",
        ("a", "tied"): "1-2",
        ("b", "tied"): "1-2",
    }
    assert [r.rank for r in board.models] == ["1", "2"]  # 10 of 20 scenarios all one way
    assert "| a | tied | sum8 | 1-2 |" in markdown.render(board)


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("openai/gpt-4o", ("openai", "gpt")),
        ("openai/gpt-4o-mini", ("openai", "gpt")),
        ("anthropic/claude-3-5-haiku-latest", ("anthropic", "claude")),
        ("bedrock/anthropic.claude-3-sonnet-20240229-v1:0", ("bedrock", "claude")),
        ("openai/qwen2.5-coder", ("openai", "qwen")),
        ("ollama/llama3.1", ("ollama", "llama")),
        ("gpt-4.1", ("", "gpt")),
    ],
)
def test_family_comes_from_the_litellm_name(model: str, expected: tuple[str, str]) -> None:
    assert families.family(model) == expected


def test_a_judge_of_the_own_family_marks_the_row_and_the_others_score_it() -> None:
    judges = {"openai/gpt-4o": 4.0, "anthropic/claude-3-5-sonnet": 2.0}
    items = [_item("openai/gpt-4o-mini", f"S{n}", 0, dict(judges)) for n in range(3)]
    items += [_item("anthropic/claude-3-5-haiku", f"S{n}", 0, dict(judges)) for n in range(3)]
    board = leaderboard.build(items, attempts=1, formula="sum8")
    rows = {r.model: r for r in board.models}
    gpt, claude = rows["openai/gpt-4o-mini"], rows["anthropic/claude-3-5-haiku"]
    assert gpt.own_family_judges == ["openai/gpt-4o"]
    assert "judged by its own family: openai/gpt-4o" in gpt.marks
    assert gpt.score == pytest.approx(6 / 8)  # both judges: grades 3 and 3
    assert gpt.score_other_judges == pytest.approx(4 / 8)  # claude's 2 and 2
    assert claude.score_other_judges == pytest.approx(1.0)  # gpt-4o's 4 and 4
    category = next(r for r in board.categories if r.model == "openai/gpt-4o-mini")
    assert category.score_other_judges == pytest.approx(4 / 8)
    assert "judged by its own family" in markdown.render(board)


def test_grades_whose_mean_is_not_the_metric_are_not_rescored() -> None:
    # Imported grades (AIRUN's published figures) make the metric otherwise: the mark
    # stays, but no score from the other judges is made up.
    judges = {"openai/gpt-4o": 4.0, "anthropic/claude-3-5-sonnet": 2.0}
    items = [_item("openai/gpt-4o-mini", f"S{n}", 0, dict(judges)) for n in range(3)]
    for item in items:
        item.attempts[0].accuracy.value = 2.5
    (row,) = leaderboard.build(items, attempts=1, formula="sum8").models
    assert row.own_family_judges == ["openai/gpt-4o"] and row.score_other_judges is None


def test_a_single_own_family_judge_marks_without_another_score() -> None:
    items = [_item("openai/gpt-4o-mini", f"S{n}", 0, {"openai/gpt-4o": 3.0}) for n in range(2)]
    (row,) = leaderboard.build(items, attempts=1, formula="sum8").models
    assert row.own_family_judges == ["openai/gpt-4o"] and row.score_other_judges is None
    other = [_item("openai/gpt-4o-mini", "S", 0, {"anthropic/claude-3": 3.0})]
    (plain,) = leaderboard.build(other, attempts=1).models
    assert plain.own_family_judges == [] and plain.marks == []
