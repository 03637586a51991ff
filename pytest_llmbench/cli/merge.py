"""`llmbench merge DIR... -o OUT`: one leaderboard and report from several report dirs.

Report dirs of separate runs or CI shards (one model or one category each) are read
back, every item is counted once (the newest copy wins, see `runs.merge_items`), and
the leaderboard is rebuilt over the merged set, so MaxRate (the generation-rate
normalisation of the weighted score) is the highest rate over all merged models. The
output dir gets results.jsonl (with the texts.jsonl its items refer to), leaderboard.json,
leaderboard.md and report.html, written by the same code as a pytest run's report dir.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from pydantic import JsonValue

from ..errors import ConfigError
from ..folders import default_cache_dir
from ..reporting import markdown
from ..reporting.history import Registration
from ..reporting.runs import (
    common_attempts,
    common_formula,
    load_run,
    mark_checker_sets,
    merge_items,
    merged_checkers,
    warn,
)
from ..reporting.writer import publish, write_results
from .options import add_score_formula


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "merge",
        help="combine report dirs into one leaderboard and report",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument("dirs", nargs="+", type=Path, metavar="DIR", help="report dirs to merge")
    parser.add_argument(
        "-o", "--output", type=Path, required=True, metavar="OUT", help="output report dir"
    )
    add_score_formula(parser)
    parser.set_defaults(handler=run)


def _warn(line: str) -> None:
    print(f"llmbench: warning: {line}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    output: Path = args.output
    if any(output.resolve() == folder.resolve() for folder in args.dirs):
        raise ConfigError(
            f"merge: -o {output} is one of the report dirs merged; choose a new folder"
        )
    runs = [load_run(folder) for folder in args.dirs]
    warn(runs, sys.stderr)
    items = merge_items(runs)
    attempts = common_attempts(runs)
    formula = common_formula(runs, args.score_formula)
    settings: dict[str, JsonValue] = {
        "merged_from": [str(r.folder) for r in runs],
        "attempts": attempts,
        "score_formula": formula,
    }
    write_results(output, items)
    document = publish(
        output,
        items,
        attempts,
        formula,
        settings,
        Path.cwd(),
        lambda board: mark_checker_sets(board, runs, items),
        checkers=merged_checkers(runs) or {},
        # the merge is a run of the history too, with the same trend in its report.html
        registration=Registration(default_cache_dir(Path.cwd()), "merge", _warn),
    )
    total = sum(len(r.items) for r in runs)
    print(
        f"merged {len(items)} items from {len(runs)} report dirs ({total - len(items)} duplicates dropped) into {output}"
    )
    for line in markdown.model_table(document.leaderboard):
        print(line)
    shared = markdown.ranks_line(document.leaderboard)
    if shared is not None:
        print(shared)
    return 0
