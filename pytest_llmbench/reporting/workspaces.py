"""The final workspace of each dialog attempt, saved in the report dir.

`<report dir>/workspaces/<scenario>-<dataset>-<model>/attempt-<n>.zip` holds the files the
workspace had when the dialog ended (from the result's `dialog.files`), so they can be
unpacked and built, run or diffed (`unzip attempt-1.zip -d somewhere/`). They are kept in
an archive, never as loose files: a model may write `conftest.py`, `test_*.py`, a
`*.test.js` or a config file, and a later `pytest .`, jest, eslint or tsc in the project
would pick such a file up from the report dir and import or run it. Nothing collects
or imports a member of a zip. Written on the controller, from the result that came up
with the test report, like results.jsonl.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path, PurePosixPath

from ..schema.results import ItemResult

FOLDER = "workspaces"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def workspace_dir(folder: Path, result: ItemResult) -> Path:
    parts = [result.scenario, result.dataset, result.model]
    name = "-".join(str(p) for p in parts if p)
    return folder / FOLDER / _UNSAFE.sub("_", name)


def _member(rel: str) -> str | None:
    """The archive name of a workspace path; None for one that would unpack outside."""
    path = PurePosixPath(rel)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        return None  # the runner never records such a path
    return str(path)


def save_workspaces(folder: Path, result: ItemResult) -> Path | None:
    """Write every dialog attempt's final files; None when the item has no dialog."""
    dialogs = [(a.attempt, a.dialog) for a in result.attempts if a.dialog]
    if not dialogs:
        return None
    target = workspace_dir(folder, result)
    shutil.rmtree(target, ignore_errors=True)  # a re-run replaces the item's old workspaces
    target.mkdir(parents=True)
    for number, dialog in dialogs:
        archive = target / f"attempt-{number}.zip"
        with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as out:
            for rel, text in sorted(dialog.files.items()):
                member = _member(rel)
                if member is not None:
                    out.writestr(member, text)
    return target


def read_workspace(archive: Path) -> dict[str, str]:
    """The files of one saved attempt (path -> text)."""
    with zipfile.ZipFile(archive) as source:
        return {name: source.read(name).decode("utf-8") for name in source.namelist()}
