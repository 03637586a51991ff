"""The mapping of our results to Inspect's log format (reporting/inspect_log.py,
inspect_sample.py) on a hand-made results file, read back by inspect_ai's own reader."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.cli import main
from pytest_llmbench.reporting import leaderboard
from pytest_llmbench.schema.functional import FunctionalResult, TestOutcome
from pytest_llmbench.schema.results import (
    AttemptResult,
    CallRecord,
    DialogResult,
    Grade,
    ItemResult,
    JudgeReport,
    MetricResult,
    StepResult,
    Verdict,
)
from tests.conftest import REPO

inspect_log = pytest.importorskip("inspect_ai.log")

JUDGE, GRADER = "judges/one", "judges/grader"


def _metric(value: float | None, argmax: int = 3) -> MetricResult:
    if value is None:
        return MetricResult(unscored_reason="the judge's reply could not be read")
    grade = Grade(
        metric="accuracy",
        judge=JUDGE,
        grader=GRADER,
        method="logprobs",
        argmax=argmax,
        weighted=value,
        distribution={"1": 0.0, "2": 0.1, "3": 0.8, "4": 0.1},
    )
    return MetricResult(value=value, source="judges", pass_rate=0.5, grades=[grade])


def _steps() -> list[StepResult]:
    return [
        StepResult(
            id="A1",
            metric="accuracy",
            criterion="Uses hooks",
            weight=1,
            check=Verdict(passed=True, reason="contains 'useState'"),
            judges={JUDGE: Verdict(passed=False, confidence=80, reason="class component kept")},
        ),
        StepResult(
            id="C1",
            metric="completeness",
            criterion="Keeps the list",
            weight=2,
            judges={JUDGE: Verdict(passed=True, confidence=95, reason="the list renders")},
        ),
    ]


def _attempt(number: int, acc: float | None, compl: float | None, **extra: Any) -> AttemptResult:
    quality = (acc + compl) / 8 if acc is not None and compl is not None else None
    call = CallRecord(
        role="candidate",
        model="m/a",
        prompt_tokens=100,
        completion_tokens=20 * number,
        latency_s=1.5,
        finish_reason="length",
    )
    judge_call = CallRecord(role="evaluator", model=JUDGE, prompt_tokens=7, latency_s=1)
    return AttemptResult(
        attempt=number,
        answer=f"answer {number}",
        answer_latency_s=1.5,
        accuracy=_metric(acc),
        completeness=_metric(compl),
        quality=quality,
        steps=_steps(),
        reports=[JudgeReport(judge=JUDGE, text=f"- **Fail** (80%): report {number}")],
        calls=[call, judge_call],
        **extra,
    )


def _tests_run() -> FunctionalResult:
    tests = [TestOutcome(name="adds", passed=True), TestOutcome(name="removes", passed=False)]
    return FunctionalResult(
        runner="node", mode="acceptance", passed=1, total=2, rate=0.5, tests=tests
    )


DIALOG = [
    {"role": "system", "content": "You work on a workspace."},
    {"role": "user", "content": [{"type": "text", "text": "Step 1"}, {"type": "image_url"}]},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "function": {"name": "write_file", "arguments": '{"path": "a.js"}'}},
            {"id": "c2", "function": {"name": "read_file", "arguments": "{not json"}},
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "name": "write_file", "content": "ok"},
    {"role": "hacker", "content": "not a role"},
    {"content": "no role at all"},
    {"role": "assistant", "content": "done"},
]


def _items() -> list[ItemResult]:
    common: dict[str, Any] = {"category": "migration", "outcome": "passed"}
    first = ItemResult(
        scenario="Port",
        dataset="TodoApp",
        model="m/a",
        status="scored",
        complexity={"ci": 12, "loc": 100, "gci": 0.12, "complexity": "avg", "size": "low"},
        attempts=[_attempt(1, 2.0, 2.0), _attempt(2, 3.0, 3.5, functional=_tests_run())],
        best_attempt=2,
        accuracy=3.0,
        completeness=3.5,
        functional_rate=0.5,
        pass_at_1=False,
        prompt="Port this app.",
        finished_utc="2026-11-27T01:00:05+00:00",
        **common,
    )
    dialog = DialogResult(protocol="native", ended="finished", turns=[], messages=DIALOG)
    second = ItemResult(
        scenario="Steps",
        dataset=None,
        model="m/a",
        status="scored",
        attempts=[_attempt(1, 4.0, 4.0, dialog=dialog)],
        best_attempt=1,
        accuracy=4.0,
        completeness=4.0,
        prompt="Step 4",
        finished_utc="2026-11-27T01:00:01+00:00",
        **common,
    )
    errored = ItemResult(
        scenario="Port",
        dataset="Other",
        model="m/a",
        status="error",
        reason="model call failed: HTTP 500",
        failed_calls=[CallRecord(role="candidate", model="m/a", prompt_tokens=9, latency_s=2)],
        **{**common, "outcome": "error"},
    )
    other = first.model_copy(
        update={
            "model": "m/b",
            "accuracy": 2.0,
            "attempts": [_attempt(1, 2.0, 3.5)],
            "best_attempt": 1,
            "functional_rate": None,
        }
    )
    unscored = ItemResult(
        scenario="Steps",
        dataset=None,
        model="m/b",
        status="unscored",
        attempts=[_attempt(1, None, None)],
        reason="nothing could score it",
        **common,
    )
    return [first, second, errored, other, unscored]


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "run"
    folder.mkdir()
    lines = [i.model_dump_json() for i in _items()]
    (folder / "results.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def _export(run_dir: Path, out: Path) -> dict[str, Any]:
    assert main(["export", "--format", "inspect", str(run_dir), "-o", str(out)]) == 0
    logs = [inspect_log.read_eval_log(str(p)) for p in sorted(out.glob("*.json"))]
    return {log.eval.model: log for log in logs}


def test_one_log_per_model_with_every_item_a_sample(run_dir: Path, tmp_path: Path) -> None:
    logs = _export(run_dir, tmp_path / "out")
    assert sorted(logs) == ["m/a", "m/b"]
    log = logs["m/a"]
    assert [s.id for s in log.samples] == ["Port-TodoApp", "Steps", "Port-Other"]
    assert log.eval.task == "llmbench/run" and log.eval.dataset.samples == 3
    assert log.eval.metadata["results_schema_version"] >= 4
    assert [step.solver for step in log.plan.steps] == ["llmbench/attempts", "llmbench/judging"]
    assert log.plan.steps[0].params["attempts"] == 2  # the most any item ran: no leaderboard.json
    port = log.samples[0]
    # The chosen attempt (2) is epoch 1; every attempt's figures are in the metadata.
    assert port.epoch == 1 and port.output.completion == "answer 2"
    assert port.output.stop_reason == "max_tokens"
    assert port.output.usage.output_tokens == 40
    assert [a["attempt"] for a in port.metadata["attempts"]] == [1, 2]
    assert port.target == ["A1: Uses hooks", "C1: Keeps the list"]
    assert port.metadata["functional"]["failed"] == ["removes"]
    assert port.metadata["complexity"]["size"] == "low"
    scores = port.scores
    assert {k: v.value for k, v in scores.items()} == {
        "accuracy": 3.0,
        "completeness": 3.5,
        "quality": pytest.approx(6.5 / 8),
        "score": pytest.approx(leaderboard.scores(_items(), 2, None)[0]),
        "functional_rate": 0.5,
    }
    accuracy = scores["accuracy"]
    assert "A1 (weight 1): Uses hooks" in accuracy.explanation
    assert f"{JUDGE}: Fail (80%): class component kept" in accuracy.explanation
    assert "check: Pass: contains 'useState'" in accuracy.explanation
    assert "C1" not in accuracy.explanation  # a completeness step
    assert accuracy.metadata["grades"][0]["distribution"]["3"] == 0.8
    assert accuracy.metadata["judges"] == [JUDGE]
    assert accuracy.metadata["graders"] == [GRADER]
    # usage of every call of the item, per model: both attempts' candidate and judge calls
    assert port.model_usage["m/a"].input_tokens == 200
    assert port.model_usage[JUDGE].input_tokens == 14


def test_a_dialog_keeps_its_turns_and_tool_calls(run_dir: Path, tmp_path: Path) -> None:
    steps = _export(run_dir, tmp_path / "out")["m/a"].samples[1]
    assert [m.role for m in steps.messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert steps.messages[1].text == "Step 1\n[image]"
    good, bad = steps.messages[2].tool_calls
    assert (good.function, good.arguments, good.parse_error) == (
        "write_file",
        {"path": "a.js"},
        None,
    )
    assert bad.arguments == {} and "not JSON" in bad.parse_error
    assert steps.messages[3].tool_call_id == "c1"


def test_an_errored_item_is_an_error_sample(run_dir: Path, tmp_path: Path) -> None:
    errored = _export(run_dir, tmp_path / "out")["m/a"].samples[2]
    assert errored.error is not None
    assert errored.error.message == "error: model call failed: HTTP 500"
    assert errored.scores is None
    assert errored.model_usage["m/a"].input_tokens == 9  # its paid, failed call


def test_unscored_figures_are_left_out_not_zero(run_dir: Path, tmp_path: Path) -> None:
    unscored = _export(run_dir, tmp_path / "out")["m/b"].samples[1]
    assert unscored.error is None and unscored.scores is None
    assert unscored.metadata["status"] == "unscored"


def test_results_are_the_leaderboards_means(run_dir: Path, tmp_path: Path) -> None:
    logs = _export(run_dir, tmp_path / "out")
    items = _items()
    board = leaderboard.build(items, attempts=2)
    for row in board.models:
        results = logs[row.model].results
        metrics = {s.name: {k: m.value for k, m in s.metrics.items()} for s in results.scores}
        assert metrics["accuracy"]["mean"] == pytest.approx(row.accuracy)
        assert metrics["completeness"]["mean"] == pytest.approx(row.completeness)
        assert metrics["score"]["mean"] == pytest.approx(row.score)
        assert metrics["quality"]["pass_at_1"] == pytest.approx(row.pass_at_1)
        assert results.total_samples == row.items
        accuracy = next(s for s in results.scores if s.name == "accuracy")
        assert row.accuracy_ci and accuracy.metrics["mean"].metadata == {"ci": row.accuracy_ci}
        # every figure is a scorer of its own, keyed as the samples' scores are
        assert all(s.scorer == s.name for s in results.scores)
        assert results.completed_samples == row.items - row.errors
    assert logs["m/a"].results.metadata["errors"] == 1
    functional = {s.name: s for s in logs["m/a"].results.scores}["functional_rate"]
    assert functional.metrics["mean"].value == 0.5
    assert "functional_rate" not in {s.name for s in logs["m/b"].results.scores}
    # quality's mean is over the scored items' chosen attempts
    assert metrics["quality"]["mean"] == pytest.approx((2.0 + 3.5) / 8)


def _error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["export", "--format", "inspect", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_bad_input_is_one_line(
    run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no results.jsonl here" in _error(capsys, str(empty), "-o", str(tmp_path / "o"))
    newer = tmp_path / "newer"
    newer.mkdir()
    (newer / "results.jsonl").write_text(json.dumps({"schema_version": 99, "scenario": "x"}) + "\n")
    err = _error(capsys, str(newer), "-o", str(tmp_path / "o"))
    assert "results.jsonl: line 1: schema_version 99 is newer" in err
    (newer / "results.jsonl").write_text("")
    assert "holds no item result" in _error(capsys, str(newer), "-o", str(tmp_path / "o"))
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    assert f"{a_file}: is a file" in _error(capsys, str(run_dir), "-o", str(a_file))
    below = a_file / "logs"
    assert f"{below}: cannot be written (Not a directory)" in _error(
        capsys, str(run_dir), "-o", str(below)
    )
    with pytest.raises(SystemExit) as exit_:
        main(["export", "--format", "csv", str(run_dir), "-o", str(tmp_path / "o")])
    assert exit_.value.code == 2
    assert "--format: invalid choice: 'csv'" in capsys.readouterr().err


def test_names_are_listed_by_inspect_and_stable(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _export(run_dir, out)
    first = sorted(p.name for p in out.glob("*.json"))
    _export(run_dir, out)  # the same run exported again replaces its files
    assert sorted(p.name for p in out.glob("*.json")) == first
    listed = inspect_log.list_eval_logs(str(out))
    assert sorted(info.task for info in listed) == ["llmbench-run", "llmbench-run"]
    assert all(name.split("_")[2] in ("m-a", "m-b") for name in first)


def test_a_hostile_answer_cannot_spoil_the_log(tmp_path: Path) -> None:
    # A lone surrogate is a valid JSON escape in results.jsonl but no UTF-8: Inspect's reader
    # would refuse the whole log over it.
    items = _items()
    items[0].attempts[1].answer = 'lone \ud800 nul \x00 "quote" </script>'
    folder = tmp_path / "run"
    folder.mkdir()
    lines = [json.dumps(i.model_dump(mode="python")) for i in items]
    (folder / "results.jsonl").write_text("\n".join(lines) + "\n")
    port = _export(folder, tmp_path / "out")["m/a"].samples[0]
    assert port.output.completion == 'lone \ufffd nul \x00 "quote" </script>'


def test_the_package_never_imports_inspect_ai() -> None:
    # inspect_ai is a test-only dependency: the export writes its JSON by hand.
    importers = []
    for path in (REPO / "pytest_llmbench").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n.split(".")[0] == "inspect_ai" for n in names):
                importers.append(path.name)
    assert importers == []
