"""Print how long building the leaderboard (with its bootstrap intervals) and report.html
takes for a report dir's results, replicated to a given number of items.

    python bench/report_build.py REPORT_DIR [--items N]

Each replica gets its own node id, so every copy counts as a distinct item.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from pytest_llmbench.reporting import html, leaderboard
from pytest_llmbench.reporting.runs import common_attempts, load_run
from pytest_llmbench.reporting.writer import envelope


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("report_dir", type=Path)
    parser.add_argument("--items", type=int, default=1000)
    args = parser.parse_args()
    run = load_run(args.report_dir)
    attempts = common_attempts([run])
    items = [
        item.model_copy(update={"nodeid": f"{item.nodeid}#{n}"})
        for n in range(args.items // len(run.items) + 1)
        for item in run.items
    ][: args.items]
    start = time.perf_counter()
    board = leaderboard.build(items, attempts)
    built = time.perf_counter() - start
    document = envelope(board, {}, args.report_dir)
    start = time.perf_counter()
    page = html.render(document, items, leaderboard.scores(items, attempts, None))
    rendered = time.perf_counter() - start
    rows = len(board.models) + len(board.categories)
    print(
        f"{len(items)} items, {rows} rows: leaderboard {built:.2f} s, report.html {rendered:.2f} s"
    )
    size = sum(len(json.dumps(i.model_dump(mode="json"))) for i in items)
    print(f"report.html {len(page.encode()) / 1e6:.1f} MB; results {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
