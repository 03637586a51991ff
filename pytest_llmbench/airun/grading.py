"""grading.csv files: one row per candidate answer x metric x evaluator model.

Columns are found by the header, since their order differs between files: metric
(accuracy|completeness), score (argmax grade 1-5), weighted_score (sum of k * p_k, 1-5),
is_confident, score_1..score_5 (grade probabilities; an empty cell is 0; a file lacks
those no row had), category (the scenario's published stem; in the oldest files the
category folder, with the stem in scenario_name), experiment (the category folder),
repository, scenario_id (a number per folder), model (the evaluator; absent in the
single-evaluator files of Output_v1). A file that records the candidate's run
(experiment_date, input_tokens) names the candidate in `model`, not an evaluator.

A row shorter than the header is padded with empty cells when only probability columns
are missing (what pandas read upstream). A short row that does not fit the header but
has exactly one probability, the score's, is read in the writer's own order (the four
grade columns, that probability, then the metadata columns) and listed as realigned.
A row that cannot be read is reported as `file:line: why` and left out; the rest of the
file is still read.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import RowError
from ..schema.vocabulary import METRICS

PUBLIC_GRADES = (1, 2, 3, 4, 5)  # the public grader's scale (our own judge grades 1-4)
REQUIRED = ("metric",)
PROBABILITIES = tuple(f"score_{k}" for k in PUBLIC_GRADES)
GRADE_COLUMNS = ("metric", "score", "weighted_score", "is_confident")
METADATA = ("category", "experiment", "repository", "scenario_id", "model")
RUN_COLUMNS = ("experiment_date", "input_tokens")  # the candidate's run: `model` is the candidate
UNNAMED = "unnamed evaluator"
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
    scenario_name: str = ""  # the oldest files' snake_case scenario name
    note: str | None = None  # how the row was read when not as the header says

    @property
    def published(self) -> float:
        """The published 0-4 figure of this grade: weighted - 1, rounded as upstream."""
        return round_half_even(self.weighted - 1)


def round_half_even(value: float, places: int = 2) -> float:
    """numpy's rounding, which upstream used: x scaled, rounded half to even, scaled back
    (round(x, 2) alone differs on binary fractions such as 3.365)."""
    scale = 10**places
    return float(round(value * scale) / scale)


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
    distribution: dict[str, float] = {}
    for column in PROBABILITIES:
        if column in columns:
            value = _number(cell(column), column) or 0.0
            if not 0.0 <= value <= 1.0 + 1e-6:
                raise RowError(f"{column} {value} is not a probability")
            distribution[column.removeprefix("score_")] = value
    total = sum(distribution.values())
    score_value = _number(cell("score"), "score")
    if score_value is None:
        if total <= 0:
            raise RowError("no score and no grade probabilities")
        score_value = float(max(PUBLIC_GRADES, key=lambda k: (distribution.get(str(k), 0.0), -k)))
    if score_value != int(score_value) or int(score_value) not in PUBLIC_GRADES:
        raise RowError(f"score {cell('score')!r} is not a grade 1-5")
    weighted = _number(cell("weighted_score"), "weighted_score")
    if weighted is None:
        weighted = (
            sum(int(k) * p for k, p in distribution.items()) / total if total > 0 else score_value
        )
    if not 1.0 - 1e-6 <= weighted <= 5.0 + 1e-6:
        raise RowError(f"weighted_score {weighted} is outside 1-5")
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
        evaluator=UNNAMED if any(c in columns for c in RUN_COLUMNS) else cell("model") or UNNAMED,
        scenario_name=cell("scenario_name"),
    )


def _fitted(record: list[str], columns: list[str]) -> tuple[list[str], list[str], str | None]:
    """The cells and the columns to read them by, and a note when realigned; RowError
    when a short row fits neither the header nor the writer's own order."""
    if len(record) == len(columns):
        return record, columns, None
    if len(record) > len(columns):
        raise RowError(f"{len(record)} cells, the header has {len(columns)}")
    missing = columns[len(record) :]
    if all(c in PROBABILITIES for c in missing):
        return record + [""] * len(missing), columns, None
    metadata = [c for c in columns if c in METADATA]
    if len(record) == len(GRADE_COLUMNS) + 1 + len(metadata):
        score = record[columns.index("score")].strip() if "score" in columns else ""
        if score.isdigit() and f"score_{score}" in columns:
            order = [*GRADE_COLUMNS, f"score_{score}", *metadata]
            note = f"{len(record)} cells fit not the header; read as {','.join(order)}"
            return record, order, note
    raise RowError(
        f"{len(record)} cells, the header has {len(columns)} and the missing "
        f"{', '.join(c for c in missing if c not in PROBABILITIES)} cannot be empty"
    )


def read_grading(path: Path) -> tuple[list[GradeRow], list[str]]:
    """The rows of one grading.csv, and a `file:line: why` line per row left out or read
    other than the header says."""
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
        try:
            cells, names, note = _fitted(record, columns)
            row = _row(dict(zip(names, cells, strict=True)), path, line, names)
        except RowError as exc:
            problems.append(f"{path}:{line}: {exc}")
            continue
        if note:
            row = replace(row, note=note)
            problems.append(f"{path}:{line}: {note}")
        rows.append(row)
    return rows, problems
