"""texts.jsonl: each distinct long text of a report dir's results once, content-addressed.

From schema version 5 on, a line of results.jsonl (and the item result in report.json's
and JUnit XML's "llmbench" property) is stored with every string of `stored.TEXT_MIN`
characters or more (but the item's names, `stored.INLINE`) replaced by a reference
`{"$text": ID}` (schema/texts.py does the swapping); texts.jsonl beside it holds one `{"id": ID, "text": TEXT}` line per distinct
text. A text is appended and flushed before the first line that refers to it, so a run
killed at any point leaves no reference without its text; a text is written once per
report dir however many items, attempts and calls repeat it.

Reading checks every line (JSON, both fields text, the id that of the text): a line that
fails is left out and reported in one line, and a result that refers to a text left
out is then the reader's skipped line, never a traceback.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..schema.stored import INLINE, TEXT_MIN
from ..schema.texts import externalize, text_id

TEXTS = "texts.jsonl"


class TextStore:
    """The texts.jsonl of a report dir being written: made anew on first use."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / TEXTS
        self._handle: TextIO | None = None
        self._made = False  # once made, a store used again after close is not emptied
        self._written: set[str] = set()

    def stored(self, data: Any) -> Any:
        """`data` (JSON) as it is stored: long strings as references, their texts written."""
        table: dict[str, str] = {}
        out = externalize(data, table, minimum=TEXT_MIN, keep=INLINE)
        new = [key for key in table if key not in self._written]
        if self._handle is None:  # made anew even without a text: no stale store is left
            if self._made:
                self._handle = self.path.open("a", encoding="utf-8")
            else:
                self._handle = self.path.open("w", encoding="utf-8")
            self._made = True
        if new:
            for key in new:
                self._handle.write(json_line({"id": key, "text": table[key]}) + "\n")
            self._handle.flush()
            self._written.update(new)
        return out

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def json_line(data: Any) -> str:
    """One line of compact UTF-8 JSON, as every stored line is written; data with a lone
    surrogate (which UTF-8 cannot hold) is written with JSON's escapes, read back as the
    same string."""
    line = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data, separators=(",", ":"))
    return line


@dataclass
class TextsRead:
    """The texts of a texts.jsonl (id -> text) and the lines left out, with why."""

    path: Path
    table: dict[str, str] = field(default_factory=dict)
    damaged: list[tuple[int, str]] = field(default_factory=list)  # (line number, reason)

    def damaged_line(self) -> str | None:
        """One line saying which lines were left out and why; None when none was."""
        if not self.damaged:
            return None
        shown = "; ".join((f"line {n}: {why}" if n else why) for n, why in self.damaged[:5])
        more = f"; and {len(self.damaged) - 5} more" if len(self.damaged) > 5 else ""
        return f"{self.path}: damaged, texts left out ({shown}{more})"


def _text_of(raw: bytes) -> tuple[str, str]:
    """(id, text) of one line; ValueError saying why it is not a stored text."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg})") from None
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        raise ValueError('not a stored text {"id": ..., "text": ...}')
    key, text = data["id"], data.get("text")
    if not isinstance(text, str):
        raise ValueError(f"text {key} is not a string")
    if text_id(text) != key:
        raise ValueError(f"text {key} does not have that id (changed after it was written)")
    return key, text


def read_texts(path: Path) -> TextsRead:
    """Every sound text of `path`; a missing file holds none, one that cannot be read is
    reported as damaged."""
    read = TextsRead(path)
    if not path.exists():
        return read
    try:
        content = path.read_bytes()
    except OSError as exc:
        read.damaged.append((0, f"cannot be read ({exc.strerror or exc})"))
        return read
    for number, raw in enumerate(content.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            key, text = _text_of(raw)
        except ValueError as exc:
            read.damaged.append((number, str(exc)))
            continue
        read.table[key] = text
    return read
