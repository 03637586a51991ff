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
from typing import Any

FOLDER = "workspaces"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def workspace_dir(folder: Path, result: dict[str, Any]) -> Path:
    parts = [result.get("scenario"), result.get("dataset"), result.get("model")]
    name = "-".join(str(p) for p in parts if p)
    return folder / FOLDER / _UNSAFE.sub("_", name)


def save_workspaces(folder: Path, result: dict[str, Any]) -> Path | None:
    """Write every dialog attempt's final files; None when the item has no dialog."""
    attempts = [a for a in result.get("attempts") or [] if a.get("dialog")]
    if not attempts:
        return None
    target = workspace_dir(folder, result)
    shutil.rmtree(target, ignore_errors=True)  # a re-run replaces the item's old workspaces
    for attempt in attempts:
        root = (target / f"attempt-{attempt['attempt']}").resolve()
        for rel, text in attempt["dialog"].get("files", {}).items():
            path = (root / rel).resolve()
            if not path.is_relative_to(root):  # the runner never records such a path
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return target
