"""Hidden tests in the leaderboard: the functional figures of rows, judges against the
tests (calibration), the `functional` score formula and the Markdown of all three."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_llmbench.judging import formulas, statistics
from pytest_llmbench.reporting import functional, leaderboard, markdown, viewdata
from pytest_llmbench.reporting.reader import read_results
from pytest_llmbench.schema.functional import FunctionalResult
from pytest_llmbench.schema.results import ItemResult, StepResult, Verdict
from tests.unit.test_leaderboard import _item

FIXTURE = Path(__file__).parent.parent / "fixtures" / "results-v2.jsonl"


def _tested(
    model: str,
    category: str,
    rate: float | None,
    first: bool | None = None,
    feedback: bool | None = None,
    acc: float = 4.0,
) -> ItemResult:
    item = _item(model, category, acc, 4.0, None, 1)
    item.functional_rate, item.pass_at_1, item.pass_after_feedback = rate, first, feedback
    return item


def _step(tests: bool | None, judges: dict[str, bool], check: bool | None = None) -> StepResult:
    return StepResult(
        id="A1",
        metric="accuracy",
        criterion="c",
        weight=1.0,
        judges={j: Verdict(passed=p) for j, p in judges.items()},
        check=None if check is None else Verdict(passed=check),
        tests_passed=tests,
    )


def test_rows_average_the_functional_items_only_and_count_them() -> None:
    items = [
        _tested("m", "migration", 1.0, first=True),
        _tested("m", "migration", 0.5, first=False),
        _tested("m", "generation", 0.0, first=False),
        _tested("m", "analysis", None),  # no hidden tests: not averaged in as 0
    ]
    board = leaderboard.build(items, attempts=3)
    (row,) = board.models
    assert row.functional_items == 3
    assert row.functional_rate == pytest.approx(0.5)
    assert row.functional_pass_at_1 == pytest.approx(1 / 3)
    assert row.functional_rate_ci is not None
    assert row.functional_rate_ci[0] <= 0.5 <= row.functional_rate_ci[1]
    # No item ran with --llm-feedback: no figure, not 0.
    assert row.functional_pass_after_feedback is None
    rows = {r.category: r for r in board.categories}
    assert rows["migration"].functional_rate == pytest.approx(0.75)
    assert rows["migration"].functional_pass_at_1 == pytest.approx(0.5)
    untested = rows["analysis"]
    assert (untested.functional_items, untested.functional_rate) == (0, None)
    assert (untested.functional_pass_at_1, untested.functional_rate_ci) == (None, None)


def test_pass_after_feedback_is_its_own_share_beside_pass_at_1() -> None:
    items = [
        _tested("m", "migration", 1.0, first=True, feedback=True),
        _tested("m", "migration", 0.6, first=False, feedback=True),  # passed on attempt 2
        _tested("m", "migration", 0.2, first=False, feedback=False),
        _tested("m", "migration", 0.0, first=False),  # run without feedback
    ]
    (row,) = leaderboard.build(items, attempts=3).models
    assert row.functional_pass_at_1 == pytest.approx(1 / 4)
    assert row.functional_pass_after_feedback == pytest.approx(2 / 3)


def test_functional_items_count_in_any_status() -> None:
    # The tests ran though no judge could grade the answer: the row still has the figure.
    unscored = _tested("m", "migration", 0.25, first=False)
    unscored.status, unscored.accuracy, unscored.completeness = "unscored", None, None
    (row,) = leaderboard.build([unscored], attempts=3).models
    assert (row.scored, row.functional_items, row.functional_rate) == (0, 1, 0.25)


def test_calibration_counts_each_judge_and_the_checks_against_the_tests() -> None:
    first, second = _tested("m", "migration", 0.5), _tested("n", "migration", 1.0)
    first.attempts[0].steps = [
        _step(True, {"j1": True, "j2": False}, check=True),
        _step(False, {"j1": True, "j2": False}, check=False),
        _step(None, {"j1": False, "j2": False}, check=False),  # not a functional criterion
    ]
    second.attempts[0].steps = [_step(True, {"j1": True}), _step(False, {"j1": False})]
    board = leaderboard.build([first, second], attempts=3)
    by_name = {c.verifier: c for c in board.calibration}
    assert [c.verifier for c in board.calibration] == ["j1", "j2", "checks"]
    j1, j2, checks = by_name["j1"], by_name["j2"], by_name["checks"]
    # j1 over both items: Pass/tests pass x2, Pass/tests fail, Fail/tests fail.
    assert (j1.n, j1.both_pass, j1.pass_tests_fail, j1.fail_tests_pass, j1.both_fail) == (
        4,
        2,
        1,
        0,
        1,
    )
    assert j1.agreement == pytest.approx(3 / 4)
    # p_o = 3/4; p_e = 3/4 * 1/2 + 1/4 * 1/2 = 1/2: kappa = (3/4 - 1/2) / (1/2) = 1/2.
    assert j1.kappa == pytest.approx(0.5)
    assert (j2.n, j2.fail_tests_pass, j2.both_fail, j2.agreement) == (2, 1, 1, 0.5)
    assert j2.kappa == 0.0  # j2 only ever says Fail: no better than chance
    assert (checks.kind, checks.n, checks.agreement, checks.kappa) == ("check", 2, 1.0, 1.0)


def test_calibration_counts_every_attempt_not_only_the_best() -> None:
    item = _tested("m", "migration", 0.5)
    later = item.attempts[0].model_copy(update={"attempt": 2})
    item.attempts[0].steps = [_step(False, {"j": True})]
    later.steps = [_step(True, {"j": True})]
    item.attempts.append(later)
    (judge,) = leaderboard.build([item], attempts=3).calibration
    assert (judge.n, judge.pass_tests_fail, judge.both_pass) == (2, 1, 1)


def test_cohen_kappa_of_opposite_verdicts_is_negative() -> None:
    assert statistics.cohen_kappa([(True, False), (False, True)]) == pytest.approx(-1.0)
    assert statistics.cohen_kappa([]) is None
    # Both always Pass: agreement is perfect but says nothing beyond chance.
    assert statistics.cohen_kappa([(True, True), (True, True)]) is None


def test_functional_formula_weighs_the_tests_half() -> None:
    # F 0.5, Acc 3 and Compl 2 on 1..4 (2/3 and 1/3 on 0..1): 0.25 + 1/6 + 1/12.
    item = _tested("m", "migration", 0.5, acc=3.0)
    item.completeness = 2.0
    score = leaderboard.item_score(item, None, None, 3, "functional")
    assert score == pytest.approx(0.5 * 0.5 + 0.25 * 2 / 3 + 0.25 * 1 / 3)
    assert leaderboard.item_formula(item, "functional").name == "functional"
    # A do-nothing answer (grades 1, no test passed) scores 0; a perfect one 1.
    assert viewdata.floor("functional") == 0.0
    perfect = formulas.Terms(accuracy=4, completeness=4, rate=0, attempt=0, functional=1.0)
    assert formulas.FORMULAS["functional"].compute(perfect) == pytest.approx(1.0)


def test_items_without_hidden_tests_are_scored_by_unit_and_rows_say_so() -> None:
    tested = _tested("m", "migration", 0.0, first=False)  # judges 4/4, tests all fail
    untested = _tested("m", "analysis", None)
    board = leaderboard.build([tested, untested], attempts=3, formula="functional")
    rows = {r.category: r for r in board.categories}
    assert rows["migration"].score == pytest.approx(0.5)
    assert rows["migration"].formula == "functional"
    assert rows["analysis"].score == pytest.approx(1.0)
    assert rows["analysis"].formula == "unit"
    (model,) = board.models
    assert model.formula == "functional,unit" and board.formula == "functional,unit"
    assert model.score == pytest.approx(0.75)
    assert "1 of 2 scored items have no hidden tests: scored by unit" in model.notes
    # The formula is only the chosen one: category defaults ignore the functional rate.
    # (weighted, no rate: 0.4 + 0.4 + 0 + 0.1, whatever the tests found).
    assert leaderboard.build([tested], attempts=1).models[0].score == pytest.approx(0.9)
    # Chosen with nothing to score, the board still names it.
    assert leaderboard.build([], attempts=3, formula="functional").formula == "functional"


def test_the_formula_is_selectable_by_name() -> None:
    from pytest_llmbench.option_values import formula_name

    assert formula_name("functional") == "functional"
    assert "functional" in formulas.FORMULAS


def test_markdown_shows_the_functional_columns_and_the_calibration() -> None:
    tested = _tested("m", "migration", 0.5, first=False, feedback=True)
    tested.attempts[0].steps = [_step(False, {"j": True}), _step(True, {"j": True})]
    text = markdown.render(leaderboard.build([tested, _tested("m", "analysis", None)], 3))
    assert "Functional (n) | Tests pass@1 | Tests pass after feedback | Tampered |" in text
    # Model row: 0.50 over 1 item, first attempt failed, passed after feedback.
    assert "| 0.50 (1) | 0% | 100% | 0 |" in text
    # The category without hidden tests shows dashes, not zeros (and no item tampered).
    assert "| m | analysis | weighted |" in text
    analysis = next(line for line in text.splitlines() if "| m | analysis |" in line)
    assert analysis.endswith("| – | – | – | 0 |")
    assert "## Judges against the hidden tests" in text
    assert "| j | judge | 2 | 50% | 0.00 | 1 | 0 | 1 | 0 |" in text


def _tampered(model: str, scenario: str, dataset: str | None, acc: float = 4.0) -> ItemResult:
    """An item whose one attempt's run was marked tampered, its judges fooled (Acc 4)."""
    item = _tested(model, "migration", 0.0, first=False, acc=acc)
    item.scenario, item.dataset, item.tampered = scenario, dataset, True
    item.attempts[0].functional = FunctionalResult(
        runner="node",
        mode="acceptance",
        passed=3,
        total=3,
        rate=1.0,
        tampered=True,
        tamper_evidence=["wrote reserved path node_modules/assert/index.js"],
    )
    return item


