"""Scoring the turns of a dialog: workspace checks, judges on the files a turn changed,
and the item's metrics from the turns'.

A turn's check looks at the workspace as the turn left it:
  file: PATH             the file exists;
  path: P + contains / not_contains / regex   on that file's text (a missing file fails);
  path: P + parses       that file passes its syntax check;
  no path                contains / not_contains / regex / parses on the files the turn
                         changed, as fenced blocks headed by their paths (a turn that
                         changed no file fails them all).
The judges see the task (earlier turns' messages and this one's) and, as the answer,
the files the turn changed with the model's finish_step summary.

A metric of the item is the mean of the turns' values, each turn weighted by the sum of
its step weights on that metric; with checks only this is 1 + 3 x the pooled weighted
pass rate when every step has a check. When a turn's metric is unscored, the item's is
too (with the turn named), never averaged as a zero.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from ..cpu import off_loop
from ..formats.criteria import Check
from ..formats.render import fenced_files
from ..formats.scenario import DialogTurn
from ..judging.checks import run_check
from ..judging.judge import JudgeOutcome, JudgeSetup, Submission, judge_answer
from ..judging.scoring import metric_result, step_results
from ..schema.results import MetricResult, StepResult, TurnResult, Verdict
from ..schema.vocabulary import METRICS, Metric


@dataclass(frozen=True)
class TurnRun:
    """What the model did in one turn."""

    turn: DialogTurn
    finished: bool
    rounds: int
    summary: str | None
    files: dict[str, str]  # the workspace after the turn
    changed: dict[str, str]  # path -> text written with new content in this turn


def workspace_check(
    check: Check, files: dict[str, str], changed: dict[str, str], cache_dir: Path | None = None
) -> Verdict | None:
    """`check` of a turn's workspace (`cache_dir`: where syntax checks keep their results)."""
    if check.file is not None:
        return run_check(check, fenced_files(files), cache_dir)
    if check.path is None:
        if not changed:  # nothing to judge, so not even a not_contains holds
            return Verdict(passed=False, reason="no file was changed in this step")
        return run_check(check, fenced_files(changed), cache_dir)
    path = check.path  # normalised when the scenario was loaded (formats/paths.py)
    if path not in files:
        return Verdict(passed=False, reason=f"no file {path} in the workspace")
    if check.parses is not None:
        return run_check(check, fenced_files({path: files[path]}), cache_dir)
    return run_check(check, files[path], cache_dir)


def turn_answer(run: TurnRun) -> str:
    written = fenced_files(run.changed) if run.changed else "(no file was changed in this step)"
    summary = run.summary or ("(no summary)" if run.finished else "(the step was not finished)")
    return f"Files written in this step:\n\n{written}\n\nThe model's summary of the step: {summary}"


def turn_task(turns: list[DialogTurn], number: int) -> str:
    earlier = "\n\n".join(f"Step {t.number}: {t.prompt}" for t in turns if t.number < number)
    current = turns[number - 1]
    lead = (
        "The model works in steps on a workspace (the project's files) through file tools. "
        "Judge only this step."
    )
    history = f"\n\n## Earlier steps\n{earlier}" if earlier else ""
    return f"{lead}{history}\n\n## This step (step {number})\n{current.prompt}"


async def _judge_turn(
    run: TurnRun, system: str, turns: list[DialogTurn], setup: JudgeSetup
) -> list[JudgeOutcome]:
    submission = Submission(system, turn_task(turns, run.turn.number), turn_answer(run))
    return list(
        await asyncio.gather(
            *(judge_answer(j, setup, submission, run.turn.steps) for j in setup.judges)
        )
    )


def _weight(turn: DialogTurn, metric: Metric) -> float:
    return sum(s.weight for s in turn.steps if s.metric == metric)


def combine(metric: Metric, parts: list[tuple[DialogTurn, MetricResult]]) -> MetricResult:
    """The item's metric from the turns' (see the module docstring)."""
    unscored = [(t, m) for t, m in parts if m.value is None]
    weights = [_weight(t, metric) for t, _ in parts]

    def mean_of(values: list[float | None]) -> float | None:
        pairs = [(w, v) for w, v in zip(weights, values, strict=True) if v is not None]
        total = sum(w for w, _ in pairs)
        return sum(w * v for w, v in pairs) / total if total else None

    pass_rate = mean_of([m.pass_rate for _, m in parts])
    check_rate = mean_of([m.check_pass_rate for _, m in parts])
    grades = [g for _, m in parts for g in m.grades]
    if unscored:
        reason = "; ".join(f"turn {t.number}: {m.unscored_reason}" for t, m in unscored)
        return MetricResult(
            pass_rate=pass_rate, check_pass_rate=check_rate, grades=grades, unscored_reason=reason
        )
    sources = {m.source for _, m in parts}
    return MetricResult(
        value=mean_of([m.value for _, m in parts]),
        source="judges" if "judges" in sources else "checks",
        pass_rate=pass_rate,
        check_pass_rate=check_rate,
        grades=grades,
    )


@dataclass
class ScoredTurns:
    turns: list[TurnResult]
    steps: list[StepResult]  # every turn's, ids prefixed T<n>.
    outcomes: list[JudgeOutcome]
    accuracy: MetricResult
    completeness: MetricResult


async def score_turns(
    runs: list[TurnRun], system: str, setup: JudgeSetup, cache_dir: Path | None = None
) -> ScoredTurns:
    turns = [r.turn for r in runs]
    judged = await asyncio.gather(*(_judge_turn(r, system, turns, setup) for r in runs))
    results: list[TurnResult] = []
    flat: list[StepResult] = []
    parts: dict[Metric, list[tuple[DialogTurn, MetricResult]]] = {m: [] for m in METRICS}
    for run, outcomes in zip(runs, judged, strict=True):

        def check(c: Check, run: TurnRun = run) -> Verdict | None:
            return workspace_check(c, run.files, run.changed, cache_dir)

        # Checks are CPU work (regexes, syntax-check subprocesses): off the event loop.
        steps = await off_loop(step_results, run.turn.steps, check, outcomes)
        acc, compl = (metric_result(m, steps, outcomes) for m in METRICS)
        parts["accuracy"].append((run.turn, acc))
        parts["completeness"].append((run.turn, compl))
        flat += [s.model_copy(update={"id": f"T{run.turn.number}.{s.id}"}) for s in steps]
        results.append(
            TurnResult(
                number=run.turn.number,
                title=run.turn.title,
                prompt=run.turn.prompt,
                finished=run.finished,
                rounds=run.rounds,
                changed=sorted(run.changed),
                summary=run.summary,
                accuracy=acc,
                completeness=compl,
                reports=[o.report for o in outcomes],
            )
        )
    return ScoredTurns(
        turns=results,
        steps=flat,
        outcomes=[o for outcomes in judged for o in outcomes],
        accuracy=combine("accuracy", parts["accuracy"]),
        completeness=combine("completeness", parts["completeness"]),
    )
