"""Aggregate item results into per-model and per-model-x-category rows with statistics.

Every item is scored on its own by a named formula (see `formulas.py`); a row's score is
the mean of its scored items' scores, with a 95% bootstrap confidence interval over
items. The `weighted` formula's rate term is Rate/MaxRate with Rate the item's model's
mean generation rate and MaxRate the highest such mean over the models of this
leaderboard, so scores are computed only once every item is known, and one model's
score depends on the others.

Per row (besides counts and means):
- `formula`: the formula(s) that scored the row's items, comma-separated: the chosen one,
  else each category's default (`multimodal` for the multimodal category, `weighted` for
  the rest), so a model's overall row may list two; its score is still the mean of item
  scores on the one 0..1 scale every formula has.
- `*_ci`: 95% percentile bootstrap interval of the mean over scored items (seeded).
- `pass_at_1`, `pass_at_k` (k = attempts allowed): mean over scored items of the unbiased
  pass@k over the attempts run; an attempt passes when its quality (Acc + Compl)/8
  reaches the pass threshold PASS_THRESHOLD, i.e. a mean grade of 3 ("almost
  accurate") or better, and its hidden-test run (if any) was not marked tampered.
- `judge_alpha`: Krippendorff's alpha (ordinal) of the judges' argmax grades, one unit per
  scored item x metric of the best attempt; `judge_exact_agreement`: share of judge
  pairs over those units giving the same grade.
- `check_judge_agreement`: share of steps with both a check and judges where the check's
  verdict equals the judges' majority.
- `tokens`, `cost_usd`, `latency_s`: median and p95 per item of the candidate's tokens
  (prompt + completion), cost and the best attempt's latency.
- `functional_*` (hidden tests) and the leaderboard's `calibration` (judges against the
  tests): see `functional.py`.
- `rank` and the leaderboard's `pairs` and `ranking` (paired tests of every pair of
  models, honest rank ranges): see `pairwise.py`.
- `own_family_judges`, `score_other_judges` (self-preference): see `families.py`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from statistics import fmean

from ..judging import statistics as st
from ..judging.formulas import FORMULAS, Formula, Terms, formula_for, quality
from ..schema.leaderboard import (
    CodeFigure,
    CodeFigures,
    Confidence,
    Leaderboard,
    Pair,
    Row,
    Spread,
)
from ..schema.results import AttemptResult, ItemResult, Usage
from . import families, functional, pairwise

PASS_THRESHOLD = 0.75  # the quality (Acc + Compl)/8 an attempt passes at


def _mean(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return fmean(present) if present else None


def _sum_cost(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) if present else None


# Per-answer code metrics (results.CodeMetrics) averaged in each row, with their counts.
CODE_METRICS: tuple[str, ...] = tuple(CodeFigures.model_fields)


def _code(items: Sequence[ItemResult]) -> CodeFigures:
    """Mean of each code metric over the items that have it (best attempts), and n."""
    figures: dict[str, CodeFigure] = {}
    for name in CODE_METRICS:
        values = [v for i in items if i.code and (v := getattr(i.code, name)) is not None]
        figures[name] = CodeFigure(mean=fmean(values) if values else None, n=len(values))
    return CodeFigures.model_validate(figures)


def _ci(values: Sequence[float]) -> list[float] | None:
    interval = st.bootstrap_ci(values)
    return list(interval) if interval else None


def best_attempt(item: ItemResult) -> AttemptResult:
    return next(a for a in item.attempts if a.attempt == item.best_attempt)


def _passes(attempt: AttemptResult) -> bool:
    if attempt.functional is not None and attempt.functional.tampered:
        return False  # an answer that attacked its tests passes nothing
    acc, compl = attempt.accuracy.value, attempt.completeness.value
    return acc is not None and compl is not None and quality(acc, compl) >= PASS_THRESHOLD


def _pass_at(scored: Sequence[ItemResult], k: int) -> float | None:
    return _mean(
        st.pass_at_k(len(i.attempts), sum(_passes(a) for a in i.attempts), k) for i in scored
    )


def model_rates(items: Sequence[ItemResult]) -> dict[str, float]:
    """Each model's mean generation rate over its scored items that have one."""
    rates: dict[str, list[float]] = defaultdict(list)
    for item in items:
        if item.status == "scored" and item.generation_rate is not None:
            rates[item.model].append(item.generation_rate)
    return {model: fmean(values) for model, values in rates.items()}


