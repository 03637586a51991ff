"""The public AIRUN benchmark, end to end on fixture clones written by the tests:
import, run (llmbench/replay, llmbench/echo), and the import of published grades."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.airun_clones import (
    MODEL,
    OTHER_MODEL,
    RUN,
    make_benchmark,
    make_criteria,
    make_results,
    write,
)
from tests.conftest import REPO, model_row, read_leaderboard, read_results
from tests.e2e.test_gates_and_merge import llmbench
from tests.llm_server import FakeLLMServer

ROOT = "--llm-scenarios=airun/scenarios"  # an imported benchmark is a scenario root
LEGACY = "ExplainCode_Todo_Legacy_high_low"


@pytest.fixture
def imported(pytester: pytest.Pytester) -> Path:
    clones = pytester.path / "clones"
    make_benchmark(clones / "bench")
    make_results(clones / "results")
    make_criteria(clones / "results")
    out = pytester.path / "airun"
    done = llmbench(
        "import-airun",
        clones / "bench",
        "--criteria",
        clones / "results",
        "-o",
        out,
        cwd=pytester.path,
    )
    assert done.returncode == 0, done.stderr
    assert "scenarios imported: 4 (2 with criteria, 2 without" in done.stdout
    assert "datasets imported: 2" in done.stdout
    assert "criteria files read: 4 (2 attached, 1 matched no scenario)" in done.stdout
    assert "images copied: 1" in done.stdout
    assert "skipped: 4" in done.stdout
    assert "Latin1_ToDoList_low_low.md: not UTF-8 text (invalid continuation byte)" in done.stdout
    assert "ExplainCode_Missing_low_low.md: dataset 'Gone' not found under Dataset/" in done.stdout
    assert (
        "Poem.md: category folder 'poetry_writing' has no counterpart; map it with --category-map"
        in done.stdout
    )
    assert "Broken_criteria.yaml: evaluation_steps.accuracy.0.weight" in done.stdout
    return out


def test_imported_benchmark_runs_offline_like_our_catalogue(
    pytester: pytest.Pytester, imported: Path
) -> None:
    collected = pytester.runpytest(
        "airun", ROOT, "--collect-only", "-q", "--llm-model=llmbench/echo"
    )
    collected.stdout.fnmatch_lines(
        [
            f"airun/scenarios/explanation/{LEGACY}.yaml::test_scenario[{LEGACY}-Todo_Legacy-llmbench/echo]",
            "airun/scenarios/generation/GenerateButton.yaml::test_scenario[GenerateButton-llmbench/echo]",
            "airun/scenarios/multimodal/ScreenToCode.yaml::test_scenario[ScreenToCode-llmbench/echo]",
            "4 tests collected*",
        ]
    )
    marked = pytester.runpytest(
        "airun", ROOT, "--collect-only", "-q", "--llm-model=llmbench/echo", "-m", "multimodal"
    )
    marked.stdout.fnmatch_lines(["1/4 tests collected*"])
    # No judge and no deterministic checks: every item runs and is unscored, none errors.
    pytester.runpytest(
        "airun", ROOT, "--llm-model=llmbench/echo", "--llm-attempts=1"
    ).assert_outcomes(failed=4)
    items = {i["scenario"]: i for i in read_results(pytester.path)}
    assert {i["status"] for i in items.values()} == {"unscored"}
    assert "no criteria: the scenario has no accuracy steps yet" in (
        items["ScreenToCode"]["reason"] or ""
    )
    legacy = items[LEGACY]
    # The first tag became the dataset's files; the rest of the prompt is kept as written.
    assert "style={{ color: 'red' }} and {% raw %} as text" in legacy["prompt"]
    assert "### index.js\n```javascript\nfunction count(a) {" in legacy["prompt"]
    assert '<place_code_here repo="ToDoList"/>' in legacy["prompt"]
    assert '<place_code_here repo="Todo_Legacy"/>' not in legacy["prompt"]
    assert legacy["complexity"]["size"] == "low"
    scenario = (imported / "scenarios/multimodal/ScreenToCode.yaml").read_text()
    assert "criteria_missing: true" in scenario
    # The screenshots are sent with the prompt (and to the evaluator) through `images:`.
    assert "images:\n- ScreenToCode_images/page.png\njudge_images: true" in scenario
    assert "[image ScreenToCode_images/page.png (image/png" in items["ScreenToCode"]["prompt"]
    assert (
        (imported / "scenarios/multimodal/ScreenToCode_images/page.png")
        .read_bytes()
        .startswith(b"\x89PNG")
    )


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["no-xdist", "n2"])
def test_replayed_answers_are_judged_with_their_recorded_rate(
    pytester: pytest.Pytester, imported: Path, llm_server: FakeLLMServer, xdist: list[str]
) -> None:
    result = pytester.runpytest(
        *xdist,
        "airun",
        ROOT,
        f"--llm-model=llmbench/replay/{MODEL}",
        "--llm-replay-dir=clones/results",
        "--llm-judge=openai/judge",
        f"--llm-api-base={llm_server.base_url}",
        "--llm-attempts=1",
    )
    result.assert_outcomes(passed=2, errors=2)
    missing = (
        f"*attempt 1: llmbench/replay/{MODEL}: no published answer for attempt 1: "
        f"*clones/results/Output/{MODEL}/JS/image_to_code/<run>/ScreenToCode/ScreenToCode_report_1.md does not exist"
    )
    result.stdout.fnmatch_lines([missing])
    items = {i["scenario"]: i for i in read_results(pytester.path)}
    legacy = items[LEGACY]
    assert legacy["status"] == "scored" and legacy["accuracy"] == pytest.approx(4 * 0.8 + 3 * 0.2)
    attempt = legacy["attempts"][0]
    assert attempt["answer"].startswith("The count function returns the length")
    assert "### Details" in attempt["answer"] and "Read the file first" not in attempt["answer"]
    candidate = attempt["calls"][0]
    assert candidate["thoughts"] == "Read the file first."
    assert (candidate["prompt_tokens"], candidate["completion_tokens"]) == (313, 500)
    # The rate is the published run's: 500 tokens in the recorded 10 s.
    assert attempt["generation_rate"] == pytest.approx(50.0)
    assert attempt["answer_latency_s"] == pytest.approx(10.0)
    assert [s["criterion"] for s in attempt["steps"]] == [
        "Names the count function",
        "Says it returns the length",
        "Mentions the argument",
    ]
    assert items["GenerateButton"]["generation_rate"] == pytest.approx(25.0)
    row = model_row(read_leaderboard(pytester.path), f"llmbench/replay/{MODEL}")
    assert (
        row["generation_rate"] == pytest.approx(37.5) and row["scored"] == 2 and row["errors"] == 2
    )
    # Items without criteria never reach the judge: 2 evaluator calls, one per scored item.
    assert llm_server.roles().count("evaluator") == 2


def test_replay_settings_errors_are_one_line(pytester: pytest.Pytester, imported: Path) -> None:
    no_dir = pytester.runpytest("airun", "--llm-model=llmbench/replay")
    no_dir.stderr.fnmatch_lines(["*--llm-model: llmbench/replay needs --llm-replay-dir*"])
    (pytester.path / f"clones/results/Output/{OTHER_MODEL}").mkdir()
    bare = pytester.runpytest(
        "airun", "--llm-model=llmbench/replay", "--llm-replay-dir=clones/results"
    )
    bare.stderr.fnmatch_lines(
        [f"*name the published model as llmbench/replay/<Model>; *holds {MODEL}, {OTHER_MODEL}"]
    )
    unknown = pytester.runpytest(
        "airun", "--llm-model=llmbench/replay/Nope", "--llm-replay-dir=clones/results"
    )
    unknown.stderr.fnmatch_lines(
        [
            f"*llmbench/replay/Nope: no folder 'Nope' in *Output (models there: {MODEL}, {OTHER_MODEL})"
        ]
    )
    for result in (no_dir, bare, unknown):
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        assert "INTERNALERROR" not in result.stderr.str() + result.stdout.str()


def test_import_refuses_our_repository_and_foreign_folders(tmp_path: Path) -> None:
    bench = make_benchmark(tmp_path / "bench")
    inside = REPO / "airun-import-must-not-exist"
    done = llmbench("import-airun", bench, "-o", inside, cwd=tmp_path)
    assert done.returncode == 2 and not inside.exists()
    assert "is inside the pytest-llmbench checkout" in done.stderr
    foreign = tmp_path / "foreign"
    write(foreign / "notes.txt", "mine")
    done = llmbench("import-airun", bench, "-o", foreign, cwd=tmp_path)
    assert done.returncode == 2 and "is not empty and holds no airun-import.json" in done.stderr
    # An earlier import's folder is replaced, and the category map makes Poem importable.
    out = tmp_path / "out"
    assert llmbench("import-airun", bench, "-o", out, cwd=tmp_path).returncode == 0
    again = llmbench(
        "import-airun",
        bench,
        "--category-map",
        "poetry_writing=documentation",
        "-o",
        out,
        cwd=tmp_path,
    )
    assert again.returncode == 0, again.stderr
    assert (out / "scenarios/documentation/Poem.yaml").is_file()
    assert "scenarios imported: 5 (0 with criteria, 5 without" in again.stdout
    bad_map = llmbench("import-airun", bench, "--category-map", "x=poetry", "-o", out, cwd=tmp_path)
    assert (
        bad_map.returncode == 2
        and "expected PUBLIC=OURS with OURS one of analysis" in bad_map.stderr
    )
    to_dialog = llmbench(
        "import-airun", bench, "--category-map", "x=dialog", "-o", out, cwd=tmp_path
    )
    assert to_dialog.returncode == 2 and "(dialog scenarios need turns)" in to_dialog.stderr
    no_clone = llmbench("import-airun", tmp_path / "nothing", "-o", out, cwd=tmp_path)
    assert no_clone.returncode == 2 and "has no Scenarios/Tasks/ folder" in no_clone.stderr


# The public shape: columns in the order pandas left them, a 1-5 scale, `category` the
# published stem, `experiment` the category folder, `model` the evaluator. GenerateButton
# was graded from two run folders: 2 x 2 rows per metric and evaluator (the 2nd and 4th
# stand). The last row is short: only its empty probabilities are missing.
GRADING = """\
metric,score,weighted_score,is_confident,score_5,category,experiment,repository,scenario_id,model,score_4,score_3,score_2,score_1
accuracy,5,4.9,True,0.9,ExplainCode_Todo_Legacy_high_low,code_explanation,todo_legacy,7,judge-a,0.1,,,
completeness,4,4.0,False,0.1,ExplainCode_Todo_Legacy_high_low,code_explanation,todo_legacy,7,judge-a,0.8,0.1,,
accuracy,4,3.7,False,,ExplainCode_Todo_Legacy_high_low,code_explanation,todo_legacy,7,judge-b,0.7,0.3,,
relevance,3,3.0,True,,ExplainCode_Todo_Legacy_high_low,code_explanation,todo_legacy,7,judge-b,,1.0,,
accuracy,3,3.0,True,,GenerateButton,component_generation,,08,judge-a,,1.0,,
accuracy,2,2.0,True,,GenerateButton,component_generation,,08,judge-a,,,1.0,
accuracy,4,4.0,True,,GenerateButton,component_generation,,08,judge-a,1.0,,,
accuracy,5,5.0,True,1.0,GenerateButton,component_generation,,08,judge-a
"""

SUMMARY = """\
Experiment,Type,Category,Language,Models,Dataset,Complexity,Size,Attempt,Input,Reasons,Output,Time,Accuracy,Completeness,Accuracy_judge-a,Completeness_judge-a,Accuracy_judge-b,Completeness_judge-b
x,code_explanation,ExplainCode,JS,Model-X,Todo_Legacy,high,low,1,313,0,500,10.0,3.3,3.0,3.9,3.0->3.5,2.7,
x,component_generation,GenerateButton,none,Model-X,none,none,none,1,50,0,100,4.0,1.0,,1.0,,,
x,component_generation,GenerateButton,none,Model-X,none,none,none,1,50,0,300,6.0,4.0,,4.0,,,
x,test_generation,WriteTests,JS,Model-X,ToDoList,extra_high,high,1,0,0,0,0.0,0,0,,,,
"""

# The same model in the older version of the benchmark (Output_v1: one unnamed evaluator,
# other criteria): its grades must stay on a board of their own.
GRADING_V1 = """\
metric,score,weighted_score,is_confident,score_5,category,experiment,repository,scenario_id,score_4,score_3,score_2,score_1
accuracy,2,2.0,True,,ExplainCode_Todo_Legacy_high_low,code_explanation,todo_legacy,7,,,1.0,
completeness,2,2.0,True,,ExplainCode_Todo_Legacy_high_low,code_explanation,todo_legacy,7,,,1.0,
"""

EVALUATOR_REPORT = """\
# Evaluation Report

