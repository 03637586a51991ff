"""The app bundles of node's hidden-test runs, cached by content (issue 27, point 3): an
answer given again (another attempt, another scenario on the same dataset, a later
session) gets the bundles made for its files instead of building them again.

- What a bundle depends on is the run's salt: our build code (harness/bundler.mjs,
  angular.mjs), the packages (node_modules' lock file and esbuild's version) and every
  file of the workspace but the hidden tests and the reports. Each salt has a folder in
  the cache ($LLMBENCH_BUNDLE_CACHE, else the user's cache folder, then
  pytest-llmbench/node-bundles), holding one `<key>.js` per build request (key: the
  SHA-256 of the request's spec, bundler.mjs), or an empty `<key>.none` where the
  request does not build from these files.
- A bundle is made only by the step before a run (harness/prebuild.mjs): our build code
  in the sandbox, which reads the answer's files and runs none of them; it is written
  into the cache by this module, never by a run. A run is shown its own salt's folder
  alone, read-only (the sandbox's `reads`): it can neither write the cache nor see the
  bundles of other answers.
- Which builds to make is learnt: each run notes the requests its tests made
  (.llmbench-out/bundles.jsonl, written where the answer's code runs, so read as
  hostile: bounded, checked, only ever a request for our build code, and not learnt from
  a run whose code was seen reaching for Node; a forged request can cost a later run
  build time, never its verdict: a bundle is found only by the request that made it,
  built from that run's own files); runs of hidden
  tests with the same support files (tests_key) make those before they start, in this
  session and later ones (the cache keeps them). Until such tests have run once, their
  runs build in their own process, as every run did before, and cache nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from ..folders import user_cache_folder, write_whole
from .outcome import read_lines
from .workspace import HARNESS, HIDDEN, OUT

RECIPE = 1  # bump when what a bundle depends on changes outside the files hashed here
CACHE_ENV = "LLMBENCH_BUNDLE_CACHE"
BUILD_CODE = ("bundler.mjs", "angular.mjs")
ASKED = "bundles.jsonl"  # in OUT: the requests a run made (harness.mjs)
SPECS = "bundle-specs.json"  # in OUT: the requests the step before the run builds
PREBUILT = "prebuilt"  # in OUT: the step's bundles, until they are stored
MAX_SPECS = 8  # requests learnt per tests_key (the latest)
MAX_SPEC_CHARS = 64_000
MAX_BUNDLE_BYTES = 64_000_000
SPECS_FOLDER = "requests"  # in the cache: the learnt requests, one file per tests_key
KEEP = 100  # salts' folders kept in the cache; the least recently stored go first


def cache_folder() -> Path:
    """$LLMBENCH_BUNDLE_CACHE, else the user's cache folder's pytest-llmbench/node-bundles."""
    return user_cache_folder("node-bundles", CACHE_ENV)


def _files(root: Path, skip: tuple[str, ...] = ()) -> Iterator[Path]:
    """The regular files under `root` (links not followed), sorted, but for the top-level
    entries named in `skip`."""
    for folder, dirs, files in os.walk(root, followlinks=False):
        base = Path(folder)
        dirs[:] = sorted(d for d in dirs if not (base == root and d in skip))
        for name in sorted(files):
            path = base / name
            if stat.S_ISREG(path.lstat().st_mode) and not (base == root and name in skip):
                yield path


def _stamp(path: Path) -> str:
    try:
        info = path.stat()
    except OSError:
        return f"{path}:missing"
    return f"{path}:{info.st_size}:{info.st_mtime_ns}"


def salt(workspace: Path, modules: Path) -> str:
    """What every bundle of this workspace depends on, as a hex digest."""
    digest = hashlib.sha256(f"recipe {RECIPE}\n".encode())
    for name in BUILD_CODE:
        digest.update(b"\0code\0" + name.encode() + b"\0" + (HARNESS / name).read_bytes())
    for package in (modules / ".package-lock.json", modules / "esbuild" / "package.json"):
        digest.update(b"\0packages\0" + _stamp(package).encode())
    # esbuild names the packages' modules by their path from the workspace
    digest.update(b"\0from\0" + os.path.relpath(modules, workspace.resolve()).encode())
    for path in _files(workspace, (HIDDEN, OUT)):
        relative = path.relative_to(workspace).as_posix()
        content = hashlib.sha256(path.read_bytes()).hexdigest()
        digest.update(
            b"\0file\0" + relative.encode(errors="surrogateescape") + b"\0" + content.encode()
        )
    return digest.hexdigest()


def key(spec: str) -> str:
    """The name a request's bundle is stored under (bundler.mjs, bundleKey)."""
    return hashlib.sha256(spec.encode("utf-8")).hexdigest()


