"""`llmbench complexity PATH...`: CI, LoC, NLOC, functions and GCI per file and in total.

Folders are walked (hidden folders and node_modules skipped). A file that could not be
analysed is listed with the reason and left out of the totals.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..metrics.complexity import Complexity, measure_paths


def table(headers: list[str], rows: list[list[str]]) -> list[str]:
    """A plain text table, numbers right-aligned."""
    widths = [max(len(str(c)) for c in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.rjust(w) if c[:1].isdigit() or c[:1] == "-" else c.ljust(w)
            for c, w in zip(cells, widths, strict=True)
        ).rstrip()

    return [line(headers), "  ".join("-" * w for w in widths), *map(line, rows)]


def _rows(figures: Complexity) -> list[list[str]]:
    rows = []
    for f in figures.files:
        if f.error is None:
            gci = f"{f.ci / f.loc:.4f}" if f.loc else "–"
            rows.append(
                [f.path, f.language, str(f.ci), str(f.loc), str(f.nloc), str(len(f.functions)), gci]
            )
    rows.append(
        [
            "total",
            "",
            str(figures.ci),
            str(figures.loc),
            str(figures.nloc),
            str(figures.functions),
            f"{figures.gci:.4f}",
        ]
    )
    return rows


def render(figures: Complexity) -> list[str]:
    lines = table(["file", "language", "CI", "LoC", "NLOC", "functions", "GCI"], _rows(figures))
    lines.append(f"buckets: complexity {figures.complexity}, size {figures.size}")
    lines.append(f"counted by: {figures.counter or 'nothing'}")
    for f in figures.unanalysed:
        lines.append(f"not analysed: {f.path}: {f.error}")
    return lines


def _handle(args: argparse.Namespace) -> int:
    paths: list[Path] = args.paths
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise ConfigError(f"complexity: no such file or folder: {', '.join(missing)}")
    figures = measure_paths(paths)
    if args.json:
        document: dict[str, Any] = figures.model_dump()
        print(json.dumps(document, indent=2))
    else:
        print("\n".join(render(figures)))
    return 0


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "complexity",
        help="cyclomatic complexity (ESLint count), LoC and GCI of files and folders",
        description=__doc__,
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--json", action="store_true", help="print JSON (per file and total)")
    parser.set_defaults(handler=_handle)