- **Pass** (90%): Names the count function
  The answer names count.
- **Fail** (70%): Says it returns the length
  It says length but of the wrong thing.
"""


def test_published_grades_become_a_leaderboard_on_the_published_scale(tmp_path: Path) -> None:
    results = make_results(tmp_path / "results")
    js = results / "Output" / MODEL / "JS"
    write(js / "grading.csv", GRADING)
    write(js / "summary.csv", SUMMARY)
    legacy_dir = js / "code_explanation" / RUN / LEGACY
    write(legacy_dir / f"{LEGACY}_judge-a_accuracy.md", EVALUATOR_REPORT)
    write(legacy_dir / f"{LEGACY}_judge-c_accuracy.md", EVALUATOR_REPORT)
    write(js / "code_explanation" / RUN / "Other" / "Other_judge-a_accuracy.md", EVALUATOR_REPORT)
    write(results / "Output_v1" / MODEL / "JS" / "grading.csv", GRADING_V1)
    out = tmp_path / "graded"
    done = llmbench("import-airun-grades", results, "-o", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "grading.csv files: 2, rows read: 9 of 10, repeated rows dropped: 0" in done.stdout
    grading = js / "grading.csv"
    assert f"note: {grading}:5: metric 'relevance' is not accuracy or completeness" in done.stdout
    assert (
        f"note: {js / 'summary.csv'}:2: Completeness_judge-a corrected by hand from 3.0 to 3.5"
        in done.stdout
    )
    assert (
        f"{js / 'summary.csv'}:5: WriteTests_ToDoList_extra_high_high published without "
        "grading rows (accuracy 0.0, completeness 0.0); imported as published" in done.stdout
    )
    assert "evaluator reports attached: 2, not attached: 1" in done.stdout
    assert "Other_judge-a_accuracy.md: no graded item of Model-X for Other" in done.stdout
    assert "evaluators: judge-a, judge-b" in done.stdout
    # One report dir per published set: a model in two versions has a row on each board.
    assert sorted(p.relative_to(out).as_posix() for p in out.glob("*/*/leaderboard.json")) == [
        "Output/JS/leaderboard.json",
        "Output_v1/JS/leaderboard.json",
    ]
    board = out / "Output" / "JS"
    items = {
        (i["scenario"], i["nodeid"].split("::")[4]): i
        for i in map(json.loads, (board / "results.jsonl").read_text().splitlines())
    }
    assert sorted(items) == [
        ("ExplainCode_Todo_Legacy_high_low", "1"),
        ("GenerateButton", "1"),
        ("GenerateButton", "2"),
        ("WriteTests_ToDoList_extra_high_high", "1"),
    ]
    legacy = items[(LEGACY, "1")]
    assert (legacy["category"], legacy["dataset"], legacy["status"]) == (
        "explanation",
        "todo_legacy",
        "scored",
    )
    # Published 0-4 figures: weighted - 1 per evaluator, their mean rounded half to even.
    assert legacy["accuracy"] == pytest.approx(3.3)  # (3.9 + 2.7) / 2
    assert legacy["completeness"] == pytest.approx(3.5)  # judge-a's cell, corrected by hand
    grade = legacy["attempts"][0]["accuracy"]["grades"][0]
    assert (grade["argmax"], grade["weighted"], grade["published"]) == (5, 4.9, 3.9)
    assert grade["distribution"] == {"1": 0.0, "2": 0.0, "3": 0.0, "4": 0.1, "5": 0.9}
    assert legacy["generation_rate"] == pytest.approx(50.0)  # Output / Time of summary.csv
    steps = legacy["attempts"][0]["steps"]
    assert [(s["id"], s["judges"]["judge-a"]["passed"]) for s in steps] == [
        ("A1", True),
        ("A2", False),
    ]
    assert {r["judge"] for r in legacy["attempts"][0]["reports"]} == {"judge-a", "judge-c"}
    # The k-th run of GenerateButton is the last row of the k-th block of rows.
    first, second = items[("GenerateButton", "1")], items[("GenerateButton", "2")]
    assert (first["accuracy"], second["accuracy"]) == (1.0, 4.0)
    rates = [i["attempts"][0]["generation_rate"] for i in (first, second)]
    assert rates == [25.0, 50.0]
    assert first["status"] == "unscored"  # no completeness row
    timeout = items[("WriteTests_ToDoList_extra_high_high", "1")]
    assert (timeout["accuracy"], timeout["completeness"], timeout["status"]) == (0.0, 0.0, "scored")
    row = model_row(json.loads((board / "leaderboard.json").read_text()), MODEL)
    assert row["scored"] == 2
    # The board's means are those of Output/ alone: (3.3 + 0.0) / 2 and (3.5 + 0.0) / 2.
    assert (row["accuracy"], row["completeness"]) == pytest.approx((1.65, 1.75))
    older = model_row(json.loads((out / "Output_v1/JS/leaderboard.json").read_text()), MODEL)
    assert (older["scored"], older["accuracy"], older["completeness"]) == (1, 1.0, 1.0)
    assert {"report.html", "leaderboard.md"} <= {p.name for p in board.iterdir()}
    # Each is an ordinary report dir: `llmbench merge` reads it back.
    merged = llmbench("merge", board, "-o", tmp_path / "merged", cwd=tmp_path)
    assert merged.returncode == 0, merged.stderr
    assert "merged 4 items from 1 report dirs (0 duplicates dropped)" in merged.stdout


def test_grades_import_errors_are_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    done = llmbench("import-airun-grades", empty, "-o", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 2 and "holds no readable grading.csv rows" in done.stderr
    assert "Traceback" not in done.stderr
    missing = llmbench(
        "import-airun-grades", tmp_path / "nope", "-o", tmp_path / "out", cwd=tmp_path
    )
    assert missing.returncode == 2 and "is not a folder" in missing.stderr
