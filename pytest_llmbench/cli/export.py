"""`llmbench export --format inspect RUN_DIR -o OUT`: a report dir in another tool's format.

`inspect`: one log of Inspect's JSON format per candidate model of the run, written into
the folder OUT (made if missing), so that `inspect view --log-dir OUT` shows our runs:
a sample per item with its messages, scores and metadata, and the leaderboard's figures
as the results (reporting/inspect_log.py says what goes where). RUN_DIR is a report dir
of a run or of `llmbench merge`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..reporting.inspect_log import write_logs
from ..reporting.runs import load_run, warn

FORMATS = ("inspect",)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a report dir in another tool's format (Inspect's logs)",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="the report dir to export")
    parser.add_argument(
        "--format", required=True, choices=FORMATS, help="the format to write: inspect"
    )
    parser.add_argument(
        "-o", "--output", type=Path, required=True, metavar="OUT", help="folder for the logs"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    source = load_run(args.run_dir)
    warn([source], sys.stderr)
    written = write_logs(source, args.output)
    items = len(source.items)
    print(f"exported {items} items of {len(written)} models to {args.output} (Inspect logs):")
    for path in written:
        print(f"  {path.name}")
    return 0
