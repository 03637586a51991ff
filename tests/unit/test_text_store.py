"""Each distinct long text once per report dir: results.jsonl lines refer to texts.jsonl
(reporting/textstore.py), the one reader resolves them, old lines still read, a damaged
store or a lost text costs only the lines that need it, and hostile answers stay data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.reporting.item_report import item_properties, store_result
from pytest_llmbench.reporting.reader import parse_result, read_results
from pytest_llmbench.reporting.textstore import TEXTS, TextStore, read_texts
from pytest_llmbench.reporting.workspaces import read_workspace, save_workspaces
from pytest_llmbench.reporting.writer import ResultsFile, write_results
from pytest_llmbench.schema.results import DialogResult, ItemResult
from pytest_llmbench.schema.stored import TEXT_MIN
from pytest_llmbench.schema.texts import REF, referenced, text_id
from pytest_llmbench.schema.vocabulary import PROPERTY_KEY
from tests.unit.test_results_reader import V1_LINE

PROMPT = "Write the component. " * 40  # one prompt, long: stored once however often used
ANSWER = "export function Greeting() { return 'hi'; }\n" * 10


def _item(name: str, answer: str = ANSWER, files: dict[str, str] | None = None) -> ItemResult:
    """A scored item with three attempts giving the same answer (its calls' responses too)."""
    item = parse_result({**V1_LINE, "nodeid": f"x.yaml::{name}", "scenario": name})
    first = item.attempts[0]
    first.answer = first.calls[0].response = answer
    if files is not None:
        first.dialog = DialogResult(protocol="native", ended="finished", turns=[], files=files)
    item.attempts = [first.model_copy(update={"attempt": n}, deep=True) for n in (1, 2, 3)]
    item.prompt = PROMPT
    return item


def _lines(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]


def _store_lines(folder: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in (folder / TEXTS).read_text().splitlines()]


def test_each_distinct_text_is_stored_once_and_read_back(tmp_path: Path) -> None:
    items = [_item("A"), _item("B", answer=ANSWER + "// other\n")]
    write_results(tmp_path, items)
    stored = _store_lines(tmp_path)
    # The prompt and the two answers, once each, though each answer is there six times.
    assert sorted(s["text"] for s in stored) == sorted([PROMPT, ANSWER, ANSWER + "// other\n"])
    assert all(s["id"] == text_id(s["text"]) for s in stored)
    lines = _lines(tmp_path)
    assert lines[0]["prompt"] == {REF: text_id(PROMPT)}
    assert lines[0]["attempts"][2]["calls"][0]["response"] == {REF: text_id(ANSWER)}
    assert lines[0]["scenario"] == "A" and lines[0]["schema_version"] == 5  # the rest is plain
    assert PROMPT not in (tmp_path / "results.jsonl").read_text()
    read = read_results(tmp_path / "results.jsonl")
    assert read.items == items and read.notes() == []


def test_a_text_is_written_before_the_first_line_that_refers_to_it(tmp_path: Path) -> None:
    results = ResultsFile(tmp_path)
    for name in ("A", "B"):
        results.append(_item(name, answer=f"{name}: {ANSWER}"))
        # What a run killed right now leaves: every reference of every line has its text.
        held = {s["id"] for s in _store_lines(tmp_path)}
        assert all(referenced(line) <= held for line in _lines(tmp_path))
    results.close()
    assert len(_store_lines(tmp_path)) == 3  # the prompt once, two answers


def test_older_versions_read_as_they_were_written(tmp_path: Path) -> None:
    # A version 4 line was plain: a key starting with "$" and a short dict shaped like a
    # reference are data there, never resolved or unescaped.
    v4 = _item("Old", files={"$text": "short", "$$x": "y"}).model_dump(mode="json")
    v4["schema_version"] = 4
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(V1_LINE) + "\n" + json.dumps(v4) + "\n")
    read = read_results(path)
    assert read.skipped == [] and [i.scenario for i in read.items] == ["AddGreeting", "Old"]
    dialog = read.items[1].attempts[0].dialog
    assert dialog is not None and dialog.files == {"$text": "short", "$$x": "y"}
    assert read.items[1].prompt == PROMPT


def test_hostile_answers_shaped_like_references_stay_data(tmp_path: Path) -> None:
    forged = json.dumps({REF: text_id(PROMPT)})  # an answer that is a reference's JSON
    files = {"$text": text_id(PROMPT), "$$text": forged, "a.js": forged * 20}
    items = [_item("Forged", answer=forged, files=files), _item("Long", answer=forged * 20)]
    write_results(tmp_path, items)
    read = read_results(tmp_path / "results.jsonl")
    assert read.skipped == [] and read.items == items
    assert read.items[0].attempts[0].answer == forged  # not the prompt it names


