"""Options that more than one command takes, declared once."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..folders import default_cache_dir
from ..judging.formulas import FORMULAS


def add_score_formula(parser: argparse.ArgumentParser) -> None:
    """--score-formula: the formula the combined runs are scored with (None: the one the
    runs used, reporting.runs.common_formula)."""
    parser.add_argument(
        "--score-formula",
        choices=list(FORMULAS),
        default=None,
        help="score formula (default: the one the runs used)",
    )


def add_cache_dir(parser: argparse.ArgumentParser) -> None:
    """--cache-dir: the cache folder whose history.sqlite names the registered runs."""
    parser.add_argument(
        "--cache-dir",
        type=Path,
        metavar="DIR",
        help="the cache folder holding history.sqlite (default: .llmbench_cache here, or "
        "$LLMBENCH_CACHE_DIR)",
    )


def cache_dir(args: argparse.Namespace) -> Path:
    """The cache folder `add_cache_dir` chose."""
    chosen: Path | None = args.cache_dir
    return chosen if chosen is not None else default_cache_dir(Path.cwd())
