"""The packages node's harness runs on (jsdom, Testing Library, user-event) as one script
and V8's code cache for it (harness/shared.mjs): a test process compiles one file, mostly
from the cache, instead of resolving, reading and compiling about a thousand modules
(figures: bench/functional.py's node start-up). Vitest's test processes take jsdom from
it too (vitest_jsdom.mjs).

Made once per node_modules and node version, from our own code only, never an answer's:
esbuild bundles the packages (make-shared.mjs `bundle`; jsdom's default style sheet is
indexed by element name there, jsdom_sheet.js), then our warm-up page runs on
that script and V8's code for it is written out (`warm`): once in a process with the
harness's node flags, once without them (V8 takes a code cache only under the flags it was
made with; Vitest's processes have none). The script and its caches live in the user's
cache folder ($LLMBENCH_NODE_SHARE_CACHE, else $XDG_CACHE_HOME or ~/.cache, then
pytest-llmbench/node), under a hash of what it is made from, written into a temporary
folder and renamed into place under a lock, so runs started at once make it once and
never read half of one. The sandbox reads it, read-only.

A run goes on without it where it cannot be made (the harness then requires the packages
one by one); V8 itself checks the code cache against the script and the engine, and
compiles afresh on any difference.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from ..folders import user_cache_folder
from ..toolchain.node_packages import node_program
from .workspace import HARNESS

RECIPE = 2  # bump when the bundle's making changes outside the files hashed here
CACHE_ENV = "LLMBENCH_NODE_SHARE_CACHE"
MADE_FROM = ("shared.mjs", "make-shared.mjs")  # with harness.mjs: the warm-up runs it
SHEET = HARNESS.parent / "jsdom_sheet.js"  # bundled into the script (make-shared.mjs)
PACKAGES = ("jsdom", "@testing-library/dom", "@testing-library/user-event", "esbuild")
FILES = ("deps.cjs", "deps.cache", "deps.plain.cache")  # shared.mjs: DEPS, CODE_CACHE, PLAIN_CACHE
TIMEOUT_S = 120.0

_lock = threading.Lock()
_made: dict[tuple[str, str], Path | None] = {}


def cache_folder() -> Path:
    """$LLMBENCH_NODE_SHARE_CACHE, else the user's cache folder's pytest-llmbench/node."""
    return user_cache_folder("node", CACHE_ENV)


def _node_version() -> str:
    try:
        done = subprocess.run(
            [node_program(), "--version"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return done.stdout.strip()


def _key(modules: Path) -> str:
    """What the script is made from: the recipe, node, our files and the packages, and where
    they are (the script names a file of jsdom's by its path: a copy made from another
    checkout's packages would not load from this one's)."""
    digest = hashlib.sha256(f"recipe {RECIPE}\nnode {_node_version()}\n".encode())
    digest.update(str(modules.resolve()).encode())
    for file in (*(HARNESS / name for name in (*MADE_FROM, "harness.mjs")), SHEET):
        digest.update(b"\0" + file.name.encode() + b"\0" + file.read_bytes())
    for package in PACKAGES:
        digest.update(b"\0" + (modules / package / "package.json").read_bytes())
    return digest.hexdigest()[:20]


def _run(command: list[str], env: dict[str, str], cwd: Path) -> bool:
    try:
        done = subprocess.run(
            command,
            cwd=cwd,
            env=env,
            capture_output=True,
            timeout=TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def _make(modules: Path, target: Path) -> bool:
    """The script and its code cache made into `target` (renamed into place)."""
    partial = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}")
    shutil.rmtree(partial, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="llmbench-node-share-") as scratch:
        work = Path(scratch)
        (work / ".llmbench-out").mkdir()  # where the harness notes; nothing is kept
        partial.mkdir(parents=True)
        env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": scratch,
            "LLMBENCH_NODE_MODULES": str(modules),
            "LLMBENCH_WORKSPACE": scratch,
            "LLMBENCH_NODE_SHARE": str(partial),
        }
        maker = str(HARNESS / "make-shared.mjs")
        flags = ["--disallow-code-generation-from-strings"]  # as the test processes run
        node = node_program()
        made = (
            _run([node, maker, "bundle", str(partial)], env, work)
            and _run([node, *flags, maker, "warm", str(partial)], env, work)
            and _run([node, maker, "warm", str(partial), FILES[2]], env, work)
        )
    if made and all((partial / name).is_file() for name in FILES):
        for name in FILES:
            (partial / name).chmod(0o644)
        partial.chmod(0o755)
        os.replace(partial, target)
        return True
    shutil.rmtree(partial, ignore_errors=True)
    return False


def shared(modules: Path) -> Path | None:
    """The folder holding the packages' script and code cache for `modules`, made on first
    use in this process or found from an earlier one; None where it cannot be made.
    Blocks while another process makes it."""
    folder = cache_folder()
    key = (str(folder), str(modules))
    with _lock:
        if key not in _made:
            _made[key] = None
            try:
                target = folder / _key(modules)
                folder.mkdir(parents=True, exist_ok=True)
                with open(folder / ".lock", "w") as lock:
                    fcntl.flock(lock, fcntl.LOCK_EX)
                    if target.is_dir() or _make(modules, target):
                        _made[key] = target
            except OSError:
                pass
        return _made[key]
