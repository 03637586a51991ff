"""The report viewer's search index: which detail chunks a text search can match.

The viewer's search (viewer/items.js) keeps an item when the lowercased query is a
substring of the lowercased text of its prompt, answers, reasons and reports. Each
maximal run of word characters ([a-z0-9_]) of such a query then lies inside one word
of the item's text, so a chunk can only match when, for every word of the query, some
word of the chunk contains it. The index maps every word of a chunk's strings (every
string of its items, texts resolved: a superset of what the viewer searches) to the set
of chunks holding it, written as a hexadecimal bit mask (bit K: chunk K). A query
without word characters can match anywhere: it needs every chunk.

Python's `str.lower` and JavaScript's `toLowerCase` follow the same Unicode mappings,
and only ASCII word characters are indexed, so both sides cut the same words.
"""

from __future__ import annotations

import functools
import json
import operator
import re
from collections.abc import Sequence
from typing import Any

from ..schema.texts import referenced

WORD = re.compile(r"[a-z0-9_]+")
# A reference in compact JSON: only externalize writes the key "$text" (data's own
# "$"-keys get one more "$"), and a string's quotes are escaped, so nothing else matches.
_REF = re.compile(r'\{"\$text":"[^"]*"\}')


def words(text: str) -> set[str]:
    return set(WORD.findall(text.lower()))


def build(chunks: Sequence[Sequence[Any]], table: dict[str, str]) -> dict[str, str]:
    """word -> hex mask of the chunks whose items (strings and referenced texts) hold it."""
    masks: dict[str, int] = {}
    users: dict[str, int] = {}  # text id -> mask of the chunks referring to it
    for k, chunk in enumerate(chunks):
        bit = 1 << k
        own = json.dumps(chunk, ensure_ascii=False, separators=(",", ":"))
        for word in words(_REF.sub(" ", own)):
            masks[word] = masks.get(word, 0) | bit
        for key in referenced(list(chunk)):
            users[key] = users.get(key, 0) | bit
    for key, mask in users.items():
        for word in words(table[key]):
            masks[word] = masks.get(word, 0) | mask
    return {word: format(mask, "x") for word, mask in sorted(masks.items())}


def candidates(index: dict[str, str], query: str, chunks: int) -> list[int]:
    """The chunks a search for `query` has to read (the viewer's data.js does the same)."""
    mask = (1 << chunks) - 1
    for word in words(query):
        found = (int(hex_, 16) for token, hex_ in index.items() if word in token)
        mask &= functools.reduce(operator.or_, found, 0)
    return [k for k in range(chunks) if mask >> k & 1]
