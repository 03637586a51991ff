"""What a run will cost before it starts: --llm-estimate, `llmbench estimate`, and the
--llm-budget-usd refusal of a run whose low estimate is over the budget.

Per model and role (candidate, evaluator, grader): calls, input and output tokens and
cost, each as low / expected / high. An item x model that an earlier run in the report
dir finished (results.jsonl) costs nothing when the request cache will answer it (its
first candidate request is stored and --llm-cache reads), else it is estimated from that
run's own calls, tokens as the provider counted them (low = expected = high). Otherwise input tokens are counted from
the rendered prompts (litellm's tokenizer for the model, else cl100k), and output
tokens come from the scenario's reference answer (x0.5 / x1 / x2, within --llm-max-tokens),
else from the max-tokens bound (x1/4 / x1/2 / x1). Attempts: low 1 (an attempt that
cannot be beaten ends the item), expected and high all. A dialog turn takes 1 / 2 /
max_rounds candidate calls, each counted at the first prompt's size (a floor: the
conversation grows). Judges: 1 / 1 / 2 evaluator calls (a repair), graders 1 / 1 / 1 +
--llm-grader-samples calls per metric. Prices: --llm-price, else litellm's table; a
model with neither has no cost (its low counts as 0 against a budget). The input tokens an
earlier run's calls read from or wrote to the provider's prompt cache are priced at the
table's cache rates; without such a run nothing is assumed cached (the full input rate).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import FormatError
from ..judging.prompts import evaluator_messages, grader_messages, metric_report
from ..models.base import ModelRequest
from ..models.litellm_batch import batch_prices, batch_provider
from ..models.litellm_model import litellm_module, prompt_tokens, token_prices
from ..models.prompt_cache import TokenPrices
from ..models.registry import is_offline
from ..reporting.reader import read_results
from ..schema.results import CallRecord, ItemResult, Verdict
from ..schema.vocabulary import METRICS, Role
from ..settings import Settings
from ..tasks.case import Case
from ..tasks.pipeline import candidate_request
from .cache import CACHE_FILE, RequestCache, request_key
from .engine import generation

# The output bound of a candidate call when --llm-max-tokens is not set.
DEFAULT_BOUND = 4096
STEP_TOKENS = 50  # an evaluator's verdict line for one criterion step
GRADE_TOKENS = 16  # judging/judge.py asks the grader's first call for at most this many


@dataclass
class Range:
    low: float = 0.0
    expected: float = 0.0
    high: float = 0.0

    def add(self, low: float, expected: float, high: float) -> None:
        self.low, self.expected, self.high = (
            self.low + low,
            self.expected + expected,
            self.high + high,
        )


@dataclass
class RoleLine:
    """One model in one role over the selected items."""

    model: str
    role: Role
    calls: Range = field(default_factory=Range)
    input_tokens: Range = field(default_factory=Range)
    output_tokens: Range = field(default_factory=Range)
    cost: Range | None = None  # None: no price known

    def add(
        self,
        calls: Range,
        inputs: Range,
        outputs: Range,
        prices: TokenPrices | None,
        cached: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        """Adds calls with their tokens; `cached`: of the inputs, the tokens read from and
        written to the prompt cache (known from an earlier run only), at their own rates."""
        for total, part in (
            (self.calls, calls),
            (self.input_tokens, inputs),
            (self.output_tokens, outputs),
        ):
            total.add(part.low, part.expected, part.high)
        if prices is not None:
            self.cost = self.cost or Range()
            self.cost.add(
                *(
                    prices.cost(i, o, *cached)
                    for i, o in zip(_tuple(inputs), _tuple(outputs), strict=True)
                )
            )


@dataclass
class Estimate:
    lines: dict[tuple[str, Role], RoleLine] = field(default_factory=dict)
    sources: Counter[str] = field(default_factory=Counter)  # where output figures came from
    batched: set[str] = field(default_factory=set)  # models at batch rates (--llm-batch)

    def line(self, model: str, role: Role) -> RoleLine:
        return self.lines.setdefault((model, role), RoleLine(model, role))

    def total(self) -> Range:
        total = Range()
        for line in self.lines.values():
            if line.cost is not None:
                total.add(line.cost.low, line.cost.expected, line.cost.high)
        return total


def _history(settings: Settings) -> dict[tuple[str, str, str | None], ItemResult]:
    """The results of an earlier run in the report dir, by (model, scenario, dataset)."""
    path = settings.report_dir / "results.jsonl"
    if not path.is_file():
        return {}
    try:
        items = read_results(path).items
    except FormatError:
        return {}
    return {(i.model, i.scenario, i.dataset): i for i in items if i.attempts}


def _tokens(model: str, messages: Sequence[dict[str, Any]]) -> int:
    request = ModelRequest(messages=tuple(messages), role="candidate")
    counted = prompt_tokens(model, request)
    return (
        counted
        if counted is not None
        else sum(len(str(m.get("content", ""))) for m in messages) // 4
    )


class Estimator:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.estimate = Estimate()
        self._history = _history(settings)
        reads = settings.cache in ("on", "replay") and (settings.cache_dir / CACHE_FILE).is_file()
        self._cache = RequestCache(settings.cache_dir) if reads else None
        self._prices: dict[tuple[str, bool], TokenPrices | None] = {}
        self._batched = False  # the item being added goes through batches

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()

    def prices(self, model: str, batched: bool = False) -> TokenPrices | None:
        """--llm-price (no cache rates: cached input at the input rate), else litellm's;
        `batched` (--llm-batch, a single-shot item): its batch rates where the table has
        them and the model's provider takes batches (models/litellm_batch.py)."""
        if (model, batched) not in self._prices:
            own = self.settings.prices.get(model)
            rates = batch_rates(model) if batched and not own else None
            if rates is not None:
                self.estimate.batched.add(model)
            self._prices[model, batched] = (
                TokenPrices(own[0] / 1e6, own[1] / 1e6)
                if own
                else TokenPrices(*rates)
                if rates
                else token_prices(model)
            )
        return self._prices[model, batched]

    def _add(
        self,
        model: str,
        role: Role,
        calls: Range,
        inputs: Range,
        outputs: Range,
        cached: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        if not is_offline(model):
            prices = self.prices(model, self._batched)
            self.estimate.line(model, role).add(calls, inputs, outputs, prices, cached)

    def add(self, case: Case, model: str) -> None:
        """One item: the case run by `model`."""
        self._batched = self.settings.batch and not case.scenario.is_dialog
        dataset = case.dataset.name if case.dataset else None
        earlier = self._history.get((model, case.scenario.id, dataset))
        if earlier is not None and self._cached(case, model):
            self.estimate.sources["the request cache (no cost)"] += 1
        elif earlier is not None:
            self._from_history(earlier)
        else:
            answer = self._candidate(case, model)
            if self.settings.judges:
                self._judges(case, answer)

    def _cached(self, case: Case, model: str) -> bool:
        """Whether the run will read the item's first candidate call from the request
        cache (and, a whole earlier run having stored them, its other calls too)."""
        if self._cache is None or is_offline(model):
            return False
        request = candidate_request(case, 1, generation(self.settings, model), None)
        return self._cache.get(request_key(model, self.settings.api_base, request)) is not None

    def _from_history(self, item: ItemResult) -> None:
        self.estimate.sources["an earlier run"] += 1
        calls: list[CallRecord] = [c for a in item.attempts for c in a.calls] + item.failed_calls
        for call in calls:  # cached then or not, this run pays each (the cache will not answer)
            one = Range(1, 1, 1)
            ins = Range(*[float(call.prompt_tokens or 0)] * 3)
            outs = Range(*[float(call.completion_tokens or 0)] * 3)
            # The provider's prompt cache will serve again what it served then.
            cached = (float(call.cache_read_tokens), float(call.cache_write_tokens))
            self._add(call.model, call.role, one, ins, outs, cached)

    def _candidate(self, case: Case, model: str) -> Range:
        """Adds the candidate's calls; returns its answer's tokens (low, expected, high)."""
        s = self.settings
        bound = s.max_tokens or DEFAULT_BOUND
        reference = case.scenario.reference_for(case.dataset)
        if reference:
            size = _tokens(model, [{"role": "assistant", "content": reference}])
            answer = Range(min(bound, size / 2), min(bound, size), min(bound, 2 * size))
            self.estimate.sources["reference answers"] += 1
        else:
            answer = Range(bound / 4, bound / 2, bound)
            self.estimate.sources["the max-tokens bound"] += 1
        prompt = _tokens(model, case.messages())
        turns = len(case.scenario.turns_for(case.dataset))
        per_attempt = (
            Range(turns, 2 * turns, turns * case.scenario.limits.max_rounds)
            if turns
            else Range(1, 1, 1)
        )
        attempts = Range(1, s.attempts, s.attempts)
        calls = Range(*(a * c for a, c in zip(_tuple(attempts), _tuple(per_attempt), strict=True)))
        # With feedback an attempt's conversation holds the earlier answers.
        grows = answer.expected * (s.attempts - 1) / 2 if s.feedback else 0.0
        ins = Range(
            calls.low * prompt, calls.expected * (prompt + grows), calls.high * (prompt + grows)
        )
        outs = Range(*(c * a for c, a in zip(_tuple(calls), _tuple(answer), strict=True)))
        self._add(model, "candidate", calls, ins, outs)
        return answer

    def _judges(self, case: Case, answer: Range) -> None:
        s = self.settings
        steps = case.scenario.steps_for(case.dataset)
        attempts = Range(1, s.attempts, s.attempts)
        for judge in s.judges:
            asked = _tokens(
                judge, evaluator_messages(case.scenario.system, case.prompt_text(), "", steps)
            )
            calls = Range(attempts.low, attempts.expected, 2 * attempts.high)
            ins = Range(
                *(c * (asked + a) for c, a in zip(_tuple(calls), _tuple(answer), strict=True))
            )
            written = STEP_TOKENS * len(steps)
            outs = Range(
                calls.low * written / 2, calls.expected * written, calls.high * s.judge_max_tokens
            )
            self._add(judge, "evaluator", calls, ins, outs)
            grader = s.grader or judge
            passed = {step.id: Verdict(passed=True, reason="") for step in steps}
            for metric in METRICS:
                mine = [step for step in steps if step.metric == metric]
                if not mine:
                    continue
                report = metric_report(metric, mine, passed)
                size = _tokens(grader, grader_messages(metric, report))
                per = Range(1, 1, 1 + s.grader_samples)
                gcalls = Range(*(a * p for a, p in zip(_tuple(attempts), _tuple(per), strict=True)))
                gins = Range(gcalls.low * size, gcalls.expected * size, gcalls.high * size)
                high_out = attempts.high * (GRADE_TOKENS + s.grader_samples * s.grader_max_tokens)
                self._add(
                    grader, "grader", gcalls, gins, Range(attempts.low, attempts.expected, high_out)
                )


def batch_rates(model: str) -> tuple[float, float] | None:
    """litellm's batch rates of a model whose calls --llm-batch can batch, else None."""
    module = litellm_module()
    return batch_prices(module, model) if batch_provider(module, model) else None


def _tuple(r: Range) -> tuple[float, float, float]:
    return r.low, r.expected, r.high


def estimate_items(items: Sequence[tuple[Case, str]], settings: Settings) -> Estimate:
    estimator = Estimator(settings)
    try:
        for case, model in items:
            estimator.add(case, model)
    finally:
        estimator.close()
    return estimator.estimate


def _usd(value: float) -> str:
    return f"{value:.6f}"


def render(estimate: Estimate, items: int) -> list[str]:
    """The estimate as terminal lines."""
    lines = [
        f"estimate for {items} item(s): low / expected / high",
        f"{'model':<32} {'role':<10} {'calls':>17} {'in tokens':>26} {'out tokens':>26} {'cost USD':>32}",
    ]
    for line in sorted(estimate.lines.values(), key=lambda found: (found.model, found.role)):
        cost = "/".join(_usd(v) for v in _tuple(line.cost)) if line.cost else "? (no price)"
        lines.append(
            f"{line.model:<32} {line.role:<10} {_span(line.calls):>17} {_span(line.input_tokens):>26} "
            f"{_span(line.output_tokens):>26} {cost:>32}"
        )
    total = estimate.total()
    lines.append(f"total cost USD: {_usd(total.low)} / {_usd(total.expected)} / {_usd(total.high)}")
    if estimate.sources:
        lines.append(
            "output tokens from: "
            + ", ".join(f"{n} item(s) {src}" for src, n in sorted(estimate.sources.items()))
        )
    if estimate.batched:
        lines.append(
            "--llm-batch: single-shot items of "
            + ", ".join(sorted(estimate.batched))
            + " at litellm's batch rates; other models and dialogs at the normal rates"
        )
    return lines


def _span(r: Range) -> str:
    return "/".join(f"{v:.0f}" for v in _tuple(r))


def over_budget(estimate: Estimate, budget: float) -> str | None:
    """One line when the low estimate is over the budget, else None."""
    low = estimate.total().low
    if low <= budget:
        return None
    return (
        f"not started: the low estimate of this run is {low:.4f} USD, over --llm-budget-usd "
        f"{budget:g} (see --llm-estimate)"
    )
