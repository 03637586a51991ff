"""`llmbench import-airun-grades`: published grades of a results clone as item results.

Identities (docs/airun.md has the whole account, from the real files):
- the candidate model is the folder below `Output/` or `Output_v1/` on the grading.csv's
  path; the folder below it (`JS`, `JS_Error_cases`) is kept apart (`lang`);
- the evaluator is the csv's `model` column (grading.UNNAMED in the single-evaluator
  files of Output_v1); the grader that turned the evaluator's report into the grade is
  not recorded, so grades carry `grader: "published"`;
- a published set is `<Output folder>/<lang folder>` (`Output/JS`, `Output_v1/JS`, ...):
  a version of the benchmark with its own criteria and its own summary.csv files, so
  each gets a leaderboard of its own (published.by_set) and no row mixes two;
- an item is candidate x lang x experiment (category folder) x scenario stem x run. A
  stem graded from d run folders has d*d rows per metric and evaluator (upstream graded
  every folder for each of its d summary rows, and the k-th summary row kept the last
  row of the k-th block of d): it becomes d items, the k-th from that row. Other
  repeated rows keep the last (what the summary reflects) and are counted as dropped.

Scales: a grade keeps the public 1-5 `score`, `weighted` and distribution as published,
and `published` = round(weighted - 1, 2), the 0-4 figure of summary.csv. An item's
accuracy and completeness are on that published 0-4 scale: the mean of its evaluators'
figures, rounded as upstream. (Our own judge grades 1-4; this import does not mix.)
summary.csv beside the grading.csv gives each item its generation rate (Output / Time)
and hand corrections written `OLD->NEW`; a published row without grading rows becomes an
item with the published figures (or unscored, when it has none).

Evaluator reports `<stem>_<evaluator>_<metric>.md` (or `<stem>[_report_N]_<metric>.md`
of the single evaluator) in `<lang>/<experiment>/<run>/<stem>/` (or `<lang>/<stem>/`)
are attached to the item of that candidate, lang, stem and run folder.
"""

from __future__ import annotations

import csv
import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean

from ..errors import ReportParseError
from ..judging.formulas import quality
from ..judging.parsing import ParsedStep, normalise, parse_evaluator_reply
from ..judging.scoring import majority, weighted_rate
from ..judging.statistics import judge_agreement
from ..schema.results import (
    AttemptResult,
    Grade,
    ItemResult,
    JudgeReport,
    MetricResult,
    StepResult,
    Verdict,
)
from ..schema.vocabulary import METRICS, Metric
from .answers import REPORT_NAME
from .criteria import CRITERIA_SETS, read_criteria
from .grading import UNNAMED, GradeRow, read_grading, round_half_even
from .names import map_category
from .published import node_id, output_parts
from .summary import SummaryRow, read_summary

GRADER = "published"
_HEADING = re.compile(r"^#+\s*(.*)$")
_REPORT = re.compile(r"^(?P<rest>.*)_(?P<metric>accuracy|completeness)\.md$", re.IGNORECASE)

# candidate, Output*/lang folder, experiment (category folder), published stem, run (0-based)
ItemKey = tuple[str, str, str, str, int]


@dataclass
class GradesSummary:
    files: list[str] = field(default_factory=list)
    rows_present: int = 0
    rows: int = 0
    duplicates: int = 0
    problems: list[str] = field(default_factory=list)
    items: int = 0
    reports: int = 0
    unattached: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [
            f"grading.csv files: {len(self.files)}, rows read: {self.rows} of "
            f"{self.rows_present}, repeated rows dropped: {self.duplicates}, "
            f"notes: {len(self.problems)}",
            f"items: {self.items}",
            f"evaluator reports attached: {self.reports}, not attached: {len(self.unattached)}",
        ]
        out += [f"  note: {p}" for p in self.problems]
        out += [f"  not attached: {p}" for p in self.unattached]
        return out


@dataclass
class _Item:
    rows: list[GradeRow] = field(default_factory=list)
    published: SummaryRow | None = None
    reports: list[JudgeReport] = field(default_factory=list)
    steps: dict[str, dict[str, list[ParsedStep]]] = field(default_factory=dict)  # metric -> judge