def test_rows_count_the_items_tampered_with_and_they_never_pass() -> None:
    forged = _tampered("m", "Greet", "Mini")
    assert forged.attempts[0].functional is not None
    assert forged.attempts[0].functional.rate == 0.0  # the schema's rule, whatever was given
    honest = _tested("m", "migration", 1.0, first=True)
    other = _tested("n", "analysis", None)
    board = leaderboard.build([forged, honest, other], attempts=1)
    rows = {r.model: r for r in board.models}
    assert (rows["m"].tampered, rows["n"].tampered) == (1, 0)
    assert {(r.model, r.category): r.tampered for r in board.categories} == {
        ("m", "migration"): 1,
        ("n", "analysis"): 0,
    }
    # Judged 4/4, the tampered attempt would pass on quality: it does not.
    assert rows["m"].pass_at_1 == pytest.approx(0.5)
    assert rows["n"].pass_at_1 == pytest.approx(1.0)
    assert rows["m"].functional_rate == pytest.approx(0.5)
    assert leaderboard.build([forged], attempts=1).models[0].pass_at_1 == 0.0
    assert {r["model"]: r["tampered"] for r in board.model_dump(mode="json")["models"]} == {
        "m": 1,
        "n": 0,
    }
    text = markdown.render(board)
    assert "| Functional (n) | Tests pass@1 | Tampered | Judge tokens |" in text
    # m and n share no item: nothing tells them apart, so they share the ranks 1-2.
    model_m = next(line for line in text.splitlines() if line.startswith("| 1-2 | m |"))
    assert "| 2/2 | 0.50 (2) | 50% | 1 | 8 |" in model_m
    assert "| m | migration | weighted |" in text
    assert "Tampered: items with an attempt that attacked the verdict" in text


