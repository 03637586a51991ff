"""`llmbench power`: how many items a wanted score difference needs.

For a paired comparison of two models on the same items, a two-sided test at the level
given finds a true difference D with the power given when the standard error of the mean
difference is at most D / (z_(1 - alpha/2) + z_power). Given --sd (the standard
deviation of one item's score difference) that is n = ((z_a + z_b) * sd / D)^2
independent items. Given report dirs and --models A B, the observed differences say it:
the clustered standard error of the current items (scenarios resampled whole, as the
leaderboard's pairs do) gives the smallest difference they detect now, and, with more
items of the same kind (as many per scenario), the items D needs: n * (detectable / D)^2.
Attempts are not modelled: the pairs compare attempt 1 and the best attempt's score.
"""

from __future__ import annotations

import argparse
from math import ceil
from pathlib import Path
from statistics import stdev
from typing import Any

from ..errors import ConfigError
from ..judging import paired
from ..judging.formulas import FORMULAS
from ..judging.statistics import LEVEL
from ..reporting import pairwise
from .pairs import load_units


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number between 0 and 1, got {text!r}"
        ) from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {value}")
    return value


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {value}")
    return value


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "power",
        help="items needed to tell two models apart by a given score difference",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument(
        "dirs", type=Path, nargs="*", metavar="DIR", help="report dirs (with --models)"
    )
    parser.add_argument(
        "--difference",
        type=_fraction,
        required=True,
        metavar="D",
        help="the score difference to detect, 0-1",
    )
    parser.add_argument(
        "--sd", type=_positive, default=None, help="standard deviation of one item's difference"
    )
    parser.add_argument(
        "--models", nargs=2, metavar=("A", "B"), default=None, help="the pair of the report dirs"
    )
    parser.add_argument(
        "--level", type=_fraction, default=LEVEL, help=f"confidence level (default {LEVEL})"
    )
    parser.add_argument(
        "--power", type=_fraction, default=paired.POWER, help=f"power (default {paired.POWER})"
    )
    parser.add_argument(
        "--score-formula",
        choices=list(FORMULAS),
        default=None,
        help="score formula (default: the runs')",
    )
    parser.set_defaults(handler=run)


def _from_sd(args: argparse.Namespace) -> list[str]:
    n = paired.items_needed(args.sd, args.difference, args.level, args.power)
    return [
        f"items needed: {n} (independent items; items of one scenario count for less) to find "
        f"a score difference of {args.difference} with power {args.power} at level "
        f"{args.level}, two-sided, one item's difference having sd {args.sd}"
    ]


def _from_runs(args: argparse.Namespace) -> list[str]:
    a, b = args.models
    units, _, _ = load_units(args.dirs, [a, b], args.score_formula)
    mine = pairwise.by_model(units)
    both = pairwise.scored_pairs(mine.get(a, {}), mine.get(b, {}))
    diffs = [x - y for _, x, y in both]
    clusters = [scenario for (scenario, _), _, _ in both]
    se = paired.cluster_se(diffs, clusters)
    if se is None or not paired.reachable(len(set(clusters)), args.level):
        raise ConfigError(
            f"--models: {a} and {b} share items of {len(set(clusters))} scenario(s); "
            f"a paired test at level {args.level} needs more to tell any difference"
        )
    lines = [
        f"{a} vs {b}: {len(diffs)} items both scored, {len(set(clusters))} scenarios; mean "
        f"difference {sum(diffs) / len(diffs):+.3f}, sd of an item's difference "
        f"{stdev(diffs):.3f}, clustered standard error {se:.4f}",
    ]
    found = paired.detectable(se, len(set(clusters)), args.level, args.power) or 0.0
    lines.append(f"detectable now: {found:.3f} (power {args.power}, level {args.level}, two-sided)")
    needed = len(diffs) if found == 0 else ceil(len(diffs) * (found / args.difference) ** 2)
    lines.append(
        f"items needed for a difference of {args.difference}: {max(needed, 1)} "
        f"(items of the same kind, as many per scenario as now)"
    )
    return lines


def run(args: argparse.Namespace) -> int:
    if args.sd is not None and (args.dirs or args.models):
        raise ConfigError("power: give --sd, or report dirs with --models A B, not both")
    if args.sd is not None:
        lines = _from_sd(args)
    elif args.dirs and args.models:
        lines = _from_runs(args)
    else:
        raise ConfigError("power: give --sd S, or report dirs with --models A B")
    for line in lines:
        print(line)
    return 0
