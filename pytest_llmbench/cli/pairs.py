"""Two models of one or more report dirs compared on the items both scored: the
`--models A B` form of `llmbench compare`, and what `llmbench power` reads.

The dirs are merged as `llmbench merge` merges them (each item once, the newest copy),
every item is scored over the merged set, and the pair is tested as the leaderboard's
pairs are (reporting/pairwise.py), over all items and per category.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..errors import ConfigError
from ..reporting import leaderboard, pairwise
from ..reporting.runs import common_attempts, common_formula, load_run, merge_items, warn
from ..schema.leaderboard import McNemar, Pair

ALL = "(all)"


def p_text(value: float | None) -> str:
    if value is None:
        return "–"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def _signed(value: float | None) -> str:
    return "–" if value is None else f"{value:+.3f}"


def load_units(
    dirs: Sequence[Path], models: Sequence[str], formula: str | None
) -> tuple[list[pairwise.Unit], dict[tuple[str, str], str], str | None]:
    """The units of the two models over the merged dirs, each task's category, and the
    score formula used; a model missing from the dirs is a ConfigError."""
    runs = [load_run(d) for d in dirs]
    warn(runs, sys.stderr)
    items = merge_items(runs)
    chosen = common_formula(runs, formula)
    present = sorted({i.model for i in items})
    for model in models:
        if model not in present:
            raise ConfigError(
                f"--models: no item of {model!r} in the report dirs; they hold {', '.join(present)}"
            )
    if models[0] == models[1]:
        raise ConfigError(f"--models: name two different models, got {models[0]!r} twice")
    scores = leaderboard.scores(items, common_attempts(runs), chosen)
    units = [u for u in leaderboard.units(items, scores) if u.model in models]
    categories = {(i.scenario, str(i.dataset)): i.category for i in items}
    return units, categories, chosen


def model_pairs(
    units: Sequence[pairwise.Unit], categories: dict[tuple[str, str], str], a: str, b: str
) -> list[tuple[str, Pair]]:
    """(ALL, the pair over every item), then (category, the pair over its items)."""
    groups: dict[str, list[pairwise.Unit]] = {ALL: list(units)}
    for unit in units:
        groups.setdefault(categories[unit.task], []).append(unit)
    out = []
    for name in [ALL, *sorted(k for k in groups if k != ALL)]:
        mine = pairwise.by_model(groups[name])
        out.append((name, pairwise.pair(a, b, mine.get(a, {}), mine.get(b, {}))))
    return out


def _mcnemar(m: McNemar) -> str:
    return "–" if not m.items else f"{m.a_only}/{m.b_only} of {m.items}, p {p_text(m.p)}"


def render(found: Sequence[tuple[str, Pair]]) -> list[str]:
    lines = [
        "| Category | Items (scenarios) | A | B | Difference | 95% CI | p | Detectable "
        "| pass@1 A/B only | Tests pass@1 A/B only |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, p in found:
        ci = "–" if not p.difference_ci else "{:+.3f} to {:+.3f}".format(*p.difference_ci)
        scores = ["–" if v is None else f"{v:.3f}" for v in (p.a_score, p.b_score)]
        detectable = "–" if p.detectable is None else f"{p.detectable:.3f}"
        lines.append(
            f"| {name} | {p.items} ({p.scenarios}) | {scores[0]} | {scores[1]} | "
            f"{_signed(p.difference)} | {ci} | {p_text(p.p)} | {detectable} | "
            f"{_mcnemar(p.pass_at_1)} | {_mcnemar(p.tests_pass_at_1)} |"
        )
    return lines


def run(args: argparse.Namespace) -> int:
    a, b = args.models
    units, categories, formula = load_units(args.dirs, [a, b], args.score_formula)
    print(
        f"score formula {formula or 'category defaults'}; A = {a}, B = {b}; difference = "
        "A - B over the items both scored, paired; interval and p resample or flip whole "
        "scenarios; detectable: the smallest difference found with 80% power; McNemar "
        "p exact; p not adjusted across the rows"
    )
    for line in render(model_pairs(units, categories, a, b)):
        print(line)
    return 0
