"""The history of runs: every run (and merge) registered in the cache folder's
history.sqlite; `llmbench history` lists them and a model's trend, and report.html shows
each model's trend (in Chromium, as tests/e2e/test_report_html.py drives it)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.cli import main
from pytest_llmbench.reporting.history import HISTORY, RunRecord, find, runs
from tests.e2e.test_report_html import Opened, chromium


def test_three_runs_and_a_merge_are_registered_and_listed(
    pytester: pytest.Pytester, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for folder in ("first", "second", "third"):
        pytester.runpytest(
            "--llm-model=llmbench/reference,llmbench/echo", f"--llm-report-dir={folder}"
        ).assert_outcomes(passed=4)
    cache = pytester.path / ".llmbench_cache"
    recorded = runs(cache)
    assert [r.kind for r in recorded] == ["run"] * 3
    assert [Path(r.report_dir).name for r in recorded] == ["first", "second", "third"]
    assert all(r.models == ("llmbench/reference", "llmbench/echo") for r in recorded)
    assert all(r.items == 4 for r in recorded)
    assert len({r.id for r in recorded}) == 3
    assert len({r.settings_digest for r in recorded}) == 3  # the report dir differs
    first = recorded[0]
    assert set(first.scores["llmbench/reference"]) == {"all", "generation", "explanation"}
    assert first.scores["llmbench/reference"]["all"] > first.scores["llmbench/echo"]["all"]
    assert find(cache, first.id[:18]) == first  # a unique start of an id
    capsys.readouterr()
    assert main(["merge", "first", "third", "-o", "merged"]) == 0
    assert [r.kind for r in runs(cache)] == ["run", "run", "run", "merge"]
    capsys.readouterr()
    assert main(["history"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert len(listing) == 2 + 4 and all(r.id in "\n".join(listing) for r in recorded)
    assert main(["history", "--model", "llmbench/echo"]) == 0
    trend = capsys.readouterr().out.splitlines()
    assert trend[0] == "| run | time (UTC) | all | explanation | generation |"
    assert len(trend) == 2 + 4
    # a run id stands for its report dir in compare: the same figures as the folders
    assert main(["compare", "first", "third"]) == 0
    by_folder = capsys.readouterr().out
    assert main(["compare", recorded[0].id, recorded[2].id[:18]]) == 0
    assert capsys.readouterr().out == by_folder
    # from another folder, the cache folder named as `history` names it
    elsewhere = pytester.mkdir("elsewhere")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(elsewhere)
        assert main(["compare", "--cache-dir", str(cache), recorded[0].id, recorded[2].id]) == 0
        assert capsys.readouterr().out == by_folder
        assert main(["history", "--cache-dir", str(cache)]) == 0
        assert capsys.readouterr().out.splitlines() == listing
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in trend[2:]]
    # Playwright hands the browser's driver our stderr's file descriptor: the real one,
    # not capsys's stand-in (which has none; a CI run once failed on its fileno).
    with capsys.disabled(), chromium() as browser:
        _check_trend(browser, pytester.path, recorded, cells)


def _check_trend(
    browser: Any, root: Path, recorded: list[RunRecord], echo: list[list[str]]
) -> None:
    """Each report.html's trend: the runs registered up to it, with `history --model`'s figures."""
    opened = Opened(browser, (root / "third" / "report.html").as_uri())
    page = opened.page
    heads = page.locator("#trend-table thead th[data-run]")
    assert heads.evaluate_all("hs => hs.map(h => h.dataset.run)") == [r.id for r in recorded]
    assert recorded[0].created_utc[:19] in heads.nth(0).get_attribute("title")
    row = page.locator("#trend-table tbody tr", has_text="llmbench/echo")
    assert row.locator("td").all_inner_texts()[2:] == [c[2] for c in echo[:3]]
    assert page.locator("#trend-table svg.trend-line circle").count() == 2 * 3
    opened.clean()
    opened.go((root / "first" / "report.html").as_uri())
    assert "One run is registered" in page.locator("#trend").inner_text()
    assert page.locator("#trend-table").count() == 0
    opened.go((root / "merged" / "report.html").as_uri())  # the merge: a fourth run
    assert page.locator("#trend-table thead th[data-run]").count() == 4
    assert row.locator("td").all_inner_texts()[2:] == [c[2] for c in echo]


def test_history_errors_are_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["history"]) == 2
    assert capsys.readouterr().err.startswith("llmbench: error: no history of runs in ")
    cache = tmp_path / ".llmbench_cache"
    cache.mkdir()
    (cache / HISTORY).write_bytes(b"not a database at all" * 100)
    assert main(["history"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("llmbench: error: ") and "not a history of runs" in err
    assert err.count("\n") == 1
    (cache / HISTORY).unlink()
    sqlite3.connect(cache / HISTORY).close()  # an empty database: no run yet
    assert main(["history", "--model", "nobody"]) == 2
    assert "--model nobody: in no registered run" in capsys.readouterr().err


def test_runs_registered_in_one_second_keep_their_order(tmp_path: Path) -> None:
    from pytest_llmbench.reporting.history import RunRecord, register

    def record(id_: str, kind: str) -> RunRecord:
        return RunRecord(id_, "2026-11-27T01:00:00+00:00", kind, None, "/r", "d", (), 0, {})

    register(tmp_path, record("20261127010000-ffffff", "run"))  # ids sort the other way
    register(tmp_path, record("20261127010000-000000", "merge"))
    assert [r.kind for r in runs(tmp_path)] == ["run", "merge"]
