"""The batches a run submitted (--llm-batch), kept beside the request cache so a run that
was killed while a batch was pending finds it again and polls it instead of paying twice.

Two tables in `batches.sqlite3` under --llm-cache-dir: `batches` (batch id, model, its
last known state) and `batch_calls` (request key -> batch id and the line's custom_id).
A call whose key has a row in a batch that is not settled waits for that batch. Once a
batch is settled its calls' rows go (its replies are in the request cache, like any
other reply); the batch's row stays with its final state. A damaged file is set aside
and a fresh one used (execution/store.py): its pending batches are then submitted again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from .store import SqliteStore

BATCH_FILE = "batches.sqlite3"
# A batch in one of these states has nothing more to give (models.base.FINAL_STATES).
_SETTLED = ("completed", "failed", "expired", "cancelled", "unreadable")


class BatchTable:
    def __init__(self, folder: Path) -> None:
        self._store = SqliteStore(
            folder / BATCH_FILE,
            [
                "CREATE TABLE IF NOT EXISTS batches (batch TEXT PRIMARY KEY, model TEXT NOT NULL,"
                " state TEXT NOT NULL)",
                "CREATE TABLE IF NOT EXISTS batch_calls (key TEXT PRIMARY KEY,"
                " batch TEXT NOT NULL, custom_id TEXT NOT NULL)",
            ],
            "SELECT b.batch, b.model, b.state, c.key, c.custom_id FROM batches b"
            " JOIN batch_calls c ON c.batch = b.batch LIMIT 1",
        )

    def pending(self, key: str, model: str) -> tuple[str, str] | None:
        """(batch id, custom_id) of an unsettled batch of `model` holding this request."""
        marks = ",".join("?" * len(_SETTLED))
        row = self._store.run(
            lambda db: db.execute(
                "SELECT b.batch, c.custom_id FROM batch_calls c JOIN batches b ON b.batch = c.batch"
                f" WHERE c.key = ? AND b.model = ? AND b.state NOT IN ({marks})",
                (key, model, *_SETTLED),
            ).fetchone()
        )
        return (str(row[0]), str(row[1])) if row else None

    def add(self, batch: str, model: str, calls: Iterable[tuple[str, str]]) -> None:
        """A submitted batch and its calls as (request key, custom_id)."""
        rows = list(calls)

        def insert(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR REPLACE INTO batches (batch, model, state) VALUES (?, ?, 'submitted')",
                (batch, model),
            )
            db.executemany(
                "INSERT OR REPLACE INTO batch_calls (key, batch, custom_id) VALUES (?, ?, ?)",
                [(key, batch, custom_id) for key, custom_id in rows],
            )
            db.commit()

        self._store.run(insert)

    def note(self, batch: str, state: str) -> None:
        """The batch's state as last seen; a settled one's calls are dropped."""

        def update(db: sqlite3.Connection) -> None:
            db.execute("UPDATE batches SET state = ? WHERE batch = ?", (state, batch))
            if state in _SETTLED:
                db.execute("DELETE FROM batch_calls WHERE batch = ?", (batch,))
            db.commit()

        self._store.run(update)

    def state(self, batch: str) -> str | None:
        row = self._store.run(
            lambda db: db.execute("SELECT state FROM batches WHERE batch = ?", (batch,)).fetchone()
        )
        return str(row[0]) if row else None

    def close(self) -> None:
        self._store.close()