def max_rate(items: Sequence[ItemResult]) -> float | None:
    """MaxRate: the highest mean generation rate over the models of `items`."""
    return max(model_rates(items).values(), default=None)


def item_score(
    item: ItemResult, rate: float | None, top_rate: float | None, attempts: int, formula: str | None
) -> float:
    """One scored item's score by its formula (the chosen one, else its category's default).

    `rate` is the item's model's mean generation rate: the method's Rate is a model's
    average, so the rate term is the same for every item of a model and at most 1.
    """
    if item.accuracy is None or item.completeness is None or item.best_attempt is None:
        raise ValueError(f"{item.nodeid or item.scenario}: a scored item without its metrics")
    terms = Terms(
        accuracy=item.accuracy,
        completeness=item.completeness,
        rate=rate / top_rate if rate is not None and top_rate else 0.0,
        attempt=1.0 if attempts <= 1 else (attempts - item.best_attempt) / (attempts - 1),
        functional=item.functional_rate,
    )
    return item_formula(item, formula).compute(terms)


def item_formula(item: ItemResult, formula: str | None) -> Formula:
    """The formula that scores `item`: see `formula_for` (items without hidden tests)."""
    return formula_for(item.category, formula, tested=item.functional_rate is not None)


def scores(items: Sequence[ItemResult], attempts: int, formula: str | None) -> list[float | None]:
    """Each item's score (None when unscored), MaxRate taken over all of `items`."""
    rates = model_rates(items)
    top = max(rates.values(), default=None)
    return [
        item_score(i, rates.get(i.model), top, attempts, formula) if i.status == "scored" else None
        for i in items
    ]


def _judging(scored: Sequence[ItemResult]) -> tuple[Counter[str], Counter[str], list[bool]]:
    """Metric sources, grade methods and check-vs-judges agreements of the best attempts."""
    methods: Counter[str] = Counter()
    sources: Counter[str] = Counter()
    check_agrees: list[bool] = []
    for item in scored:
        best = best_attempt(item)
        for metric in best.metrics():
            sources[str(metric.source)] += 1
            methods.update(g.method for g in metric.grades)
        check_agrees += [s.check_agrees for s in best.steps if s.check_agrees is not None]
    return sources, methods, check_agrees


def _notes(scored: Sequence[ItemResult], used: list[str], formula: str | None) -> list[str]:
    notes = [] if scored else ["no scored items"]
    if (
        any(FORMULAS[f].uses_rate for f in used)
        and scored
        and all(i.generation_rate is None for i in scored)
    ):
        notes.append("rate term 0: no generation rate (offline model or no token counts)")
    chosen = FORMULAS.get(formula or "")
    untested = sum(i.functional_rate is None for i in scored)
    if chosen is not None and chosen.untested and untested:
        notes.append(
            f"{untested} of {len(scored)} scored items have no hidden tests: "
            f"scored by {chosen.untested}"
        )
    return notes


