"""The one reader of results.jsonl: every line checked, older schema versions migrated.

Each line is one item result (`results.ItemResult`) carrying the `schema_version` it was
written with. A line of an older version is brought forward one version at a time by
MIGRATIONS, then validated as the current ItemResult. A line that is not UTF-8, not JSON,
not a valid result, or of a version newer than this code knows is skipped and reported
(its number and why), never raised: a run killed mid-write leaves a cut-short last line,
and one bad line should not cost the others.

`llmbench merge`, `llmbench compare` and `--llm-resume` read through `read_results`.
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

Migration = Callable[[dict[str, Any]], dict[str, Any]]


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """2 added dialog results (AttemptResult.dialog) and tool calls on CallRecord."""
    for attempt in _dicts(data.get("attempts")):
        attempt.setdefault("dialog", None)
        for call in _dicts(attempt.get("calls")):
            call.setdefault("tool_calls", [])
            call.setdefault("turn", None)
    return {**data, "schema_version": 2}


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """3 named a grade's most probable grade `argmax` (it was `score`, now only the
    formula's figure), and added a hidden test's status, a run's tampered mark and
    evidence, and the item's tampered mark, whose defaults say what a version 2 line
    meant: no run was marked tampered, and a test's `passed` says how it went."""
    for attempt in _dicts(data.get("attempts")):
        dialog = attempt.get("dialog")
        turns = _dicts(dialog.get("turns")) if isinstance(dialog, dict) else []
        for holder in (attempt, *turns):
            for name in ("accuracy", "completeness"):
                metric = holder.get(name)
                for grade in _dicts(metric.get("grades") if isinstance(metric, dict) else None):
                    if "score" in grade:
                        grade["argmax"] = grade.pop("score")
    return {**data, "schema_version": 3}


def _v3_to_v4(data: dict[str, Any]) -> dict[str, Any]:
    """4 added the prompt cache's token counts on call records and usage, whose default 0
    says what a version 3 line meant: none were recorded."""
    return {**data, "schema_version": 4}


# version -> the function that turns a result of that version into one of the next.
MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}


def _dicts(value: object) -> list[dict[str, Any]]:
    """The dicts of a list (a malformed one is left for validation to report)."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def parse_result(data: object) -> ItemResult:
    """One decoded line as a current ItemResult, migrated from its schema_version."""
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
    read = ResultsRead(path)
    for number, raw in enumerate(content.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            read.items.append(parse_result(_decode(raw)))
        except ResultError as exc:
            read.skipped.append(Skipped(number, str(exc)))
    return read
