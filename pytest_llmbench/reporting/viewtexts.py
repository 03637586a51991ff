"""The long texts of the viewer's data, each stored once (schema/texts.externalize).

A run's item details become chunks whose strings of TEXT_MIN characters or more are
references into one table; the tables of every run of a page are laid out together in
text chunks of about TEXT_CHUNK characters, so a text shared by items or runs (a prompt
given to every model, a reference answer) is stored once, and a page decodes only the
text chunks the item it shows refers to.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..schema.texts import externalize
from .textstore import json_line

# Characters of texts per text chunk (a longer text fills one of its own): opening an
# item decodes the few chunks holding its texts, not all of them.
TEXT_CHUNK = 1 << 18
# A reference in compact JSON: only externalize writes the key "$text" (data's own
# "$"-keys get one more "$"), and a string's quotes are escaped, so nothing else matches.
REF = re.compile(r'\{"\$text":"([^"]*)"\}')


def dump(value: Any) -> str:
    """Compact JSON, as the page reads it: the one writer of compact lines (a lone
    surrogate written with JSON's escapes)."""
    return json_line(value)


@dataclass
class RunTexts:
    """A run's texts: id -> text in the order items first refer to them; per text the
    place of that item (detail chunk, dataset, scenario, place in the chunk); per detail
    chunk the ids it refers to."""

    table: dict[str, str] = field(default_factory=dict)
    first: dict[str, tuple[int, str, str, int]] = field(default_factory=dict)
    uses: list[list[str]] = field(default_factory=list)


def split(details: Sequence[dict[str, Any]], size: int) -> tuple[list[str], RunTexts]:
    """`details` in chunks of `size` as compact JSON with their long strings referring to
    the run's texts."""
    texts = RunTexts()
    out: list[dict[str, Any]] = []
    marks: list[tuple[int, int]] = []  # (item, the first of the texts it added)
    for place, detail in enumerate(details):
        known = len(texts.table)
        out.append(externalize(detail, texts.table))
        if len(texts.table) > known:
            marks.append((place, known))
    keys = list(texts.table)
    ends = [start for _, start in marks] + [len(keys)]
    for (place, start), end in zip(marks, ends[1:], strict=True):
        item = out[place]
        where = (place // size, str(item.get("dataset") or ""), str(item.get("scenario")))
        for key in keys[start:end]:
            texts.first[key] = (*where, place % size)
    chunks = [dump(out[k : k + size]) for k in range(0, len(out), size)]
    texts.uses = [sorted(set(REF.findall(chunk))) for chunk in chunks]
    return chunks, texts


def layout(runs: Sequence[RunTexts]) -> tuple[list[dict[str, str]], dict[str, int]]:
    """Every run's texts once, in chunks of about TEXT_CHUNK characters, and the chunk of
    each id. Texts are ordered by the detail chunk that first refers to them (an item's
    texts sit in few chunks) and within it by dataset and scenario (texts alike side by
    side, where gzip's 32 KB window finds their repeats)."""
    keys: dict[str, tuple[int, str, str, int]] = {}
    table: dict[str, str] = {}
    band = 0
    for run in runs:
        for key, (chunk, dataset, scenario, place) in run.first.items():
            keys.setdefault(key, (band + chunk, dataset, scenario, place))
        table.update(run.table)
        band += len(run.uses)
    tables: list[dict[str, str]] = []
    where: dict[str, int] = {}
    size = TEXT_CHUNK
    for key in sorted(keys, key=lambda k: (keys[k], k)):
        if size >= TEXT_CHUNK:
            tables.append({})
            size = 0
        tables[-1][key] = table[key]
        where[key] = len(tables) - 1
        size += len(table[key])
    return tables, where