def _row(
    model: str,
    category: str | None,
    items: Sequence[ItemResult],
    item_scores: Sequence[float | None],
    attempts: int,
    formula: str | None,
) -> Row:
    scored = [i for i in items if i.status == "scored"]
    values = [s for s in item_scores if s is not None]
    sources, methods, check_agrees = _judging(scored)
    used = sorted({item_formula(i, formula).name for i in items})
    units = st.judge_units(best_attempt(i) for i in scored)
    accuracy = [i.accuracy for i in scored if i.accuracy is not None]
    completeness = [i.completeness for i in scored if i.completeness is not None]
    return Row(
        model=model,
        category=category,
        formula=",".join(used),
        items=len(items),
        scored=len(scored),
        unscored=sum(i.status == "unscored" for i in items),
        errors=sum(i.status == "error" for i in items),
        skipped=sum(i.status == "skipped" for i in items),
        score=fmean(values) if values else None,
        score_ci=_ci(values),
        accuracy=_mean(accuracy),
        accuracy_ci=_ci(accuracy),
        completeness=_mean(completeness),
        completeness_ci=_ci(completeness),
        pass_rate=_mean(i.pass_rate for i in scored),
        pass_at_1=_pass_at(scored, 1),
        pass_at_k=_pass_at(scored, attempts),
        **functional.row_figures(items),
        generation_rate=_mean(i.generation_rate for i in scored),
        attempt=_mean(i.best_attempt for i in scored),
        judge_agreement=_mean(i.judge_agreement for i in scored),
        judge_exact_agreement=st.exact_agreement(units),
        judge_alpha=st.krippendorff_alpha(units, "ordinal"),
        check_judge_agreement=sum(check_agrees) / len(check_agrees) if check_agrees else None,
        metric_sources=dict(sources),
        grade_methods=dict(methods),
        candidate_tokens=sum(_tokens(i.candidate_usage) for i in items),
        candidate_cost_usd=_sum_cost(i.candidate_usage.cost_usd for i in items),
        judge_tokens=sum(_tokens(i.judge_usage) for i in items),
        judge_cost_usd=_sum_cost(i.judge_usage.cost_usd for i in items),
        candidate_cached_tokens=sum(i.candidate_usage.cache_read_tokens for i in items),
        judge_cached_tokens=sum(i.judge_usage.cache_read_tokens for i in items),
        tokens=Spread(**st.median_p95([_tokens(i.candidate_usage) for i in items])),
        cost_usd=Spread(**st.median_p95([i.candidate_usage.cost_usd for i in items])),
        latency_s=Spread(**st.median_p95([i.latency_s for i in items])),
        notes=_notes(scored, used, formula),
        code=_code(items),
    )


def _tokens(usage: Usage) -> int:
    return usage.prompt_tokens + usage.completion_tokens


def identity(item: ItemResult) -> tuple[str, str, str, str, str]:
    """What makes two results the same item (also `llmbench merge`'s key)."""
    return (item.nodeid, item.model, item.scenario, item.category, item.dataset or "")


def _task(item: ItemResult) -> tuple[str, str]:
    return (item.scenario, str(item.dataset))


def units(items: Sequence[ItemResult], item_scores: Sequence[float | None]) -> list[pairwise.Unit]:
    """The items as the paired tests see them (`item_scores` in the order of `items`)."""
    return [
        pairwise.Unit(
            model=item.model,
            task=_task(item),
            score=score,
            passed=_passes(item.attempts[0]) if score is not None and item.attempts else None,
            tests_passed=item.pass_at_1,
        )
        for item, score in zip(items, item_scores, strict=True)
    ]


def rank(
    rows: Sequence[Row], item_units: Sequence[pairwise.Unit], intervals: bool = True
) -> list[Pair]:
    """Every pair of the rows with a score (best score first) over `item_units`, and each
    row's honest rank from them (the model rows over all items; the rows of a category
    over its items, Holm over that category's pairs)."""
    ranked = sorted(
        (r for r in rows if r.score is not None), key=lambda r: (-(r.score or 0), r.model)
    )
    order = [r.model for r in ranked]
    found = pairwise.pairs(item_units, order, intervals)
    ranks = pairwise.honest_ranks(order, found)
    for row in rows:
        row.rank = ranks.get(row.model)
    return found


