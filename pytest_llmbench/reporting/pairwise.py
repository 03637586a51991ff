"""Pairs of models on the same items, and the ranks they support.

For every pair of models with a score (in the leaderboard's order: `a` is ranked higher),
over the items both scored (same scenario and dataset):
- the mean score difference a - b, its 95% bootstrap interval with the scenarios
  resampled whole, and the paired permutation p-value (`judging/paired.py`);
- the exact McNemar p-value of attempt 1 passing the pass threshold (judged), and of
  attempt 1 passing every hidden test (items both ran hidden tests on);
- each family of p-values Holm-adjusted over every pair of the board;
- the smallest difference the items could detect with 80% power (clustered variance).

Ranks: a model's rank is the range of places it could hold given the pairs that differ
significantly (Holm-adjusted score p below 1 - LEVEL): from 1 + the models significantly
above it to N - the models significantly below it; "2" when both ends meet, "1-3" when
not. Two models whose difference is not significant therefore share part of a range.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from statistics import fmean

from ..judging import paired
from ..judging.statistics import LEVEL
from ..schema.leaderboard import McNemar, Pair, Ranking

Task = tuple[str, str]  # (scenario, dataset)

RANKING = Ranking(
    test="paired permutation test of the mean score difference over the items both models "
    "scored, signs flipped per scenario",
    level=LEVEL,
    adjustment="Holm over every pair of the board",
    permutations=paired.PERMUTATIONS,
    stop_hits=paired.STOP_HITS,
    exact_up_to=paired.EXACT_CLUSTERS,
    power=paired.POWER,
)


@dataclass(frozen=True)
class Unit:
    """One item of one model, as the paired tests see it."""

    model: str
    task: Task
    score: float | None  # None: not scored
    passed: bool | None  # attempt 1 reached the pass threshold; None: not scored
    tests_passed: bool | None  # attempt 1 passed every hidden test; None: no hidden tests


def _mcnemar(a: dict[Task, Unit], b: dict[Task, Unit], field: str) -> McNemar:
    both = [
        (getattr(a[t], field), getattr(b[t], field))
        for t in sorted(set(a) & set(b))
        if getattr(a[t], field) is not None and getattr(b[t], field) is not None
    ]
    a_only = sum(x and not y for x, y in both)
    b_only = sum(y and not x for x, y in both)
    p = paired.mcnemar_p(a_only, b_only) if both else None
    return McNemar(items=len(both), a_only=a_only, b_only=b_only, p=p, p_holm=None)


def scored_pairs(
    mine: dict[Task, Unit], theirs: dict[Task, Unit]
) -> list[tuple[Task, float, float]]:
    """(task, my score, their score) over the tasks both scored, in task order."""
    return [
        (t, x, y)
        for t in sorted(set(mine) & set(theirs))
        if (x := mine[t].score) is not None and (y := theirs[t].score) is not None
    ]


def pair(
    a: str, b: str, mine: dict[Task, Unit], theirs: dict[Task, Unit], interval: bool = True
) -> Pair:
    """One pair, its p-values not yet adjusted (p_holm = p: a family of one); without
    `interval` (only its significance is wanted) the bootstrap is not run."""
    both = scored_pairs(mine, theirs)
    first, second = [x for _, x, _ in both], [y for _, _, y in both]
    diffs = [x - y for _, x, y in both]
    clusters = [scenario for (scenario, _), _, _ in both]
    bounds = paired.cluster_bootstrap_ci(diffs, clusters) if interval else None
    p = paired.sign_flip_p(diffs, clusters)
    pass_at_1 = _mcnemar(mine, theirs, "passed")
    tests = _mcnemar(mine, theirs, "tests_passed")
    return Pair(
        a=a,
        b=b,
        items=len(both),
        scenarios=len(set(clusters)),
        a_score=fmean(first) if first else None,
        b_score=fmean(second) if second else None,
        difference=fmean(diffs) if diffs else None,
        difference_ci=list(bounds) if bounds else None,
        p=p,
        p_holm=p,
        significant=p is not None and p < 1 - LEVEL,
        detectable=paired.detectable(paired.cluster_se(diffs, clusters), len(set(clusters))),
        pass_at_1=pass_at_1.model_copy(update={"p_holm": pass_at_1.p}),
        tests_pass_at_1=tests.model_copy(update={"p_holm": tests.p}),
    )


def by_model(units: Sequence[Unit]) -> dict[str, dict[Task, Unit]]:
    out: dict[str, dict[Task, Unit]] = {}
    for unit in units:
        out.setdefault(unit.model, {})[unit.task] = unit
    return out


def pairs(units: Sequence[Unit], order: Sequence[str], intervals: bool = True) -> list[Pair]:
    """Every pair of the models in `order` (best first), Holm-adjusted over them all."""
    models = by_model(units)
    found = [
        pair(a, b, models.get(a, {}), models.get(b, {}), intervals)
        for a, b in combinations(order, 2)
    ]
    scores = paired.holm([p.p for p in found])
    passes = paired.holm([p.pass_at_1.p for p in found])
    tests = paired.holm([p.tests_pass_at_1.p for p in found])
    for p, score, passed, tested in zip(found, scores, passes, tests, strict=True):
        p.p_holm = score
        p.significant = score is not None and score < 1 - LEVEL
        p.pass_at_1.p_holm = passed
        p.tests_pass_at_1.p_holm = tested
    return found


def honest_ranks(order: Sequence[str], found: Sequence[Pair]) -> dict[str, str]:
    """Model -> its rank range ("1", "1-2"), from the pairs that differ significantly."""
    above = dict.fromkeys(order, 0)
    below = dict.fromkeys(order, 0)
    for p in found:
        if p.significant and p.difference is not None:
            better, worse = (p.a, p.b) if p.difference > 0 else (p.b, p.a)
            above[worse] += 1
            below[better] += 1
    ranks = {}
    for model in order:
        first, last = 1 + above[model], len(order) - below[model]
        ranks[model] = str(first) if first == last else f"{first}-{last}"
    return ranks
