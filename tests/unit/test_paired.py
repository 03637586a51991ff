"""Paired statistics against scipy and statsmodels, computed independently: exact tests
within 1e-9, resampling within Monte Carlo error."""

from __future__ import annotations

import random

import numpy as np
import pytest
from scipy import stats
from statsmodels.regression.linear_model import OLS
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower

from pytest_llmbench.judging import paired


def _data(seed: int, clusters: int, per: int, shift: float) -> tuple[list[float], list[str]]:
    rng = random.Random(seed)
    diffs, labels = [], []
    for c in range(clusters):
        effect = rng.gauss(shift, 0.1)  # items of a scenario share its effect
        for _ in range(rng.randint(1, per)):
            diffs.append(round(effect + rng.gauss(0, 0.05), 6))
            labels.append(f"S{c:02d}")
    return diffs, labels


@pytest.mark.parametrize(("a_only", "b_only"), [(0, 0), (3, 0), (1, 9), (7, 5), (12, 30), (0, 1)])
def test_mcnemar_is_statsmodels_exact(a_only: int, b_only: int) -> None:
    table = [[20, a_only], [b_only, 11]]
    expected = mcnemar(table, exact=True).pvalue if a_only + b_only else 1.0
    assert paired.mcnemar_p(a_only, b_only) == pytest.approx(expected, abs=1e-9)


def test_holm_is_statsmodels_holm() -> None:
    pvalues = [0.01, 0.04, 0.03, 0.005, 0.5, 0.04]
    expected = multipletests(pvalues, method="holm")[1]
    assert paired.holm(pvalues) == pytest.approx(list(expected), abs=1e-12)
    # Missing p-values are left out of the family.
    with_gaps = paired.holm([0.01, None, 0.04])
    assert with_gaps[1] is None
    assert with_gaps[0] == pytest.approx(0.02) and with_gaps[2] == pytest.approx(0.04)


def _scipy_sign_flip(diffs: list[float], labels: list[str], resamples: float) -> float:
    sums = [s for s, _ in paired.cluster_sums(diffs, labels)]
    # The two models' cluster sums swapped within each pair: scipy's paired permutations.
    first, second = np.array(sums), np.zeros(len(sums))
    result = stats.permutation_test(
        (first, second),
        lambda x, y, axis: np.mean(x - y, axis=axis),
        permutation_type="samples",
        n_resamples=resamples,
        vectorized=True,
        alternative="two-sided",
        random_state=1,
    )
    return float(result.pvalue)


@pytest.mark.parametrize(("clusters", "shift"), [(6, 0.0), (9, 0.04), (12, 0.1), (2, 0.2)])
def test_exact_sign_flip_is_scipy_exact(clusters: int, shift: float) -> None:
    diffs, labels = _data(clusters, clusters, 3, shift)
    expected = _scipy_sign_flip(diffs, labels, np.inf)
    assert paired.sign_flip_p(diffs, labels) == pytest.approx(expected, abs=1e-9)


def test_random_sign_flips_match_scipy_within_monte_carlo_error() -> None:
    diffs, labels = _data(3, 30, 2, 0.03)
    ours = paired.sign_flip_p(diffs, labels)
    expected = _scipy_sign_flip(diffs, labels, 200_000)
    assert ours is not None and 0.01 < expected < 0.99
    # Stopped after STOP_HITS hits: the estimate's relative error is about 1/sqrt(hits).
    assert abs(ours - expected) < 4 * expected / paired.STOP_HITS**0.5
    # A small p draws every pattern: binomial error of PERMUTATIONS draws.
    strong, labels = _data(4, 30, 2, 0.06)
    small = paired.sign_flip_p(strong, labels)
    reference = _scipy_sign_flip(strong, labels, 200_000)
    assert small is not None and reference < 0.005
    assert (
        abs(small - reference)
        < 4 * (reference / paired.PERMUTATIONS) ** 0.5 + 1 / paired.PERMUTATIONS
    )