def self_preference(
    row: Row, items: Sequence[ItemResult], rescore: Callable[[ItemResult], float]
) -> None:
    """Mark a row judged by its candidate's own family and, when other judges graded its
    items too, give the score from those judges alone (`rescore` scores an item)."""
    judges = families.judges_of(items)
    own = families.own_family(row.model, judges)
    if not own:
        return
    row.own_family_judges = own
    if row.category is None:
        mark(row, f"judged by its own family: {', '.join(own)}")
    scored = [i for i in items if i.status == "scored"]
    if len(own) == len(judges) or not all(families.rescorable(i) for i in scored):
        return
    alone = [families.without_judges(i, set(own)) for i in scored]
    values = [rescore(i) for i in alone if i is not None]
    row.score_other_judges = fmean(values) if values else None
    if row.category is None and values:
        row.notes.append(f"score from the other judges alone: {fmean(values):.3f}")


def mark(row: Row, text: str) -> None:
    """A reason the row does not compare like for like with the others."""
    row.marks.append(text)
    row.notes.append(text)


def mark_item_sets(rows: list[Row], tasks: dict[str, set[tuple[str, str]]]) -> None:
    """Mark the models not scored on every scenario x dataset that some model was."""
    every = set().union(*tasks.values()) if tasks else set()
    for row in rows:
        mine = tasks[row.model]
        if mine != every:
            mark(row, f"different items: {len(mine & every)} of the {len(every)} in this board")


def build(items: Sequence[ItemResult], attempts: int, formula: str | None = None) -> Leaderboard:
    """Rows per model (sorted by score) and per model x category.

    `formula` names one of FORMULAS for every item; None uses each category's default.
    """
    items = sorted(items, key=identity)
    item_scores = scores(items, attempts, formula)
    by_model: dict[str, list[int]] = defaultdict(list)
    by_category: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, item in enumerate(items):
        by_model[item.model].append(index)
        by_category[(item.model, item.category)].append(index)

    def row(model: str, category: str | None, indexes: list[int]) -> Row:
        return _row(
            model,
            category,
            [items[i] for i in indexes],
            [item_scores[i] for i in indexes],
            attempts,
            formula,
        )

    model_rows = [row(name, None, group) for name, group in by_model.items()]
    mark_item_sets(model_rows, {m: {_task(items[i]) for i in g} for m, g in by_model.items()})
    model_rows.sort(key=lambda r: (r.score is None, -(r.score or 0.0), r.model))
    category_rows = [
        row(name, category, group) for (name, category), group in sorted(by_category.items())
    ]
    rates = model_rates(items)
    top = max(rates.values(), default=None)

    def rescore(item: ItemResult) -> float:
        return item_score(item, rates.get(item.model), top, attempts, formula)

    for r in model_rows:
        self_preference(r, [items[i] for i in by_model[r.model]], rescore)
    for r in category_rows:
        self_preference(r, [items[i] for i in by_category[(r.model, str(r.category))]], rescore)
    item_units = units(items, item_scores)
    found = rank(model_rows, item_units)
    for name in sorted({i.category for i in items}):
        mine = [u for u, i in zip(item_units, items, strict=True) if i.category == name]
        rank([r for r in category_rows if r.category == name], mine, intervals=False)
    used = sorted({f for r in category_rows for f in r.formula.split(",") if f})
    return Leaderboard(
        formula=",".join(used) or formula_for("", formula, tested=True).name,
        formulas={name: FORMULAS[name].text for name in used},
        attempts=attempts,
        max_rate=max_rate(items),
        pass_threshold=PASS_THRESHOLD,
        confidence=Confidence(level=st.LEVEL, resamples=st.RESAMPLES, seed=st.SEED),
        models=model_rows,
        categories=category_rows,
        calibration=functional.calibration(items),
        ranking=pairwise.RANKING,
        pairs=found,
    )
