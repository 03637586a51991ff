"""The batches a run submitted (--llm-batch), kept beside the request cache so a run that
was killed while a batch was pending finds it again and polls it instead of paying twice.

Two tables in `batches.sqlite3` under --llm-cache-dir: `batches` (batch id, model, its
last known state) and `batch_calls` (request key -> batch id and the line's custom_id).
A batch is noted before it is submitted, under a tag of ours (state "submitting"; the
provider keeps the tag in the batch's metadata), and renamed to the provider's id once
it is created: a run killed in between finds the tag, and the provider's batch by it
(where the provider can be asked for it: BatchAPI.find; not Anthropic's).
A call whose key has a row in a batch that is not settled waits for that batch. Once a
batch is settled its calls' rows go (its replies are in the request cache, like any
other reply); the batch's row stays with its final state. A damaged file is set aside
and a fresh one used (execution/store.py): its pending batches are then submitted again.
"""

from __future__ import annotations

import os
import socket
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from .store import SqliteStore

BATCH_FILE = "batches.sqlite3"
# The process that notes a batch: while it lives, its "submitting" tags are its own.
OWNER = f"{socket.gethostname()}:{os.getpid()}"
# A batch in one of these states has nothing more to give (models.base.FINAL_STATES).
_SETTLED = ("completed", "failed", "expired", "cancelled", "unreadable")


class BatchTable:
    def __init__(self, folder: Path) -> None:
        self._store = SqliteStore(
            folder / BATCH_FILE,
            [
                "CREATE TABLE IF NOT EXISTS batches (batch TEXT PRIMARY KEY, model TEXT NOT NULL,"
                " state TEXT NOT NULL, owner TEXT NOT NULL DEFAULT '')",
                "CREATE TABLE IF NOT EXISTS batch_calls (key TEXT PRIMARY KEY,"
                " batch TEXT NOT NULL, custom_id TEXT NOT NULL)",
            ],
            "SELECT b.batch, b.model, b.state, b.owner, c.key, c.custom_id FROM batches b"
            " JOIN batch_calls c ON c.batch = b.batch LIMIT 1",
        )

    def pending(self, key: str, model: str) -> tuple[str, str, str] | None:
        """(batch id or tag, custom_id, state) of an unsettled batch of `model` holding
        this request; a tag that a live process on this machine is submitting is left to
        it (None)."""
        marks = ",".join("?" * len(_SETTLED))
        row = self._store.run(
            lambda db: db.execute(
                "SELECT b.batch, c.custom_id, b.state, b.owner FROM batch_calls c"
                " JOIN batches b ON b.batch = c.batch"
                f" WHERE c.key = ? AND b.model = ? AND b.state NOT IN ({marks})",
                (key, model, *_SETTLED),
            ).fetchone()
        )
        if row is None or (row[2] == "submitting" and _alive(str(row[3]))):
            return None
        return str(row[0]), str(row[1]), str(row[2])

    def add(
        self, batch: str, model: str, calls: Iterable[tuple[str, str]], state: str = "submitted"
    ) -> None:
        """A batch (or, "submitting", the tag of one about to be submitted) and its calls
        as (request key, custom_id)."""
        rows = list(calls)

        def insert(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR REPLACE INTO batches (batch, model, state, owner) VALUES (?, ?, ?, ?)",
                (batch, model, state, OWNER),
            )
            db.executemany(
                "INSERT OR REPLACE INTO batch_calls (key, batch, custom_id) VALUES (?, ?, ?)",
                [(key, batch, custom_id) for key, custom_id in rows],
            )
            db.commit()

        self._store.run(insert)

    def created(self, tag: str, batch: str) -> None:
        """The batch noted under `tag` was created with the provider's id `batch`."""

        def rename(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE batches SET batch = ?, state = 'submitted' WHERE batch = ?", (batch, tag)
            )
            db.execute("UPDATE batch_calls SET batch = ? WHERE batch = ?", (batch, tag))
            db.commit()

        self._store.run(rename)

    def drop(self, batch: str) -> None:
        """Forget a batch that was never created (its calls are asked again)."""

        def delete(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM batch_calls WHERE batch = ?", (batch,))
            db.execute("DELETE FROM batches WHERE batch = ?", (batch,))
            db.commit()

        self._store.run(delete)

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


def _alive(owner: str) -> bool:
    """Whether `owner` (OWNER of some process) is a process of this machine that still
    runs, other than this one (whose own tags the batcher knows)."""
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit() or owner == OWNER:
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, owned by another user
        return True
    return True
