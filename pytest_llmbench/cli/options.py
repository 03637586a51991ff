"""Options that more than one command takes, declared once."""

from __future__ import annotations

import argparse

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
