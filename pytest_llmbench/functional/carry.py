"""What the runs of one answer's suite share (mutation mode: the clean run, the equivalent
mutant, every mutant): a folder outside the workspace that a runner fills after the first
run and copies from in later ones, instead of building the same thing again (Jest's
transform cache, JUnit's classes compiled before any test ran).

A folder a run wrote may hold anything its code put there: only folders and regular files
are copied (no link, no FIFO or device), at most MAX_FILES files and MAX_BYTES bytes, and
a folder over either limit is not carried at all (the later runs build as the first did).
Every later run gets a copy of its own, so nothing one of them writes reaches another.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

MAX_FILES = 20_000
MAX_BYTES = 200_000_000


def _regular_files(source: Path) -> list[Path] | None:
    """The regular files under `source` (links not followed, others skipped), or None past
    the limits."""
    found: list[Path] = []
    size = 0
    for folder, dirs, files in os.walk(source, followlinks=False):
        base = Path(folder)
        dirs[:] = [d for d in dirs if stat.S_ISDIR(os.lstat(base / d).st_mode)]
        for name in files:
            info = os.lstat(base / name)
            if not stat.S_ISREG(info.st_mode):
                continue
            size += info.st_size
            found.append(base / name)
            if len(found) > MAX_FILES or size > MAX_BYTES:
                return None
    return found


def copy_folder(source: Path, target: Path) -> bool:
    """`source`'s folders and regular files into `target` (made; existing files replaced);
    False, and nothing copied, when `source` is missing, not a real folder or too large."""
    try:
        if not source.is_dir() or source.is_symlink():
            return False
        files = _regular_files(source)
        if files is None:
            return False
        target.mkdir(parents=True, exist_ok=True)
        for file in files:
            destination = target / file.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(file, destination, follow_symlinks=False)
    except OSError:
        shutil.rmtree(target, ignore_errors=True)
        return False
    return True