def test_a_reference_the_store_lacks_skips_only_its_line(tmp_path: Path) -> None:
    write_results(tmp_path, [_item("A"), _item("B", answer=ANSWER + "// lost\n")])
    lost = text_id(ANSWER + "// lost\n")
    store = tmp_path / TEXTS
    kept = [line for line in store.read_text().splitlines() if lost not in line]
    store.write_text("\n".join(kept) + "\n")
    read = read_results(tmp_path / "results.jsonl")
    assert [i.scenario for i in read.items] == ["A"]
    assert [(s.line, s.reason) for s in read.skipped] == [
        (2, f"refers to text {lost} that texts.jsonl does not hold")
    ]
    assert read.notes() == [read.skipped_line()]  # the store itself is sound


def test_a_damaged_store_is_one_line_naming_it_and_the_sound_items_read(tmp_path: Path) -> None:
    write_results(tmp_path, [_item("A"), _item("B", answer=ANSWER + "// B\n")])
    store = tmp_path / TEXTS
    entries = store.read_text().splitlines()
    b_text = next(i for i, e in enumerate(entries) if "// B" in e)
    changed = json.loads(entries[b_text])
    changed["text"] = changed["text"].replace("hi", "HI")  # edited after it was written
    entries[b_text] = json.dumps(changed)
    store.write_bytes("\n".join(entries).encode() + b"\n\xff\n" + b'{"id": "ab", "te')
    read = read_results(tmp_path / "results.jsonl")
    assert [i.scenario for i in read.items] == ["A"]
    notes = read.notes()
    assert len(notes) == 2 and notes[0] == read.skipped_line()
    assert notes[1].startswith(f"{store}: damaged, texts left out (line {b_text + 1}: text ")
    assert "does not have that id" in notes[1]
    assert "not UTF-8 (byte 0)" in notes[1] and "not JSON" in notes[1]


def test_a_store_that_is_a_folder_is_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / "results.jsonl").write_text(json.dumps(V1_LINE) + "\n")
    (tmp_path / TEXTS).mkdir()
    read = read_results(tmp_path / "results.jsonl")
    assert len(read.items) == 1
    assert read.notes() == [
        f"{tmp_path / TEXTS}: damaged, texts left out (cannot be read (Is a directory))"
    ]


def test_a_surrogate_in_a_text_is_stored_and_read_back(tmp_path: Path) -> None:
    store = TextStore(tmp_path)
    text = "\ud800" + "x" * TEXT_MIN
    assert store.stored({"a": text}) == {"a": {REF: text_id(text)}}
    store.close()
    assert read_texts(tmp_path / TEXTS).table == {text_id(text): text}


def test_the_report_carries_the_stored_form(tmp_path: Path) -> None:
    item = _item("A")

    class Report:
        user_properties = item_properties(item)

    store = TextStore(tmp_path)
    stored = lambda value: json.dumps(store.stored(json.loads(value)))  # noqa: E731
    store_result(Report(), stored)  # type: ignore[arg-type]
    store.close()
    value = dict(Report.user_properties)[PROPERTY_KEY]
    assert isinstance(value, str) and PROMPT not in value and ANSWER not in value
    again = parse_result(json.loads(value), read_texts(tmp_path / TEXTS).table)
    assert again == item
    assert dict(Report.user_properties)["scenario"] == "A"  # the flat figures stay


@pytest.mark.parametrize("same", [True, False])
def test_identical_workspaces_of_an_item_are_stored_once(tmp_path: Path, same: bool) -> None:
    item = _item("D", files={"src/a.js": "a", "package.json": "{}"})
    if not same:
        dialog = item.attempts[2].dialog
        assert dialog is not None
        dialog.files = {**dialog.files, "src/a.js": "changed"}
    folder = save_workspaces(tmp_path, item)
    assert folder is not None
    inodes = [(folder / f"attempt-{n}.zip").stat().st_ino for n in (1, 2, 3)]
    assert inodes[0] == inodes[1]
    assert (inodes[2] == inodes[0]) is same


def test_identical_workspaces_of_a_run_are_stored_once_and_survive_a_rerun(
    tmp_path: Path,
) -> None:
    results = ResultsFile(tmp_path)
    first, second = (_item(n, files={"src/a.js": "a"}) for n in ("E", "F"))
    second.model = "another/model"
    results.append(first)
    results.append(second)
    one, other = (next((tmp_path / "workspaces").glob(f"{n}-*")) / "attempt-1.zip" for n in "EF")
    assert one.stat().st_ino == other.stat().st_ino
    results.append(first)  # a rerun of E removes its archives and writes them again
    results.close()
    assert read_workspace(other) == read_workspace(one) == {"src/a.js": "a"}
