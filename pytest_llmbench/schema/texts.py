"""Each distinct long text once: content ids, and a JSON value's long strings swapped for
references to a table of texts and back.

A reference is the object `{"$text": ID}`, where ID is `text_id` of the text. Data can never
produce one by accident: on the way out every dict key that starts with "$" gets one more
"$" (a file named "$text" in an answer becomes "$$text"), and on the way back one is taken
off. Dict keys are never swapped; only string values of at least `TEXT_MIN` characters are.
"""

from __future__ import annotations

import hashlib
from typing import Any

TEXT_MIN = 256
REF = "$text"


def text_id(text: str) -> str:
    """The content id of a text: 24 hex digits of its SHA-256 (lone surrogates kept)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def is_ref(value: object) -> bool:
    return isinstance(value, dict) and len(value) == 1 and isinstance(value.get(REF), str)


def externalize(
    value: Any,
    table: dict[str, str],
    *,
    minimum: int = TEXT_MIN,
    keep: frozenset[str] = frozenset(),
) -> Any:
    """`value` (JSON data) with every string of `minimum` characters or more replaced by
    a reference, except a string that is the value of a key in `keep`; the texts are
    added to `table` (id -> text)."""
    if isinstance(value, str):
        if len(value) < minimum:
            return value
        key = text_id(value)
        table.setdefault(key, value)
        return {REF: key}
    if isinstance(value, dict):
        return {
            ("$" + k if k.startswith("$") else k): (
                v
                if k in keep and isinstance(v, str)
                else externalize(v, table, minimum=minimum, keep=keep)
            )
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [externalize(v, table, minimum=minimum, keep=keep) for v in value]
    return value


def resolve(value: Any, table: dict[str, str]) -> Any:
    """The inverse of `externalize`: references replaced by their texts from `table`
    (KeyError with the id for one it does not hold; schema defines no exception of its
    own, errors.py is below it)."""
    if isinstance(value, dict):
        if is_ref(value):
            key = value[REF]
            if key not in table:
                raise KeyError(key)
            return table[key]
        return {(k[1:] if k.startswith("$") else k): resolve(v, table) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, table) for v in value]
    return value


def referenced(value: Any) -> set[str]:
    """The ids of every text `value` refers to."""
    found: set[str] = set()
    stack = [value]
    while stack:
        current = stack.pop()
        if is_ref(current):
            found.add(current[REF])
        elif isinstance(current, dict):
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)
    return found
