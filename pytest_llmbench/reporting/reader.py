"""The one reader of results.jsonl: every line checked, older schema versions migrated.

Each line is one item result (`results.ItemResult`) carrying the `schema_version` it was
written with. A line of an older version is brought forward one version at a time by
MIGRATIONS, then validated as the current ItemResult. A line that is not UTF-8, not JSON,
not a valid result, or of a version newer than this code knows is skipped and reported
(its number and why), never raised: a run killed mid-write leaves a cut-short last line,
and one bad line should not cost the others.

A line of version 5 or later is in the stored form (schema/stored.py: defaults left out,
criteria once per item, long texts as references to the report dir's texts.jsonl,
textstore.py); `stored_to_plain` puts it back before validation. A
line that refers to a text the store does not hold is skipped like any other bad line,
and a damaged store is reported in one line of its own (`ResultsRead.notes`).

`llmbench merge`, `llmbench compare`, `llmbench view` and `export`, `--llm-resume`, the
cost estimate and the AIRUN imports' outputs are all read through `read_results`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import FormatError, ResultError
from ..schema.results import SCHEMA_VERSION, ItemResult
from ..schema.stored import dicts_of, from_stored
from ..schema.texts import resolve
from .textstore import TEXTS, TextsRead, read_texts

# The first version whose lines are stored with references to texts.jsonl.
STORED_FROM = 5

Migration = Callable[[dict[str, Any]], dict[str, Any]]


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """2 added dialog results (AttemptResult.dialog) and tool calls on CallRecord."""
    for attempt in dicts_of(data.get("attempts")):
        attempt.setdefault("dialog", None)
        for call in dicts_of(attempt.get("calls")):
            call.setdefault("tool_calls", [])
            call.setdefault("turn", None)
    return {**data, "schema_version": 2}


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """3 named a grade's most probable grade `argmax` (it was `score`, now only the
    formula's figure), and added a hidden test's status, a run's tampered mark and
    evidence, and the item's tampered mark, whose defaults say what a version 2 line
    meant: no run was marked tampered, and a test's `passed` says how it went."""
    for attempt in dicts_of(data.get("attempts")):
        dialog = attempt.get("dialog")
        turns = dicts_of(dialog.get("turns")) if isinstance(dialog, dict) else []
        for holder in (attempt, *turns):
            for name in ("accuracy", "completeness"):
                metric = holder.get(name)
                for grade in dicts_of(metric.get("grades") if isinstance(metric, dict) else None):
                    if "score" in grade:
                        grade["argmax"] = grade.pop("score")
    return {**data, "schema_version": 3}


def _v3_to_v4(data: dict[str, Any]) -> dict[str, Any]:
    """4 added the prompt cache's token counts on call records and usage, whose default 0
    says what a version 3 line meant: none were recorded."""
    return {**data, "schema_version": 4}


def _v4_to_v5(data: dict[str, Any]) -> dict[str, Any]:
    """5 changed how a line is stored (long texts in texts.jsonl, see `stored_to_plain`),
    not the result: a version 4 line is already plain."""
    return {**data, "schema_version": 5}


# version -> the function that turns a result of that version into one of the next.
MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5}


def stored_to_plain(data: dict[str, Any], texts: dict[str, str]) -> dict[str, Any]:
    """A decoded line with its references replaced by the texts (id -> text), the
    escaped "$" keys restored and its criteria put back in its steps; lines older than
    version 5 have none of these and are returned as they are. ResultError for a reference `texts` does not hold."""
    version = data.get("schema_version")
    if not isinstance(version, int) or version < STORED_FROM:
        return data
    try:
        plain: dict[str, Any] = resolve(data, texts)
    except KeyError as exc:  # resolve's: a reference the table does not hold
        raise ResultError(f"refers to text {exc.args[0]} that {TEXTS} does not hold") from None
    return from_stored(plain)


def parse_result(data: object, texts: dict[str, str] | None = None) -> ItemResult:
    """One decoded line as a current ItemResult, its texts taken from `texts` (id -> text,
    texts.jsonl's), migrated from its schema_version."""
    if not isinstance(data, dict):
        raise ResultError(f"not an item result (a JSON {type(data).__name__})")
    version = data.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ResultError(f"schema_version is {version!r}; expected a whole number from 1")
    if version > SCHEMA_VERSION:
        raise ResultError(
            f"schema_version {version} is newer than this pytest-llmbench reads "
            f"({SCHEMA_VERSION}); upgrade pytest-llmbench"
        )
    data = stored_to_plain(data, texts or {})
    while version < SCHEMA_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
    try:
        return ItemResult.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "result"
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise ResultError(f"not a valid item result: {where}: {first['msg']}{more}") from None


@dataclass(frozen=True)
class Skipped:
    line: int
    reason: str


@dataclass
class ResultsRead:
    """The valid results of a results.jsonl, in file order, and the lines skipped."""

    path: Path
    items: list[ItemResult] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    texts: TextsRead | None = None  # the texts.jsonl beside it

    def notes(self) -> list[str]:
        """The skipped lines' line and the damaged store's, one line each."""
        damaged = self.texts.damaged_line() if self.texts is not None else None
        return [line for line in (self.skipped_line(), damaged) if line is not None]

    def skipped_line(self) -> str | None:
        """One line saying which lines were skipped and why; None when none was."""
        if not self.skipped:
            return None
        shown = "; ".join(f"line {s.line}: {s.reason}" for s in self.skipped[:5])
        more = f"; and {len(self.skipped) - 5} more" if len(self.skipped) > 5 else ""
        count = len(self.skipped)
        return (
            f"{self.path}: skipped {count} line{'s' if count > 1 else ''} that "
            f"{'are' if count > 1 else 'is'} not a readable item result ({shown}{more})"
        )


def _decode(raw: bytes) -> object:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ResultError(f"not UTF-8 (byte {exc.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ResultError(f"not JSON ({exc.msg})") from None


def read_results(path: Path) -> ResultsRead:
    """Every readable result of `path`; a path that cannot be read is a FormatError."""
    try:
        content = path.read_bytes()
    except IsADirectoryError:
        raise FormatError(
            path, "", "is a folder; expected the results.jsonl file of a run"
        ) from None
    except OSError as exc:
        raise FormatError(path, "", f"cannot be read ({exc.strerror})") from None
    texts = read_texts(path.parent / TEXTS)
    read = ResultsRead(path, texts=texts)
    for number, raw in enumerate(content.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            read.items.append(parse_result(_decode(raw), texts.table))
        except ResultError as exc:
            read.skipped.append(Skipped(number, str(exc)))
    return read
