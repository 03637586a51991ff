"""The score formulas of the method (method.md section 4), by name.

Every formula scores one item from its accuracy and completeness (1-4), its generation
rate relative to MaxRate, its best attempt and, for `functional`, its functional rate.
MaxRate is the highest mean generation rate over the models of one leaderboard, so
`weighted` scores are only known once every row is; the other formulas ignore rate and
attempt.

    weighted    0.4*Acc/4 + 0.4*Compl/4 + 0.1*Rate/MaxRate + 0.1*(A-Attempt)/(A-1)
    sum8        (Acc + Compl) / 8                       on the 1..4 scale
    unit        (Acc' + Compl') / 2                     with x' = (x - 1) / 3 on 0..1
    multimodal  0.9*Acc' + 0.1*Compl'                   with x' = (x - 1) / 3 on 0..1
    functional  0.5*F + 0.25*Acc' + 0.25*Compl'         F = the item's functional rate

A is the number of attempts allowed (A = 3 gives the method's (3 - Attempt)/2; A = 1
gives 1). An item with no generation rate (offline models) gets 0 for the rate term.

`functional` weighs what the answer's code does (F: hidden tests passed / tests, or
mutants killed / mutants, mean over the item's attempts; 0..1) as much as what the
judges or checks found (Acc' and Compl'). An item without hidden tests has no F: it is
scored by `unit`, the same formula with F's half given to the judged terms, so it stays on the same 0..1
scale with the same do-nothing floor (0), and the row's `formula` then lists both
(`functional,unit`). Such items are scored, never dropped nor given F = 0.

With no formula chosen, each item is scored by its category's default (CATEGORY_DEFAULTS:
the multimodal category by `multimodal`, every other by `weighted`); a formula chosen
with --llm-score-formula scores every item. All formulas give 0..1, so a row that mixes
categories (a model's overall row) averages item scores that are on one scale, each by
its own category's formula; the row's `formula` lists every formula used in it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

DEFAULT = "weighted"


@dataclass(frozen=True)
class Terms:
    """What a formula may use of one item."""

    accuracy: float
    completeness: float
    rate: float  # Rate / MaxRate, 0 when unknown
    attempt: float  # (A - Attempt) / (A - 1), 1 when A = 1
    functional: float | None = None  # the item's functional rate 0..1; None: no hidden tests


def _unit(grade: float) -> float:
    return (grade - 1) / 3


def _functional(t: Terms) -> float:
    if t.functional is None:
        raise ValueError("the functional formula needs the item's functional rate")
    return 0.5 * t.functional + 0.25 * _unit(t.accuracy) + 0.25 * _unit(t.completeness)


@dataclass(frozen=True)
class Formula:
    name: str
    text: str
    compute: Callable[[Terms], float]
    uses_rate: bool = False
    # The formula that scores an item without hidden tests (None: the formula needs none).
    untested: str | None = None


FORMULAS: dict[str, Formula] = {
    f.name: f
    for f in (
        Formula(
            "weighted",
            "0.4*Acc/4 + 0.4*Compl/4 + 0.1*Rate/MaxRate + 0.1*(A-Attempt)/(A-1)",
            lambda t: (
                0.4 * t.accuracy / 4 + 0.4 * t.completeness / 4 + 0.1 * t.rate + 0.1 * t.attempt
            ),
            uses_rate=True,
        ),
        Formula("sum8", "(Acc + Compl)/8 on 1..4", lambda t: (t.accuracy + t.completeness) / 8),
        Formula(
            "unit",
            "(Acc + Compl)/2 on 0..1 (x' = (x-1)/3)",
            lambda t: (_unit(t.accuracy) + _unit(t.completeness)) / 2,
        ),
        Formula(
            "multimodal",
            "0.9*Acc + 0.1*Compl on 0..1 (x' = (x-1)/3)",
            lambda t: 0.9 * _unit(t.accuracy) + 0.1 * _unit(t.completeness),
        ),
        Formula(
            "functional",
            "0.5*Functional + 0.25*Acc + 0.25*Compl on 0..1 (x' = (x-1)/3, Functional = "
            "hidden tests passed / tests, unit for items without hidden tests)",
            _functional,
            untested="unit",
        ),
    )
}

# Category id -> formula used when the user names none; other categories use DEFAULT.
# The method's multimodal variant weighs accuracy (does the change match the image) most.
CATEGORY_DEFAULTS: Mapping[str, str] = {"multimodal": "multimodal"}


def formula_for(category: str, chosen: str | None, tested: bool = False) -> Formula:
    """The formula a user chose, else the category's default, else DEFAULT; for an item
    without hidden tests (`tested` false), a formula's `untested` stand-in."""
    formula = FORMULAS[chosen or CATEGORY_DEFAULTS.get(category, DEFAULT)]
    return FORMULAS[formula.untested] if formula.untested and not tested else formula


def quality(accuracy: float, completeness: float) -> float:
    """(Acc + Compl)/8: the per-item figure that does not depend on other models."""
    return FORMULAS["sum8"].compute(Terms(accuracy, completeness, 0.0, 0.0))
