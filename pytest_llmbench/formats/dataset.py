"""Datasets: `datasets/<language>/<Name>/` with its source files and a `dataset.yaml`.

dataset.yaml fields (docs/formats.md):
  technology   str, required   e.g. "React 15, class components, localStorage"
  description  str, required   one paragraph on what the code base does
  exclude      list[str]       glob patterns of files not to inline (default: none)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ..errors import FormatError
from .validation import load_model

MANIFEST = "dataset.yaml"
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

    @property
    def content_hash(self) -> str:
        digest = hashlib.sha256()
        for f in self.files:
            digest.update(f.path.encode() + b"\0" + f.text.encode() + b"\0")
        return digest.hexdigest()[:16]


def load_dataset(root: Path) -> Dataset:
    """Load one dataset folder; raise FormatError naming the file and field on any problem."""
    manifest_path = root / MANIFEST
    if not manifest_path.is_file():
        raise FormatError(manifest_path, "", "missing; every dataset folder needs a dataset.yaml")
    manifest = load_model(manifest_path, DatasetManifest, "technology and description")
    files: list[SourceFile] = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        if any(fnmatch(path.name, pat) for pat in _ALWAYS_SKIPPED):
            continue
        if any(fnmatch(rel, pat) for pat in manifest.exclude):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary files (images, fonts) are not inlined into prompts
        files.append(SourceFile(rel, text))
    if not files:
        raise FormatError(root, "", "holds no source files besides dataset.yaml")
    return Dataset(
        name=root.name,
        language=root.parent.name,
        root=root,
        technology=manifest.technology,
        description=manifest.description,
        files=tuple(files),
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
        if folder not in self._loaded:
            self._loaded[folder] = load_dataset(folder)
        return self._loaded[folder]
