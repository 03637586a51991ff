"""The `llmbench` console command: tools that work on datasets and report dirs
outside a pytest run. Each subcommand lives in its own module of this package and
is listed in COMMANDS; a module exposes `add_parser(subparsers)`, which registers the
subcommand with `set_defaults(handler=...)`, and the handler returns the exit code.

User mistakes (a missing path, a malformed file) end as one line on stderr naming
the path or option and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from ..errors import LLMBenchError

# Module names under pytest_llmbench.cli, one per subcommand group.
COMMANDS: tuple[str, ...] = (
    "complexity",
    "datasets",
    "catalogue",
    "merge",
    "compare",
    "airun",
    "view",
)

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="llmbench", description="pytest-llmbench tools for datasets and reports."
    )
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except LLMBenchError as exc:
        print(f"llmbench: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
