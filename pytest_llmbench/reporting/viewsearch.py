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
import operator
from collections.abc import Sequence

from .viewtexts import REF, RunTexts

WORD = "abcdefghijklmnopqrstuvwxyz0123456789_"  # as data.js's /[a-z0-9_]+/
# UTF-8 bytes of lowercased text: word characters kept, every other byte a space.
_CUT = bytes(c if chr(c) in WORD else 32 for c in range(256))


def words(text: str) -> set[str]:
    """The maximal runs of word characters of the lowercased text."""
    return {
        w.decode() for w in text.lower().encode("utf-8", "surrogatepass").translate(_CUT).split()
    }


def build(chunks: Sequence[str], texts: RunTexts) -> dict[str, str]:
    """word -> hex mask of the chunks (compact JSON, as viewtexts.split writes them)
    whose strings or referenced texts hold it."""
    masks: dict[str, int] = {}
    users: dict[str, int] = {}  # text id -> mask of the chunks referring to it
    for k, (chunk, uses) in enumerate(zip(chunks, texts.uses, strict=True)):
        bit = 1 << k
        # Cut at the quotes (not a word character: the same words), each piece once.
        own = " ".join(set(REF.sub(" ", chunk).split('"')))
        for word in words(own):
            masks[word] = masks.get(word, 0) | bit
        for key in uses:
            users[key] = users.get(key, 0) | bit
    for key, mask in users.items():
        for word in words(texts.table[key]):
            masks[word] = masks.get(word, 0) | mask
    return {word: format(mask, "x") for word, mask in sorted(masks.items())}


def candidates(index: dict[str, str], query: str, chunks: int) -> list[int]:
    """The chunks a search for `query` has to read (the viewer's data.js does the same)."""
    mask = (1 << chunks) - 1
    for word in words(query):
        found = (int(hex_, 16) for token, hex_ in index.items() if word in token)
        mask &= functools.reduce(operator.or_, found, 0)
    return [k for k in range(chunks) if mask >> k & 1]
