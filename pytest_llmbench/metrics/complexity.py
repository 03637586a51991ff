"""Complexity of a code base (method.md section 3): CI, LoC, NLOC, GCI and their buckets.

Counted like the public AIRUN analyzer (docs/airun.md, "Complexity"):
- CI: sum of per-unit cyclomatic complexity. JavaScript, TypeScript, JSX and TSX by
  ESLint's own `complexity` rule run through node (eslint_ci.py), over the files and units
  the analyzer counts (`*.test.*` files are not counted); where node or ESLint is missing,
  by lizard counting the ESLint way (lizard_ci.py). Vue <script> and Java by lizard_ci,
  Python by radon.
- LoC: physical lines as ESLint's `max-lines` counts them (blank and comment lines too; a
  final newline adds none), over the code base's source files, HTML included: method.md
  counts every source file, and the markup of an AngularJS or plain-script code base is
  much of its code. The public analyzer leaves HTML out only because its parser rejects
  it (scripts/verify-airun compares it on the JavaScript files); the CI of an HTML file
  is that of its inline <script> code, counted by lizard_ci.
  NLOC: lines with code (lizard's and radon's count; else the non-blank lines).
- GCI = CI / LoC.
Every file's figures, and the total, name the counter that produced them (`counter`).
A file that cannot be analysed is listed with the reason and left out of CI and LoC, so
it is never counted as a file of complexity 0.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import EslintBroken, NotAnalysable
from ..folders import keep
from ..formats.dataset import SourceFile
from . import eslint_ci
from .lizard_ci import FunctionCI, function_complexity
from .python_metrics import python_figures

# Bumped whenever the counting changes, so cached figures of an older count are not reused.
METHOD_VERSION = 6
LIZARD = "lizard"
RADON = "radon"
_LINE_BREAK = re.compile(r"\r\n|[\r\n\u2028\u2029]")
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
    counter: str = Field(
        default=LIZARD, description="what counted it: eslint <version>, lizard, radon"
    )


class Complexity(Figures):
    """A code base: totals over its analysed files, and every file."""

    ci: int
    loc: int
    nloc: int
    functions: int
    gci: float = Field(description="CI / LoC, rounded to 4 places")
    complexity: str = Field(description="GCI bucket: low <= 0.11 < avg <= 0.17 < high")
    size: str = Field(description="LoC bucket: low < 200 <= avg <= 500 < high")
    counter: str = Field(default="", description="the counters of its files, joined by ' + '")
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
    """The analysed language of a file, None for files outside the code base's figures
    (other kinds, and the `*.test.*` files of the ESLint languages, as the analyzer)."""
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in eslint_ci.SUFFIXES and not eslint_ci.counts(path):
        return None
    return LANGUAGES.get(suffix)


def physical_lines(text: str) -> int:
    """Lines as ESLint's `max-lines` counts them: a final line break adds none."""
    lines = _LINE_BREAK.split(text)
    return len(lines) - 1 if lines[-1] == "" else len(lines)


def _figures(functions: list[FunctionCI]) -> list[FunctionFigure]:
    return [FunctionFigure(name=f.name, line=f.line, ci=f.ci) for f in functions]


def measure_file(path: str, text: str) -> FileComplexity | None:
    """Figures of one file by lizard or radon; None when its kind is not part of a code
    base's figures. measure() counts JavaScript/TypeScript by ESLint where it can."""
    language = language_of(path)
    if language is None:
        return None
    loc = physical_lines(text)
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
                counter=RADON,
            )
        functions = function_complexity(path, text)
    except NotAnalysable as exc:
        counter = RADON if language == "python" else LIZARD
        return FileComplexity(
            path=path, language=language, loc=loc, error=str(exc), counter=counter
        )
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
        counter=" + ".join(sorted({f.counter for f in files})),
        files=files,
    )


