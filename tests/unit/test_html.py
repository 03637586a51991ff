"""report.html rendering without a browser: escaping and the optional complexity chart."""

from __future__ import annotations

from pytest_llmbench.reporting import html, leaderboard
from pytest_llmbench.schema.leaderboard import LeaderboardDocument, Machine
from pytest_llmbench.schema.results import CodeMetrics, ItemResult
from tests.unit.test_leaderboard import _item


def _page(items: list[ItemResult]) -> str:
    board = leaderboard.build(items, attempts=3)
    document = LeaderboardDocument(
        schema_version=2,
        plugin_version="0",
        git_commit=None,
        created_utc="t",
        machine=Machine(python="", platform="", node=""),
        settings={},
        leaderboard=board,
    )
    return html.render(document, items, leaderboard.scores(items, 3, None))


def _with_answer(item: ItemResult, answer: str) -> ItemResult:
    attempt = item.attempts[0]
    attempt.answer, attempt.answer_latency_s, attempt.quality = answer, 1.0, 0.5
    attempt.steps, attempt.reports = [], []
    item.scenario, item.dataset, item.status = "S", None, "scored"
    return item


def test_complexity_chart_only_when_output_metrics_exist() -> None:
    plain = _with_answer(_item("m<x>", "analysis", 3, 3, None, 1), "ok")
    assert 'id="chart-complexity"' not in _page([plain])
    measured = _with_answer(_item("m", "analysis", 3, 3, None, 1), "ok")
    measured.complexity = {"gci": 0.3}
    measured.code = CodeMetrics(files=1, gci=0.2)
    page = _page([measured])
    assert 'id="chart-complexity"' in page
    assert page.count('class="point"') == 2  # the cost scatter's point and this one


def test_names_and_answers_are_escaped() -> None:
    item = _with_answer(
        _item("<img src=x onerror=alert(1)>", "c", 3, 3, None, 1), "<script>x</script>"
    )
    page = _page([item])
    assert "<script>x</script>" not in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert "<img src=x" not in page


def test_category_rows_carry_the_intervals_of_accuracy_and_completeness() -> None:
    items = [_with_answer(_item("m", "analysis", acc, 4, None, 1), "ok") for acc in (3.0, 4.0)]
    page = _page(items)
    categories = page[page.index('id="categories"') :]
    row = categories[: categories.index("</tr>", categories.index("<td"))]
    # Two items with accuracy 3 and 4: the interval of the mean spans both.
    assert "3.50 <span" in row and "[3.000, 4.000]" in row and "[4.000, 4.000]" in row
