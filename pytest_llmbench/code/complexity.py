"""Complexity of a code base (method.md section 3): CI, LoC, NLOC, GCI and their buckets.

- CI: sum of per-function cyclomatic complexity; JavaScript, TypeScript, JSX, TSX, Vue,
  inline <script> of HTML and Java counted the ESLint way (lizard_ci.py), Python by radon.
- LoC: physical lines of the analysed files plus HTML (markup counts towards LoC).
  NLOC: lines with code (lizard's and radon's count; for markup, the non-blank lines).
- GCI = CI / LoC.
A file that cannot be analysed is listed with the reason and left out of CI and LoC, so
it is never counted as a file of complexity 0.
"""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..folders import own_folder
from ..formats.dataset import SourceFile
from .lizard_ci import FunctionCI, NotAnalysable, function_complexity
from .python_metrics import python_figures

# Bumped whenever the counting changes, so cached figures of an older count are not reused.
METHOD_VERSION = 4
LANGUAGES = {
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "jsx",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".vue": "vue",
    ".java": "java",
    ".py": "python",
    ".html": "html",
    ".htm": "html",
}


class Figures(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FunctionFigure(Figures):
    name: str
    line: int
    ci: int


class FileComplexity(Figures):
    """One source file."""

    path: str
    language: str
    loc: int = Field(description="physical lines")
    nloc: int = Field(default=0, description="lines with code")
    ci: int = 0
    functions: list[FunctionFigure] = []
    maintainability: float | None = Field(default=None, description="radon MI (Python only)")
    halstead: dict[str, float] | None = Field(default=None, description="radon (Python only)")
    error: str | None = Field(default=None, description="why the file could not be analysed")


class Complexity(Figures):
    """A code base: totals over its analysed files, and every file."""

    ci: int
    loc: int
    nloc: int
    functions: int
    gci: float = Field(description="CI / LoC, rounded to 4 places")
    complexity: str = Field(description="GCI bucket: low <= 0.11 < avg <= 0.17 < high")
    size: str = Field(description="LoC bucket: low < 200 <= avg <= 500 < high")
    files: list[FileComplexity] = []

    @property
    def unanalysed(self) -> list[FileComplexity]:
        return [f for f in self.files if f.error is not None]

    def as_dict(self) -> dict[str, float | str | int | None]:
        """The totals, as an item result carries them."""
        return self.model_dump(exclude={"files"})


def size_bucket(loc: int) -> str:
    return "low" if loc < 200 else "avg" if loc <= 500 else "high"


def complexity_bucket(gci: float) -> str:
    return "low" if gci <= 0.11 else "avg" if gci <= 0.17 else "high"


def language_of(path: str) -> str | None:
    """The analysed language of a file, None for files outside the code base's figures."""
    return LANGUAGES.get(PurePosixPath(path).suffix.lower())


def _figures(functions: list[FunctionCI]) -> list[FunctionFigure]:
    return [FunctionFigure(name=f.name, line=f.line, ci=f.ci) for f in functions]


def measure_file(path: str, text: str) -> FileComplexity | None:
    """Figures of one file; None when its kind is not part of a code base's figures."""
    language = language_of(path)
    if language is None:
        return None
    loc = len(text.splitlines())
    nloc = sum(1 for line in text.splitlines() if line.strip())
    try:
        if language == "python":
            py = python_figures(text)
            return FileComplexity(
                path=path,
                language=language,
                loc=loc,
                nloc=py.nloc,
                ci=sum(f.ci for f in py.functions),
                functions=_figures(py.functions),
                maintainability=py.maintainability,
                halstead=py.halstead,
            )
        functions = function_complexity(path, text)
    except NotAnalysable as exc:
        return FileComplexity(path=path, language=language, loc=loc, error=str(exc))
    return FileComplexity(
        path=path,
        language=language,
        loc=loc,
        nloc=nloc,
        ci=sum(f.ci for f in functions),
        functions=_figures(functions),
    )


def total(files: list[FileComplexity]) -> Complexity:
    analysed = [f for f in files if f.error is None]
    ci = sum(f.ci for f in analysed)
    loc = sum(f.loc for f in analysed)
    gci = ci / loc if loc else 0.0
    return Complexity(
        ci=ci,
        loc=loc,
        nloc=sum(f.nloc for f in analysed),
        functions=sum(len(f.functions) for f in analysed),
        gci=round(gci, 4),
        complexity=complexity_bucket(gci),
        size=size_bucket(loc),
        files=files,
    )


def measure(files: tuple[SourceFile, ...] | list[SourceFile]) -> Complexity:
    measured = [measure_file(f.path, f.text) for f in files]
    return total([m for m in measured if m is not None])


def measure_paths(paths: list[Path]) -> Complexity:
    """Files and folders (walked, hidden folders and node_modules skipped) from disk."""
    found: list[SourceFile] = []
    for path in paths:
        if path.is_dir():
            for file in sorted(path.rglob("*")):
                parts = file.relative_to(path).parts
                if any(p.startswith(".") or p == "node_modules" for p in parts):
                    continue
                if file.is_file() and language_of(file.name):
                    found.append(SourceFile(file.as_posix(), file.read_text(errors="replace")))
        elif path.is_file():
            found.append(SourceFile(path.as_posix(), path.read_text(errors="replace")))
    return measure(found)


def _cache_file(cache_dir: Path, content_hash: str) -> Path:
    import lizard
    import radon

    versions = f"m{METHOD_VERSION}-lizard{lizard.version}-radon{radon.__version__}"
    return cache_dir / "complexity" / f"{content_hash}-{versions}.json"


def cached_measure(
    files: tuple[SourceFile, ...], content_hash: str, cache_dir: Path | None
) -> Complexity:
    """measure(), kept on disk under cache_dir by content hash and analyser versions.

    An unreadable or stale cache file is measured again and rewritten; a cache dir that
    cannot be written only costs the time of measuring again.
    """
    if cache_dir is None:
        return measure(files)
    target = _cache_file(cache_dir, content_hash)
    if target.is_file():
        try:
            return Complexity.model_validate_json(target.read_text(encoding="utf-8"))
        except (ValidationError, ValueError, OSError):
            pass
    figures = measure(files)
    try:
        own_folder(cache_dir)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(figures.model_dump()), encoding="utf-8")
        tmp.replace(target)
    except OSError:
        pass
    return figures
