"""What a sandboxed command may see (sandbox.py): an allow-list laid out by bubblewrap.

The command's root is an empty tmpfs holding only:
- the working folder, writable, at its own path; inside it the `protect`ed paths (the
  hidden tests, the harness) read-only;
- the toolchain, read-only: /usr (and the merged-/usr links /bin, /lib, /lib64, /sbin),
  the few files of /etc a toolchain reads (TOOLCHAIN_ETC), the installation of the program
  it runs (as named and as resolved: a venv and the Python it was made from), and the
  caller's `reads` (node packages, jars);
- a private /tmp, a /proc of its own PID namespace and a minimal /dev.
Nothing else of the host: not the checkout (scenarios, datasets, references), not the home
folder, /run, the host's /tmp or /etc. Every namespace but the user one is new (no network
but its own loopback, so no host unix socket or abstract socket is reachable); as root the
command then runs under a user id of its own, with no capability (sandbox.py).
"""

from __future__ import annotations

import atexit
import functools
import os
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

# Each run's user and group id: drawn at random from this range, far above the ids of
# real accounts (and of the usual subordinate ranges), so two runs do not share one.
ID_RANGE = (1_600_000_000, 2_000_000_000)
MERGED_USR = ("bin", "lib", "lib64", "sbin")
# Read by the toolchains: the dynamic linker's cache, Debian's alternatives (java, javac),
# the JDK's configuration (its conf/ links there).
TOOLCHAIN_ETC = ("ld.so.cache", "alternatives", "java-*-openjdk")
# Every namespace but the user's (as root the command gets an unprivileged id instead);
# without root, bubblewrap's own user namespace too.
NAMESPACES = ("--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts")
AS_USER = ("--unshare-user", "--unshare-cgroup", "--cap-drop", "ALL")
AS_ROOT = ("--unshare-cgroup-try",)
# /etc files of the sandbox's own: `localhost` resolves (Vite's server listens on it) and
# nothing of the host's names and accounts is shown.
OWN_ETC = {"hosts": "127.0.0.1 localhost\n::1 localhost\n"}
INSTALL = "Debian: apt-get install bubblewrap; scripts/install-runners installs it"


def fresh_id() -> int:
    low, high = ID_RANGE
    return low + secrets.randbelow(high - low)


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


def installation(program: str, search: str) -> list[Path]:
    """The folders a program is installed in: the one above its `bin/` (or the one it is
    in), for the path found on the PATH and for every link on the way to the real file
    (a venv's python is a link into the Python it was made from, which the venv's
    pyvenv.cfg names too; node_modules/.bin/esbuild a link into its package)."""
    found = shutil.which(program, path=search)
    if found is None:
        return []
    hops = [Path(os.path.abspath(found))]
    while hops[-1].is_symlink() and len(hops) < 16:
        hops.append(Path(os.path.abspath(hops[-1].parent / os.readlink(hops[-1]))))
    hops.append(hops[-1].resolve())
    return [path.parent.parent if path.parent.name == "bin" else path.parent for path in hops]


def _outermost(paths: Iterable[Path]) -> list[Path]:
    kept: list[Path] = []
    for path in sorted(set(paths), key=lambda p: len(p.parts)):
        if not any(path.is_relative_to(k) for k in kept):
            kept.append(path)
    return kept


def _folders_above(paths: Iterable[Path], made: set[Path]) -> list[str]:
    """bubblewrap arguments making each path's missing parents, open to every user (it
    would copy a closed parent's mode, such as /root's 0700)."""
    arguments: list[str] = []
    for path in paths:
        for parent in reversed(path.parents):
            if parent == Path("/") or parent in made:
                continue
            made.add(parent)
            arguments += ["--perms", "0755", "--dir", str(parent)]
    return arguments


@functools.cache
def _own_etc() -> Path:
    """A folder with OWN_ETC's files, made once per process, removed at its exit."""
    folder = Path(tempfile.mkdtemp(prefix="llmbench-etc-"))
    folder.chmod(0o755)
    for name, text in OWN_ETC.items():
        (folder / name).write_text(text, encoding="utf-8")
        (folder / name).chmod(0o644)
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _toolchain(reads: Sequence[Path]) -> list[Path]:
    etc = [p for pattern in TOOLCHAIN_ETC for p in sorted(Path("/etc").glob(pattern))]
    shown = [Path("/usr"), *etc, *(Path(os.path.abspath(p)) for p in reads)]
    return [p for p in _outermost(shown) if p.exists()]


def view(work: Path, reads: Sequence[Path], protect: Sequence[Path]) -> list[str]:
    """bubblewrap's arguments for the filesystem: the allow-list above, `work` writable
    (already resolved), `reads` read-only, `protect` (inside `work`) read-only."""
    arguments = ["--tmpfs", "/", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for name in MERGED_USR:
        link = Path("/") / name
        if link.is_symlink():
            arguments += ["--symlink", os.readlink(link), str(link)]
        elif link.is_dir():
            arguments += ["--ro-bind", str(link), str(link)]
    toolchain = [p for p in _toolchain(reads) if not work.is_relative_to(p)]
    made = {Path("/tmp"), Path("/proc"), Path("/dev")}
    for path in toolchain:
        arguments += [*_folders_above([path], made), "--ro-bind", str(path), str(path)]
    for name in OWN_ETC:
        own = Path("/etc") / name
        arguments += [*_folders_above([own], made), "--ro-bind", str(_own_etc() / name), str(own)]
    arguments += [*_folders_above([work], made), "--bind", str(work), str(work)]
    for path in protect:
        inside = path.resolve()
        if inside.is_relative_to(work) and inside.exists():
            arguments += ["--ro-bind", str(inside), str(inside)]
    return [*arguments, "--chdir", str(work)]


def command(work: Path, reads: Sequence[Path], protect: Sequence[Path], as_root: bool) -> list[str]:
    """The bubblewrap prefix for a command in `work` (None-free; bwrap must be usable)."""
    found = bubblewrap()
    assert found is not None
    users = AS_ROOT if as_root else AS_USER
    return [
        found, "--die-with-parent", "--new-session", *NAMESPACES, *users,
        "--hostname", "llmbench", *view(work, reads, protect), "--",
    ]  # fmt: skip


@functools.cache
def bubblewrap() -> str | None:
    """bwrap's path when it can make this sandbox here, else None."""
    found = shutil.which("bwrap")
    if found is None:
        return None
    users = AS_ROOT if os.geteuid() == 0 else AS_USER
    probe = [found, "--die-with-parent", *NAMESPACES, *users, "--ro-bind", "/", "/", "true"]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return found if done.returncode == 0 else None


def missing() -> str | None:
    """Why answers' code cannot run here (no usable bubblewrap), or None."""
    if bubblewrap() is not None:
        return None
    if shutil.which("bwrap") is None:
        return f"bubblewrap (bwrap) is not installed: the answers' code runs only in its sandbox ({INSTALL})"
    return "bubblewrap (bwrap) cannot make its namespaces on this machine: the answers' code runs only in its sandbox"
