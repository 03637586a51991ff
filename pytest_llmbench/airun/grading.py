"""grading.csv files: one row per candidate answer x metric x evaluator model.

Columns are found by the header, since their order differs between files: metric
(accuracy|completeness), score (argmax grade), weighted_score, is_confident,
score_1..score_5 (grade probabilities; an empty cell is 0), category, experiment,
repository, scenario_id, model (the evaluator). A row that cannot be read is reported
as `file:line: why` and left out; the rest of the file is still read.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path

from ..judging.parsing import GRADES
from ..schema.vocabulary import METRICS

REQUIRED = ("metric", "scenario_id", "model")
PROBABILITIES = tuple(f"score_{k}" for k in range(1, 6))
_TRUE = {"true", "1", "yes", "y"}
_FALSE = {"false", "0", "no", "n"}


@dataclass(frozen=True)
class GradeRow:
    file: Path
    line: int
    metric: str
    score: int
    weighted: float
    confident: bool
    distribution: dict[str, float]  # "1".."5" as published (5 only when the file has it)
    category: str
    experiment: str
    repository: str
    scenario_id: str
    evaluator: str

    def key(self) -> tuple[str, ...]:
        return (
            self.experiment,
            self.category,
            self.scenario_id,
            self.repository,
            self.metric,
            self.evaluator,
        )

    def values(self) -> tuple[object, ...]:
        return (self.score, self.weighted, self.confident, tuple(sorted(self.distribution.items())))


class RowError(ValueError):
    """Why one row cannot be used."""


def _number(cell: str, column: str) -> float | None:
    text = cell.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise RowError(f"{column} {text!r} is not a number") from None
    if not math.isfinite(value):
        raise RowError(f"{column} {text!r} is not a finite number")
    return value


def _row(cells: dict[str, str], file: Path, line: int, columns: list[str]) -> GradeRow:
    def cell(name: str) -> str:
        return (cells.get(name) or "").strip()

    missing = [name for name in REQUIRED if not cell(name)]
    if missing:
        raise RowError(f"empty {', '.join(missing)}")
    metric = cell("metric").lower()
    if metric not in METRICS:
        raise RowError(f"metric {cell('metric')!r} is not accuracy or completeness")
    distribution = {}
    for column in PROBABILITIES:
        if column in columns:
            value = _number(cell(column), column) or 0.0
            if not 0.0 <= value <= 1.0 + 1e-6:
                raise RowError(f"{column} {value} is not a probability")
            distribution[column.removeprefix("score_")] = value
    total = sum(p for k, p in distribution.items() if int(k) in GRADES)
    score_value = _number(cell("score"), "score")
    if score_value is None:
        if total <= 0:
            raise RowError("no score and no grade probabilities")
        score_value = float(max(GRADES, key=lambda k: (distribution.get(str(k), 0.0), -k)))
    if score_value != int(score_value) or int(score_value) not in GRADES:
        raise RowError(f"score {cell('score')!r} is not a grade 1-4")
    weighted = _number(cell("weighted_score"), "weighted_score")
    if weighted is None:
        weighted = (
            sum(int(k) * p for k, p in distribution.items() if int(k) in GRADES) / total
            if total > 0
            else score_value
        )
    if not 1.0 - 1e-6 <= weighted <= 4.0 + 1e-6:
        raise RowError(f"weighted_score {weighted} is outside 1-4")
    flag = cell("is_confident").lower()
    if flag in _TRUE or flag in _FALSE:
        confident = flag in _TRUE
    elif not flag:
        confident = max(distribution.values(), default=0.0) > 0.9
    else:
        raise RowError(f"is_confident {cell('is_confident')!r} is not true or false")
    return GradeRow(
        file=file,
        line=line,
        metric=metric,
        score=int(score_value),
        weighted=weighted,
        confident=confident,
        distribution=distribution,
        category=cell("category"),
        experiment=cell("experiment"),
        repository=cell("repository"),
        scenario_id=cell("scenario_id"),
        evaluator=cell("model"),
    )


def read_grading(path: Path) -> tuple[list[GradeRow], list[str]]:
    """The rows of one grading.csv, and a `file:line: why` line per row left out."""
    problems: list[str] = []
    rows: list[GradeRow] = []
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        return [], [f"{path}: cannot be read ({exc})"]
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    if header is None:
        return [], [f"{path}: empty file"]
    columns = [h.strip().lower() for h in header]
    absent = [c for c in REQUIRED if c not in columns]
    if absent:
        return [], [f"{path}:1: header has no {', '.join(absent)} column"]
    for record in reader:
        line = reader.line_num
        if not any(c.strip() for c in record):
            continue
        if len(record) != len(columns):
            problems.append(f"{path}:{line}: {len(record)} cells, the header has {len(columns)}")
            continue
        try:
            rows.append(_row(dict(zip(columns, record, strict=True)), path, line, columns))
        except RowError as exc:
            problems.append(f"{path}:{line}: {exc}")
    return rows, problems
