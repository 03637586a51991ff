"""Unit tests of schema/texts.py: long strings out to a table of texts and back."""

from __future__ import annotations

import pytest

from pytest_llmbench.schema.texts import (
    REF,
    TEXT_MIN,
    externalize,
    referenced,
    resolve,
    text_id,
)

LONG = "x" * TEXT_MIN
OTHER = "y" * (TEXT_MIN + 10)


def test_long_strings_become_references_stored_once() -> None:
    table: dict[str, str] = {}
    data = {"prompt": LONG, "attempts": [{"answer": LONG, "calls": [{"response": OTHER}]}], "n": 3}
    out = externalize(data, table)
    assert out["prompt"] == {REF: text_id(LONG)}
    assert out["attempts"][0]["answer"] == out["prompt"]
    assert out["n"] == 3
    assert table == {text_id(LONG): LONG, text_id(OTHER): OTHER}
    assert referenced(out) == set(table)
    assert resolve(out, table) == data


def test_short_strings_and_keys_stay() -> None:
    table: dict[str, str] = {}
    data = {LONG: "short", "list": ["a", None, 1.5, True]}
    assert externalize(data, table) == data
    assert table == {}


def test_data_shaped_like_a_reference_survives_the_round_trip() -> None:
    table: dict[str, str] = {}
    hostile = {"files": {REF: text_id(LONG), "$$x": "1"}, "single": {REF: "deadbeef"}}
    out = externalize(hostile, table)
    assert referenced(out) == set()
    assert resolve(out, table) == hostile


def test_unknown_reference_is_an_error() -> None:
    with pytest.raises(KeyError):
        resolve({"a": {REF: "0" * 24}}, {})


def test_ids_take_lone_surrogates() -> None:
    assert text_id("\ud800" * 3) != text_id("\ufffd" * 3)
