"""Python files through radon: per-function cyclomatic complexity (radon's count: 1 plus
each if/elif, for, while, except, with, assert, comprehension, boolean operator and
ternary), raw line counts, the maintainability index and Halstead figures.

As with ESLint, every function, method and closure is counted on its own and the file's
CI is their sum (radon already keeps a closure's branches out of its parent's figure).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import NotAnalysable
from .lizard_ci import FunctionCI


@dataclass(frozen=True)
class PythonFigures:
    functions: list[FunctionCI]
    nloc: int  # radon's sloc: lines with code
    maintainability: float  # radon's MI, 0-100, multi-line strings counted as comments
    halstead: dict[str, float]  # volume, difficulty, effort, bugs, of the whole file


def _flatten(blocks: list[Any]) -> list[FunctionCI]:
    found: list[FunctionCI] = []
    for block in blocks:
        # cc_visit lists methods beside their class as well, so classes are skipped.
        if not hasattr(block, "methods"):
            found.append(FunctionCI(block.name, block.lineno, block.complexity))
            found += _flatten(list(block.closures))
    return found


def python_figures(text: str) -> PythonFigures:
    from radon.complexity import cc_visit
    from radon.metrics import h_visit, mi_visit
    from radon.raw import analyze

    try:
        functions = _flatten(cc_visit(text))
        raw = analyze(text)
        maintainability = mi_visit(text, True)
        total = h_visit(text).total
    except SyntaxError as exc:
        raise NotAnalysable(f"Python syntax error on line {exc.lineno}: {exc.msg}") from None
    halstead = {
        "volume": round(total.volume, 2),
        "difficulty": round(total.difficulty, 2),
        "effort": round(total.effort, 2),
        "bugs": round(total.bugs, 4),
    }
    return PythonFigures(functions, raw.sloc, round(maintainability, 2), halstead)
