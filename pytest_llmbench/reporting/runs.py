"""Reading finished report dirs back (for `llmbench merge` and `llmbench compare`).

A report dir holds results.jsonl (one item result per line, its long texts in
texts.jsonl beside it) and, once the run ended,
leaderboard.json (whose envelope gives the attempts allowed, the score formula and
created_utc). results.jsonl is enough: a run killed before its end can still be merged.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from pydantic import JsonValue, ValidationError

from ..errors import FormatError
from ..schema.leaderboard import DocumentHead, Leaderboard
from ..schema.results import ItemResult
from .leaderboard import identity, mark
from .reader import read_results
from .writer import LEADERBOARD_JSON, RESULTS

DEFAULT_ATTEMPTS = 3


@dataclass
class Run:
    folder: Path
    items: list[ItemResult]
    attempts: int | None = None  # from leaderboard.json; None when it is missing
    formula: str | None = None  # the --llm-score-formula the run used (None: defaults)
    created_utc: str = ""
    notes: list[str] = field(default_factory=list)  # warnings to show, one line each
    checkers: dict[str, bool] | None = None  # the syntax checkers it had (None: not recorded)
    # From leaderboard.json's envelope; empty or None when it is missing.
    settings: dict[str, JsonValue] = field(default_factory=dict)
    plugin_version: str | None = None
    git_commit: str | None = None


def _read_envelope(run: Run, path: Path) -> None:
    try:
        info = DocumentHead.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, ValidationError):
        raise FormatError(
            path, "leaderboard.attempts", "not a leaderboard.json of pytest-llmbench"
        ) from None
    run.attempts = info.leaderboard.attempts
    formula = info.settings.get("score_formula")
    run.formula = formula if isinstance(formula, str) else None
    run.created_utc = info.created_utc or run.created_utc
    run.checkers = info.checkers
    run.settings = info.settings
    run.plugin_version = info.plugin_version
    run.git_commit = info.git_commit


def load_run(folder: Path) -> Run:
    """Items and settings of one report dir; a missing or malformed file is a FormatError.

    Lines of results.jsonl that are not readable results are skipped and noted in
    `notes` (a run killed mid-write leaves a cut-short last line), as are the damaged
    lines of texts.jsonl; a file with none
    readable is an error.
    """
    results = folder / RESULTS
    if not results.is_file():
        raise FormatError(
            folder, "", f"no {RESULTS} here; give a report dir of a pytest-llmbench run"
        )
    read = read_results(results)
    if read.skipped and not read.items:
        first = read.skipped[0]
        raise FormatError(results, f"line {first.line}", f"{first.reason}; no readable result")
    mtime = datetime.fromtimestamp(results.stat().st_mtime, UTC).isoformat(timespec="microseconds")
    run = Run(folder, read.items, created_utc=mtime)
    run.notes.extend(read.notes())
    envelope_path = folder / LEADERBOARD_JSON
    if envelope_path.is_file():
        _read_envelope(run, envelope_path)
    return run


def warn(runs: Sequence[Run], stream: TextIO) -> None:
    """Each run's notes (e.g. lines of results.jsonl skipped), one line each."""
    for run in runs:
        for note in run.notes:
            print(f"llmbench: warning: {note}", file=stream)


def _newest_first_key(item: ItemResult, run: Run, order: int) -> tuple[str, int]:
    return (item.finished_utc or run.created_utc, order)


def merge_items(runs: Sequence[Run]) -> list[ItemResult]:
    """Every item once: of two copies the newer wins.

    Newer = later `finished_utc` (when the controller received the result); a result
    without it takes its run's created_utc (leaderboard.json) or results.jsonl's mtime;
    on a tie the run named later on the command line wins.
    """
    chosen: dict[tuple[str, ...], tuple[tuple[str, int], ItemResult]] = {}
    for order, run in enumerate(runs):
        for item in run.items:
            key = identity(item)
            rank = _newest_first_key(item, run, order)
            if key not in chosen or rank >= chosen[key][0]:
                chosen[key] = (rank, item)
    return [item for _, item in chosen.values()]


def missing_checkers(run: Run) -> frozenset[str]:
    return frozenset(k for k, ok in (run.checkers or {}).items() if not ok)


def mark_checker_sets(board: Leaderboard, runs: Sequence[Run], items: Sequence[ItemResult]) -> None:
    """Mark the models whose items were scored without a syntax checker another model's had."""
    origin = {id(item): run for run in runs for item in run.items}
    missing: dict[str, set[str]] = {}
    for item in items:
        missing.setdefault(item.model, set()).update(missing_checkers(origin[id(item)]))
    if len({frozenset(m) for m in missing.values()}) < 2:
        return
    for row in board.models:
        if missing.get(row.model):
            mark(row, f"different checkers: scored without {', '.join(sorted(missing[row.model]))}")


def merged_checkers(runs: Sequence[Run]) -> dict[str, bool] | None:
    """A checker counts as present in a merge when every run that recorded it had it."""
    known = [r.checkers for r in runs if r.checkers is not None]
    if not known:
        return None
    names = sorted({k for c in known for k in c})
    return {k: all(c.get(k, False) for c in known) for k in names}


def common_attempts(runs: Sequence[Run]) -> int:
    """The attempts allowed, which the weighted score's attempt term needs, shared by all runs."""
    known = {r.attempts for r in runs if r.attempts is not None}
    if len(known) > 1:
        listing = ", ".join(f"{r.folder}: {r.attempts}" for r in runs if r.attempts is not None)
        raise FormatError(
            "leaderboard.json",
            "leaderboard.attempts",
            f"runs allowed different attempts ({listing}); merge runs made with the same --llm-attempts",
        )
    if known:
        return known.pop()
    # No leaderboard.json anywhere (killed runs): the most attempts any item ran.
    return (
        max((len(i.attempts) for r in runs for i in r.items), default=DEFAULT_ATTEMPTS)
        or DEFAULT_ATTEMPTS
    )


def common_formula(runs: Sequence[Run], chosen: str | None) -> str | None:
    if chosen is not None:
        return chosen
    formulas = {r.formula for r in runs}
    if len(formulas) > 1:
        raise FormatError(
            "leaderboard.json",
            "settings.score_formula",
            f"runs used different score formulas ({', '.join(sorted(map(str, formulas)))}); "
            "choose one with --score-formula",
        )
    return formulas.pop() if formulas else None
