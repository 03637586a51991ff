"""Statistics of the leaderboard against cases computed by hand."""

from __future__ import annotations

import pytest

from pytest_llmbench.judging import statistics as st


def test_percentile_interpolates_between_closest_ranks() -> None:
    # Position (4 - 1) * 0.95 = 2.85: 3 + 0.85 * (4 - 3).
    assert st.percentile([4, 1, 3, 2], 95) == pytest.approx(3.85)
    assert st.percentile([4, 1, 3, 2], 50) == pytest.approx(2.5)
    assert st.median_p95([None, 2.0, None]) == {"median": 2.0, "p95": 2.0}
    assert st.median_p95([None]) == {"median": None, "p95": None}


def test_bootstrap_of_two_values_spans_both() -> None:
    # Resampled means of {0, 1} are 0, 0.5, 1 with chances 1/4, 1/2, 1/4: the 2.5% and
    # 97.5% percentiles are 0 and 1.
    assert st.bootstrap_ci([0.0, 1.0]) == (0.0, 1.0)


def test_bootstrap_is_reproducible_and_order_free() -> None:
    values = [0.2, 0.9, 0.4, 0.7, 0.55, 0.1, 0.8]
    first = st.bootstrap_ci(values)
    assert first is not None
    assert st.bootstrap_ci(values) == first
    assert st.bootstrap_ci(list(reversed(values))) == first
    low, high = first
    assert low < sum(values) / len(values) < high
    assert st.bootstrap_ci([0.5] * 4) == (0.5, 0.5)
    assert st.bootstrap_ci([]) is None


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (3, 1, 1, 1 / 3),  # c / n
        (3, 1, 2, 1 - 1 / 3),  # 1 - C(2, 2) / C(3, 2)
        (3, 0, 2, 0.0),
        (3, 3, 3, 1.0),
        (5, 2, 3, 1 - 1 / 10),  # 1 - C(3, 3) / C(5, 3)
        (1, 1, 3, 1.0),  # stopped early after a pass
        (2, 0, 3, 0.0),
    ],
)
def test_pass_at_k(n: int, c: int, k: int, expected: float) -> None:
    assert st.pass_at_k(n, c, k) == pytest.approx(expected)


def test_pass_at_k_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="c <= n"):
        st.pass_at_k(2, 3, 1)


def test_exact_agreement_counts_rater_pairs() -> None:
    # Unit 1: one pair, equal. Unit 2: pairs (1,2), (1,2), (2,2): one equal. 2 of 4.
    units = [{"a": 1, "b": 1}, {"a": 1, "b": 2, "c": 2}, {"a": 3}]
    assert st.exact_agreement(units) == 0.5
    assert st.exact_agreement([{"a": 1}]) is None


def test_alpha_small_case_by_hand() -> None:
    # Values 1,1 | 2,2 | 1,2: n = 6, n_1 = n_2 = 3. Observed disagreement: unit 3 gives
    # o_12 + o_21 = 2, D_o = 2 / 6. Expected: 2 * n_1 * n_2 / (n (n - 1)) = 18 / 30.
    # alpha = 1 - (1/3) / (3/5) = 4/9. With two values the ordinal distance is one
    # constant (9), which cancels: the ordinal alpha is the same.
    units = [{"a": 1, "b": 1}, {"a": 2, "b": 2}, {"a": 1, "b": 2}]
    assert st.krippendorff_alpha(units, "nominal") == pytest.approx(4 / 9)
    assert st.krippendorff_alpha(units, "ordinal") == pytest.approx(4 / 9)


def test_ordinal_alpha_differs_from_nominal_by_hand() -> None:
    # Values 1,1 | 2,3 | 3,3 | 1,3: n = 8, n_1 = 3, n_2 = 1, n_3 = 4.
    # Ordinal distance d(c, k) = (n_c + ... + n_k - (n_c + n_k)/2)^2:
    # d(1,2) = (4 - 2)^2 = 4, d(2,3) = (5 - 2.5)^2 = 6.25, d(1,3) = (8 - 3.5)^2 = 20.25.
    # D_o = (2 * 6.25 + 2 * 20.25) / 8 = 6.625 (units 2 and 4, each pair counted both ways).
    # D_e = 2 * (3*1*4 + 1*4*6.25 + 3*4*20.25) / (8 * 7) = 10. alpha = 1 - 6.625/10.
    # Nominal: D_o = 4/8, D_e = 2 * (3 + 4 + 12) / 56 = 19/28, alpha = 1 - 14/19 = 5/19.
    # (The same figures as the `krippendorff` package on PyPI gives for this matrix.)
    units = [{"a": 1, "b": 1}, {"a": 2, "b": 3}, {"a": 3, "b": 3}, {"a": 1, "b": 3}]
    assert st.krippendorff_alpha(units, "ordinal") == pytest.approx(0.3375)
    assert st.krippendorff_alpha(units, "nominal") == pytest.approx(5 / 19)


def test_alpha_textbook_example() -> None:
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 observers,
    # 12 units, values 1-5 with missing data; published alpha nominal 0.743,
    # ordinal 0.815, interval 0.849. Unit 12 has one value and is not pairable.
    rows = {
        "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        "C": [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    }
    units = [
        {rater: values[u] for rater, values in rows.items() if values[u] is not None}
        for u in range(12)
    ]
    assert st.krippendorff_alpha(units, "nominal") == pytest.approx(0.743, abs=5e-4)
    assert st.krippendorff_alpha(units, "ordinal") == pytest.approx(0.815, abs=5e-4)
    assert st.krippendorff_alpha(units, "interval") == pytest.approx(0.849, abs=5e-4)


def test_alpha_undefined_without_pairs_or_variation() -> None:
    assert st.krippendorff_alpha([{"a": 3}, {"b": 2}]) is None
    assert st.krippendorff_alpha([{"a": 3, "b": 3}, {"a": 3, "b": 3}]) is None
