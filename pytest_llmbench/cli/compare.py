"""`llmbench compare BASE NEW`: the change of score per model and model x category;
`llmbench compare --models A B DIR...`: two models compared on the items both scored.

Each run's item scores are computed within that run (the weighted score's MaxRate is
the run's own). The change is mean(NEW) - mean(BASE) over the items scored in both runs
(same scenario and dataset; the table says how many, and how many each run had). The
comparison is paired: an item's two scores are one difference, and the 95% percentile
bootstrap interval of the mean difference resamples whole scenarios (their datasets'
items are not independent), seeded; p is the paired permutation test (signs flipped per
scenario). With --fail-on-regression=DELTA the command exits 1 when some row regressed
beyond noise: the upper end of its difference interval is below -DELTA, i.e. even the
most favourable reading of the data has the score drop by more than DELTA.

With --models A B the report dirs are merged (as `llmbench merge` does) and the two
models are compared as the leaderboard's pairs are (reporting/pairwise.py), over all
their items and per category: the mean difference A - B with its clustered interval and
permutation p, the smallest difference the items could detect with 80% power, and the
exact McNemar p of pass@1 and of tests pass@1 (items passed by A only / by B only).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Any

from ..errors import ConfigError
from ..judging import paired
from ..reporting import leaderboard, markdown
from ..reporting.history import report_dir_of
from ..reporting.runs import Run, common_attempts, common_formula, load_run, warn
from . import pairs
from .options import add_cache_dir, add_score_formula, cache_dir

ALL = "(all)"


def _delta(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="change of score between two report dirs, with confidence intervals",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument(
        "dirs",
        type=Path,
        nargs="+",
        metavar="DIR",
        help="BASE NEW: report dirs (or run ids of llmbench history) of the baseline and "
        "the new run; with --models, the report dirs holding both models (merged)",
    )
    parser.add_argument(
        "--models",
        nargs=2,
        metavar=("A", "B"),
        default=None,
        help="compare model A with model B on the items both scored",
    )
    parser.add_argument(
        "--fail-on-regression",
        type=_delta,
        default=None,
        metavar="DELTA",
        help="exit 1 when a score's difference interval lies entirely below -DELTA",
    )
    add_score_formula(parser)
    add_cache_dir(parser)
    parser.set_defaults(handler=run)


# (model, ALL or category) -> (scenario, dataset) -> the item's score
Groups = dict[tuple[str, str], dict[tuple[str, str], float]]


def groups(run: Run, attempts: int, formula: str | None) -> Groups:
    """Scored items' scores per (model, ALL) and (model, category), by scenario x dataset."""
    groups: Groups = defaultdict(dict)
    for item, score in zip(
        run.items, leaderboard.scores(run.items, attempts, formula), strict=True
    ):
        if score is not None:
            task = (item.scenario, str(item.dataset))
            groups[(item.model, ALL)][task] = score
            groups[(item.model, item.category)][task] = score
    return groups


@dataclass(frozen=True)
class Change:
    """One row of the comparison: a model (category ALL) or a model x category."""

    model: str
    category: str
    base: float | None  # mean score of BASE over the items scored in both runs
    new: float | None
    change: float | None  # new - base
    ci: tuple[float, float] | None  # 95% paired bootstrap interval, scenarios resampled
    p: float | None  # paired permutation p-value of the change
    items: tuple[int, int, int]  # scored in both, in BASE, in NEW (the means use both)
    regressed: bool  # the interval lies entirely below -DELTA


def compare(base: Groups, new: Groups, delta: float | None) -> list[Change]:
    rows = []
    for key in sorted(set(base) | set(new), key=lambda k: (k[0], k[1] != ALL, k[1])):
        before, after = base.get(key, {}), new.get(key, {})
        common = sorted(set(before) & set(after))
        old, now = [before[t] for t in common], [after[t] for t in common]
        diffs = [n - o for o, n in zip(old, now, strict=True)]
        clusters = [scenario for scenario, _ in common]
        interval = paired.cluster_bootstrap_ci(diffs, clusters)
        rows.append(
            Change(
                model=key[0],
                category=key[1],
                base=fmean(old) if old else None,
                new=fmean(now) if now else None,
                change=fmean(now) - fmean(old) if old and now else None,
                ci=interval,
                p=paired.sign_flip_p(diffs, clusters),
                items=(len(common), len(before), len(after)),
                regressed=delta is not None and interval is not None and interval[1] < -delta,
            )
        )
    return rows


def _num(value: float | None, signed: bool = False) -> str:
    return "–" if value is None else f"{value:+.3f}" if signed else f"{value:.3f}"


def render(rows: Sequence[Change]) -> list[str]:
    headers = ["Model", "Category", "Base", "New", "Change", "95% CI of change", "p"]
    headers += ["Items common (base/new)", "Regression"]
    cells = []
    for r in rows:
        ci = "–" if r.ci is None else f"{r.ci[0]:+.3f} to {r.ci[1]:+.3f}"
        items = f"{r.items[0]} ({r.items[1]}/{r.items[2]})"
        flag = "REGRESSION" if r.regressed else ""
        change = _num(r.change, True)
        cells.append(
            [r.model, r.category, _num(r.base), _num(r.new), change, ci, pairs.p_text(r.p)]
            + [items, flag]
        )
    return markdown.table(headers, cells)


def run(args: argparse.Namespace) -> int:
    # a run id of the history (llmbench history) stands for its report dir
    cache = cache_dir(args)
    args.dirs = [report_dir_of(ref, cache) for ref in args.dirs]
    if args.models is not None:
        if args.fail_on_regression is not None:
            raise ConfigError("--fail-on-regression: compares runs (BASE NEW), not --models")
        return pairs.run(args)
    if len(args.dirs) != 2:
        raise ConfigError(
            f"compare: expected BASE NEW (two report dirs), got {len(args.dirs)}; "
            "or --models A B DIR... to compare two models"
        )
    base, new = (load_run(d) for d in args.dirs)
    warn([base, new], sys.stderr)
    formula = common_formula([base, new], args.score_formula)
    rows = compare(
        groups(base, common_attempts([base]), formula),
        groups(new, common_attempts([new]), formula),
        args.fail_on_regression,
    )
    print(
        f"score formula {formula or 'category defaults'}; change = NEW - BASE over the items "
        "scored in both runs, paired; interval and p resample or flip whole scenarios"
    )
    for line in render(rows):
        print(line)
    regressed = [r for r in rows if r.regressed]
    if regressed:
        names = ", ".join(f"{r.model} {r.category}" for r in regressed)
        print(
            f"llmbench compare: score dropped by more than {args.fail_on_regression} beyond noise: {names}",
            file=sys.stderr,
        )
        return 1
    return 0
