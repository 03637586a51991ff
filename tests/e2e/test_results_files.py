"""results.jsonl read back: a committed file of schema version 2 (written by the code before
the typed reader) through merge, compare and --llm-resume, --llm-resume on odd lines, and
the long texts of a run stored once in texts.jsonl and referenced from results.jsonl,
report.json and JUnit XML."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pytest_llmbench.reporting.reader import parse_result
from pytest_llmbench.reporting.textstore import read_texts
from pytest_llmbench.schema.results import SCHEMA_VERSION, ItemResult
from pytest_llmbench.schema.stored import TEXT_MIN
from pytest_llmbench.schema.texts import REF, referenced, text_id
from tests.conftest import REPO, read_leaderboard, read_results, report_lines
from tests.e2e.test_gates_and_merge import llmbench
from tests.unit.test_results_reader import V1_LINE

FIXTURE = REPO / "tests" / "fixtures" / "results-v2.jsonl"
FIXTURE_MODELS = ["llmbench/echo", "llmbench/reference"]


def _fixture_lines() -> list[dict[str, object]]:
    return [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def _results(lines: list[dict[str, object]]) -> list[ItemResult]:
    """As the reader reads them (migrated to the current version): a field added to the
    schema after the fixture was written has its default on both sides, every other field
    must be equal."""
    return sorted((parse_result(line) for line in lines), key=lambda r: r.nodeid)


def _fixture_dir(folder: Path) -> Path:
    folder.mkdir(parents=True)
    shutil.copy(FIXTURE, folder / "results.jsonl")
    return folder


def test_merge_reads_the_v2_fixture(tmp_path: Path) -> None:
    done = llmbench("merge", _fixture_dir(tmp_path / "old"), "-o", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "merged 4 items from 1 report dirs (0 duplicates dropped)" in done.stdout
    board = json.loads((tmp_path / "out" / "leaderboard.json").read_text())["leaderboard"]
    assert sorted(r["model"] for r in board["models"]) == FIXTURE_MODELS
    assert all((r["items"], r["scored"]) == (2, 2) for r in board["models"])
    assert {(r["model"], r["category"]) for r in board["categories"]} == {
        (m, c) for m in FIXTURE_MODELS for c in ("generation", "template")
    }
    # The items are written out as they were read: nothing lost, nothing changed.
    merged = report_lines(tmp_path / "out")
    assert _results(merged) == _results(_fixture_lines())


def test_merge_of_a_v1_and_a_v2_report_dir_counts_every_item(tmp_path: Path) -> None:
    v1 = tmp_path / "v1"
    v1.mkdir()
    (v1 / "results.jsonl").write_text(json.dumps(V1_LINE) + "\n")
    v2 = _fixture_dir(tmp_path / "v2")
    done = llmbench("merge", v1, v2, "-o", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "merged 5 items from 2 report dirs (0 duplicates dropped)" in done.stdout
    merged = report_lines(tmp_path / "out")
    assert {r["schema_version"] for r in merged} == {SCHEMA_VERSION}  # v1 and v2 migrated
    board = json.loads((tmp_path / "out" / "leaderboard.json").read_text())["leaderboard"]
    assert sorted(r["model"] for r in board["models"]) == [
        "llmbench/echo",
        "llmbench/reference",
        "m",
    ]


def test_compare_reads_the_v2_fixture(tmp_path: Path) -> None:
    old = _fixture_dir(tmp_path / "old")
    done = llmbench("compare", old, old, "--fail-on-regression=0", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if "| (all) |" in line]
    assert [row.split(" | ")[0].lstrip("| ") for row in rows] == FIXTURE_MODELS
    assert all("| +0.000 |" in row and "| 2 (2/2) |" in row for row in rows)


def test_resume_takes_over_the_v2_fixture(pytester: pytest.Pytester) -> None:
    for folder in ("scenarios", "datasets"):
        shutil.copytree(REPO / folder, pytester.path / folder)
    _fixture_dir(pytester.path / "reports")
    result = pytester.runpytest(
        "scenarios/generation/ModifyReactApp.yaml",
        "scenarios/template/GenerateProjectConfiguration.yaml",
        "--llm-model=llmbench/reference,llmbench/echo",
        "--llm-resume",
        "-rs",
    )
    result.assert_outcomes(skipped=4)
    result.stdout.fnmatch_lines(["*finished in an earlier run (--llm-resume)*"])
    assert "llmbench warning" not in result.stdout.str()
    assert _results(read_results(pytester.path)) == _results(_fixture_lines())
    board = read_leaderboard(pytester.path)["leaderboard"]
    assert sorted(r["model"] for r in board["models"]) == FIXTURE_MODELS
    assert all((r["items"], r["scored"]) == (2, 2) for r in board["models"])


def _finished_run(pytester: pytest.Pytester, project: Path) -> list[str]:
    """Run the project's two items once; results.jsonl's lines, AddGreeting's first."""
    pytester.runpytest("--llm-model=llmbench/reference").assert_outcomes(passed=2)
    lines = (project / "reports" / "results.jsonl").read_text().splitlines()
    return sorted(lines, key=lambda line: "AddGreeting" not in line)