def _present(path: Path) -> int:
    """Data rows of a csv file (records after the header, blank ones left out)."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            return sum(1 for r in list(csv.reader(handle))[1:] if any(c.strip() for c in r))
    except (OSError, UnicodeDecodeError, csv.Error):
        return 0


def _blocks(group: list[GradeRow]) -> tuple[list[GradeRow], int]:
    """The rows that stand (one per run) and how many were dropped (module docstring)."""
    runs = math.isqrt(len(group))
    if runs > 1 and runs * runs == len(group):
        return [group[(k + 1) * runs - 1] for k in range(runs)], 0
    return [group[-1]], len(group) - 1


def _stems_by_id(results: Path) -> dict[str, str]:
    """scenario_id -> published stem, from the criteria metadata of the clone (the oldest
    grading files name a scenario by its id and a snake_case name only)."""
    stems: dict[str, str] = {}
    for name in reversed(CRITERIA_SETS):  # the current set wins
        found, _ = read_criteria(results / name) if (results / name).is_dir() else ([], [])
        for criteria in found:
            meta = criteria.metadata
            if meta.scenario_id is not None and meta.category:
                stems[str(meta.scenario_id).lstrip("0")] = meta.category
    return stems


def _stem(row: GradeRow, stems: dict[str, str]) -> str:
    if not row.scenario_name:
        return row.category
    return stems.get(row.scenario_id.lstrip("0"), f"{row.scenario_name}_{row.scenario_id}")


def _rows(results: Path, summary: GradesSummary) -> dict[ItemKey, _Item]:
    items: dict[ItemKey, _Item] = defaultdict(_Item)
    stems = _stems_by_id(results)
    for path in sorted(results.rglob("grading.csv")):
        summary.files.append(str(path))
        summary.rows_present += _present(path)
        where = output_parts(results, path)
        if where is None:
            summary.problems.append(f"{path}: not in Output*/<Model>/<lang>/; skipped")
            continue
        rows, problems = read_grading(path)
        summary.problems += problems
        groups: dict[tuple[str, ...], list[GradeRow]] = defaultdict(list)
        for row in rows:
            groups[
                (row.experiment or row.category, _stem(row, stems), row.metric, row.evaluator)
            ].append(row)
        summary.rows += len(rows)
        for group in groups.values():
            standing, dropped = _blocks(group)
            summary.duplicates += dropped
            for run, row in enumerate(standing):
                items[(*where, row.experiment or row.category, _stem(row, stems), run)].rows.append(
                    row
                )
        _published(path.with_name("summary.csv"), where, items, summary)
    return items


def _published(
    path: Path, where: tuple[str, str], items: dict[ItemKey, _Item], summary: GradesSummary
) -> None:
    """Each summary row onto its item: the k-th row of a stem onto its k-th graded run
    (Output_v1 summaries name no category folder: the stem alone then). A row no graded
    run is left for becomes an item of its own."""
    if not path.is_file():
        return
    rows, problems = read_summary(path)
    summary.problems += problems
    graded: dict[str, list[ItemKey]] = defaultdict(list)
    for key in sorted(k for k in items if k[:2] == where):
        graded[key[3]].append(key)
    taken: dict[str, int] = defaultdict(int)
    unmatched = 0
    for row in rows:
        runs = [k for k in graded.get(row.stem, []) if not row.folder or k[2] == row.folder]
        index = taken[row.stem]
        taken[row.stem] += 1
        if index < len(runs):
            items[runs[index]].published = row
            continue
        figures = ", ".join(f"{m} {v}" for m, v in row.figures.items() if v is not None)
        if not figures:
            unmatched += 1
            continue
        summary.problems.append(
            f"{row.file}:{row.line}: {row.stem} published without grading rows "
            f"({figures}); imported as published"
        )
        items[(*where, row.folder, row.stem, index)].published = row
    if unmatched:
        summary.problems.append(
            f"{path}: {unmatched} rows match no graded stem and publish no figures; left out"
        )


def _sections(text: str, path_words: str) -> dict[str, str]:
    """Metric -> report text: by the path when it names one metric, else by headings."""
    named = [m for m in METRICS if m in path_words]
    if len(named) == 1:
        return {named[0]: text}
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        heading = _HEADING.match(line.strip())
        if heading:
            words = heading.group(1).lower()
            found = [m for m in METRICS if m in words]
            current = found[0] if len(found) == 1 else current
        if current is not None:
            sections.setdefault(current, []).append(line)
    return {m: "\n".join(lines) for m, lines in sections.items()}


def _report_key(results: Path, path: Path, items: dict[ItemKey, _Item]) -> tuple[ItemKey, str, str]:
    """(item, evaluator, metric) of an evaluator report; ValueError saying why not."""
    where = output_parts(results, path)
    found = _REPORT.match(path.name)
    stem = path.parent.name
    if where is None or found is None or not path.name.startswith(stem + "_"):
        raise ValueError("not named <stem>_[<evaluator>_]<metric>.md under Output*/<Model>/<lang>/")
    rest = found.group("rest")[len(stem) + 1 :] if len(found.group("rest")) > len(stem) else ""
    evaluator = UNNAMED if not rest or re.fullmatch(r"report_\d+", rest) else rest
    between = path.relative_to(results).parts
    lang = where[1].rpartition("/")[2]
    between = between[between.index(lang, between.index(where[0])) + 1 : -2]
    experiment = between[0] if len(between) == 2 else None
    runs = sorted(path.parent.parent.parent.glob(f"*/{stem}")) if experiment else []
    run = runs.index(path.parent) if path.parent in runs else 0
    keys = sorted(
        k
        for k in items
        if k[:2] == where and k[3] == stem and (experiment is None or k[2] == experiment)
    )
    if not keys:
        raise ValueError(f"no graded item of {where[0]} for {stem}")
    return keys[min(run, len(keys) - 1)], evaluator, found.group("metric").lower()


def _attach_reports(results: Path, items: dict[ItemKey, _Item], summary: GradesSummary) -> None:
    for path in sorted(results.rglob("*.md")):
        if REPORT_NAME.match(path.name) or not _REPORT.match(path.name) or not path.is_file():
            continue
        try:
            key, judge, metric = _report_key(results, path, items)
            text = path.read_text(encoding="utf-8")
        except (ValueError, UnicodeDecodeError) as exc:
            summary.unattached.append(f"{path}: {exc}")
            continue
        target = items[key]
        target.reports.append(JudgeReport(judge=judge, text=text, form="markdown"))
        try:
            target.steps.setdefault(metric, {})[judge] = parse_evaluator_reply(text).steps
        except ReportParseError:
            pass  # attached as text; its steps are not read
        summary.reports += 1


def _step_results(item: _Item) -> list[StepResult]:
    """Steps of every attached report, merged by criterion text across evaluators."""
    results: list[StepResult] = []
    for metric in METRICS:
        by_text: dict[str, StepResult] = {}
        for judge, steps in item.steps.get(metric, {}).items():
            for parsed in steps:
                text = parsed.criterion or parsed.key
                key = normalise(text)
                if key not in by_text:
                    by_text[key] = StepResult(
                        id=f"{metric[0].upper()}{len(by_text) + 1}",
                        metric=metric,
                        criterion=text,
                        weight=1.0,
                    )
                by_text[key].judges[judge] = Verdict(
                    passed=parsed.passed, confidence=parsed.confidence, reason=parsed.reason
                )
        results += by_text.values()
    return results


def _figure(row: GradeRow, published: SummaryRow | None) -> float:
    """An evaluator's 0-4 figure: from its grade, or its summary cell's own correction."""
    cell = published.cells.get((row.metric, row.evaluator)) if published else None
    return cell.value if cell is not None and cell.corrected_from is not None else row.published


def _metric(metric: Metric, item: _Item, steps: list[StepResult]) -> MetricResult:
    rows = [r for r in item.rows if r.metric == metric]
    grades = [
        Grade(
            metric=metric,
            judge=r.evaluator,
            grader=GRADER,
            method="logprobs",
            argmax=r.score,
            weighted=r.weighted,
            published=_figure(r, item.published),
            distribution=r.distribution,
            confident=r.confident,
        )
        for r in rows
    ]
    judged = [
        (s.weight, bool(majority(s.judges))) for s in steps if s.metric == metric and s.judges
    ]
    value: float | None
    if grades:
        value = round_half_even(fmean(g.published for g in grades if g.published is not None))
    elif item.published is not None and item.published.figures.get(metric) is not None:
        value = item.published.figures[metric]  # published without grading rows
    else:
        return MetricResult(unscored_reason=f"no {metric} row in grading.csv")
    return MetricResult(
        value=value,
        source="judges",
        pass_rate=weighted_rate(judged) if judged else None,
        grades=grades,
    )


def _item(key: ItemKey, item: _Item) -> ItemResult:
    candidate, lang, experiment, stem, run = key
    steps = _step_results(item)
    acc, compl = (_metric(m, item, steps) for m in METRICS)
    published = item.published
    rate = published.rate if published else None
    seconds = published.seconds if published else None
    both = acc.value is not None and compl.value is not None
    attempt = AttemptResult(
        attempt=1,
        answer="",
        answer_latency_s=seconds or 0.0,
        generation_rate=rate,
        accuracy=acc,
        completeness=compl,
        quality=quality(acc.value, compl.value)
        if acc.value is not None and compl.value is not None
        else None,
        steps=steps,
        reports=item.reports,
    )
    pass_rates = [r for r in (acc.pass_rate, compl.pass_rate) if r is not None]
    ours = map_category(experiment) if experiment else None
    repository = next((r.repository for r in item.rows if r.repository), None)
    return ItemResult(
        nodeid=node_id(lang, experiment, stem, run, candidate),
        scenario=stem,
        category=ours or experiment or "unknown",
        dataset=repository,
        model=candidate,
        status="scored" if both else "unscored",
        reason=None
        if both
        else "; ".join(m.unscored_reason or "" for m in (acc, compl) if m.value is None),
        attempts=[attempt],
        best_attempt=1 if both else None,
        accuracy=acc.value,
        completeness=compl.value,
        pass_rate=fmean(pass_rates) if pass_rates else None,
        generation_rate=rate if both else None,
        judge_agreement=judge_agreement(attempt) if both else None,
        latency_s=seconds,
    )


def import_grades(results: Path) -> tuple[list[ItemResult], GradesSummary]:
    """Every published grade under `results` as item results, and what was read."""
    summary = GradesSummary()
    items = _rows(results, summary)
    _attach_reports(results, items, summary)
    out = [_item(key, item) for key, item in sorted(items.items())]
    summary.items = len(out)
    return out, summary


def evaluators(items: Iterable[ItemResult]) -> list[str]:
    return sorted(
        {g.judge for i in items for a in i.attempts for m in a.metrics() for g in m.grades}
    )