def test_scenarios_without_a_difference_leave_the_test_exact() -> None:
    # 30 scenarios, 8 of them one way: the 22 zero sums flip to themselves, so the exact
    # p is that of the 8 alone, 2 / 2**8 (no random patterns needed).
    diffs = [0.1] * 8 + [0.0] * 22
    assert paired.sign_flip_p(diffs, [f"S{i:02d}" for i in range(30)]) == 2 / 2**8


def test_identical_scores_give_p_one_and_a_zero_interval() -> None:
    zeros, labels = [0.0] * 40, [f"S{i % 25}" for i in range(40)]
    assert paired.sign_flip_p(zeros, labels) == 1.0
    # One scenario: its sign flipped is as far from 0 as kept, so nothing can be told.
    assert paired.sign_flip_p([0.3, 0.4], ["A", "A"]) == 1.0
    assert paired.cluster_bootstrap_ci(zeros, labels) == (0.0, 0.0)
    assert paired.sign_flip_p([], []) is None and paired.cluster_bootstrap_ci([], []) is None
    # One scenario says nothing of the spread between scenarios: no interval.
    assert paired.cluster_bootstrap_ci([0.2, 0.4], ["A", "A"]) is None


def test_cluster_bootstrap_matches_scipy_within_monte_carlo_error() -> None:
    diffs, labels = _data(7, 14, 4, 0.05)
    groups = paired.cluster_sums(diffs, labels)
    sums = np.array([s for s, _ in groups])
    counts = np.array([n for _, n in groups])
    result = stats.bootstrap(
        (np.arange(len(groups)),),
        lambda index: sums[index].sum() / counts[index].sum(),
        vectorized=False,
        method="percentile",
        n_resamples=20_000,
        random_state=2,
    )
    ours = paired.cluster_bootstrap_ci(diffs, labels)
    assert ours is not None
    spread = float(result.standard_error)
    # Percentile endpoints of 2,000 resamples vary by about a fifth of a standard error.
    assert ours[0] == pytest.approx(result.confidence_interval.low, abs=0.25 * spread)
    assert ours[1] == pytest.approx(result.confidence_interval.high, abs=0.25 * spread)


def test_bootstrap_resamples_clusters_not_items() -> None:
    # Two scenarios, each of ten identical differences: resampling items would give a
    # narrow interval; resampling the two scenarios gives means 0, 0.5 and 1 only.
    diffs = [0.0] * 10 + [1.0] * 10
    labels = ["A"] * 10 + ["B"] * 10
    assert paired.cluster_bootstrap_ci(diffs, labels) == (0.0, 1.0)
    shuffled = list(zip(diffs, labels, strict=True))
    random.Random(5).shuffle(shuffled)
    assert paired.cluster_bootstrap_ci(*map(list, zip(*shuffled, strict=True))) == (0.0, 1.0)


def test_cluster_se_is_statsmodels_cluster_robust() -> None:
    diffs, labels = _data(11, 10, 5, 0.02)
    groups = np.unique(labels, return_inverse=True)[1]
    fit = OLS(np.array(diffs), np.ones(len(diffs))).fit(
        cov_type="cluster", cov_kwds={"groups": groups}
    )
    assert paired.cluster_se(diffs, labels) == pytest.approx(float(fit.bse[0]), abs=1e-12)
    assert paired.cluster_se([0.1, 0.2], ["A", "A"]) is None


def test_detectable_difference_and_items_needed_match_statsmodels_power() -> None:
    power = NormalIndPower()
    # One-sample two-sided z-test (ratio 0): effect size = difference / sd.
    for sd, difference in [(0.2, 0.05), (0.1, 0.02), (0.3, 0.1)]:
        n = power.solve_power(effect_size=difference / sd, alpha=0.05, power=0.8, ratio=0)
        assert paired.items_needed(sd, difference) == int(np.ceil(n))
        detectable = paired.detectable(sd / np.sqrt(n), clusters=int(n))
        assert detectable == pytest.approx(difference, rel=1e-4)
    assert paired.detectable(None, 10) is None
    # Five scenarios: the test's smallest p is 2 / 2**5 > 0.05, so nothing is detectable.
    assert paired.detectable(0.1, 5) is None and paired.detectable(0.1, 6) is not None
    with pytest.raises(ValueError, match="difference > 0"):
        paired.items_needed(0.1, 0.0)
