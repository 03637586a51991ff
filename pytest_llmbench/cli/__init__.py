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
import os
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from ..errors import LLMBenchError

# Module names under pytest_llmbench.cli, one per subcommand group.
COMMANDS: tuple[str, ...] = (
    "run",
    "estimate",
    "complexity",
    "datasets",
    "catalogue",
    "merge",
    "compare",
    "export",
    "history",
    "power",
    "airun",
    "polyglot",
    "view",
)

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="llmbench", description="pytest-llmbench tools for datasets and reports."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    # `llmbench run` hands whatever follows to pytest; other commands take no extras.
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "accepts_extra", False):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.extra = extra
    handler: Handler = args.handler
    try:
        code = handler(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the try
        return code
    except LLMBenchError as exc:
        print(f"llmbench: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # `llmbench ... | head`: the reader left. Quietly, as other command-line tools do;
        # stdout goes to devnull so the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, the shell's code for it


if __name__ == "__main__":
    sys.exit(main())
