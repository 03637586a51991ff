"""Paths that a scenario, a script or an answer names inside a workspace or on disk.

Inside a workspace (`safe_path`): a path that is absolute (`/etc/passwd`, `C:\\x`, `~/x`)
or climbs out of its folder (`../x`, `a/../../x`) is rejected; any other is normalised
(`./a//b/../c` -> `a/c`).

On disk (`resolve_inside`, `inside`): a file a scenario or a dataset names must resolve,
symbolic links followed, inside its root (`scenarios/` for what scenario files name, the
dataset's folder for its files); anything else is refused with the reason.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from ..errors import FormatError

_DRIVE = re.compile(r"^[A-Za-z]:")


def _is_absolute(text: str) -> bool:
    return text.startswith(("/", "~")) or bool(_DRIVE.match(text))


def safe_path(path: str) -> tuple[str | None, str | None]:
    """(normalised relative path, None) or (None, why it is rejected)."""
    text = path.strip().replace("\\", "/")
    if _is_absolute(text):
        return None, "absolute path"
    parts: list[str] = []
    for part in PurePosixPath(text).parts:
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None, "climbs out of the workspace with '..'"
            parts.pop()
        else:
            parts.append(part)
    if not parts:
        return None, "empty path"
    return "/".join(parts), None


def resolve_inside(root: Path, base: Path, written: str) -> tuple[Path | None, str | None]:
    """(the file `written` names, relative to `base`, None) or (None, why it is refused).

    The second rule, for files that scenarios and datasets name on disk: the path is
    not absolute, and it resolves (symbolic links followed) inside `root`. `..` may be
    used as long as the result stays inside `root`.
    """
    text = written.strip().replace("\\", "/")
    if not text:
        return None, "empty path"
    if _is_absolute(text):
        return None, "absolute path; give it relative to the file that names it"
    return inside(root, base / text)


def inside(root: Path, path: Path) -> tuple[Path | None, str | None]:
    """(`path` resolved, None) when it stays inside `root` with its links followed."""
    try:
        target = path.resolve()
        top = root.resolve()
    except (OSError, RuntimeError) as exc:  # a link loop
        return None, f"cannot be resolved ({exc})"
    if target != top and not target.is_relative_to(top):
        via = " through a symbolic link" if path.absolute() != target and _has_link(path) else ""
        return None, f"resolves{via} to {target}, outside {top}"
    return target, None


def _has_link(path: Path) -> bool:
    return any(p.is_symlink() for p in (path, *path.parents))


def scenarios_root(scenario: Path) -> Path:
    """The root of what a scenario file names: `scenarios/` (the file is scenarios/<category>/)."""
    return scenario.parent.parent


def named_file(
    referrer: Path, field: str, written: str, root: Path, base: Path | None = None
) -> Path:
    """The existing file that `field` of `referrer` names, relative to `base` (default: the
    referrer's folder), inside `root`; else a FormatError naming the file and field."""
    target, why = resolve_inside(root, base or referrer.parent, written)
    if target is None:
        raise FormatError(referrer, field, f"{written!r} is refused: {why}")
    if target.is_dir():
        raise FormatError(referrer, field, f"{written} is a folder; give a file")
    if not target.is_file():
        raise FormatError(referrer, field, f"{written} does not exist")
    return target
