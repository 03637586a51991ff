"""`llmbench import-airun-grades`: published grades of a results clone as item results.

Identities (docs/airun.md has the whole account):
- the candidate model is the folder below `Output/` on the path of the grading.csv
  (without an `Output` folder on the path: the first folder below RESULTS_DIR);
- the evaluator is the csv's `model` column; the grader that turned the evaluator's report
  into the grade is not recorded, so grades carry `grader: "published"`;
- an item is candidate x experiment x category x scenario_id x repository; its metric
  value is the mean over evaluators of `weighted_score`, as in our own runs. Which
  attempt was graded is not recorded: an item counts as one attempt, and its generation
  rate is the mean rate of the scenario's published answer files, when there are any.

Evaluator Markdown reports are the other `.md` files of the clone (not answer files)
that read as evaluator reports (`- **Pass** (90%): ...` lines). One is attached to the
item whose candidate, scenario_id (a folder name, or the file name's start) and
evaluator (a path part naming it; or the item's only evaluator) its path names; its
metric comes from the path, else from its `accuracy` / `completeness` headings.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean

from ..judging.formulas import quality
from ..judging.parsing import ParsedStep, ReportParseError, normalise, parse_evaluator_reply
from ..judging.scoring import majority, weighted_rate
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
from ..tasks.pipeline import judge_agreement
from .answers import (
    OUTPUT,
    REPORT_NAME,
    AnswerFileError,
    answer_files,
    output_root,
    parse_answer_file,
)
from .grading import GradeRow, read_grading
from .names import map_category, normalise_name

GRADER = "published"
_HEADING = re.compile(r"^#+\s*(.*)$")

ItemKey = tuple[str, str, str, str, str]  # candidate, experiment, category, scenario_id, repository


@dataclass
class GradesSummary:
    files: list[str] = field(default_factory=list)
    rows: int = 0
    duplicates: int = 0
    problems: list[str] = field(default_factory=list)
    items: int = 0
    reports: int = 0
    unattached: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [
            f"grading.csv files: {len(self.files)}, rows read: {self.rows}, "
            f"duplicate rows dropped: {self.duplicates}, rows not read: {len(self.problems)}",
            f"items: {self.items}",
            f"evaluator reports attached: {self.reports}, not attached: {len(self.unattached)}",
        ]
        out += [f"  not read: {p}" for p in self.problems]
        out += [f"  not attached: {p}" for p in self.unattached]
        return out


def candidate_of(results: Path, path: Path) -> str | None:
    """The candidate model named by a file's path (see the module docstring)."""
    parts = path.relative_to(results).parts[:-1]
    if OUTPUT in parts:
        below = parts[parts.index(OUTPUT) + 1 :]
        return below[0] if below else None
    if results.name == OUTPUT:
        return parts[0] if parts else None
    return parts[0] if parts else None


def _rows(results: Path, summary: GradesSummary) -> dict[ItemKey, list[GradeRow]]:
    items: dict[ItemKey, list[GradeRow]] = defaultdict(list)
    seen: dict[tuple[str, ...], GradeRow] = {}
    for path in sorted(p for p in results.rglob("*") if p.name.lower() == "grading.csv"):
        summary.files.append(str(path))
        candidate = candidate_of(results, path)
        if candidate is None:
            summary.problems.append(f"{path}: cannot tell the candidate model from its path")
            continue
        rows, problems = read_grading(path)
        summary.problems += problems
        for row in rows:
            key = (candidate, *row.key())
            first = seen.get(key)
            if first is not None:
                summary.duplicates += 1
                if first.values() != row.values():
                    summary.problems.append(
                        f"{path}:{row.line}: same answer, metric and evaluator as "
                        f"{first.file}:{first.line} with other values; the first is kept"
                    )
                continue
            seen[key] = row
            summary.rows += 1
            item_key = (candidate, row.experiment, row.category, row.scenario_id, row.repository)
            items[item_key].append(row)
    return items


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


@dataclass
class _Attached:
    reports: list[JudgeReport] = field(default_factory=list)
    steps: dict[str, dict[str, list[ParsedStep]]] = field(default_factory=dict)  # metric -> judge


