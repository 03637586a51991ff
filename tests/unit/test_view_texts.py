"""The viewer's data at scale without a browser: each long text stored once (across items,
runs and text chunks) and read back exactly, hostile text shaped like a reference kept
as it was, and the search index naming only the chunks a query can match."""

from __future__ import annotations

import gzip
import json

import pytest

from pytest_llmbench.reporting import viewdata, viewsearch, viewtexts
from pytest_llmbench.schema.results import DialogResult, ItemResult
from pytest_llmbench.schema.texts import text_id
from tests.unit.test_html import _parts, _with_answer
from tests.unit.test_leaderboard import _item

PROMPT = "Review this code base.\n" + "function add(a, b) { return a + b; }\n" * 20
ANSWER = "## Summary\n" + "The code adds numbers and nothing else. " * 20


def _run(items: list[ItemResult], name: str = "") -> viewdata.RunData:
    document, items, scores, refs = _parts(items)
    return viewdata.run_data(document, items, scores, refs, name)


def _items() -> list[ItemResult]:
    """Two models given the same long prompt, both answering the same long answer."""
    out = []
    for n, model in enumerate(("a", "b")):
        item = _with_answer(_item(model, "analysis", 3, 3, None, 1), ANSWER)
        item.prompt, item.nodeid = PROMPT, f"s.yaml::t[{n}]"
        out.append(item)
    return out


def _stored(files: dict[str, bytes], text: str) -> int:
    """How many times the files hold `text` (as a JSON string)."""
    raw = b"".join(gzip.decompress(data) for data in files.values())
    return raw.count(json.dumps(text, ensure_ascii=False)[1:-1].encode())


def _decoded(files: dict[str, bytes]) -> dict[str, object]:
    return {name: viewdata.unpack(data) for name, data in files.items()}


def test_each_long_text_is_stored_once_and_read_back_exactly() -> None:
    items = _items()
    # A hostile answer: JSON naming the prompt's id as a reference would, and a dialog
    # file named "$text" whose content is that id (a dict shaped like a reference).
    forged = json.dumps({"$text": text_id(PROMPT)}) + " " * 300
    items[1].attempts[0].answer = forged
    items[1].attempts[0].dialog = DialogResult(
        protocol="text", ended="finished", turns=[], files={"$text": text_id(PROMPT)}
    )
    files = viewdata.Bundle([_run(items)]).files()
    assert _stored(files, PROMPT) == _stored(files, ANSWER) == 1
    decoded = _decoded(files)
    chunk = decoded[viewdata.chunk_name(0, 0)]
    assert isinstance(chunk, dict)
    # The details carry references, and name the text chunk of each.
    assert chunk["items"][0]["prompt"] == {"$text": text_id(PROMPT)}
    assert chunk["texts"] == {text_id(t): 0 for t in (PROMPT, ANSWER, forged)}
    shown = {d["model"]: d for d in viewdata.resolved_details(decoded)}
    assert shown["a"]["prompt"] == shown["b"]["prompt"] == PROMPT
    assert shown["a"]["attempts"][0]["answer"] == ANSWER
    # The forged texts come back as they were written, not as the prompt.
    assert shown["b"]["attempts"][0]["answer"] == forged
    assert shown["b"]["attempts"][0]["dialog"]["files"] == {"$text": text_id(PROMPT)}


def test_texts_are_shared_by_runs_and_split_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(viewtexts, "TEXT_CHUNK", len(PROMPT))
    other = _items()
    other[0].attempts[0].answer = "A different answer. " * 30
    files = viewdata.Bundle([_run(_items(), "base"), _run(other, "new")]).files()
    assert _stored(files, PROMPT) == _stored(files, ANSWER) == 1
    decoded = _decoded(files)
    texts = sorted(name for name in decoded if name.startswith("texts"))
    assert texts == ["texts0.json.gz", "texts1.json.gz", "texts2.json.gz"]
    # Each id is in the text chunk its detail chunk names.
    for run in (0, 1):
        chunk = decoded[viewdata.chunk_name(run, 0)]
        assert isinstance(chunk, dict)
        for key, where in chunk["texts"].items():
            table = decoded[viewdata.text_name(where)]
            assert isinstance(table, dict) and key in table
    second = {d["model"]: d for d in viewdata.resolved_details(decoded, 1)}
    assert second["a"]["attempts"][0]["answer"] == "A different answer. " * 30
    assert second["b"]["attempts"][0]["answer"] == ANSWER


def _search_bundle() -> tuple[dict[str, str], int]:
    """Three chunks: the first two items answer with long texts naming a word each, the
    third with a short answer; item 0's reason holds the word 'provider', the third chunk's
    item non-ASCII and control characters."""
    items = []
    for n in range(2 * viewdata.CHUNK + 1):
        answer = "short answer"
        if n == 0:
            answer = "Calls window.__pwned in the handler. " * 10
        elif n == viewdata.CHUNK:
            answer = "Uses localStorage for the list. " * 10
        item = _with_answer(_item("m", "analysis", 3, 3, None, 1), answer)
        item.nodeid, item.scenario = f"s.yaml::t[{n}]", f"S{n:04}"
        item.reason = "provider error" if n == 0 else None
        if n == 2 * viewdata.CHUNK:  # escaped in the chunk's JSON, cut the same way
            item.reason = "Naïve\tquux\x01zork\n\u212aelvinx"  # Kelvin sign: lowercased "k"
        items.append(item)
    run = _run(items)
    return run.search, len(run.chunks)


def test_the_search_index_names_the_chunks_a_query_can_match() -> None:
    index, chunks = _search_bundle()
    assert chunks == 3
    assert viewsearch.candidates(index, "__PWNED", chunks) == [0]  # in a long text
    assert viewsearch.candidates(index, "pwn", chunks) == [0]  # part of a word
    assert viewsearch.candidates(index, "window.__pwned in", chunks) == [0]
    assert viewsearch.candidates(index, "localstorage", chunks) == [1]
    assert viewsearch.candidates(index, "Provider error", chunks) == [0]  # a short string
    assert viewsearch.candidates(index, "short", chunks) == [0, 1, 2]
    # Every word must be in the chunk: these two never are together.
    assert viewsearch.candidates(index, "pwned localstorage", chunks) == []
    assert viewsearch.candidates(index, "zebra", chunks) == []
    assert viewsearch.candidates(index, "naïve quux", chunks) == [2]
    assert viewsearch.candidates(index, "zork", chunks) == [2]
    assert viewsearch.candidates(index, "KELVINX", chunks) == [2]
    # No word character: any chunk can hold it.
    assert viewsearch.candidates(index, "<>", chunks) == [0, 1, 2]


def test_the_search_index_ignores_the_references_ids() -> None:
    index, _ = _search_bundle()
    ids = {text_id("Calls window.__pwned in the handler. " * 10)}
    assert not ids & set(index) and "text" not in index
