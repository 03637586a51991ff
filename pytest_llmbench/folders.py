"""The folders pytest-llmbench writes outside the report files: where the cache lives,
and how a folder it creates is marked as its own.

One rule for the cache folder: `--llm-cache-dir` (or LLMBENCH_CACHE_DIR / ini
llm_cache_dir) when given, else `.llmbench_cache` in the folder pytest or `llmbench` was
started from. The request cache and the complexity cache both live there.

What the test runners make for the whole machine (the JVMs' class data archives, node's
packages script and the answers' bundles) lives in the user's cache folder instead
(`user_cache_folder`).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

DEFAULT_CACHE_DIR = ".llmbench_cache"
CACHE_DIR_ENV = "LLMBENCH_CACHE_DIR"
_GITIGNORE = "# created by pytest-llmbench automatically\n*\n"


def default_cache_dir(here: Path) -> Path:
    """The cache folder of a command run in `here` that has no --llm-cache-dir option."""
    return here / (os.environ.get(CACHE_DIR_ENV) or DEFAULT_CACHE_DIR)


def user_cache_folder(name: str, env: str) -> Path:
    """$`env` when set, else $XDG_CACHE_HOME or ~/.cache, then pytest-llmbench/`name`."""
    written = os.environ.get(env)
    if written:
        return Path(written)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pytest-llmbench" / name


def own_folder(path: Path) -> Path:
    """Create `path` if needed; a folder created here gets a .gitignore of `*`, as pytest's
    own cache does (a folder that already existed, e.g. a committed reports/, is left as is)."""
    if not path.is_dir():
        path.mkdir(parents=True, exist_ok=True)
        ignore = path / ".gitignore"
        if not ignore.exists():
            ignore.write_text(_GITIGNORE, encoding="utf-8")
    return path


def write_whole(target: Path, text: str) -> None:
    """Write `text` to `target` whole or not at all (its folders made as needed): a
    temporary file beside it renamed into place, so a reader at the same time finds the
    old file or the new one. OSError when it cannot be written."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=target.parent, prefix=".", suffix=".tmp", delete=False
    ) as partial:
        partial.write(text)
    try:
        os.chmod(partial.name, 0o644)  # as a file written in place would be, not 0600
        os.replace(partial.name, target)
    except OSError:
        os.unlink(partial.name)
        raise


def keep(cache_dir: Path, target: Path, text: str) -> None:
    """Write `text` to `target`, a file under `cache_dir` (made its own folder), whole or
    not at all (write_whole). A cache that cannot be written only costs the time of
    computing again: OSError is swallowed."""
    try:
        own_folder(cache_dir)
        write_whole(target, text)
    except OSError:
        pass