def _attach_reports(
    results: Path, items: dict[ItemKey, list[GradeRow]], summary: GradesSummary
) -> dict[ItemKey, _Attached]:
    attached: dict[ItemKey, _Attached] = defaultdict(_Attached)
    for path in sorted(results.rglob("*.md")):
        if REPORT_NAME.match(path.name) or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
            parsed = parse_evaluator_reply(text)
        except (ReportParseError, UnicodeDecodeError):
            continue  # not an evaluator report (a README, a prompt)
        if parsed.form != "markdown":
            continue
        candidate = candidate_of(results, path)
        rel = path.relative_to(results)
        folders = [normalise_name(p) for p in rel.parts[:-1]]
        stem = normalise_name(path.stem)
        words = "_".join([*folders, stem])
        mine = [k for k in items if k[0] == candidate]
        scenario_keys = [
            k
            for k in mine
            if normalise_name(k[3]) in folders or stem.startswith(normalise_name(k[3]))
        ]
        if not scenario_keys:
            summary.unattached.append(f"{path}: names no graded scenario of {candidate}")
            continue
        longest = max(len(k[3]) for k in scenario_keys)
        scenario_keys = [k for k in scenario_keys if len(k[3]) == longest]
        if len(scenario_keys) > 1:  # the same scenario in several experiments/datasets
            named = [k for k in scenario_keys if k[4] and normalise_name(k[4]) in words]
            scenario_keys = named or scenario_keys
        if len(scenario_keys) > 1:
            summary.unattached.append(
                f"{path}: fits {len(scenario_keys)} graded items; cannot choose"
            )
            continue
        key = scenario_keys[0]
        evaluators = sorted({r.evaluator for r in items[key]})
        named_evaluators = [
            e for e in evaluators if normalise_name(e) and normalise_name(e) in words
        ]
        chosen = named_evaluators or (evaluators if len(evaluators) == 1 else [])
        if len(chosen) != 1:
            summary.unattached.append(
                f"{path}: its path names none of the evaluators {', '.join(evaluators)}"
            )
            continue
        sections = _sections(text, words)
        if not sections:
            summary.unattached.append(f"{path}: names neither accuracy nor completeness")
            continue
        judge = chosen[0]
        target = attached[key]
        target.reports.append(JudgeReport(judge=judge, text=text, form="markdown"))
        for metric, part in sections.items():
            try:
                steps = parse_evaluator_reply(part).steps
            except ReportParseError:
                continue
            target.steps.setdefault(metric, {})[judge] = steps
        summary.reports += 1
    return attached


def _step_results(attached: _Attached) -> list[StepResult]:
    """Steps of every attached report, merged by criterion text across evaluators."""
    results: list[StepResult] = []
    for metric in METRICS:
        by_text: dict[str, StepResult] = {}
        for judge, steps in attached.steps.get(metric, {}).items():
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


def _metric(metric: Metric, rows: list[GradeRow], steps: list[StepResult]) -> MetricResult:
    grades = [
        Grade(
            metric=metric,
            judge=r.evaluator,
            grader=GRADER,
            method="logprobs",
            score=r.score,
            weighted=r.weighted,
            distribution=r.distribution,
            confident=r.confident,
        )
        for r in rows
        if r.metric == metric
    ]
    judged = [
        (s.weight, bool(majority(s.judges))) for s in steps if s.metric == metric and s.judges
    ]
    if not grades:
        return MetricResult(unscored_reason=f"no {metric} row in grading.csv")
    return MetricResult(
        value=fmean(g.weighted for g in grades if g.weighted is not None),
        source="judges",
        pass_rate=weighted_rate(judged) if judged else None,
        grades=grades,
    )


def _rate(results: Path, candidate: str, scenario: str) -> tuple[float | None, float | None]:
    """Mean recorded generation rate and execution time of the scenario's answer files."""
    model_dir = output_root(results) / candidate
    rates: list[float] = []
    seconds: list[float] = []
    for path in answer_files(model_dir, scenario, None):
        try:
            published = parse_answer_file(path.read_text(encoding="utf-8"))
        except (AnswerFileError, UnicodeDecodeError):
            continue
        if published.rate is not None:
            rates.append(published.rate)
        if published.seconds is not None:
            seconds.append(published.seconds)
    return (fmean(rates) if rates else None), (fmean(seconds) if seconds else None)


def _item(results: Path, key: ItemKey, rows: list[GradeRow], attached: _Attached) -> ItemResult:
    candidate, experiment, category, scenario, repository = key
    steps = _step_results(attached)
    acc, compl = (_metric(m, rows, steps) for m in METRICS)
    rate, seconds = _rate(results, candidate, scenario)
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
        reports=attached.reports,
    )
    pass_rates = [r for r in (acc.pass_rate, compl.pass_rate) if r is not None]
    ours = map_category(category) if category else None
    return ItemResult(
        nodeid=f"airun::{experiment}::{category}::{scenario}::{repository}::{candidate}",
        scenario=scenario,
        category=ours or category or "unknown",
        dataset=repository or None,
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
    rows = _rows(results, summary)
    attached = _attach_reports(results, rows, summary)
    items = [
        _item(results, key, group, attached.get(key, _Attached()))
        for key, group in sorted(rows.items())
    ]
    summary.items = len(items)
    return items, summary


def evaluators(items: Iterable[ItemResult]) -> list[str]:
    return sorted(
        {g.judge for i in items for a in i.attempts for m in a.metrics() for g in m.grades}
    )
