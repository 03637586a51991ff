"""Paths that a scenario, a script or an answer names inside a workspace.

One rule for all of them: a path that is absolute (`/etc/passwd`, `C:\\x`, `~/x`) or
climbs out of its folder (`../x`, `a/../../x`) is rejected; any other is normalised
(`./a//b/../c` -> `a/c`).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

_DRIVE = re.compile(r"^[A-Za-z]:")


def safe_path(path: str) -> tuple[str | None, str | None]:
    """(normalised relative path, None) or (None, why it is rejected)."""
    text = path.strip().replace("\\", "/")
    if text.startswith(("/", "~")) or _DRIVE.match(text):
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
