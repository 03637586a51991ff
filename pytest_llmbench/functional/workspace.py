"""The folder a test run works in: the dataset's files (unless the scenario starts from
nothing), the answer's files over them (never one at a reserved path, reserved.py), and
the hidden tests in HIDDEN, written last so no answer file can replace them. The runners
write their reports to OUT, so that HIDDEN (and the harness in it) can be read-only to the
tests (sandbox.run's `protect`)."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..formats.dataset import Dataset
from ..formats.functional import Functional
from ..formats.paths import safe_path
from .reserved import is_refused

HIDDEN = ".llmbench-hidden"
OUT = ".llmbench-out"
HARNESS = Path(__file__).with_name("harness")


def _write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or path.is_dir():
        return  # a file may not replace a folder; nothing the answer wrote is a link
    path.write_text(text, encoding="utf-8")


def materialise(
    root: Path,
    functional: Functional,
    dataset: Dataset | None,
    answer_files: Iterable[tuple[str, str]],
) -> Path:
    """Fill `root` and return the hidden-tests folder in it."""
    if functional.base == "dataset" and dataset is not None:
        for source in dataset.files:
            _write(root, source.path, source.text)
    for written, text in answer_files:
        path, why = safe_path(written)
        if path is not None and not is_refused(path, text):
            _write(root, path, text)
    hidden = root / HIDDEN
    shutil.rmtree(hidden, ignore_errors=True)
    hidden.mkdir()
    for harness_file in sorted(HARNESS.iterdir()):
        if harness_file.is_file():
            shutil.copyfile(harness_file, hidden / harness_file.name)
    for hidden_file in functional.files:
        _write(hidden, hidden_file.path, hidden_file.text)
    (root / OUT).mkdir(exist_ok=True)
    return hidden


def fresh_copy(
    root: Path, base: Path, changes: Mapping[str, str] | None = None, keep: Iterable[Path] = ()
) -> Path:
    """A fresh copy of the workspace (`changes`: workspace path -> the text it gets instead),
    always at the same path, every file with its original times: a test cannot tell the
    clean run from a mutant's by the files' paths, times or order. `keep`: folders at the
    workspace's top that stay as they are (a warm server's read-only bind mounts); the
    workspace folder itself then stays too, emptied of everything else, and every file
    gets the run's own time instead of its original one (a warm runner keeps what it
    built from a file by its path and time: Jest's transforms), so that the times tell one
    run from another by the clock alone."""
    work = root / "work"
    kept = set(keep)
    if kept and work.is_dir() and not work.is_symlink():
        for entry in work.iterdir():
            if entry in kept:
                continue
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
    else:
        shutil.rmtree(work, ignore_errors=True)
    targets = {(base / path).resolve(): text for path, text in (changes or {}).items()}

    def skipped(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if work / n in kept} if Path(folder) == base else set()

    stamp = time.time_ns() if kept else None

    def copy(source: str, destination: str) -> str:
        text = targets.get(Path(source).resolve())
        if text is not None:
            Path(destination).write_text(text, encoding="utf-8")
            shutil.copystat(source, destination)
        else:
            shutil.copy2(source, destination)
        if stamp is not None:
            os.utime(destination, ns=(stamp, stamp), follow_symlinks=False)
        return destination

    shutil.copytree(
        base, work, symlinks=True, copy_function=copy, ignore=skipped, dirs_exist_ok=True
    )
    return work
