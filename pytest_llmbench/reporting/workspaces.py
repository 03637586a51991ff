"""The final workspace of each dialog attempt, saved in the report dir.

`<report dir>/workspaces/<scenario>-<dataset>-<model>/attempt-<n>/` holds the files the
workspace had when the dialog ended (from the result's `dialog.files`), so they can be
built, run or diffed. Written on the controller, from the result that came up with the
test report, like results.jsonl.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from ..schema.results import ItemResult

FOLDER = "workspaces"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def workspace_dir(folder: Path, result: ItemResult) -> Path:
    parts = [result.scenario, result.dataset, result.model]
    name = "-".join(str(p) for p in parts if p)
    return folder / FOLDER / _UNSAFE.sub("_", name)


def save_workspaces(folder: Path, result: ItemResult) -> Path | None:
    """Write every dialog attempt's final files; None when the item has no dialog."""
    dialogs = [(a.attempt, a.dialog) for a in result.attempts if a.dialog]
    if not dialogs:
        return None
    target = workspace_dir(folder, result)
    shutil.rmtree(target, ignore_errors=True)  # a re-run replaces the item's old workspaces
    for number, dialog in dialogs:
        root = (target / f"attempt-{number}").resolve()
        for rel, text in dialog.files.items():
            path = (root / rel).resolve()
            if not path.is_relative_to(root):  # the runner never records such a path
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return target
