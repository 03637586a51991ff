"""`llmbench history [--model M]`: the runs registered in the cache folder's history.

Every pytest run with benchmark items, and every `llmbench merge`, is registered in
`history.sqlite` of its cache folder (.llmbench_cache here, or $LLMBENCH_CACHE_DIR, or
--cache-dir): its id, time, commit, models, items and report dir. With --model, the
model's score run by run, over all its items and per category. A run id (or the start
of one) stands for its report dir in `llmbench compare`.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import ConfigError
from ..reporting.history import runs, trend
from ..reporting.markdown import table
from .options import add_cache_dir, cache_dir


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "history",
        help="list the registered runs, or one model's trend",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument("--model", metavar="M", help="print this model's scores run by run")
    add_cache_dir(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    cache = cache_dir(args)
    records = runs(cache)
    if args.model is not None:
        header, rows = trend(records, args.model)
        if not rows:
            known = sorted({m for r in records for m in r.models})
            raise ConfigError(
                f"--model {args.model}: in no registered run (models: {', '.join(known)})"
            )
        lines = table(header, rows)
    else:
        header = ["run", "time (UTC)", "kind", "commit", "items", "models", "report dir"]
        rows = [
            [
                r.id,
                r.created_utc[:19],
                r.kind,
                (r.git_commit or "-")[:10],
                str(r.items),
                ", ".join(r.models),
                r.report_dir,
            ]
            for r in records
        ]
        lines = table(header, rows)
    for line in lines:
        print(line)
    return 0
