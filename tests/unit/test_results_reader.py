"""The one results.jsonl reader: schema versions, migration and lines it cannot read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.errors import FormatError, ResultError
from pytest_llmbench.reporting.reader import MIGRATIONS, parse_result, read_results
from pytest_llmbench.schema.results import SCHEMA_VERSION, ItemResult

FIXTURE = Path(__file__).parent.parent / "fixtures" / "results-v2.jsonl"

# An item result as schema version 1 wrote it, written out by hand: no `dialog` on the
# attempt, no `tool_calls` or `turn` on its calls (both came with version 2), and none of
# the optional fields added later without a version change (`thoughts`, `images`).
V1_LINE = {
    "schema_version": 1,
    "nodeid": "scenarios/generation/AddGreeting.yaml::test_scenario[AddGreeting-Mini-m]",
    "scenario": "AddGreeting",
    "category": "generation",
    "dataset": "Mini",
    "model": "m",
    "complexity": {"gci": 0.25, "size": "low"},
    "status": "scored",
    "reason": None,
    "attempts": [
        {
            "attempt": 1,
            "answer": "export function greet(name) {}",
            "answer_latency_s": 0.5,
            "generation_rate": 12.5,
            "accuracy": {"value": 4.0, "source": "checks", "pass_rate": 1.0, "grades": []},
            "completeness": {"value": 2.5, "source": "checks", "pass_rate": 0.5, "grades": []},
            "quality": 0.8125,
            "steps": [
                {
                    "id": "A1",
                    "metric": "accuracy",
                    "criterion": "The code parses",
                    "weight": 1.0,
                    "check": {"passed": True, "reason": "parses"},
                    "judges": {},
                    "check_agrees": None,
                }
            ],
            "reports": [],
            "calls": [
                {
                    "role": "candidate",
                    "model": "m",
                    "prompt_tokens": 30,
                    "completion_tokens": 10,
                    "latency_s": 0.5,
                    "cost_usd": None,
                    "response": "export function greet(name) {}",
                    "cached": False,
                    "retries": 0,
                }
            ],
        }
    ],
    "best_attempt": 1,
    "accuracy": 4.0,
    "completeness": 2.5,
    "pass_rate": 0.75,
    "generation_rate": 12.5,
    "judge_agreement": None,
    "candidate_usage": {"prompt_tokens": 30, "completion_tokens": 10, "cost_usd": None, "calls": 1},
    "judge_usage": {"prompt_tokens": 0, "completion_tokens": 0, "cost_usd": None, "calls": 0},
    "latency_s": 0.5,
    "prompt": "Add a function greet(name).",
    "finished_utc": "2026-11-20T10:00:00+00:00",
}


def _write(path: Path, lines: list[str | bytes]) -> Path:
    path.write_bytes(b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in lines))
    return path


def test_a_v1_line_written_by_hand_is_migrated_to_the_current_version(tmp_path: Path) -> None:
    read = read_results(_write(tmp_path / "results.jsonl", [json.dumps(V1_LINE)]))
    assert read.skipped == []
    (item,) = read.items
    assert item.schema_version == SCHEMA_VERSION == 5
    attempt = item.attempts[0]
    assert attempt.dialog is None
    assert attempt.calls[0].tool_calls == [] and attempt.calls[0].turn is None
    # Everything version 1 had is kept as it was.
    assert (item.model, item.dataset, item.accuracy, item.completeness) == ("m", "Mini", 4.0, 2.5)
    assert attempt.steps[0].check is not None and attempt.steps[0].check.passed
    assert item.complexity == {"gci": 0.25, "size": "low"}
    assert item.candidate_usage.prompt_tokens == 30
    # Written back, the migrated item is a current line that reads to the same result.
    again = parse_result(json.loads(json.dumps(item.model_dump(mode="json"))))
    assert again == item


def test_every_older_version_has_a_migration() -> None:
    assert sorted(MIGRATIONS) == list(range(1, SCHEMA_VERSION))


def test_the_committed_v2_fixture_reads_without_loss() -> None:
    read = read_results(FIXTURE)
    assert read.skipped == [] and len(read.items) == 4
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    for item, line in zip(read.items, lines, strict=True):
        # Every field the file holds comes back as it was (its version brought forward);
        # fields added to the schema since (with their defaults) are not in the file.
        written = {**json.loads(line), "schema_version": SCHEMA_VERSION}
        assert item.model_dump(mode="json", exclude_unset=True) == written
        assert item.tampered is False
        runs = [a.functional for a in item.attempts if a.functional is not None]
        assert not any(r.tampered or r.tamper_evidence for r in runs)


def test_a_v2_grade_score_is_read_as_its_argmax_in_attempts_and_dialog_turns() -> None:
    grade = {"metric": "accuracy", "judge": "j", "grader": "g", "method": "logprobs"}
    metric = {"value": 3.2, "source": "judges", "grades": [{**grade, "score": 3}]}
    turn = {"number": 1, "title": "t", "prompt": "p", "finished": True, "rounds": 1}
    turn |= {"accuracy": metric, "completeness": {"value": None, "grades": []}}
    dialog = {"protocol": "text", "ended": "finished", "turns": [turn]}
    first = V1_LINE["attempts"][0]  # type: ignore[index]
    attempt = {**first, "accuracy": metric, "dialog": dialog}
    item = parse_result({**V1_LINE, "schema_version": 2, "attempts": [attempt]})
    (read,) = item.attempts
    assert [g.argmax for g in read.accuracy.grades] == [3]
    assert read.dialog is not None
    assert [g.argmax for g in read.dialog.turns[0].accuracy.grades] == [3]
    assert "score" not in read.accuracy.grades[0].model_dump()


def test_a_v2_line_with_hidden_tests_reads_as_untampered() -> None:
    functional = {"runner": "node", "mode": "acceptance", "passed": 1, "total": 1, "rate": 1.0}
    functional["tests"] = [{"name": "adds", "passed": True, "message": ""}]
    attempt = {**V1_LINE["attempts"][0], "functional": functional}  # type: ignore[index]
    item = parse_result({**V1_LINE, "schema_version": 2, "attempts": [attempt]})
    run = item.attempts[0].functional
    assert run is not None and (run.tampered, run.tamper_evidence, run.rate) == (False, [], 1.0)
    assert run.all_passed and run.tests[0].status is None and item.tampered is False


def _invalid(**changes: Any) -> str:
    return json.dumps({**V1_LINE, "schema_version": 2, **changes})


def test_lines_that_are_not_readable_results_are_skipped_with_their_numbers(
    tmp_path: Path,
) -> None:
    good = json.dumps(V1_LINE)
    path = _write(
        tmp_path / "results.jsonl",
        [
            good,
            json.dumps({"nodeid": "x", "status": "scored", "schema_version": 2}),  # 2: partial
            b'{"schema_version": 2, "model": "\xff"}',  # 3: not UTF-8
            _invalid(attempts=5),  # 4
            "",  # 5: blank lines are not results and not problems
            _invalid(schema_version=SCHEMA_VERSION + 1),  # 6: written by a newer version
            json.dumps({k: v for k, v in V1_LINE.items() if k != "schema_version"}),  # 7
            "[1, 2]",  # 8
            good[: len(good) // 2],  # 9: cut short by a killed run
        ],
    )
    read = read_results(path)
    assert [i.model for i in read.items] == ["m"]
    reasons = {s.line: s.reason for s in read.skipped}
    assert sorted(reasons) == [2, 3, 4, 6, 7, 8, 9]
    assert reasons[2].startswith("not a valid item result: scenario: Field required")
    assert reasons[3].startswith("not UTF-8")
    assert reasons[4].startswith("not a valid item result: attempts: Input should be a valid list")
    assert f"schema_version {SCHEMA_VERSION + 1} is newer" in reasons[6]
    assert reasons[7].startswith("schema_version is None")
    assert reasons[8] == "not an item result (a JSON list)"
    assert reasons[9].startswith("not JSON")
    line = read.skipped_line()
    assert line is not None and "\n" not in line
    assert line.startswith(f"{path}: skipped 7 lines that are not a readable item result (line 2:")
    assert line.endswith("; and 2 more)")


def test_a_clean_file_has_no_skipped_line(tmp_path: Path) -> None:
    read = read_results(_write(tmp_path / "results.jsonl", [json.dumps(V1_LINE)]))
    assert read.skipped_line() is None


def test_a_folder_in_place_of_the_file_is_one_format_error(tmp_path: Path) -> None:
    folder = tmp_path / "results.jsonl"
    folder.mkdir()
    with pytest.raises(FormatError, match="results.jsonl: is a folder; expected the results"):
        read_results(folder)


@pytest.mark.parametrize("version", [0, -1, True, "2", 2.0])
def test_a_schema_version_that_is_not_a_version_is_refused(version: object) -> None:
    with pytest.raises(ResultError, match="schema_version is"):
        parse_result({**V1_LINE, "schema_version": version})


def test_a_current_result_round_trips(tmp_path: Path) -> None:
    item = ItemResult(scenario="S", category="c", dataset=None, model="m", status="error")
    path = _write(tmp_path / "r.jsonl", [json.dumps(item.model_dump(mode="json"))])
    assert read_results(path).items == [item]
