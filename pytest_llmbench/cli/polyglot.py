"""`llmbench import-polyglot CLONE -o OUT`: Aider's polyglot benchmark as scenarios.

Every exercise of a clone of Aider-AI/polyglot-benchmark becomes a dataset (its stubs),
a generation scenario (its instructions as the prompt, the example solution as the
reference, criteria scored by the hidden tests) and its hidden tests, so that
`pytest OUT --llm-model=...` runs it (docs/polyglot.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..polyglot.exercises import LANGUAGES
from ..polyglot.importer import import_polyglot


def _languages(text: str) -> tuple[str, ...]:
    chosen = tuple(t.strip() for t in text.split(",") if t.strip())
    unknown = [t for t in chosen if t not in LANGUAGES]
    if not chosen or unknown:
        raise argparse.ArgumentTypeError(
            f"expected a comma-separated list of {', '.join(LANGUAGES)}, got {text!r}"
        )
    return chosen


def add_parser(subparsers: Any) -> None:
    command = subparsers.add_parser(
        "import-polyglot",
        help="convert a clone of Aider's polyglot benchmark into a scenario folder",
        description="Convert the exercises of a clone of Aider-AI/polyglot-benchmark into "
        "OUT/scenarios and OUT/datasets (docs/polyglot.md).",
    )
    command.add_argument("clone", type=Path, metavar="CLONE")
    command.add_argument("-o", "--output", type=Path, required=True, metavar="OUT_DIR")
    command.add_argument(
        "--languages",
        type=_languages,
        default=LANGUAGES,
        metavar="LANG,...",
        help=f"import only these languages (default: all of {', '.join(LANGUAGES)})",
    )
    command.set_defaults(handler=run_import)


def run_import(args: argparse.Namespace) -> int:
    summary = import_polyglot(args.clone, args.output, args.languages)
    print(f"imported {args.clone} into {args.output}")
    for line in summary.lines():
        print(line)
    print(f"run it with: pytest {args.output} --llm-model=...")
    return 0