def test_the_terminal_line_names_each_model_and_its_items_tampered_with() -> None:
    items = [
        _tampered("m", "Greet", "Mini"),
        _tampered("m", "Sum", None),
        _tampered("a", "Greet", "Mini"),
        _tested("m", "migration", 1.0, first=True),
    ]
    assert functional.tampered_line(items) == (
        "llmbench: 3 items tampered with their verdict (functional figure 0; evidence in "
        "results.jsonl and report.html): a: Greet[Mini]; m: Greet[Mini], Sum[-]"
    )
    assert functional.tampered_line(items[3:]) is None


def test_markdown_without_hidden_tests_has_no_functional_columns() -> None:
    text = markdown.render(leaderboard.build([_item("m", "c", 3, 3, None, 1)], 3))
    assert "Functional" not in text and "Judges against the hidden tests" not in text


def test_results_written_before_hidden_tests_read_and_aggregate() -> None:
    read = read_results(FIXTURE)
    assert read.items and not read.skipped
    assert all(i.functional_rate is None and i.pass_at_1 is None for i in read.items)
    board = leaderboard.build(read.items, attempts=3)
    assert board.calibration == []
    assert all(r.functional_items == 0 and r.functional_rate is None for r in board.models)
    functional = leaderboard.build(read.items, attempts=3, formula="functional")
    assert {r.formula for r in functional.categories} == {"unit"}
