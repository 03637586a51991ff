"""Datasets: `datasets/<language>/<Name>/` with its source files and a `dataset.yaml`.

dataset.yaml fields (docs/formats.md):
  technology   str, required   e.g. "React 15, class components, localStorage"
  description  str, required   one paragraph on what the code base does
  exclude      list[str]       glob patterns of files not to inline (default: none)

Bounds and rules of the files (docs/formats.md, "Datasets"):
- every file, symbolic links followed, resolves inside the dataset's folder; a link that
  leads outside it (or nowhere) is an error naming the link; a link to a folder inside
  the dataset is skipped (its files are read where they are);
- a file with a NUL byte in its first 8000 bytes is binary (as git decides) and never
  inlined; any other file is text: UTF-8, or else read as Latin-1 (each byte one
  character, nothing dropped) and listed in `Dataset.latin1`;
- a text file may hold at most MAX_FILE_BYTES and the text files together at most
  MAX_DATASET_BYTES; more is an error naming the file (exclude it in dataset.yaml).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ..errors import FormatError
from .paths import inside
from .validation import load_model

MANIFEST = "dataset.yaml"
MAX_FILE_BYTES = 512 * 1024
MAX_DATASET_BYTES = 2 * 1024 * 1024  # about 500k tokens, more than a model's context
_SNIFF_BYTES = 8000
# Files that are never part of the code a model sees.
_ALWAYS_SKIPPED = (MANIFEST, ".DS_Store", "*.pyc", "package-lock.json", "yarn.lock")


class DatasetManifest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    technology: str
    description: str
    exclude: list[str] = []


@dataclass(frozen=True)
class SourceFile:
    path: str  # relative to the dataset root, with forward slashes
    text: str


@dataclass(frozen=True)
class Dataset:
    name: str
    language: str
    root: Path
    technology: str
    description: str
    files: tuple[SourceFile, ...] = field(repr=False)
    latin1: tuple[str, ...] = ()  # files that are not UTF-8, read as Latin-1

    @property
    def content_hash(self) -> str:
        digest = hashlib.sha256()
        for f in self.files:
            digest.update(f.path.encode() + b"\0" + f.text.encode() + b"\0")
        return digest.hexdigest()[:16]


def _walk(root: Path) -> list[tuple[str, Path]]:
    """(relative path, file) of every regular file, links checked, in path order."""
    return sorted(_files(root), key=lambda found: found[0].split("/"))


def _files(root: Path) -> Iterator[tuple[str, Path]]:
    for folder, dirs, names in os.walk(root):
        here = Path(folder)
        dirs.sort()
        for name in list(dirs):
            if (here / name).is_symlink():
                dirs.remove(name)
                _inside(root, here / name)  # a folder link inside the dataset is skipped
        for name in sorted(names):
            path = here / name
            target = _inside(root, path) if path.is_symlink() else path
            if target.is_file():  # not a FIFO, socket or device
                yield path.relative_to(root).as_posix(), target


def _inside(root: Path, path: Path) -> Path:
    target, why = inside(root, path)
    if target is None:
        raise FormatError(
            path, "", f"is a symbolic link that {why}; a dataset may only link inside itself"
        )
    if not target.exists():
        raise FormatError(path, "", "is a symbolic link to nothing")
    return target


def _read_source(path: Path, shown: Path) -> tuple[str | None, bool]:
    """(text, read as Latin-1), or (None, False) for a binary file."""
    try:
        return _read_bytes(path, shown)
    except OSError as exc:
        raise FormatError(shown, "", f"cannot be read ({exc.strerror or exc})") from None


def _read_bytes(path: Path, shown: Path) -> tuple[str | None, bool]:
    with path.open("rb") as handle:
        head = handle.read(_SNIFF_BYTES)
        if b"\0" in head:
            return None, False
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise FormatError(
                shown,
                "",
                f"has {size} bytes; a dataset file may have at most "
                f"{MAX_FILE_BYTES} (list it under exclude: in dataset.yaml to leave it out)",
            )
        data = head + handle.read()
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("latin-1"), True


def load_dataset(root: Path) -> Dataset:
    """Load one dataset folder; raise FormatError naming the file and field on any problem."""
    manifest_path = root / MANIFEST
    if not manifest_path.is_file():
        raise FormatError(manifest_path, "", "missing; every dataset folder needs a dataset.yaml")
    if manifest_path.is_symlink():
        _inside(root, manifest_path)
    manifest = load_model(manifest_path, DatasetManifest, "technology and description")
    files: list[SourceFile] = []
    latin1: list[str] = []
    total = 0
    for rel, path in _walk(root):
        name = rel.rsplit("/", 1)[-1]
        if any(fnmatch(name, pat) for pat in _ALWAYS_SKIPPED):
            continue
        if any(fnmatch(rel, pat) for pat in manifest.exclude):
            continue
        text, is_latin1 = _read_source(path, root / rel)
        if text is None:
            continue  # binary files (images, fonts) are not inlined into prompts
        total += len(text.encode())
        if total > MAX_DATASET_BYTES:
            raise FormatError(
                root / rel,
                "",
                f"brings the dataset's text over {MAX_DATASET_BYTES} bytes, the most a "
                "dataset may have (list files under exclude: in dataset.yaml)",
            )
        files.append(SourceFile(rel, text))
        if is_latin1:
            latin1.append(rel)
    if not files:
        raise FormatError(root, "", "holds no source files besides dataset.yaml")
    return Dataset(
        name=root.name,
        language=root.parent.name,
        root=root,
        technology=manifest.technology,
        description=manifest.description,
        files=tuple(files),
        latin1=tuple(latin1),
    )


class DatasetIndex:
    """Finds datasets by name under a `datasets/` root and loads each one once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._loaded: dict[Path, Dataset] = {}

    def folders(self) -> dict[str, list[Path]]:
        found: dict[str, list[Path]] = {}
        if self.root.is_dir():
            for manifest in sorted(self.root.glob(f"*/*/{MANIFEST}")):
                found.setdefault(manifest.parent.name, []).append(manifest.parent)
        return found

    def get(self, ref: str, *, referrer: Path, field_name: str) -> Dataset:
        """Resolve `Name` or `language/Name` as written in a scenario file."""
        parts = ref.split("/")
        if len(parts) > 2 or any(p in ("", ".", "..") or "\\" in p for p in parts):
            raise FormatError(
                referrer, field_name, f"{ref!r} is not a dataset name; write Name or language/Name"
            )
        if "/" in ref:
            candidates = [self.root / ref] if (self.root / ref / MANIFEST).is_file() else []
        else:
            candidates = self.folders().get(ref, [])
        if not candidates:
            known = ", ".join(sorted(self.folders())) or "none"
            raise FormatError(
                referrer,
                field_name,
                f"dataset {ref!r} not found under {self.root} (known: {known})",
            )
        if len(candidates) > 1:
            langs = ", ".join(c.parent.name + "/" + ref for c in candidates)
            raise FormatError(
                referrer, field_name, f"dataset {ref!r} is ambiguous; write one of {langs}"
            )
        folder = candidates[0]
        _, why = inside(self.root, folder)
        if why is not None:
            raise FormatError(referrer, field_name, f"dataset {ref!r} {why}")
        if folder not in self._loaded:
            self._loaded[folder] = load_dataset(folder)
        return self._loaded[folder]
