"""What every kind of attempt shares: the item's run (one parameter object for the case,
the candidate, how it is asked and judged, and the similarity baseline), the one measure
of an answer's code, and the one place an AttemptResult is built.

A single-shot answer (tasks/pipeline.py) and a dialog (tasks/dialog.py) each give a
JudgedAttempt: the answer with its calls, metrics, steps and reports, and the two pieces
of work that no later attempt waits for, already running as tasks: the code metrics and
the hidden tests. `result()` waits for both and builds the attempt's result, whole.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..cpu import off_process
from ..judging.judge import JudgeSetup
from ..judging.scoring import attempt_quality, first_token_time, generation_rate, metric_result
from ..metrics.answer_metrics import measure_answer
from ..models.base import Model
from ..schema.code import CodeMetrics
from ..schema.functional import FunctionalResult
from ..schema.results import (
    AttemptResult,
    CallRecord,
    DialogResult,
    JudgeReport,
    MetricResult,
    StepResult,
)
from ..schema.vocabulary import METRICS
from .case import Case, Generation


@dataclass(frozen=True)
class ItemRun:
    """What every attempt of one item shares (run_item makes it once)."""

    case: Case
    model: Model
    gen: Generation
    setup: JudgeSetup
    # The similarity of a do-nothing answer to the reference, computed once per item in a
    # worker process while the first attempt's calls run (None: not computed).
    baseline: asyncio.Future[float | None] | None = None


async def measure(run: ItemRun, answer: str) -> CodeMetrics:
    """The code metrics of an answer, against the scenario's reference and the baseline;
    in a worker process (the metrics would hold this process's GIL, see cpu.py)."""
    figure = None
    if run.baseline is not None:
        try:
            figure = await asyncio.shield(run.baseline)
        except Exception:  # noqa: S110 - measure_answer meets the same problem and reports it
            pass
    case = run.case
    reference = case.scenario.reference_for(case.dataset)
    return await off_process(
        measure_answer, answer, reference, case.dataset, case.complexity, figure, case.cache_dir
    )


@dataclass
class JudgedAttempt:
    """An attempt whose answer is judged; its code metrics (`measuring`) and hidden tests
    (`finishing`) end in their own tasks, so the next attempt's calls need not wait."""

    number: int
    answer: str
    candidate_calls: list[CallRecord]  # the calls that wrote the answer: its time and rate
    judge_calls: list[CallRecord]
    accuracy: MetricResult
    completeness: MetricResult
    steps: list[StepResult]
    reports: Sequence[JudgeReport]
    degraded: str | None
    measuring: asyncio.Future[CodeMetrics]
    finishing: asyncio.Future[FunctionalResult | None]
    dialog: DialogResult | None = None
    # The functional criteria's step ids (their `tests:` patterns name hidden tests).
    linked: frozenset[str] = frozenset()
    _built: AttemptResult | None = field(default=None, init=False, repr=False)

    @property
    def quality(self) -> float | None:
        return attempt_quality(self.accuracy, self.completeness)

    @property
    def scored_by_tests(self) -> bool:
        """No judge scores the answer and some criteria name hidden tests: its metrics are
        known once the tests have ended (`result()`)."""
        return bool(self.linked) and not self.reports and self.degraded is None

    def _score_by_tests(self, functional: FunctionalResult | None) -> None:
        if not self.scored_by_tests or functional is None or functional.unavailable:
            return
        executed = {s.id: bool(s.tests_passed) for s in self.steps if s.id in self.linked}
        self.accuracy, self.completeness = (
            metric_result(m, self.steps, [], executed) for m in METRICS
        )

    async def result(self) -> AttemptResult:
        """The attempt's result, once its code metrics and hidden tests have ended."""
        if self._built is None:
            code = await self.measuring
            functional = await self.finishing  # maps the tests onto `steps`
            self._score_by_tests(functional)
            rate, basis = generation_rate(self.candidate_calls)
            self._built = AttemptResult(
                attempt=self.number,
                answer=self.answer,
                answer_latency_s=sum(c.latency_s for c in self.candidate_calls),
                generation_rate=rate,
                generation_rate_basis=basis,
                first_token_s=first_token_time(self.candidate_calls),
                accuracy=self.accuracy,
                completeness=self.completeness,
                quality=self.quality,
                steps=self.steps,
                reports=list(self.reports),
                calls=[*self.candidate_calls, *self.judge_calls],
                code=code,
                degraded=self.degraded,
                dialog=self.dialog,
                functional=functional,
            )
        return self._built
