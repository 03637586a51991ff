"""The final workspace of each dialog attempt, saved in the report dir.

`<report dir>/workspaces/<scenario>-<dataset>-<model>/attempt-<n>.zip` holds the files the
workspace had when the dialog ended (from the result's `dialog.files`), so they can be
unpacked and built, run or diffed (`unzip attempt-1.zip -d somewhere/`). They are kept in
an archive, never as loose files: a model may write `conftest.py`, `test_*.py`, a
`*.test.js` or a config file, and a later `pytest .`, jest, eslint or tsc in the project
would pick such a file up from the report dir and import or run it. Nothing collects
or imports a member of a zip. Written on the controller, from the result that came up
with the test report, like results.jsonl.

Attempts that ended with the same files (a deterministic model, an attempt that changed
nothing, the same answer in another item of the run) share one archive: the later
attempt's name is a hard link to the first one's, so each distinct workspace is stored
once per run (a copy only where the file system has no hard links, or the first archive
is gone: a re-run item's old workspaces are removed).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import zipfile
from pathlib import Path, PurePosixPath

from ..schema.results import ItemResult
from ..schema.texts import text_id

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


def save_workspaces(
    folder: Path, result: ItemResult, archives: dict[str, Path] | None = None
) -> Path | None:
    """Write every dialog attempt's final files; None when the item has no dialog.
    `archives` (content id of a workspace's files -> its archive) is the run's, shared
    by the items written with it."""
    dialogs = [(a.attempt, a.dialog) for a in result.attempts if a.dialog]
    if not dialogs:
        return None
    target = workspace_dir(folder, result)
    shutil.rmtree(target, ignore_errors=True)  # a re-run replaces the item's old workspaces
    target.mkdir(parents=True)
    archives = {} if archives is None else archives
    for number, dialog in dialogs:
        archive = target / f"attempt-{number}.zip"
        files = sorted(dialog.files.items())
        key = text_id(json.dumps(files, ensure_ascii=False))
        if key in archives and _linked(archives[key], archive):
            continue
        with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as out:
            for rel, text in files:
                member = _member(rel)
                if member is not None:
                    out.writestr(member, text)
        archives[key] = archive
    return target


def _linked(first: Path, archive: Path) -> bool:
    """`archive` made a hard link to `first`; False where the file system has none."""
    try:
        os.link(first, archive)
    except OSError:
        return False
    return True


def read_workspace(archive: Path) -> dict[str, str]:
    """The files of one saved attempt (path -> text)."""
    with zipfile.ZipFile(archive) as source:
        return {name: source.read(name).decode("utf-8") for name in source.namelist()}
