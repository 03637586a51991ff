"""summary.csv files: the published figures, one row per published answer file.

Columns, found by the header: Experiment (an old grouping), Type (the category folder;
absent in Output_v1), Category (the scenario), Language, Models, Dataset, Complexity,
Size (may carry a variant: `avg_2`), Attempt, Input, Reasons, Output (tokens), Time
(seconds), Accuracy and Completeness (the published 0-4 figures, the mean of the
evaluator cells), and `Accuracy_<evaluator>` / `Completeness_<evaluator>` (each
evaluator's 0-4 figure). A row's scenario stem is Category, Dataset, Complexity and Size
joined by `_`, without parts that are `none` (the published stem, old dataset names).

A few cells were edited by hand. An evaluator cell written `OLD->NEW` records its own
correction: NEW is the published figure (and is read as such); other edits leave no
trace in the file (docs/airun.md lists them).
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..schema.vocabulary import METRICS

_CORRECTED = re.compile(r"^\s*(?P<old>[-\d.]+)\s*->\s*(?P<new>[-\d.]+)\s*$")
_STEM_PARTS = ("category", "dataset", "complexity", "size")


@dataclass(frozen=True)
class Cell:
    value: float
    corrected_from: float | None = None


@dataclass
class SummaryRow:
    file: Path
    line: int
    folder: str  # Type: the category folder ("" when the file has none)
    stem: str
    attempt: int
    output_tokens: int | None
    seconds: float | None
    figures: dict[str, float | None] = field(default_factory=dict)  # metric -> published
    cells: dict[tuple[str, str], Cell] = field(default_factory=dict)  # (metric, evaluator)

    @property
    def rate(self) -> float | None:
        """Published output tokens per second (upstream's generation rate)."""
        if self.output_tokens and self.seconds:
            return self.output_tokens / self.seconds
        return None


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _cell(text: str) -> Cell | None:
    text = text.strip()
    corrected = _CORRECTED.match(text)
    if corrected:
        new, old = _number(corrected.group("new")), _number(corrected.group("old"))
        return Cell(new, old) if new is not None else None
    value = _number(text) if text else None
    return Cell(value) if value is not None else None


def read_summary(path: Path) -> tuple[list[SummaryRow], list[str]]:
    """The rows of one summary.csv, and a `file:line: why` line per odd cell."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        return [], [f"{path}: cannot be read ({exc})"]
    reader = csv.reader(io.StringIO(text, newline=""))
    header = [h.strip() for h in next(reader, [])]
    lower = [h.lower() for h in header]
    if "category" not in lower or "attempt" not in lower:
        return [], [f"{path}:1: header has no Category and Attempt columns"]
    rows: list[SummaryRow] = []
    problems: list[str] = []
    for record in reader:
        if not any(c.strip() for c in record):
            continue
        cells = dict(zip(lower, (c.strip() for c in record), strict=False))
        line = reader.line_num
        parts = [cells.get(p, "") for p in _STEM_PARTS]
        tokens = _number(cells.get("output", ""))
        row = SummaryRow(
            file=path,
            line=line,
            folder=cells.get("type", ""),
            stem="_".join(p for p in parts if p and p.lower() != "none"),
            attempt=int(_number(cells.get("attempt", "")) or 1),
            output_tokens=int(tokens) if tokens is not None else None,
            seconds=_number(cells.get("time", "")),
        )
        for name, value in zip(header, record, strict=False):
            metric, _, evaluator = name.lower().partition("_")
            if metric not in METRICS:
                continue
            cell = _cell(value)
            if not evaluator:
                row.figures[metric] = cell.value if cell else None
            elif cell is not None:
                row.cells[(metric, name.partition("_")[2])] = cell
                if cell.corrected_from is not None:
                    problems.append(
                        f"{path}:{line}: {name} corrected by hand from {cell.corrected_from} "
                        f"to {cell.value}; {cell.value} is read"
                    )
            elif value.strip():
                problems.append(f"{path}:{line}: {name} {value.strip()!r} is not a number")
        rows.append(row)
    return rows, problems