def _odd_lines(greeting: str) -> dict[str, bytes]:
    """ExplainMini's line spoilt in each way; AddGreeting's result stays valid."""
    result = json.loads(greeting)
    explain = {**result, "nodeid": result["nodeid"].replace("AddGreeting", "ExplainMini")}
    return {
        "partial": json.dumps({"nodeid": explain["nodeid"], "status": "scored"}).encode(),
        "not utf-8": json.dumps(explain).encode().replace(b'"scored"', b'"sc\xffored"'),
        "attempts 5": json.dumps({**explain, "attempts": 5}).encode(),
        "cut short": json.dumps(explain).encode()[:200],
    }


@pytest.mark.parametrize("kind", ["partial", "not utf-8", "attempts 5", "cut short"])
def test_resume_skips_an_odd_line_counts_it_and_runs_its_item_again(
    pytester: pytest.Pytester, project: Path, kind: str
) -> None:
    greeting, _ = _finished_run(pytester, project)
    odd = _odd_lines(greeting)[kind]
    results = project / "reports" / "results.jsonl"
    results.write_bytes(greeting.encode() + b"\n" + odd + (b"" if kind == "cut short" else b"\n"))
    result = pytester.runpytest("--llm-model=llmbench/reference", "--llm-resume")
    result.assert_outcomes(passed=1, skipped=1)
    text = result.stdout.str()
    assert "Traceback" not in text and "INTERNALERROR" not in text
    warnings = [line for line in text.splitlines() if "llmbench warning" in line]
    assert len(warnings) == 1
    assert f"{results}: skipped 1 line that is not a readable item result (line 2: " in warnings[0]
    assert warnings[0].endswith("; their items run again")
    statuses = {r["scenario"]: r["status"] for r in read_results(project)}
    assert statuses == {"AddGreeting": "scored", "ExplainMini": "scored"}
    row = read_leaderboard(project)["leaderboard"]["models"][0]
    assert (row["items"], row["scored"]) == (2, 2)


def test_resume_with_a_folder_for_results_is_one_error_before_any_call(
    pytester: pytest.Pytester, project: Path
) -> None:
    results = project / "reports" / "results.jsonl"
    results.mkdir(parents=True)
    result = pytester.runpytest("--llm-model=llmbench/reference", "--llm-resume")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.stderr.lines if line.strip()]
    assert errors == [
        f"ERROR: --llm-resume: {results}: is a folder; expected the results.jsonl file of a run"
    ]
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
    assert list(results.iterdir()) == [] and not (project / "reports" / "leaderboard.json").exists()


def _stored_ids(folder: Path) -> list[str]:
    return [json.loads(line)["id"] for line in (folder / "texts.jsonl").read_text().splitlines()]


def _json_report_results(folder: Path) -> dict[str, dict[str, object]]:
    """The item results report.json carries, as it carries them (by node id)."""
    report = json.loads((folder / "report.json").read_text())
    return {
        test["nodeid"]: json.loads(prop["llmbench"])
        for test in report["tests"]
        for prop in test.get("user_properties", [])
        if "llmbench" in prop
    }


