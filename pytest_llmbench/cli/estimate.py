"""`llmbench estimate [PYTEST ARGS]`: what a run of the built-in catalogue would cost.

The same run as `llmbench run` with the same options, with --llm-estimate: for the
selected items, models, judges and grader it prints the calls, input and output tokens
and the cost per model and role (low / expected / high), and calls no model. E.g.
`llmbench estimate --llm-model=openai/gpt-4o-mini --llm-judge=openai/gpt-4o -k explanation`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Any

from .run import pytest_args


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "estimate",
        help="the cost of a catalogue run, before it (pytest options may follow)",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.set_defaults(handler=estimate, accepts_extra=True)


def estimate(args: argparse.Namespace) -> int:
    extra = [*args.extra, "--llm-estimate", "-q"]
    command = [sys.executable, "-m", "pytest", *pytest_args(Path.cwd(), extra)]
    return subprocess.call(command)
