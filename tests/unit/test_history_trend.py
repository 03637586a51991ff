"""report.html's trend: the registered runs' data (history.trend_data) and the
registration that gives it (history.Registration), with the cap of LAST runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.errors import ConfigError
from pytest_llmbench.reporting import history, html, leaderboard
from pytest_llmbench.reporting.history import (
    LAST,
    Registration,
    RunRecord,
    register,
    runs,
    trend,
    trend_data,
)
from pytest_llmbench.reporting.writer import envelope
from pytest_llmbench.schema.leaderboard import LeaderboardDocument
from tests.unit.test_leaderboard import _item

Scores = dict[str, dict[str, float | None]]


def _record(n: int, scores: Scores) -> RunRecord:
    created = f"2026-11-27T0{n}:00:00+00:00"
    return RunRecord(
        f"202611270{n}0000-00000{n}", created, "run", f"c{n}", "/r", "d", tuple(scores), 4, scores
    )


def test_three_runs_give_three_points_and_a_missing_model_a_gap(tmp_path: Path) -> None:
    register(tmp_path, _record(1, {"a": {"all": 0.5, "gen": 0.4}, "b": {"all": 0.2}}))
    register(tmp_path, _record(2, {"a": {"all": 0.6, "gen": None}}))  # b not in this run
    register(tmp_path, _record(3, {"b": {"all": 0.3}, "a": {"all": 0.7, "gen": 0.8}}))
    records = runs(tmp_path)
    data: Any = trend_data(records)
    assert data is not None
    assert [r["id"] for r in data["runs"]] == [r.id for r in records]
    assert data["runs"][0] == {
        "id": records[0].id,
        "time": "2026-11-27T01:00:00",
        "commit": "c1",
        "kind": "run",
    }
    models = {m["model"]: m for m in data["models"]}
    assert list(models) == ["b", "a"]  # the newest run's order first
    assert models["a"]["keys"] == ["all", "gen"]
    assert models["a"]["cells"] == [["0.500", "0.400"], ["0.600", "-"], ["0.700", "0.800"]]
    assert models["b"]["keys"] == ["all"]
    assert models["b"]["cells"] == [["0.200"], None, ["0.300"]]  # a gap, not 0
    # the same figures `llmbench history --model a` prints
    _, rows = trend(records, "a")
    assert [row[2:] for row in rows] == models["a"]["cells"]


def test_no_run_no_trend() -> None:
    assert trend_data([]) is None


def _document() -> LeaderboardDocument:
    items = [_item("m", "gen", 3, 4, None, 1), _item("m", "ana", 2, 2, None, 1)]
    return envelope(leaderboard.build(items, 1, None), {}, Path("/nowhere"), {})


def test_registration_keeps_the_last_runs_this_one_the_last(tmp_path: Path) -> None:
    for n in range(LAST + 2):
        register(tmp_path, RunRecord(f"old{n:03d}", "t", "run", None, "/r", "d", ("m",), 1, {}))
    warnings: list[str] = []
    records = Registration(tmp_path, "run", warnings.append).add(
        _document(), tmp_path / "reports", 2
    )
    assert warnings == []
    assert len(records) == LAST == 50
    assert records[0].id == "old003" and records[-2].id == f"old{LAST + 1:03d}"
    assert records[-1].models == ("m",) and records[-1].items == 2
    assert len(runs(tmp_path)) == LAST + 3  # the cap is the report's, not the history's


def test_a_history_that_cannot_be_written_is_one_warning_and_no_trend(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    warnings: list[str] = []
    records = Registration(blocked, "merge", warnings.append).add(_document(), tmp_path, 2)
    assert records == []
    assert len(warnings) == 1
    assert warnings[0].startswith("the merge was not added to the history of runs: ")


def test_report_html_embeds_the_trend_with_the_run() -> None:
    items = [_item("m", "gen", 3, 4, None, 1)]
    document = envelope(leaderboard.build(items, 1, None), {}, Path("/nowhere"), {})
    data = trend_data([_record(1, {"m": {"all": 0.5}}), _record(2, {"m": {"all": 0.25}})])
    page = html.render(document, items, [0.5], history=data)
    summary = html.embedded_files(page)["index.json.gz"]["runs"][0]
    assert summary["history"] == data
    assert (
        html.embedded_files(html.render(document, items, [0.5]))["index.json.gz"]["runs"][0][
            "history"
        ]
        is None
    )


def test_a_history_that_cannot_be_read_back_is_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreadable(cache_dir: Path, last: int | None = None) -> list[RunRecord]:
        raise ConfigError(f"{cache_dir}: not a history of runs (made up)")

    monkeypatch.setattr(history, "runs", unreadable)
    warnings: list[str] = []
    assert Registration(tmp_path, "run", warnings.append).add(_document(), tmp_path, 2) == []
    assert warnings == [
        "the history of runs could not be read for report.html's trend: "
        f"{tmp_path}: not a history of runs (made up)"
    ]