def _by_eslint(files: list[SourceFile]) -> dict[int, FileComplexity] | None:
    """ESLint's figures of the files it counts, by their index; {} without ESLint, None
    when it failed (then lizard counts them, and those figures are not kept)."""
    counter = eslint_ci.counter()
    chosen = [
        (i, f) for i, f in enumerate(files) if language_of(f.path) and eslint_ci.counts(f.path)
    ]
    if counter is None or not chosen:
        return {}
    try:
        found = eslint_ci.measure_texts([(f.path, f.text) for _, f in chosen])
    except EslintBroken:
        return None
    out = {}
    for (index, file), figures in zip(chosen, found, strict=True):
        language = language_of(file.path) or "javascript"
        out[index] = FileComplexity(
            path=file.path,
            language=language,
            loc=figures.loc if figures.error is None else physical_lines(file.text),
            nloc=sum(1 for line in file.text.splitlines() if line.strip()),
            ci=sum(u.ci for u in figures.units),
            functions=[FunctionFigure(name=u.name, line=u.line, ci=u.ci) for u in figures.units],
            error=figures.error,
            counter=counter,
        )
    return out


class _Measured:
    """Each file's figures, by what counts it, its path and a digest of its text, for
    this process: the same files come again and again (a dataset's files in every answer
    that keeps them, the echo model's and each scenario's reference: docs/measurements.md).
    Frozen models, shared by their users; at most MAX files and MAX_UNITS units in all
    (an answer's file may hold thousands), the least recently used forgotten first."""

    MAX = 2048
    MAX_UNITS = 200_000

    def __init__(self) -> None:
        self._figures: OrderedDict[tuple[str, str, str], FileComplexity] = OrderedDict()
        self._units = 0
        self._lock = threading.Lock()

    @staticmethod
    def key(file: SourceFile) -> tuple[str, str, str]:
        text = hashlib.sha256(file.text.encode("utf-8", "surrogatepass")).hexdigest()
        return eslint_ci.counter() or LIZARD, file.path, text

    def get(self, key: tuple[str, str, str]) -> FileComplexity | None:
        with self._lock:
            figures = self._figures.get(key)
            if figures is not None:
                self._figures.move_to_end(key)
            return figures

    def keep(self, key: tuple[str, str, str], figures: FileComplexity) -> None:
        if len(figures.functions) > self.MAX_UNITS:
            return
        with self._lock:
            if key in self._figures:
                return
            self._figures[key] = figures
            self._units += len(figures.functions)
            while len(self._figures) > self.MAX or self._units > self.MAX_UNITS:
                _, dropped = self._figures.popitem(last=False)
                self._units -= len(dropped.functions)


_MEASURED = _Measured()


def measure_files(files: tuple[SourceFile, ...] | list[SourceFile]) -> list[FileComplexity]:
    """Figures of every file that is part of a code base's figures (one ESLint run for
    all its files not measured before in this process)."""
    counted = [(_Measured.key(f), f) for f in files if language_of(f.path)]
    known: dict[tuple[str, str, str], FileComplexity] = {}
    new: dict[tuple[str, str, str], SourceFile] = {}
    for key, file in counted:
        if (figures := _MEASURED.get(key)) is not None:
            known[key] = figures
        else:
            new.setdefault(key, file)
    eslint = _by_eslint(list(new.values()))
    for index, (key, file) in enumerate(new.items()):
        figures = (eslint or {}).get(index) or measure_file(file.path, file.text)
        assert figures is not None  # a file of the code base's languages has figures
        known[key] = figures
        if eslint is not None or not eslint_ci.counts(file.path):
            _MEASURED.keep(key, figures)
    return [known[key] for key, _ in counted]


def measure(files: tuple[SourceFile, ...] | list[SourceFile]) -> Complexity:
    return total(measure_files(files))


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

    eslint = (eslint_ci.counter() or "none").replace(" ", "")
    versions = f"m{METHOD_VERSION}-lizard{lizard.version}-radon{radon.__version__}-{eslint}"
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
    keep(cache_dir, target, json.dumps(figures.model_dump()))
    return figures
