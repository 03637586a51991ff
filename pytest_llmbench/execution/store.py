"""The run's sqlite files (request cache, spend ledger), opened so a damaged one never stops a run.

A file that is not a database, is malformed (e.g. truncated), has tables of another shape,
or is a folder is set aside: renamed to `<name>.corrupt-<UTC time>` (with its -wal and
-shm files), one warning line says so, and a fresh file is used. This happens when the
file is opened and again if a later statement finds the damage. Other failures (a locked
file, a full disk) are raised as they are.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import warnings
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from ..errors import NotAFile, StoreWarning
from ..folders import own_folder

T = TypeVar("T")
# SQLITE_ERROR comes from our own fixed statements only when the tables have another shape.
_DAMAGE = frozenset({"SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_ERROR"})


def set_aside(path: Path) -> Path:
    """Rename `path` (and its -wal and -shm files) out of the way; the new name of `path`."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        if os.path.lexists(source):
            source.replace(Path(f"{aside}{suffix}"))
    return aside


class SqliteStore:
    """One sqlite file, opened on first use; `run` executes statements under a lock."""

    def __init__(self, path: Path, schema: Sequence[str], probe: str) -> None:
        self.path = path
        self._schema = schema  # statements that create the tables if missing
        self._probe = probe  # a query that fails unless the tables have the expected shape
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._inode: int | None = None

    def run(self, action: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            try:
                return action(self._db())
            except sqlite3.DatabaseError as exc:
                if not _is_damage(exc):
                    raise
                self._recover(exc, self._inode)
                return action(self._db())

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            try:
                self._conn = self._connect()
            except sqlite3.DatabaseError as exc:
                if not _is_damage(exc):
                    raise
                self._recover(exc, _inode(self.path))
                self._conn = self._connect()
        return self._conn

    def _connect(self) -> sqlite3.Connection:
        own_folder(self.path.parent)
        if self.path.is_dir():
            raise NotAFile("is a folder, not a database file")
        db = sqlite3.connect(self.path, timeout=30.0, check_same_thread=False)
        try:
            db.execute("PRAGMA busy_timeout=30000")
            db.execute("PRAGMA journal_mode=WAL")
            # No fsync per commit (WAL stays consistent; a power cut may lose the last rows).
            db.execute("PRAGMA synchronous=NORMAL")
            for statement in self._schema:
                db.execute(statement)
            db.execute(self._probe).fetchall()
            db.commit()
        except BaseException:
            db.close()
            raise
        self._inode = _inode(self.path)
        return db

    def _recover(self, exc: BaseException, damaged: int | None) -> None:
        """Set the damaged file (inode `damaged`) aside, unless another process (an xdist
        worker) already replaced it with a fresh one."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        current = _inode(self.path)
        if current is not None and current != damaged:
            return  # set aside by another worker already: use its fresh file
        aside = set_aside(self.path)
        warnings.warn(
            StoreWarning(
                f"{self.path} cannot be used ({exc}); moved to {aside.name}, using a fresh one"
            ),
            stacklevel=3,
        )


def _inode(path: Path) -> int | None:
    try:
        return path.stat().st_ino
    except OSError:
        return None


def _is_damage(exc: sqlite3.DatabaseError) -> bool:
    return isinstance(exc, NotAFile) or getattr(exc, "sqlite_errorname", None) in _DAMAGE
