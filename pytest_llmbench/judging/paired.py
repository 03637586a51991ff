"""Paired statistics: two models (or two runs of one model) on the same items. Pure
functions, no I/O; every resampling draws from a seeded RNG, so the same data give the
same figures in any order.

Items of one scenario are not independent (its datasets share a prompt and criteria), so
the score tests treat a *cluster* (the scenario) as the unit that is resampled or whose
sign is flipped, and the mean difference is over items: sum of differences / items.

- `cluster_bootstrap_ci`: percentile bootstrap interval of the mean difference,
  resampling whole clusters with replacement.
- `sign_flip_p`: two-sided paired permutation p-value of the mean difference: under the
  null the two models' labels are exchangeable within a cluster, so each cluster's sum of
  differences keeps or flips its sign. Exact (every sign pattern) when at most
  EXACT_CLUSTERS clusters have a nonzero sum, else random patterns: up to PERMUTATIONS
  with p = (hits + 1) / (PERMUTATIONS + 1), stopping early with p = STOP_HITS / patterns
  drawn once STOP_HITS of them reach the observed difference.
- `mcnemar_p`: exact two-sided McNemar p-value of paired pass/fail verdicts (binomial
  test of the discordant pairs at 1/2).
- `holm`: Holm's step-down adjustment of a family of p-values.
- `cluster_se`: cluster-robust standard error of the mean difference (the sandwich
  estimator with the G / (G - 1) small-sample factor).
- `detectable`: the smallest true difference found with the given power by a two-sided
  test at the given level, for a standard error; `items_needed`: items for a difference.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from math import ceil, comb, sqrt
from statistics import NormalDist

from .statistics import LEVEL, RESAMPLES, SEED, Interval, percentile

PERMUTATIONS = 10000
# Random patterns stop once this many reach the observed difference (Besag and Clifford's
# sequential Monte Carlo p-value, valid as it stands): a pair that is clearly not
# different costs a few hundred patterns, not PERMUTATIONS.
STOP_HITS = 100
EXACT_CLUSTERS = 12
POWER = 0.8
# Flipped sums this close to the observed one count as reaching it (float sums of the
# same numbers in another order differ in the last bits; scores are on a 0..1 scale).
_TIE = 1e-9


def cluster_sums(diffs: Sequence[float], clusters: Sequence[str]) -> list[tuple[float, int]]:
    """(sum of differences, items) per cluster, in the clusters' sorted order."""
    if len(diffs) != len(clusters):
        raise ValueError(f"{len(diffs)} differences but {len(clusters)} cluster labels")
    sums: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for diff, cluster in sorted(zip(diffs, clusters, strict=True), key=lambda p: (p[1], p[0])):
        sums[cluster] += diff
        counts[cluster] += 1
    return [(sums[c], counts[c]) for c in sorted(sums)]


def cluster_bootstrap_ci(
    diffs: Sequence[float],
    clusters: Sequence[str],
    resamples: int = RESAMPLES,
    seed: int = SEED,
    level: float = LEVEL,
) -> Interval | None:
    """Percentile bootstrap interval of sum(diffs) / len(diffs), clusters resampled
    whole; None with fewer than two clusters (one cluster says nothing of the spread
    between clusters: its every resample is itself)."""
    groups = cluster_sums(diffs, clusters)
    if len(groups) < 2:
        return None
    sums, counts = [s for s, _ in groups], [n for _, n in groups]
    rng = random.Random(seed)
    means = []
    every = range(len(groups))
    for _ in range(resamples):
        drawn = rng.choices(every, k=len(groups))
        means.append(sum(map(sums.__getitem__, drawn)) / sum(map(counts.__getitem__, drawn)))
    tail = (1 - level) / 2 * 100
    return percentile(means, tail), percentile(means, 100 - tail)


