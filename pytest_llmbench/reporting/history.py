"""The history of runs, as pytest-benchmark keeps saved runs: each finished run and each
merge is registered in an SQLite file of the cache folder (`history.sqlite`), with its
id, time, commit, models, the digest of its settings, its per-model and per-category
scores and where its report dir is. `llmbench history` lists the runs and a model's
trend; `llmbench compare` takes a run id wherever it takes a report dir. report.html
shows each model's trend over the last LAST runs (`trend_data`), the run itself the last.

Registering never fails a run: a cache folder that cannot be written is one warning.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from pydantic import JsonValue

from ..errors import ConfigError
from ..folders import own_folder
from ..schema.leaderboard import LeaderboardDocument

HISTORY = "history.sqlite"
OVERALL = "all"  # the scores' key of a model's row over every category
LAST = 50  # the runs report.html's trend shows, the newest
_TABLE = """CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    created_utc TEXT NOT NULL,
    kind TEXT NOT NULL,
    git_commit TEXT,
    report_dir TEXT NOT NULL,
    settings_digest TEXT NOT NULL,
    models TEXT NOT NULL,
    items INTEGER NOT NULL,
    scores TEXT NOT NULL
)"""
_COLUMNS = "id, created_utc, kind, git_commit, report_dir, settings_digest, models, items, scores"


@dataclass(frozen=True)
class RunRecord:
    """One registered run. `scores`: model -> {"all" or category -> score (None: unscored)}."""

    id: str
    created_utc: str
    kind: str  # "run" or "merge"
    git_commit: str | None
    report_dir: str
    settings_digest: str
    models: tuple[str, ...]
    items: int
    scores: dict[str, dict[str, float | None]]


def settings_digest(settings: dict[str, JsonValue]) -> str:
    """A short digest of a run's resolved settings (leaderboard.json's `settings`): two runs
    made with the same settings have the same digest."""
    text = json.dumps(settings, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def record_of(document: LeaderboardDocument, report_dir: Path, kind: str, items: int) -> RunRecord:
    """The record of a run whose leaderboard.json is `document`; a fresh id."""
    board = document.leaderboard
    scores: dict[str, dict[str, float | None]] = {r.model: {OVERALL: r.score} for r in board.models}
    for row in board.categories:
        scores.setdefault(row.model, {})[row.category or OVERALL] = row.score
    created = document.created_utc
    stamp = "".join(ch for ch in created if ch.isdigit())[:14]
    return RunRecord(
        id=f"{stamp}-{secrets.token_hex(3)}",
        created_utc=created,
        kind=kind,
        git_commit=document.git_commit,
        report_dir=str(report_dir.resolve()),
        settings_digest=settings_digest(document.settings),
        models=tuple(r.model for r in board.models),
        items=items,
        scores=scores,
    )


@contextmanager
def _database(cache_dir: Path, create: bool) -> Iterator[sqlite3.Connection]:
    path = cache_dir / HISTORY
    if not create and not path.is_file():
        raise ConfigError(f"no history of runs in {path}: no run has been registered there yet")
    if create:
        own_folder(cache_dir)
    try:
        with closing(sqlite3.connect(path, timeout=30)) as connection:
            connection.execute(_TABLE)
            yield connection
    except sqlite3.DatabaseError as exc:
        raise ConfigError(f"{path}: not a history of runs ({exc})") from exc


def register(cache_dir: Path, record: RunRecord) -> None:
    """Add `record` to the cache folder's history (xdist workers never call this: the
    controller registers the run once)."""
    row = (
        record.id,
        record.created_utc,
        record.kind,
        record.git_commit,
        record.report_dir,
        record.settings_digest,
        json.dumps(list(record.models)),
        record.items,
        json.dumps(record.scores, sort_keys=True),
    )
    with _database(cache_dir, create=True) as db, db:
        db.execute(f"INSERT INTO runs ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)


def _record(row: tuple[object, ...]) -> RunRecord:
    id_, created, kind, commit, folder, digest, models, items, scores = row
    return RunRecord(
        id=str(id_),
        created_utc=str(created),
        kind=str(kind),
        git_commit=None if commit is None else str(commit),
        report_dir=str(folder),
        settings_digest=str(digest),
        models=tuple(json.loads(str(models))),
        items=int(str(items)),
        scores=json.loads(str(scores)),
    )


def runs(cache_dir: Path, last: int | None = None) -> list[RunRecord]:
    """Every registered run (or the `last` ones), in the order they were registered (times
    may tie to the second)."""
    limit = -1 if last is None else last  # SQLite: a negative LIMIT is none
    query = f"SELECT {_COLUMNS} FROM runs ORDER BY rowid DESC LIMIT ?"
    with _database(cache_dir, create=False) as db:
        rows = db.execute(query, (limit,)).fetchall()
    return [_record(tuple(row)) for row in reversed(rows)]


@dataclass(frozen=True)
class Registration:
    """Where a run is registered (the cache folder), as what ("run" or "merge"), and
    where the one warning line of a failure goes."""

    cache_dir: Path
    kind: str
    warn: Callable[[str], None]

    def add(self, document: LeaderboardDocument, report_dir: Path, items: int) -> list[RunRecord]:
        """Register the run; then the last LAST runs of the history, this one the last.
        A history that cannot be written or read is one warning and no runs."""
        try:
            register(self.cache_dir, record_of(document, report_dir, self.kind, items))
        except (ConfigError, OSError) as exc:
            self.warn(f"the {self.kind} was not added to the history of runs: {exc}")
            return []
        try:
            return runs(self.cache_dir, LAST)
        except (ConfigError, OSError) as exc:
            self.warn(f"the history of runs could not be read for report.html's trend: {exc}")
            return []


def find(cache_dir: Path, ref: str) -> RunRecord:
    """The run whose id is `ref` or starts with it (one run only)."""
    found = [r for r in runs(cache_dir) if r.id.startswith(ref)]
    if len(found) != 1:
        what = "no registered run" if not found else f"{len(found)} registered runs"
        raise ConfigError(f"{what} with an id starting {ref!r} in {cache_dir / HISTORY}")
    return found[0]


def report_dir_of(ref: Path, cache_dir: Path) -> Path:
    """`ref` itself when it is a folder; else the report dir of the registered run whose id
    starts with it (a run id stands for its report dir); else `ref`, for the caller's own
    message about a folder that is not there."""
    if ref.is_dir() or not (cache_dir / HISTORY).is_file():
        return ref
    found = [r for r in runs(cache_dir) if r.id.startswith(str(ref))]
    if len(found) > 1:
        raise ConfigError(f"{ref}: {len(found)} registered runs have an id starting so")
    return Path(found[0].report_dir) if found else ref


def trend(records: list[RunRecord], model: str) -> tuple[list[str], list[list[str]]]:
    """A model's scores run by run: the header (run, time, then "all" and each category)
    and one row per run that has the model."""
    having = [r for r in records if model in r.scores]
    keys = sorted({k for r in having for k in r.scores[model]} - {OVERALL})
    header = ["run", "time (UTC)", OVERALL, *keys]
    rows = []
    for record in having:
        scores = record.scores[model]
        cells = [_cell(scores.get(k)) for k in (OVERALL, *keys)]
        rows.append([record.id, record.created_utc[:19], *cells])
    return header, rows


def trend_data(records: list[RunRecord]) -> dict[str, JsonValue] | None:
    """report.html's trend: the runs (oldest first) and, per model (the newest run's
    first), the cells of `trend` (the figures `llmbench history --model` prints) of each
    run, None where the run does not have the model. None when there is no run."""
    if not records:
        return None
    models = dict.fromkeys(m for r in reversed(records) for m in r.models)
    rows: list[JsonValue] = []
    for model in models:
        header, found = trend(records, model)
        by_run: dict[str, JsonValue] = {row[0]: list(row[2:]) for row in found}
        cells = [by_run.get(r.id) for r in records]
        rows.append({"model": model, "keys": list(header[2:]), "cells": cells})
    runs_: list[JsonValue] = [
        {"id": r.id, "time": r.created_utc[:19], "commit": r.git_commit, "kind": r.kind}
        for r in records
    ]
    return {"runs": runs_, "models": rows}


def _cell(score: float | None) -> str:
    return "-" if score is None else f"{score:.3f}"
