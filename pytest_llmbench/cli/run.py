"""`llmbench run [PYTEST ARGS]`: run the built-in catalogue from any folder.

The catalogue (scenarios/ and datasets/) ships in the wheel under
pytest_llmbench/catalogue/ (in a clone it is the repository's own). Reports, the request
and complexity caches and pytest's cache are written in the current folder, never next
to the catalogue. Any pytest or --llm-* option may follow, e.g.
`llmbench run --llm-model=openai/gpt-4o-mini -k explanation`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Any

from ..errors import ConfigError

PACKAGE = Path(__file__).resolve().parent.parent


def catalogue_root() -> Path:
    """The folder holding scenarios/ and datasets/: the wheel's copy, else the clone's."""
    for root in (PACKAGE / "catalogue", PACKAGE.parent):
        if (root / "scenarios").is_dir() and (root / "datasets").is_dir():
            return root
    raise ConfigError(f"run: no built-in catalogue under {PACKAGE / 'catalogue'}")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the built-in catalogue here (pytest options may follow)",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.set_defaults(handler=run, accepts_extra=True)


def pytest_args(here: Path, extra: list[str]) -> list[str]:
    scenarios = catalogue_root() / "scenarios"
    return [
        str(scenarios),
        f"--rootdir={here}",
        # The scenario root is the catalogue's (an absolute root stays as it is).
        f"--llm-scenarios={scenarios}",
        "-o",
        f"cache_dir={here / '.pytest_cache'}",
        *extra,
    ]


def run(args: argparse.Namespace) -> int:
    # A process of its own: pytest then imports (and may assertion-rewrite) the plugin itself.
    command = [sys.executable, "-m", "pytest", *pytest_args(Path.cwd(), list(args.extra))]
    return subprocess.call(command)