def sign_flip_p(
    diffs: Sequence[float],
    clusters: Sequence[str],
    permutations: int = PERMUTATIONS,
    seed: int = SEED,
) -> float | None:
    """Two-sided permutation p-value of the mean difference; None without differences."""
    groups = cluster_sums(diffs, clusters)
    if not groups:
        return None
    # A cluster whose differences sum to 0 is the same under either sign: leaving it out
    # changes no total, and more often leaves few enough clusters to count every pattern.
    sums = [s for s, _ in groups if abs(s) > _TIE / len(groups)]
    observed = abs(sum(sums)) - _TIE
    if len(sums) <= EXACT_CLUSTERS:
        totals = [0.0]
        for s in sums:
            totals = [t + s for t in totals] + [t - s for t in totals]
        return sum(abs(t) >= observed for t in totals) / len(totals)
    # Random patterns a byte at a time: each block of 8 clusters has the sums of its 256
    # sign patterns ready, so a pattern costs a lookup per block, not one per cluster.
    tables = [_pattern_sums(sums[i : i + 8]) for i in range(0, len(sums), 8)]
    rng = random.Random(seed)
    hits = 0
    for drawn in range(1, permutations + 1):
        bits = rng.getrandbits(8 * len(tables))
        total = 0.0
        for table in tables:
            total += table[bits & (len(table) - 1)]
            bits >>= 8
        hits += abs(total) >= observed
        if hits == STOP_HITS:
            return hits / drawn  # Besag and Clifford's sequential p: clearly not small
    return (hits + 1) / (permutations + 1)


def _pattern_sums(block: Sequence[float]) -> list[float]:
    """The block's sum under every sign pattern; bit j of the index flips element j."""
    return [
        sum(-s if mask >> j & 1 else s for j, s in enumerate(block))
        for mask in range(1 << len(block))
    ]


def mcnemar_p(a_only: int, b_only: int) -> float:
    """Exact two-sided McNemar p-value from the discordant counts (pass by one side
    only); 1 when there is no discordant pair."""
    n = a_only + b_only
    if n == 0:
        return 1.0
    tail: int = sum(comb(n, i) for i in range(min(a_only, b_only) + 1))
    return min(1.0, 2 * tail / (1 << n))


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm-adjusted p-values in the given order; None entries stay None and are not
    counted in the family."""
    present = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    adjusted: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, index) in enumerate(present):
        running = max(running, min(1.0, (len(present) - rank) * p))
        adjusted[index] = running
    return adjusted


def cluster_se(diffs: Sequence[float], clusters: Sequence[str]) -> float | None:
    """Cluster-robust standard error of the mean difference; None with fewer than two
    clusters (the spread between clusters is then unknown)."""
    groups = cluster_sums(diffs, clusters)
    if len(groups) < 2:
        return None
    n = len(diffs)
    mean = sum(diffs) / n
    spread = sum((s - k * mean) ** 2 for s, k in groups)
    return sqrt(len(groups) / (len(groups) - 1) * spread) / n


def _z_sum(level: float, power: float) -> float:
    normal = NormalDist()
    return normal.inv_cdf(1 - (1 - level) / 2) + normal.inv_cdf(power)


def reachable(clusters: int, level: float = LEVEL) -> bool:
    """Whether the sign-flip test over this many clusters can reach p < 1 - level at all:
    its smallest p, every cluster one way, is 2 / 2**clusters."""
    return 2 / (1 << clusters) < 1 - level


def detectable(
    se: float | None, clusters: int, level: float = LEVEL, power: float = POWER
) -> float | None:
    """Minimum detectable difference: (z_(1 - alpha/2) + z_power) * se; None without a
    standard error, or when the clusters are too few for the test to reach the level."""
    if se is None or not reachable(clusters, level):
        return None
    return _z_sum(level, power) * se


def items_needed(sd: float, difference: float, level: float = LEVEL, power: float = POWER) -> int:
    """Independent items a paired test needs to find `difference` with `power`, when one
    item's difference has standard deviation `sd` (n = ((z_a + z_b) * sd / difference)^2)."""
    if difference <= 0 or sd < 0:
        raise ValueError(f"items_needed needs difference > 0 and sd >= 0, got {difference}, {sd}")
    return max(1, ceil((_z_sum(level, power) * sd / difference) ** 2))
