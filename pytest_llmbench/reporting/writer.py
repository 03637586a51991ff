"""The files of the report dir, written on the controller only.

results.jsonl     one item result per line, appended as soon as the item finishes
leaderboard.json  the envelope below with the leaderboard
leaderboard.md    the same as Markdown tables
report.html       the leaderboard, charts and every item's details in one self-contained page

The plugin's report hook and `llmbench merge` both write through `publish`.
"""

from __future__ import annotations

import json
import platform
import subprocess
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from .. import __version__
from ..code.syntax import available_checkers
from ..folders import own_folder
from ..schema.results import SCHEMA_VERSION
from . import html, leaderboard, markdown
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
    board: dict[str, Any],
    settings: dict[str, Any],
    rootdir: Path,
    checkers: dict[str, bool] | None = None,
) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "plugin_version": __version__,
        "git_commit": git_commit(rootdir),
        "created_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "node": platform.node(),
        },
        "settings": settings,
        # Syntax checkers present (a missing one leaves its languages unchecked).
        "checkers": checkers if checkers is not None else available_checkers(),
        "leaderboard": board,
    }


class ResultsFile:
    """results.jsonl, appended and flushed per item so a killed run keeps what it finished.

    Created on the first result, so a run with no benchmark items leaves the last one alone.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / RESULTS
        self._handle: TextIO | None = None

    def append(self, result: dict[str, Any]) -> None:
        if self._handle is None:
            own_folder(self.folder)
            self._handle = self.path.open("w", encoding="utf-8")
        self._handle.write(json.dumps(result, ensure_ascii=False) + "\n")
        self._handle.flush()
        # A dialog's final files go beside it, so a run and `llmbench merge` both keep them.
        save_workspaces(self.folder, result)

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def write_results(folder: Path, items: Sequence[dict[str, Any]]) -> None:
    """results.jsonl in one go (merge); a run appends it item by item through ResultsFile."""
    results = ResultsFile(folder)
    for item in items:
        results.append(item)
    results.close()


def publish(
    folder: Path,
    items: Sequence[dict[str, Any]],
    attempts: int,
    formula: str | None,
    settings: dict[str, Any],
    rootdir: Path,
    on_board: Callable[[dict[str, Any]], None] | None = None,
    checkers: dict[str, bool] | None = None,
) -> dict[str, Any]:
    """Build the leaderboard of `items` and write leaderboard.json/.md and report.html.

    `on_board` sees (and may amend) the leaderboard before it is written. Returns the
    envelope written to leaderboard.json.
    """
    board = leaderboard.build(items, attempts, formula)
    if on_board is not None:
        on_board(board)
    document = envelope(board, settings, rootdir, checkers)
    own_folder(folder)
    (folder / LEADERBOARD_JSON).write_text(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (folder / LEADERBOARD_MD).write_text(markdown.render(board), encoding="utf-8")
    page = html.render(document, items, leaderboard.scores(items, attempts, formula))
    (folder / REPORT_HTML).write_text(page, encoding="utf-8")
    return document
