"""Statistics of the leaderboard: pure functions, no I/O.

- `bootstrap_ci`: 95% percentile bootstrap confidence interval of a mean over items,
  with a seeded RNG so the same input always gives the same interval.
- Paired statistics (two models, or two runs, on the same items): `paired.py`.
- `pass_at_k`: the unbiased estimator 1 - C(n-c, k)/C(n, k) of one item.
- `krippendorff_alpha`: agreement between raters (judges) for nominal, ordinal or
  interval data, with missing values; `exact_agreement`: the share of rater pairs
  that gave the same value; `judge_units` and `judge_agreement`: the judges' grades of
  attempts as such units, and their exact agreement (an item's and a row's figure).
- `cohen_kappa`: chance-corrected agreement of two pass/fail verdicts on the same steps
  (a judge against the hidden tests).
- `percentile`: linear interpolation between closest ranks (numpy's default).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from itertools import combinations
from math import comb
from statistics import fmean
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ..schema.results import AttemptResult

RESAMPLES = 2000
SEED = 20240611
LEVEL = 0.95

Interval = tuple[float, float]


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), linear between closest ranks; values must be non-empty."""
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median_p95(values: Sequence[float | None]) -> dict[str, float | None]:
    present = [v for v in values if v is not None]
    if not present:
        return {"median": None, "p95": None}
    return {"median": percentile(present, 50), "p95": percentile(present, 95)}


def _resampled_means(values: Sequence[float], rng: random.Random, resamples: int) -> list[float]:
    # Sorted first: the same values in another order (xdist) give the same interval.
    ordered = sorted(values)
    return [fmean(rng.choices(ordered, k=len(ordered))) for _ in range(resamples)]


def _interval(estimates: list[float], level: float) -> Interval:
    tail = (1 - level) / 2 * 100
    return percentile(estimates, tail), percentile(estimates, 100 - tail)


def bootstrap_ci(
    values: Sequence[float], resamples: int = RESAMPLES, seed: int = SEED, level: float = LEVEL
) -> Interval | None:
    """Percentile bootstrap CI of the mean; None for no values, (x, x) for one value."""
    if not values:
        return None
    rng = random.Random(seed)
    return _interval(_resampled_means(values, rng, resamples), level)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Chance that at least one of k attempts drawn without replacement from n passes.

    With n < k (a run that stopped early, or ran out of attempts) the k draws are not
    possible; the item then counts as passed when any of its n attempts passed.
    """
    if not 0 <= c <= n or k < 1:
        raise ValueError(f"pass_at_k needs 0 <= c <= n and k >= 1, got n={n} c={c} k={k}")
    if n < k:
        return 1.0 if c > 0 else 0.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def exact_agreement(units: Sequence[Mapping[str, Hashable]]) -> float | None:
    """Share of rater pairs, over all units, whose values are equal; None without pairs."""
    pairs = agreeing = 0
    for unit in units:
        for a, b in combinations(unit.values(), 2):
            pairs += 1
            agreeing += a == b
    return agreeing / pairs if pairs else None


def judge_units(attempts: Iterable[AttemptResult]) -> list[dict[str, float]]:
    """One unit per attempt x metric: judge -> its argmax grade (judges without one left out)."""
    return [
        {g.judge: g.argmax for g in metric.grades if g.argmax is not None}
        for attempt in attempts
        for metric in attempt.metrics()
    ]


def judge_agreement(attempt: AttemptResult) -> float | None:
    """Share of judge pairs whose argmax grades agree, over accuracy and completeness."""
    return exact_agreement(judge_units([attempt]))


Level = Literal["nominal", "ordinal", "interval"]


def _distance(level: Level, totals: Counter[float]) -> Callable[[float, float], float]:
    ordered = sorted(totals)

    def ordinal(c: float, k: float) -> float:
        low, high = min(c, k), max(c, k)
        between = sum(totals[v] for v in ordered if low <= v <= high)
        return (between - (totals[c] + totals[k]) / 2) ** 2

    if level == "nominal":
        return lambda c, k: float(c != k)
    if level == "interval":
        return lambda c, k: (c - k) ** 2
    return ordinal


def krippendorff_alpha(
    units: Sequence[Mapping[str, float]], level: Level = "ordinal"
) -> float | None:
    """Krippendorff's alpha = 1 - D_o / D_e over units rated by two or more raters.

    `units` holds, per unit (an item's metric), rater -> value; a rater that gave no
    value is simply absent. Units with fewer than two values are not pairable and are
    left out, as the coefficient defines. None when nothing is pairable or every value
    is the same (D_e = 0: agreement is then undefined, not perfect).
    """
    pairable = [list(u.values()) for u in units if len(u) >= 2]
    totals: Counter[float] = Counter(v for values in pairable for v in values)
    n = sum(totals.values())
    if n < 2:
        return None
    delta = _distance(level, totals)
    observed = 0.0
    for values in pairable:
        m = len(values)
        observed += sum(delta(a, b) for a, b in combinations(values, 2)) * 2 / (m - 1)
    observed /= n
    expected = (
        sum(totals[c] * totals[k] * delta(c, k) for c, k in combinations(sorted(totals), 2))
        * 2
        / (n * (n - 1))
    )
    if expected == 0:
        return None
    return 1 - observed / expected


def cohen_kappa(pairs: Sequence[tuple[bool, bool]]) -> float | None:
    """Cohen's kappa (p_o - p_e) / (1 - p_e) of paired pass/fail verdicts: 1 full
    agreement, 0 what chance gives with each side's own pass rate (so 0 for a side that
    always gives the same verdict). None without pairs, or when chance agreement is
    already 1 (both sides gave the same one verdict throughout)."""
    if not pairs:
        return None
    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    first = sum(a for a, _ in pairs) / n
    second = sum(b for _, b in pairs) / n
    expected = first * second + (1 - first) * (1 - second)
    if expected >= 1:
        return None
    return (observed - expected) / (1 - expected)
