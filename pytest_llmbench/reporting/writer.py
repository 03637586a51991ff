"""The files of the report dir, written on the controller only.

results.jsonl     one item result per line, appended as soon as the item finishes, its
                  long texts as references to texts.jsonl
texts.jsonl       each distinct long text once (textstore.py), written before the
                  first line that refers to it
leaderboard.json  the envelope below with the leaderboard
leaderboard.md    the same as Markdown tables
report.html       the report viewer with every item's details (and the scenarios'
                  reference answers) embedded compressed, in one self-contained page

The plugin's report hook and `llmbench merge` both write through `publish`, which
registers the run in the history of runs before report.html is built (its trend shows it).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from pydantic import JsonValue

from .. import __version__
from ..folders import own_folder
from ..metrics.syntax import available_checkers
from ..schema.leaderboard import Leaderboard, LeaderboardDocument, Machine
from ..schema.results import SCHEMA_VERSION, ItemResult
from ..schema.stored import to_stored
from . import html, leaderboard, markdown, viewdata
from .history import Registration, trend_data
from .textstore import TEXTS, TextStore, json_line
from .workspaces import save_workspaces

RESULTS = "results.jsonl"
LEADERBOARD_JSON = "leaderboard.json"
LEADERBOARD_MD = "leaderboard.md"
REPORT_HTML = "report.html"
JSON_REPORT = "report.json"


def git_commit(folder: Path) -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def envelope(
    board: Leaderboard,
    settings: dict[str, JsonValue],
    rootdir: Path,
    checkers: dict[str, bool] | None = None,
) -> LeaderboardDocument:
    return LeaderboardDocument(
        schema_version=SCHEMA_VERSION,
        plugin_version=__version__,
        git_commit=git_commit(rootdir),
        created_utc=datetime.now(UTC).isoformat(timespec="seconds"),
        machine=Machine(
            python=platform.python_version(), platform=platform.platform(), node=platform.node()
        ),
        settings=settings,
        # Syntax checkers present (a missing one leaves its languages unchecked).
        checkers=checkers if checkers is not None else available_checkers(),
        leaderboard=board,
    )


def folder_problem(path: Path) -> str | None:
    """Why `path` cannot be a folder to write files in, tried for real (None when it can).

    A folder this check had to make is removed again, so nothing is left behind.
    """
    if path.exists() and not path.is_dir():
        return f"{path} is a file, not a folder"
    existing = path
    while not os.path.lexists(existing) and existing != existing.parent:
        existing = existing.parent
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        return f"{path} cannot be made or written to ({exc.strerror or exc})"
    finally:
        for made in (path, *path.parents):
            if made == existing or not made.is_relative_to(existing):
                break
            try:
                made.rmdir()
            except OSError:
                break
    return None


def report_dir_problem(folder: Path) -> str | None:
    """Why the report dir cannot take this run's files (None when it can)."""
    names = (RESULTS, TEXTS, LEADERBOARD_JSON, LEADERBOARD_MD, REPORT_HTML, JSON_REPORT)
    taken = next((name for name in names if (folder / name).is_dir()), None)
    if taken is not None:
        return f"{folder / taken} is a folder; the report needs that name for a file"
    return folder_problem(folder)


class ResultsFile:
    """results.jsonl, appended and flushed per item so a killed run keeps what it finished.

    Created on the first result, so a run with no benchmark items leaves the last one alone.
    Each line's texts go to `texts` first (a store the caller keeps open across a rewrite
    of results.jsonl, or one of its own), so no line refers to a text not yet written.
    """

    def __init__(self, folder: Path, texts: TextStore | None = None) -> None:
        self.folder = folder
        self.path = folder / RESULTS
        self.texts = texts if texts is not None else TextStore(folder)
        self._own_texts = texts is None
        self._handle: TextIO | None = None
        self._archives: dict[str, Path] = {}  # the run's workspaces, each stored once

    def append(self, result: ItemResult) -> None:
        if self._handle is None:
            own_folder(self.folder)
            self._handle = self.path.open("w", encoding="utf-8")
        line = self.texts.stored(to_stored(result))
        self._handle.write(json_line(line) + "\n")
        self._handle.flush()
        # A dialog's final files go beside it, so a run and `llmbench merge` both keep them.
        save_workspaces(self.folder, result, self._archives)

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        if self._own_texts:
            self.texts.close()


def write_results(
    folder: Path, items: Sequence[ItemResult], texts: TextStore | None = None
) -> None:
    """results.jsonl in one go (merge, a run whose item was replaced); a run appends it
    item by item through ResultsFile. With `texts` the store already written is kept
    (report.json may refer to its texts); without, texts.jsonl is made anew."""
    results = ResultsFile(folder, texts)
    for item in items:
        results.append(item)
    results.close()


def publish(
    folder: Path,
    items: Sequence[ItemResult],
    attempts: int,
    formula: str | None,
    settings: dict[str, JsonValue],
    rootdir: Path,
    on_board: Callable[[Leaderboard], None] | None = None,
    checkers: dict[str, bool] | None = None,
    registration: Registration | None = None,
) -> LeaderboardDocument:
    """Build the leaderboard of `items` and write leaderboard.json/.md and report.html.

    `on_board` sees (and may amend) the leaderboard before it is written. With
    `registration` the run is added to the history of runs, whose trend report.html
    shows. Returns the envelope written to leaderboard.json.
    """
    board = leaderboard.build(items, attempts, formula)
    if on_board is not None:
        on_board(board)
    document = envelope(board, settings, rootdir, checkers)
    own_folder(folder)
    (folder / LEADERBOARD_JSON).write_text(
        json.dumps(document.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    (folder / LEADERBOARD_MD).write_text(markdown.render(board), encoding="utf-8")
    records = registration.add(document, folder, len(items)) if registration else []
    refs = viewdata.references(items, [rootdir])
    scores = leaderboard.scores(items, attempts, formula)
    page = html.render(document, items, scores, refs, trend_data(records))
    (folder / REPORT_HTML).write_text(page, encoding="utf-8")
    return document