def test_long_texts_are_stored_once_and_every_reader_resolves_them(
    pytester: pytest.Pytester, project: Path, tmp_path: Path
) -> None:
    """Two workers: each sends its whole result up; the controller writes references in
    results.jsonl, report.json and JUnit XML, each text once; merge and resume read them."""
    source = project / "datasets" / "javascript" / "Mini" / "src" / "app.js"
    numbers = "".join(f"export const n{i} = {i};\n" for i in range(20))
    source.write_text(source.read_text() + numbers)  # prompts long enough to be stored apart
    run = pytester.runpytest(
        "--llm-model=llmbench/reference,llmbench/echo", "-n", "2", "--junitxml=junit.xml"
    )
    run.assert_outcomes(passed=4)
    reports = project / "reports"
    ids = _stored_ids(reports)
    assert len(ids) == len(set(ids)) > 0  # each distinct text once
    plain = {r["nodeid"]: r for r in read_results(project)}
    prompts = {str(r["prompt"]) for r in plain.values()}
    assert all(len(p) >= TEXT_MIN for p in prompts)  # long enough to be stored apart
    raw = (reports / "results.jsonl").read_text()
    assert not any(p in raw for p in prompts)  # the prompts are in texts.jsonl only
    lines = [json.loads(line) for line in raw.splitlines()]
    assert all(
        line["prompt"] == {REF: text_id(str(line_plain))}
        for line, line_plain in zip(
            lines, (plain[x["nodeid"]]["prompt"] for x in lines), strict=True
        )
    )
    # report.json: the same references, no copies, resolving to what results.jsonl holds.
    carried = _json_report_results(reports)
    assert sorted(carried) == sorted(plain)
    report_text = (reports / "report.json").read_text()
    assert not any(p in report_text for p in prompts)
    texts = read_texts(reports / "texts.jsonl").table
    for nodeid, value in carried.items():
        assert referenced(value) <= set(ids)
        item = parse_result(value, texts)
        assert item.attempts == parse_result(plain[nodeid]).attempts
    junit = (project / "junit.xml").read_text()
    assert REF in junit and not any(p in junit for p in prompts)
    # merge of this dir with itself: the output has its own texts.jsonl, the same items.
    done = llmbench("merge", reports, reports, "-o", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert set(_stored_ids(tmp_path / "out")) == set(ids)
    assert sorted(report_lines(tmp_path / "out"), key=lambda r: r["nodeid"]) == sorted(
        plain.values(), key=lambda r: r["nodeid"]
    )
    compared = llmbench(
        "compare", reports, tmp_path / "out", "--fail-on-regression=0", cwd=tmp_path
    )
    assert compared.returncode == 0 and compared.stderr == "", compared.stderr
    rows = [line for line in compared.stdout.splitlines() if "| (all) |" in line]
    assert len(rows) == 2 and all("| +0.000 |" in row for row in rows)
    # --llm-resume takes every item over from the referenced lines and writes them again.
    again = pytester.runpytest("--llm-model=llmbench/reference,llmbench/echo", "--llm-resume")
    again.assert_outcomes(skipped=4)
    assert "llmbench warning" not in again.stdout.str()
    assert {r["nodeid"]: r for r in read_results(project)} == plain
    assert set(_stored_ids(reports)) == set(ids)


def test_merge_of_a_dir_with_a_damaged_text_store_warns_and_merges_the_rest(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    lost = "x" * TEXT_MIN
    stored = {**V1_LINE, "schema_version": SCHEMA_VERSION, "scenario": "Lost",
              "nodeid": "x.yaml::Lost", "prompt": {REF: text_id(lost)}}  # fmt: skip
    (folder / "results.jsonl").write_text(json.dumps(V1_LINE) + "\n" + json.dumps(stored) + "\n")
    (folder / "texts.jsonl").write_text('{"id": "' + text_id(lost) + '", "te\n')  # cut short
    done = llmbench("merge", folder, "-o", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"llmbench: warning: {folder / 'results.jsonl'}: skipped 1 line that is not a readable "
        f"item result (line 2: refers to text {text_id(lost)} that texts.jsonl does not hold)",
        f"llmbench: warning: {folder / 'texts.jsonl'}: damaged, texts left out (line 1: not "
        "JSON (Unterminated string starting at))",
    ]
    assert "merged 1 items from 1 report dirs" in done.stdout
