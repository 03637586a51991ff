"""The one rule for finding the node packages the checkers and runners use: a
node_modules folder ($LLMBENCH_NODE_MODULES, else `<cwd>/node_modules`, else this
project's) that holds every package named; and the one line saying what is missing."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

_PROJECT = Path(__file__).resolve().parents[2]


def has_packages(root: Path, needed: tuple[str, ...]) -> bool:
    return all((root / name / "package.json").is_file() for name in needed)


def modules_dir(needed: tuple[str, ...]) -> Path | None:
    """The first node_modules holding all of `needed`, or None."""
    override = os.environ.get("LLMBENCH_NODE_MODULES")
    roots = (
        [Path(override)] if override else [Path.cwd() / "node_modules", _PROJECT / "node_modules"]
    )
    for root in roots:
        if has_packages(root, needed):
            return root.resolve()
    return None


def node_missing(found: Path | None, what: str, install: str) -> str | None:
    """Why `what` cannot run here (node not on PATH, or its packages not `found`), or None."""
    if shutil.which("node") is None:
        return "node is not installed: Node.js 18 or newer must be on the PATH"
    if found is None:
        return f"{what} packages are missing: run {install}"
    return None
