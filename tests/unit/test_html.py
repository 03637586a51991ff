"""report.html and the viewer's data without a browser: what the page embeds (decoded),
escaping of chart labels, the formula floors, references and the committed bundle."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.reporting import charts, html, leaderboard, viewdata
from pytest_llmbench.schema.code import CodeMetrics
from pytest_llmbench.schema.leaderboard import LeaderboardDocument, Machine
from pytest_llmbench.schema.results import ItemResult, Usage
from tests.conftest import REPO, write_project
from tests.unit.test_leaderboard import _item


def _document(items: list[ItemResult]) -> LeaderboardDocument:
    return LeaderboardDocument(
        schema_version=2,
        plugin_version="0",
        git_commit=None,
        created_utc="t",
        machine=Machine(python="", platform="", node=""),
        settings={},
        leaderboard=leaderboard.build(items, attempts=3),
    )


def _page(items: list[ItemResult]) -> str:
    return html.render(_document(items), items, leaderboard.scores(items, 3, None))


def _index(page: str) -> dict[str, Any]:
    index: dict[str, Any] = html.embedded_files(page)["index.json.gz"]
    return index["runs"][0]


def _with_answer(item: ItemResult, answer: str) -> ItemResult:
    attempt = item.attempts[0]
    attempt.answer, attempt.answer_latency_s, attempt.quality = answer, 1.0, 0.5
    attempt.steps, attempt.reports = [], []
    item.scenario, item.dataset, item.status = "S", None, "scored"
    return item


def _points(run: dict[str, Any]) -> int:
    return sum(str(svg).count('class="point"') for svg in run["charts"].values())


def test_complexity_chart_only_when_output_metrics_exist() -> None:
    plain = _with_answer(_item("m<x>", "analysis", 3, 3, None, 1), "ok")
    assert _index(_page([plain]))["charts"]["complexity"] is None
    measured = _with_answer(_item("m", "analysis", 3, 3, None, 1), "ok")
    measured.complexity = {"gci": 0.3}
    measured.code = CodeMetrics(files=1, gci=0.2)
    run = _index(_page([measured]))
    assert 'class="point"' in run["charts"]["complexity"]
    assert _points(run) == 2  # the cost scatter's point and this one


def test_names_and_answers_are_embedded_as_data_never_as_markup() -> None:
    item = _with_answer(
        _item("<img src=x onerror=alert(1)>", "c", 3, 3, None, 1), "<script>x</script>"
    )
    page = _page([item])
    assert "<script>x</script>" not in page and "<img src=x" not in page
    run = _index(page)
    # The charts are the only markup the page inserts: every name in them is escaped.
    svg = "".join(str(v) for v in run["charts"].values())
    assert "<img" not in svg and "&lt;img src=x onerror=alert(1)&gt;" in svg
    (detail,) = viewdata.resolved_details(html.embedded_files(page))
    assert detail["attempts"][0]["answer"] == "<script>x</script>"


def test_category_rows_carry_the_intervals_of_accuracy_and_completeness() -> None:
    items = [_with_answer(_item("m", "analysis", acc, 4, None, 1), "ok") for acc in (3.0, 4.0)]
    (row,) = _index(_page(items))["board"]["categories"]
    # Two items with accuracy 3 and 4: the interval of the mean spans both.
    assert row["accuracy"] == 3.5
    assert row["accuracy_ci"] == [3.0, 4.0] and row["completeness_ci"] == [4.0, 4.0]


def test_formula_floors_colour_cells_on_their_own_scale() -> None:
    assert viewdata.floor("weighted") == pytest.approx(0.3)
    assert viewdata.floor("multimodal") == 0.0
    # A do-nothing answer is the same red under every formula; halfway is the same yellow.
    assert charts._colour(0.3, 0.3) == charts._colour(0.0, 0.0)
    assert charts._colour(0.65, 0.3) == charts._colour(0.5, 0.0)
    assert charts._colour(0.07, 0.0) != charts._colour(0.07, 0.3)


def test_cost_chart_says_why_it_is_missing_for_offline_models() -> None:
    item = _with_answer(_item("llmbench/echo", "analysis", 1, 1, None, 1), "x")
    item.candidate_usage = Usage(prompt_tokens=0, completion_tokens=0, cost_usd=None)
    run = _index(_page([item]))
    assert run["charts"]["cost"] is None and "offline" in run["charts"]["cost_note"]
    priced = _index(_page([_with_answer(_item("m", "analysis", 3, 3, None, 1), "x")]))
    assert priced["charts"]["cost_note"] is None and "circle" in priced["charts"]["cost"]


def test_items_are_ordered_by_rank_and_split_in_chunks() -> None:
    items = [
        _with_answer(_item(model, "analysis", acc, acc, None, 1), "x")
        for n in range(viewdata.CHUNK + 5)
        for model, acc in (("low", 1.0), ("high", 4.0))
    ]
    for n, item in enumerate(items):
        item.nodeid = f"s.yaml::t[{n}]"
    files = viewdata.Bundle([viewdata.run_data(*_parts(items))]).files()
    run = viewdata.unpack(files["index.json.gz"])["runs"][0]
    assert [r["model"] for r in run["rows"][:2]] == ["high", "high"]
    assert run["rows"][-1]["model"] == "low" and run["chunks"] == 3
    chunks = {viewdata.chunk_name(0, k) for k in range(3)}
    # No text long enough for the text table: no text chunk.
    assert set(files) == {"index.json.gz", viewdata.search_name(0), *chunks}
    last = viewdata.unpack(files[viewdata.chunk_name(0, 2)])["items"]
    assert len(last) == 2 * (viewdata.CHUNK + 5) - 2 * viewdata.CHUNK
    # The summary holds no answer: those come with the chunks.
    assert run["rows"][0]["attempts"] == 1 and all("answer" not in r for r in run["rows"])


def _parts(items: list[ItemResult]) -> tuple[Any, ...]:
    return _document(items), items, leaderboard.scores(items, 3, None), {}


def test_references_come_from_the_scenario_files_named_by_node_ids(tmp_path: Path) -> None:
    write_project(tmp_path)

    def item(nodeid: str) -> ItemResult:
        return _item("m", "generation", 3, 3, None, 1).model_copy(
            update={"scenario": "AddGreeting", "dataset": "Mini", "nodeid": nodeid}
        )

    found = viewdata.references(
        [item("scenarios/generation/AddGreeting.yaml::test_scenario[x]")],
        [tmp_path / "elsewhere", tmp_path],
    )
    assert "greet" in found[("AddGreeting", "Mini")]
    # A scenario file gone or broken gives no reference, not an error.
    (tmp_path / "scenarios/generation/AddGreeting.yaml").write_text("id: [")
    assert viewdata.references([item("scenarios/x.yaml::t")], [tmp_path]) == {}
    broken = "scenarios/generation/AddGreeting.yaml::t"
    assert viewdata.references([item(broken)], [tmp_path]) == {}


def test_committed_viewer_bundle_is_built_from_its_sources(tmp_path: Path) -> None:
    """scripts/build-viewer rebuilds static/ from viewer/: run it after editing a source."""
    if not (REPO / "node_modules" / ".bin" / "esbuild").exists() or not shutil.which("sh"):
        pytest.fail("no node_modules/.bin/esbuild: run `npm ci` in the repository")
    subprocess.run(
        [REPO / "scripts" / "build-viewer"],
        env={**os.environ, "OUT": str(tmp_path)},
        check=True,
        timeout=120,
    )
    static = REPO / "pytest_llmbench" / "reporting" / "static"
    for name in ("viewer.js", "viewer.css"):
        assert (tmp_path / name).read_bytes() == (static / name).read_bytes(), (
            f"static/{name} is stale: run scripts/build-viewer"
        )


def test_functional_figures_and_outcomes_reach_the_page_as_data() -> None:
    from pytest_llmbench.schema.functional import FunctionalResult, TestOutcome

    tested = _with_answer(_item("m", "migration", 3, 3, None, 1), "x")
    tested.functional_rate, tested.pass_at_1 = 0.5, False
    tested.attempts[0].functional = FunctionalResult(
        runner="node",
        mode="acceptance",
        passed=0,
        total=1,
        tests=[TestOutcome(name="<img src=x onerror=alert(1)>", passed=False, message="<b>")],
    )
    plain = _with_answer(_item("n", "analysis", 3, 3, None, 1), "x")
    page = _page([tested, plain])
    assert "<img src=x" not in page
    run = _index(page)
    rows = {r["model"]: r for r in run["board"]["models"]}
    assert rows["m"]["functional_rate"] == 0.5 and rows["m"]["functional_items"] == 1
    assert rows["n"]["functional_rate"] is None and rows["n"]["functional_items"] == 0
    assert {r["model"]: r["functional"] for r in run["rows"]} == {"m": 0.5, "n": None}
    for key in ("functional_rate", "functional_pass_at_1", "functional_pass_after_feedback"):
        assert run["columns"][key]["help"], key
    details = viewdata.resolved_details(html.embedded_files(page))
    (outcome,) = next(d for d in details if d["model"] == "m")["attempts"][0]["functional"]["tests"]
    assert outcome["name"] == "<img src=x onerror=alert(1)>"
