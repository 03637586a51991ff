"""Hidden tests that must sit beside the answer's code to be built with it (a Go package's
`_test.go` files, Cargo's `tests/`, a C++ suite's test sources, a Jest spec importing
`./module`): copied from the hidden folder onto the workspace at their paths, over any
answer file of the same path, and listed so the run can protect them (read-only in the
sandbox). The harness files materialise() puts beside them and the runners' option files
stay where they are."""

from __future__ import annotations

import shutil
from pathlib import Path

from .workspace import HARNESS

# The runners' own option files in the hidden folder.
OPTION_FILES = frozenset({"jest.json", "vitest.json", "junit.json"})


def overlay(workspace: Path, hidden: Path) -> list[str]:
    """Copy the scenario's hidden files onto `workspace`; their workspace-relative paths."""
    ours = {p.name for p in HARNESS.iterdir()} | OPTION_FILES
    placed: list[str] = []
    for source in sorted(p for p in hidden.rglob("*") if p.is_file() and not p.is_symlink()):
        relative = source.relative_to(hidden)
        if len(relative.parts) == 1 and relative.name in ours:
            continue
        target = workspace / relative
        if target.is_symlink() or target.is_dir():
            shutil.rmtree(
                target
            ) if target.is_dir() and not target.is_symlink() else target.unlink()
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        placed.append(relative.as_posix())
    return placed
