"""The one rule for finding the node packages the checkers and runners use: a
node_modules folder ($LLMBENCH_NODE_MODULES, else `<cwd>/node_modules`, else this
project's) that holds every package named; the node they all run under; and the one
line saying what is missing."""

from __future__ import annotations

import os
import platform
import shutil
import sys
from pathlib import Path

_PROJECT = Path(__file__).resolve().parents[2]
# npm's names of the machine's processor, as the node builds' packages are named
_ARCH = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64"}
_MACHINE = platform.machine().lower()
# the package of this machine's build of the node package-lock.json pins
PINNED = f"node-{sys.platform}-{_ARCH.get(_MACHINE, _MACHINE)}"


def _roots() -> list[Path]:
    override = os.environ.get("LLMBENCH_NODE_MODULES")
    return (
        [Path(override)] if override else [Path.cwd() / "node_modules", _PROJECT / "node_modules"]
    )


def has_packages(root: Path, needed: tuple[str, ...]) -> bool:
    return all((root / name / "package.json").is_file() for name in needed)


def modules_dir(needed: tuple[str, ...]) -> Path | None:
    """The first node_modules holding all of `needed`, or None."""
    for root in _roots():
        if has_packages(root, needed):
            return root.resolve()
    return None


def node_program() -> str:
    """The node every checker and runner runs under: the build package-lock.json pins (its
    optional package `node-linux-<arch>`, in the first node_modules that has it), so that a
    hidden test's result does not depend on the machine's node; else `node` on the PATH."""
    for root in _roots():
        program = root / PINNED / "bin" / "node"
        if program.is_file() and os.access(program, os.X_OK):
            return str(program.resolve())
    return "node"


def node_missing(found: Path | None, what: str, install: str) -> str | None:
    """Why `what` cannot run here (no node, or its packages not `found`), or None."""
    if shutil.which(node_program()) is None:
        return "node is not installed: Node.js 18 or newer must be on the PATH"
    if found is None:
        return f"{what} packages are missing: run {install}"
    return None
