"""The stored form of an item result (schema/stored.py): defaults left out, each
criterion's facts once per item, the names of the item always in the line; the reader
puts all of it back, and damaged or hostile lines stay one skipped line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_llmbench.reporting.reader import parse_result, read_results
from pytest_llmbench.reporting.writer import ResultsFile
from pytest_llmbench.schema.results import ItemResult
from pytest_llmbench.schema.stored import CRITERIA, from_stored, to_stored
from pytest_llmbench.schema.verdicts import StepResult, Verdict
from tests.unit.test_results_reader import V1_LINE

CRITERION = "The answer names every public function of the module and says what it returns."


def _item(nodeid: str = "scenarios/" + "deep/" * 20 + "x.yaml::test[m]") -> ItemResult:
    item = parse_result({**V1_LINE, "nodeid": nodeid})
    first = item.attempts[0]
    first.steps = [
        StepResult(id="A1", metric="accuracy", criterion=CRITERION, weight=1.0),
        StepResult(
            id="C1",
            metric="completeness",
            criterion="short",
            weight=0.5,
            check=Verdict(passed=False, reason="no"),
        ),
    ]
    item.attempts = [first.model_copy(update={"attempt": n}, deep=True) for n in (1, 2, 3)]
    return item


def test_criteria_are_stored_once_per_item_and_put_back() -> None:
    item = _item()
    stored = to_stored(item)
    assert stored["schema_version"] == item.schema_version  # a default, kept all the same
    assert stored[CRITERIA]["A1"] == {"metric": "accuracy", "criterion": CRITERION, "weight": 1.0}
    assert all(set(step) <= {"id", "check"} for a in stored["attempts"] for step in a["steps"])
    assert "tampered" not in stored  # at its default
    assert ItemResult.model_validate(from_stored(json.loads(json.dumps(stored)))) == item


def test_a_step_that_differs_from_the_first_keeps_its_own_facts() -> None:
    item = _item()
    item.attempts[2].steps[0].criterion = "another text"
    stored = to_stored(item)
    assert stored["attempts"][2]["steps"][0]["criterion"] == "another text"
    assert ItemResult.model_validate(from_stored(stored)) == item


def test_the_written_line_names_its_item_and_refers_to_long_texts(tmp_path: Path) -> None:
    item = _item()
    results = ResultsFile(tmp_path)
    results.append(item)
    results.close()
    line = json.loads((tmp_path / "results.jsonl").read_text())
    assert line["nodeid"] == item.nodeid  # longer than the text minimum, kept readable
    assert line[CRITERIA]["A1"]["criterion"] == {
        "$text": line[CRITERIA]["A1"]["criterion"]["$text"]
    }
    assert CRITERION not in (tmp_path / "results.jsonl").read_text()
    assert read_results(tmp_path / "results.jsonl").items == [item]


def test_damaged_criteria_are_a_skipped_line_not_a_crash(tmp_path: Path) -> None:
    good = to_stored(_item())
    odd: list[dict[str, Any]] = [
        {**good, CRITERIA: 5},
        {**good, CRITERIA: {"A1": "text"}},
        {**good, "attempts": 5},
        {**good, "attempts": [{"steps": [{"id": 3}]}]},
    ]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in [good, *odd]))
    read = read_results(path)
    assert read.items == [_item()]
    assert [s.line for s in read.skipped] == [2, 3, 4, 5]
