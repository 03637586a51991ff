"""Complexity of a code base (method.md section 3): CI, LoC, GCI and their buckets.

CI is the sum of per-function cyclomatic complexity as lizard counts it; LoC is the
physical lines of the source files lizard can analyse plus HTML. GCI = CI / LoC.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import PurePosixPath

from ..formats.dataset import SourceFile

# Files lizard analyses, by extension; HTML counts towards LoC only.
_ANALYSED = {".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".vue", ".java", ".py"}
_LOC_ONLY = {".html", ".htm"}


@dataclass(frozen=True)
class Complexity:
    ci: int
    loc: int
    functions: int
    gci: float
    complexity: str  # low | avg | high
    size: str  # low | avg | high

    def as_dict(self) -> dict[str, float | str | int | None]:
        return asdict(self)


def size_bucket(loc: int) -> str:
    return "low" if loc < 200 else "avg" if loc <= 500 else "high"


def complexity_bucket(gci: float) -> str:
    return "low" if gci <= 0.11 else "avg" if gci <= 0.17 else "high"


def measure(files: tuple[SourceFile, ...]) -> Complexity:
    import lizard  # only needed when a dataset is measured

    ci = loc = functions = 0
    for f in files:
        suffix = PurePosixPath(f.path).suffix.lower()
        if suffix not in _ANALYSED and suffix not in _LOC_ONLY:
            continue
        loc += len(f.text.splitlines())
        if suffix in _ANALYSED:
            info = lizard.analyze_file.analyze_source_code(f.path, f.text)
            functions += len(info.function_list)
            ci += sum(fn.cyclomatic_complexity for fn in info.function_list)
    gci = ci / loc if loc else 0.0
    return Complexity(ci, loc, functions, round(gci, 4), complexity_bucket(gci), size_bucket(loc))
