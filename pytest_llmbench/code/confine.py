"""The filesystem side of the sandbox (sandbox.py): what the command may see and write.

In its own mount namespace the command's working folder stays writable and every other
mount is made read-only; credential stores of the home folder are covered. When the
command runs under its own unprivileged user (as root: sandbox.own_user), that user must
also reach what it runs and reads: the working folder is handed over to it (chown), and a
path behind a folder that others may not enter (/root, a 0700 temporary folder) is shown
through a read-only tmpfs laid over that folder, which holds only the paths the command
needs (its working folder, its program's installation, the caller's `reads`).
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
from collections.abc import Iterable
from pathlib import Path

HIDDEN_IN_HOME = (
    ".ssh", ".aws", ".azure", ".gnupg", ".config", ".docker", ".kube",
    ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".pgpass",
)  # fmt: skip
# Each run's user and group id: drawn at random from this range, far above the ids of
# real accounts (and of the usual subordinate ranges), so two runs do not share one.
ID_RANGE = (1_600_000_000, 2_000_000_000)
# dash opens at most fds 3-9: the paths shown through covered folders.
MAX_SHOWN = 7
# Run by `sh` in the new mount namespace: $1 the working folder, $2 the paths to hide,
# $3 the folders to cover, $4 the paths to show again (one a line), then the command.
SCRIPT = r"""
work=$1; hide=$2; cover=$3; show=$4; shift 4
mount --bind "$work" "$work" || exit 125
while read -r _ _ _ _ point _; do
  [ "$point" = "$work" ] || mount -o remount,bind,ro "$point" 2>/dev/null
done < /proc/self/mountinfo
set -f; IFS='
'
for path in $hide; do
  if [ -d "$path" ]; then mount -t tmpfs -o ro,size=4k,mode=0 llmbench-hidden "$path"
  elif [ -e "$path" ]; then mount --bind /dev/null "$path"; fi
done
fd=3
for path in $show; do eval "exec $fd<\"\$path\"" || exit 125; fd=$((fd + 1)); done
for path in $cover; do
  mount -t tmpfs -o size=1m,mode=0755 llmbench-covered "$path" || exit 125
done
fd=3
for path in $show; do
  mkdir -p "$path" && mount --no-canonicalize --bind "/proc/self/fd/$fd" "$path" || exit 125
  [ "$path" = "$work" ] || mount -o remount,bind,ro "$path"
  eval "exec $fd<&-"; fd=$((fd + 1))
done
for path in $cover; do mount -o remount,ro "$path"; done
cd "$work" || exit 125
exec "$@"
"""


def fresh_id() -> int:
    low, high = ID_RANGE
    return low + secrets.randbelow(high - low)


def hidden(cwd: Path) -> list[str]:
    """The home folder's credential stores that exist (not the working folder's own)."""
    home = Path.home()
    paths = [home / name for name in HIDDEN_IN_HOME]
    return [str(p) for p in paths if p.exists() and not cwd.is_relative_to(p)]


def hand_over(folder: Path, uid: int) -> None:
    """Make `folder` and everything in it the run's user's (links themselves, not their
    targets), so it can write there."""
    os.lchown(folder, uid, uid)
    for root, dirs, files in os.walk(folder):
        for name in (*dirs, *files):
            try:
                os.lchown(os.path.join(root, name), uid, uid)
            except OSError:
                continue


def _closed(path: Path) -> Path | None:
    """The topmost folder above `path` that others may not enter, if any."""
    for parent in reversed(path.parents):
        try:
            mode = parent.stat().st_mode
        except OSError:
            return None
        if not mode & stat.S_IXOTH:
            return parent
    return None


def installation(program: str, search: str) -> Path | None:
    """The folder a program is installed in: the one above its resolved `bin/`."""
    found = shutil.which(program, path=search)
    if found is None:
        return None
    real = Path(found).resolve()
    return real.parent.parent if real.parent.name == "bin" else real.parent


def _outermost(paths: Iterable[Path]) -> list[Path]:
    unique = sorted(set(paths), key=lambda p: len(p.parts))
    kept: list[Path] = []
    for path in unique:
        if not any(path.is_relative_to(k) for k in kept):
            kept.append(path)
    return kept


def covers(work: Path, reads: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """(folders to cover, paths to show again) for the working folder and the `reads`
    that lie behind a folder others may not enter (the working folder first, then as
    many as `sh` has fds for); a path that needs none is left as it is."""
    cover, show = [], []
    for path in (work, *reads):
        closed = _closed(path.resolve())
        if closed is not None:
            cover.append(closed)
            show.append(path.resolve())
    shown = sorted(_outermost(show), key=lambda p: not work.is_relative_to(p))
    return _outermost(cover), shown[:MAX_SHOWN]
