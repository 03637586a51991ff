"""`llmbench catalogue [ROOT]`: the catalogue's Markdown tables (categories, scenarios,
datasets) from the scenario and dataset files themselves.

With `--write DOC` the tables replace the blocks between `<!-- NAME:start -->` and
`<!-- NAME:end -->` in DOC (docs/catalogue.md here); with `--check DOC` nothing is
written and the exit code is 1 when DOC's tables differ from the files, so a test
keeps the page true to the catalogue.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..formats.categories import CATEGORIES
from ..formats.dataset import DatasetIndex
from ..formats.scenario import NO_DATASET, Scenario, load_scenario
from ..reporting.markdown import table
from .datasets import dataset_rows


def load_catalogue(root: Path) -> list[Scenario]:
    """Every scenario of ROOT/scenarios/<category>/*.yaml, in category order, then by file."""
    if not (root / "scenarios").is_dir():
        raise ConfigError(f"catalogue: {root} has no scenarios/ folder")
    index = DatasetIndex(root / "datasets")
    order = list(CATEGORIES)
    paths = sorted(
        (root / "scenarios").glob("*/*.y*ml"),
        key=lambda p: (order.index(p.parent.name) if p.parent.name in order else len(order), p),
    )
    return [load_scenario(path, index) for path in paths]


def categories_table(root: Path, scenarios: list[Scenario]) -> list[str]:
    rows = []
    for category in CATEGORIES.values():
        system = root / "scenarios" / category.id / "system.md"
        shown = f"`scenarios/{category.id}/system.md`" if system.is_file() else "built-in"
        count = sum(s.category == category.id for s in scenarios)
        rows.append([f"`{category.id}`", category.title, shown, str(count)])
    return table(["id", "category (method.md)", "system prompt", "scenarios"], rows)


def _steps(scenario: Scenario, key: str) -> str:
    steps = scenario.steps[key]
    acc = sum(s.metric == "accuracy" for s in steps)
    checked = sum(s.check is not None for s in steps)
    return f"{acc} + {len(steps) - acc} ({checked})"


def scenarios_table(scenarios: list[Scenario]) -> list[str]:
    rows = []
    for s in scenarios:
        names = [d.name for d in s.datasets]
        steps = (
            "; ".join(f"{name}: {_steps(s, name)}" for name in names)
            if len(names) > 1
            else _steps(s, names[0] if names else NO_DATASET)
        )
        description = " ".join(s.description.split())
        rows.append(
            [f"`{s.id}`", s.title, f"`{s.category}`", ", ".join(names) or "—", steps, description]
        )
    items = sum(max(1, len(s.datasets)) for s in scenarios)
    headers = ["id", "title", "category", "datasets"]
    headers += ["steps per item: accuracy + completeness (checked)", "what it asks"]
    return [*table(headers, rows), "", f"{len(scenarios)} scenarios, {items} items per model."]


def datasets_table(rows: list[dict[str, Any]]) -> list[str]:
    cells = [
        [
            f"`{r['dataset']}`",
            r["language"],
            " ".join(r["technology"].split()),
            str(r["ci"]),
            str(r["loc"]),
            f"{r['gci']:.3f}",
            r["complexity"],
            r["size"],
        ]
        for r in rows
    ]
    headers = ["dataset", "language", "technology", "CI", "LoC", "GCI", "complexity", "size"]
    return table(headers, cells)


def tables(root: Path) -> dict[str, list[str]]:
    scenarios = load_catalogue(root)
    datasets = dataset_rows(root) if (root / "datasets").is_dir() else []
    return {
        "categories": categories_table(root, scenarios),
        "scenarios": scenarios_table(scenarios),
        "datasets": datasets_table(datasets),
    }


def update(document: str, blocks: dict[str, list[str]], doc: Path) -> str:
    """DOC's text with each marked block replaced; a missing marker is an error."""
    for name, lines in blocks.items():
        pattern = re.compile(rf"(<!-- {name}:start -->\n).*?(<!-- {name}:end -->)", flags=re.DOTALL)
        if not pattern.search(document):
            raise ConfigError(
                f"catalogue: {doc} has no <!-- {name}:start --> ... <!-- {name}:end --> block"
            )
        body = "\n".join(lines) + "\n"

        def fill(match: re.Match[str], body: str = body) -> str:
            return match.group(1) + body + match.group(2)  # body taken as text, not a pattern

        document = pattern.sub(fill, document)
    return document


def _handle(args: argparse.Namespace) -> int:
    root: Path = args.root
    blocks = tables(root)
    doc: Path | None = args.write or args.check
    if doc is None:
        print("\n\n".join("\n".join(lines) for lines in blocks.values()))
        return 0
    if not doc.is_file():
        raise ConfigError(f"catalogue: no such file: {doc}")
    current = doc.read_text(encoding="utf-8")
    wanted = update(current, blocks, doc)
    if args.check:
        if wanted != current:
            print(f"{doc} is out of date; run: llmbench catalogue {root} --write {doc}")
            return 1
        return 0
    doc.write_text(wanted, encoding="utf-8")
    return 0


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "catalogue",
        help="the catalogue's Markdown tables: categories, scenarios, datasets",
        description=__doc__,
    )
    parser.add_argument("root", nargs="?", type=Path, default=Path("."), metavar="ROOT")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", type=Path, metavar="DOC", help="replace the tables in DOC")
    mode.add_argument("--check", type=Path, metavar="DOC", help="exit 1 when DOC is stale")
    parser.set_defaults(handler=_handle)