def tests_key(hidden: Path) -> str:
    """Which hidden tests a run has, for learning their requests: the support files (the
    test files themselves carry this run's canaries) and the test files' names."""
    digest = hashlib.sha256()
    for path in _files(hidden):
        relative = path.relative_to(hidden).as_posix()
        content = b"" if path.name.endswith(".test.mjs") else path.read_bytes()
        digest.update(relative.encode(errors="surrogateescape") + b"\0" + content + b"\0")
    return digest.hexdigest()


def is_spec(spec: object) -> bool:
    """A request as bundler.mjs writes one: [entry, source, loader, angular], entry or
    source a string and the other null; bounded."""
    if not isinstance(spec, str) or len(spec) > MAX_SPEC_CHARS:
        return False
    try:
        spec.encode("utf-8")
        parts = json.loads(spec)
    except (ValueError, UnicodeError):
        return False
    if not isinstance(parts, list) or len(parts) != 4:
        return False
    entry, source, loader, angular = parts
    texts = [p for p in (entry, source) if isinstance(p, str)]
    return (
        len(texts) == 1
        and None in (entry, source)
        and isinstance(loader, str)
        and isinstance(angular, bool)
    )


class Learnt:
    """The requests runs made, per tests_key (the latest MAX_SPECS): kept in this process
    and in the cache's SPECS_FOLDER (written by this module alone), so a later session
    makes them before its first run."""

    def __init__(self) -> None:
        self._specs: dict[Path, list[str]] = {}  # by their file in the cache
        self._lock = threading.Lock()

    def specs(self, tests: str) -> list[str]:
        path = cache_folder() / SPECS_FOLDER / f"{tests}.json"
        with self._lock:
            if path not in self._specs:
                self._specs[path] = _read_specs(path)
            return list(self._specs[path])

    def learn(self, tests: str, asked: Path) -> None:
        """Add the requests a run noted (its ASKED file, read bounded; a line that is no
        request is ignored)."""
        found: list[str] = []
        for line in read_lines(asked, MAX_SPEC_CHARS * MAX_SPECS, 100):
            try:
                spec = json.loads(line)["spec"]
            except (ValueError, KeyError, TypeError):
                continue
            if is_spec(spec) and spec not in found:
                found.append(spec)
        known = self.specs(tests)
        if not found or all(spec in known for spec in found):
            return
        path = cache_folder() / SPECS_FOLDER / f"{tests}.json"
        with self._lock:
            kept = [s for s in self._specs.get(path, []) if s not in found] + found
            self._specs[path] = kept[-MAX_SPECS:]
            _write_specs(path, self._specs[path])


def _read_specs(path: Path) -> list[str]:
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [s for s in found if is_spec(s)][-MAX_SPECS:] if isinstance(found, list) else []


def _write_specs(path: Path, specs: list[str]) -> None:
    try:
        write_whole(path, json.dumps(specs))
    except OSError:
        pass


LEARNT = Learnt()


def made(folder: Path, spec: str) -> bool:
    """Whether the step before a run made `spec` for the salt's `folder`: its bundle, or
    its `.none` mark (it does not build, or it read more than the answer's files)."""
    return any((folder / f"{key(spec)}{suffix}").is_file() for suffix in (".js", ".none"))


def store(made: Path, folder: Path) -> int:
    """Copy the step's bundles and marks (`<key>.js`, `<key>.none` regular files, bounded)
    from `made` into the salt's `folder`, each written under a temporary name and renamed;
    how many."""
    stored = 0
    try:
        candidates = sorted(made.iterdir()) if made.is_dir() and not made.is_symlink() else []
    except OSError:
        return 0
    for path in candidates:
        name = path.name
        if name[64:] not in (".js", ".none") or not _is_hex(name[:64]):
            continue
        try:
            info = path.lstat()
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BUNDLE_BYTES:
                continue
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".", delete=False) as partial:
                with path.open("rb") as source:
                    shutil.copyfileobj(source, partial)
            os.chmod(partial.name, 0o644)
            os.replace(partial.name, folder / name)
            stored += 1
        except OSError:
            continue
    return stored


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def prune(root: Path, keep: int = KEEP) -> None:
    """Remove all but the `keep` salts' folders stored into last."""
    try:
        folders = [
            p
            for p in root.iterdir()
            if p.is_dir() and not p.is_symlink() and p.name != SPECS_FOLDER
        ]
        folders.sort(key=lambda p: p.stat().st_mtime_ns, reverse=True)
    except OSError:
        return
    for old in folders[keep:]:
        shutil.rmtree(old, ignore_errors=True)
