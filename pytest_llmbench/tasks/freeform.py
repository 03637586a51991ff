"""Model calls and judging for ordinary tests (the `llm_complete` and `llm_judge` fixtures):
the same requests, judges, grades and scoring as a scenario item, without a scenario."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..formats.criteria import CriterionStep
from ..judging.formulas import quality
from ..judging.judge import JudgeSetup, Submission, call_record, judge_answer
from ..judging.scoring import majority, metric_result, step_results
from ..models.base import Model, ModelReply, ModelRequest, StablePrefix
from ..schema.results import CallRecord, JudgeReport, StepResult
from ..schema.vocabulary import METRICS, Metric


@dataclass
class Judged:
    """What the judges made of one text: grades 1-4 per metric, and every verdict."""

    accuracy: float | None
    completeness: float | None
    steps: list[StepResult]
    reports: list[JudgeReport]
    calls: list[CallRecord] = field(default_factory=list)
    unscored_reason: str | None = None

    @property
    def quality(self) -> float | None:
        """(accuracy + completeness) / 8, 0.25-1; None when a metric is unscored."""
        if self.accuracy is None or self.completeness is None:
            return None
        return quality(self.accuracy, self.completeness)

    @property
    def verdicts(self) -> dict[str, bool | None]:
        """criterion -> the judges' majority verdict (None on a tie or without verdicts)."""
        return {s.criterion: majority(s.judges) for s in self.steps}


def criterion_steps(
    accuracy: Sequence[str], completeness: Sequence[str]
) -> tuple[CriterionStep, ...]:
    written: tuple[tuple[Metric, Sequence[str]], ...] = (
        ("accuracy", accuracy),
        ("completeness", completeness),
    )
    return tuple(
        CriterionStep(f"{metric[0].upper()}{i}", metric, text.strip(), 1.0, None)
        for metric, texts in written
        for i, text in enumerate(texts, start=1)
    )


async def complete_text(
    model: Model,
    prompt: str,
    *,
    system: str | None,
    temperature: float | None,
    max_tokens: int | None,
    timeout: float,
) -> ModelReply:
    messages = [{"role": "system", "content": system}] if system else []
    messages.append({"role": "user", "content": prompt})
    return await model.complete(
        ModelRequest(
            messages=tuple(messages),
            role="candidate",
            temperature=temperature,
            max_tokens=max_tokens,
            timeout=timeout,
            stable_prefix=StablePrefix(messages=1) if system else None,
        )
    )


async def judge_text(
    answer: str, task: str, steps: Sequence[CriterionStep], setup: JudgeSetup
) -> Judged:
    """Every judge's verdicts on `steps` for `answer`, graded as a scenario attempt is."""
    submission = Submission("", task, answer, ())
    outcomes = list(
        await asyncio.gather(*(judge_answer(j, setup, submission, steps) for j in setup.judges))
    )
    checked = step_results(steps, lambda check: None, outcomes)
    acc, compl = (metric_result(m, checked, outcomes) for m in METRICS)
    reasons = [m.unscored_reason for m in (acc, compl) if m.unscored_reason]
    return Judged(
        accuracy=acc.value,
        completeness=compl.value,
        steps=checked,
        reports=[o.report for o in outcomes],
        calls=[c for o in outcomes for c in o.calls],
        unscored_reason="; ".join(reasons) or None,
    )


__all__ = ["Judged", "call_record", "complete_text", "criterion_steps", "judge_text"]
