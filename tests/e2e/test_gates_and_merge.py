"""Score formulas, --llm-min-quality (and its former name --llm-min-score), `llmbench merge` /
`compare`, and JUnit XML, end to end."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import model_row, read_leaderboard, read_results

OFFLINE = "--llm-model=llmbench/reference,llmbench/echo"
LLMBENCH = str(Path(sys.executable).parent / "llmbench")


def llmbench(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LLMBENCH, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_score_formula_by_name(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.runpytest(OFFLINE, "--llm-score-formula=sum8").assert_outcomes(passed=4)
    board = read_leaderboard(project)
    assert board["leaderboard"]["formula"] == "sum8"
    assert board["settings"]["score_formula"] == "sum8"
    # Reference: Acc 4, Compl 4 on both items -> (4 + 4)/8.
    assert model_row(board, "llmbench/reference")["score"] == pytest.approx(1.0)
    assert "Score formula `sum8`" in (project / "reports" / "leaderboard.md").read_text()
    monkeypatch.setenv("LLMBENCH_SCORE_FORMULA", "unit")
    pytester.runpytest(OFFLINE).assert_outcomes(passed=4)
    assert read_leaderboard(project)["leaderboard"]["formula"] == "unit"


def test_unknown_formula_is_one_line(pytester: pytest.Pytester, project: Path) -> None:
    result = pytester.runpytest(OFFLINE, "--llm-score-formula=best")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*--llm-score-formula: unknown score formula 'best'; accepted: weighted, sum8, unit, multimodal, functional"
        ]
    )
    assert "INTERNALERROR" not in result.stderr.str() + result.stdout.str()


def test_min_quality_fails_items_below_the_gate(pytester: pytest.Pytester, project: Path) -> None:
    result = pytester.runpytest(OFFLINE, "--llm-min-quality=0.9", "-rf")
    # Reference reaches quality 1.0; echo stays below 0.9 on both items.
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*test_scenario?AddGreeting-Mini-llmbench/echo?*",
            "quality (Acc + Compl)/8 = 0.750 is below --llm-min-quality 0.9",
        ]
    )
    assert "llmbench warning" not in result.stdout.str()
    # The failed items are still in the report: a gate does not drop results.
    assert len(read_results(project)) == 4
    # The ini twin: echo's ExplainMini (0.625) is below 0.7, its AddGreeting (0.75) is not.
    pytester.makeini("[pytest]\nllm_min_quality = 0.7\n")
    pytester.runpytest(OFFLINE).assert_outcomes(passed=3, failed=1)
    bad = pytester.runpytest(OFFLINE, "--llm-min-quality=3")
    bad.stderr.fnmatch_lines(["*--llm-min-quality: expected a number >= 0.25 and <= 1.0, got 3.0"])


def test_the_former_name_min_score_still_gates_and_says_it_is_deprecated(
    pytester: pytest.Pytester, project: Path
) -> None:
    old = pytester.runpytest(OFFLINE, "--llm-min-score=0.9")
    old.assert_outcomes(passed=2, failed=2)
    warnings = [line for line in old.stdout.lines if line.startswith("llmbench warning")]
    assert warnings == [
        "llmbench warning: --llm-min-score is deprecated: use --llm-min-quality (same values)"
    ]
    # Its ini key too; the current name wins over the former one in the same place.
    pytester.makeini("[pytest]\nllm_min_score = 0.7\n")
    ini = pytester.runpytest(OFFLINE)
    ini.assert_outcomes(passed=3, failed=1)
    ini.stdout.fnmatch_lines(
        ["llmbench warning: ini llm_min_score is deprecated: use ini llm_min_quality*"]
    )
    pytester.runpytest(OFFLINE, "--llm-min-quality=0.9", "--llm-min-score=0.25").assert_outcomes(
        passed=2, failed=2
    )
    bad = pytester.runpytest(OFFLINE, "--llm-min-score=3")
    bad.stderr.fnmatch_lines(["*--llm-min-score: expected a number >= 0.25 and <= 1.0, got 3.0"])


def test_junit_xml_carries_the_plugin_items(pytester: pytest.Pytester, project: Path) -> None:
    pytester.runpytest(OFFLINE, "--llm-min-quality=0.9", "--junitxml=junit.xml")
    root = ET.parse(project / "junit.xml").getroot()
    cases = root.findall(".//testcase")
    assert len(cases) == 4
    names = {c.get("name") for c in cases}
    assert "test_scenario[AddGreeting-Mini-llmbench/reference]" in names
    failures = [c for c in cases if c.find("failure") is not None]
    assert len(failures) == 2
    assert "below --llm-min-quality" in (failures[0].find("failure").get("message") or "")  # type: ignore[union-attr]
    props = {p.get("name"): p.get("value") for p in cases[0].findall("properties/property")}
    assert json.loads(props["llmbench"] or "")["status"] == "scored"  # JSON, not a repr


def _write_results(folder: Path, items: list[dict[str, Any]]) -> Path:
    folder.mkdir(parents=True)
    (folder / "results.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    return folder


def _result(model: str, rate: float | None, finished: str, accuracy: float = 4.0) -> dict[str, Any]:
    metric = {"value": accuracy, "source": "checks", "grades": []}
    attempt = {"attempt": 1, "answer": "", "answer_latency_s": 1.0, "steps": []}
    return {
        "schema_version": 2,
        "nodeid": f"scenarios/x/S.yaml::test_scenario[S-D-{model}]",
        "scenario": "S",
        "category": "x",
        "dataset": "D",
        "model": model,
        "status": "scored",
        "attempts": [{**attempt, "accuracy": metric, "completeness": metric}],
        "best_attempt": 1,
        "accuracy": accuracy,
        "completeness": accuracy,
        "pass_rate": 1.0,
        "generation_rate": rate,
        "judge_agreement": None,
        "latency_s": 1.0,
        "finished_utc": finished,
        "candidate_usage": {"prompt_tokens": 1, "completion_tokens": 1, "cost_usd": None},
        "judge_usage": {"prompt_tokens": 0, "completion_tokens": 0, "cost_usd": None},
    }


def test_merge_keeps_the_newest_copy_and_renormalises_the_rate(tmp_path: Path) -> None:
    slow = _write_results(tmp_path / "slow", [_result("slow", 40.0, "2026-01-01T00:00:00+00:00")])
    fast = _write_results(
        tmp_path / "fast",
        [
            _result("fast", 100.0, "2026-01-01T00:00:00+00:00", accuracy=2.0),
            # A later re-run of the slow model's item: it replaces the first copy.
            _result("slow", 50.0, "2026-01-02T00:00:00+00:00"),
        ],
    )
    done = llmbench("merge", slow, fast, "-o", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "merged 2 items from 2 report dirs (1 duplicates dropped)" in done.stdout
    document = json.loads((tmp_path / "out" / "leaderboard.json").read_text())
    board = document["leaderboard"]
    assert board["max_rate"] == 100.0
    rows = {r["model"]: r for r in board["models"]}
    # slow alone would have MaxRate 50 and rate term 0.1; merged with fast it is 0.1 * 50/100.
    assert rows["slow"]["score"] == pytest.approx(0.8 + 0.05 + 0.1)
    assert rows["fast"]["score"] == pytest.approx(0.4 * 2 / 4 * 2 + 0.1 + 0.1)
    assert len((tmp_path / "out" / "results.jsonl").read_text().splitlines()) == 2
    assert {"report.html", "leaderboard.md"} <= {p.name for p in (tmp_path / "out").iterdir()}
    assert document["settings"]["merged_from"] == [str(slow), str(fast)]


def test_merge_errors_are_one_line(tmp_path: Path) -> None:
    done = llmbench("merge", tmp_path / "missing", "-o", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"llmbench: error: {tmp_path / 'missing'}: no results.jsonl here; give a report dir of a pytest-llmbench run"
    ]
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "results.jsonl").write_text('{"model": "m"\n')
    done = llmbench("merge", broken, "-o", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 2 and "results.jsonl: line 1: not JSON" in done.stderr
    assert "Traceback" not in done.stderr


def test_compare_flags_a_regression_beyond_noise(pytester: pytest.Pytester, project: Path) -> None:
    pytester.runpytest("--llm-model=llmbench/reference", "--llm-report-dir=base")
    # Worse reference answers: ExplainMini fails both checks, AddGreeting lacks greet.
    for rel, old, new in [
        ("explanation/ExplainMini.yaml", "exports add(a, b), which returns the sum", "does"),
        ("generation/AddGreeting.yaml", "export function greet", "export function hello"),
    ]:
        path = project / "scenarios" / rel
        path.write_text(path.read_text().replace(old, new))
    pytester.runpytest("--llm-model=llmbench/reference", "--llm-report-dir=new")
    same = llmbench("compare", "base", "base", "--fail-on-regression=0.05", cwd=project)
    assert same.returncode == 0, same.stderr
    worse = llmbench("compare", "base", "new", "--fail-on-regression=0.1", cwd=project)
    assert worse.returncode == 1
    # Base scores 0.9 and 0.9; new 0.3 (Acc 1, Compl 1) and 0.7 (Acc 4, Compl 2): -0.4.
    # Paired over two scenarios: the interval spans their changes, and 2 of the 4 sign
    # patterns reach |-0.8|: p = 0.5.
    line = next(x for x in worse.stdout.splitlines() if "| (all) |" in x)
    assert "| 0.900 | 0.500 | -0.400 | -0.600 to -0.200 | 0.500 | 2 (2/2) | REGRESSION |" in line
    assert "score dropped by more than 0.1 beyond noise: llmbench/reference (all)" in worse.stderr
    # The same drop is within a tolerance of 0.3 at the model level.
    lenient = llmbench("compare", "base", "new", "--fail-on-regression=0.3", cwd=project)
    assert "llmbench/reference (all)" not in lenient.stderr


def _item(model: str, scenario: str, accuracy: float = 4.0) -> dict[str, Any]:
    item = _result(model, None, "2026-01-01T00:00:00+00:00", accuracy)
    item["scenario"] = scenario
    item["nodeid"] = f"scenarios/x/{scenario}.yaml::test_scenario[{scenario}-D-{model}]"
    return item


def _envelope(folder: Path, checkers: dict[str, bool]) -> None:
    board = {"attempts": 1}
    document = {"leaderboard": board, "settings": {}, "checkers": checkers}
    (folder / "leaderboard.json").write_text(json.dumps(document))


def test_merge_marks_rows_scored_on_other_items_or_without_a_checker(tmp_path: Path) -> None:
    few = _write_results(tmp_path / "few", [_item("few", "S1")])
    many = _write_results(tmp_path / "many", [_item("many", f"S{i}", 2.0) for i in range(1, 4)])
    _envelope(few, {"python": True, "esbuild": False})
    _envelope(many, {"python": True, "esbuild": True})
    done = llmbench("merge", few, many, "-o", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    document = json.loads((tmp_path / "out" / "leaderboard.json").read_text())
    rows = {r["model"]: r for r in document["leaderboard"]["models"]}
    assert rows["few"]["marks"] == [
        "different items: 1 of the 3 in this board",
        "different checkers: scored without esbuild",
    ]
    assert rows["many"]["marks"] == []
    assert document["checkers"] == {"esbuild": False, "python": True}
    line = next(x for x in done.stdout.splitlines() if "| few [" in x)
    assert "different items: 1 of the 3" in line


def test_compare_counts_the_change_over_common_items(tmp_path: Path) -> None:
    base = _write_results(
        tmp_path / "base", [_item("m", f"S{i}", 1.0 if i > 1 else 4.0) for i in range(1, 6)]
    )
    new = _write_results(tmp_path / "new", [_item("m", "S1", 4.0)])
    done = llmbench("compare", base, new, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    header = next(x for x in done.stdout.splitlines() if x.startswith("| Model"))
    assert header.endswith("| Regression |")  # the last column has a header
    line = next(x for x in done.stdout.splitlines() if "| (all) |" in x)
    # Over the one common item the score did not change (4 in both runs).
    cells = [c.strip() for c in line.split("|")]
    assert cells[5] == "+0.000" and cells[7] == "1.000" and cells[8] == "1 (5/1)"


def test_envelope_records_checkers_and_a_missing_one_is_one_warning_line(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_llmbench.metrics.syntax import esbuild_path

    monkeypatch.setenv("LLMBENCH_ESBUILD", str(project / "no-esbuild"))
    esbuild_path.cache_clear()
    try:
        result = pytester.runpytest(OFFLINE)
    finally:
        monkeypatch.undo()
        esbuild_path.cache_clear()
    result.assert_outcomes(passed=4)
    checkers = read_leaderboard(project)["checkers"]
    assert checkers["esbuild"] is False and checkers["python"] is True
    warnings = [x for x in result.stdout.lines if "syntax checker(s) missing" in x]
    assert len(warnings) == 1 and "esbuild" in warnings[0]
