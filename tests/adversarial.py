"""The catalogue's regex checks and answers built to make a backtracking regex slow.

An answer is "near-matching" for a pattern when it holds the pattern's own words, in
order, many times over, but never completes a match: the shape on which a pattern with
several unbounded wildcards (`.*`, `[\\s\\S]*`, lookaheads that scan to the end) tries
every combination of positions before it gives up.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

SIZE = 50_000
# Lines of the "long lines" answers; the "one line" answers are a single line of SIZE
# characters, on which a line-bounded pattern (`A[^\n]*B`) tried from every A is quadratic.
LINE = 2_000
_ESCAPES = re.compile(r"\\[sSbBdDwWnrtAZ]|\(\?[a-zA-Z]+\)|\(\?[:=!<>]+")
_WORDS = re.compile(r"[A-Za-z0-9#|@._/:-]{2,}")


def _checks(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if isinstance(node.get("regex"), str):
            yield node
        for value in node.values():
            yield from _checks(value)
    elif isinstance(node, list):
        for value in node:
            yield from _checks(value)


def catalogue_regexes(scenarios: Path) -> list[tuple[str, str, bool]]:
    """(file, pattern, ignore_case) of every regex check in the catalogue's YAML files."""
    found = []
    for path in sorted(scenarios.rglob("*.yaml")):
        for check in _checks(yaml.safe_load(path.read_text(encoding="utf-8"))):
            rel = str(path.relative_to(scenarios))
            found.append((rel, check["regex"], bool(check.get("ignore_case"))))
    return found


def words_of(pattern: str) -> list[str]:
    """The literal words a pattern looks for, in order."""
    plain = _ESCAPES.sub(" ", pattern).replace("\\", "")
    return _WORDS.findall(plain) or ["x"]


def adversarial_answers(pattern: str, size: int = SIZE) -> Iterator[tuple[str, str]]:
    """(name, answer of about `size` characters) pairs aimed at `pattern`'s backtracking."""

    def _fill(unit: str, line: int | None = None) -> str:
        text = (unit * (size // max(1, len(unit)) + 1))[:size]
        if line is None:
            return text
        return "\n".join(text[i : i + line] for i in range(0, size, line))

    words = words_of(pattern)
    most = words[:-1] or words  # every word but the last: never a whole match
    yield "section headers", _fill("".join(f"## {w}\n" for w in most))
    yield "words on long lines", _fill(" ".join(most) + " ", LINE)
    yield "words per line", _fill(" ".join(most) + "\n")
    yield "first word, long lines", _fill(words[0] + " ", LINE)
    yield "words on one line", _fill(" ".join(most) + " ")
    yield "first word on one line", _fill(words[0] + " ")
    yield "first word per line", _fill(words[0] + "\n")
    for drop in range(len(words)):
        rest = [w for i, w in enumerate(words) if i != drop] or words
        yield f"without {words[drop]!r}", _fill("\n".join(rest) + "\n")
    yield "table rows", _fill("| F1 | High | Security | x |\n")
    yield "letters", _fill("a")
    yield "spaces", _fill(" ")
    yield "newlines", _fill("\n")
    yield "words and spaces", _fill("ab ")
