"""`llmbench datasets [ROOT]`: every dataset with its technology, CI, LoC, GCI and
buckets, as in the method's dataset table. ROOT is a project (with a `datasets/` folder)
or a datasets folder itself; the default is the current folder. The figures are those
the benchmark's markers use, cached per dataset content in the cache folder (.llmbench_cache here, or $LLMBENCH_CACHE_DIR;
see pytest_llmbench/folders.py).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..folders import default_cache_dir
from ..formats.dataset import MANIFEST, DatasetIndex, load_dataset
from ..metrics.complexity import cached_measure
from .complexity import table


def _datasets_root(root: Path) -> Path:
    if (root / "datasets").is_dir():
        return root / "datasets"
    if any(root.glob(f"*/*/{MANIFEST}")):
        return root
    raise ConfigError(
        f"datasets: {root} has no datasets/ folder and no <language>/<Name>/{MANIFEST}"
    )


def dataset_rows(root: Path, use_cache: bool = True) -> list[dict[str, Any]]:
    datasets_root = _datasets_root(root)
    cache = default_cache_dir(Path.cwd()) if use_cache else None
    rows = []
    for name, folders in sorted(DatasetIndex(datasets_root).folders().items()):
        for folder in folders:
            dataset = load_dataset(folder)
            figures = cached_measure(dataset.files, dataset.content_hash, cache)
            rows.append(
                {
                    "dataset": name,
                    "language": dataset.language,
                    "technology": dataset.technology,
                    "public_name": f"{name}_{figures.complexity}_{figures.size}",
                    **figures.as_dict(),
                    "unanalysed": {f.path: f.error for f in figures.unanalysed},
                    "latin1": list(dataset.latin1),  # not UTF-8: read as Latin-1
                }
            )
    return rows


TECHNOLOGY_WIDTH = 40  # the table's technology column; --json has the full text


def _short(text: str, width: int = TECHNOLOGY_WIDTH) -> str:
    return text if len(text) <= width else text[: width - 1].rstrip(" ,(") + "…"


def render(rows: list[dict[str, Any]]) -> list[str]:
    headers = ["dataset", "language", "technology", "CI", "LoC", "GCI", "complexity", "size"]
    cells = [
        [
            r["dataset"],
            r["language"],
            _short(r["technology"]),
            str(r["ci"]),
            str(r["loc"]),
            f"{r['gci']:.4f}",
            r["complexity"],
            r["size"],
        ]
        for r in rows
    ]
    lines = table(headers, cells)
    for r in rows:
        for path, error in r["unanalysed"].items():
            lines.append(f"not analysed: {r['dataset']}/{path}: {error}")
        lines += [f"read as Latin-1 (not UTF-8): {r['dataset']}/{path}" for path in r["latin1"]]
    return lines


def _handle(args: argparse.Namespace) -> int:
    root: Path = args.root
    if not root.is_dir():
        raise ConfigError(f"datasets: no such folder: {root}")
    rows = dataset_rows(root, use_cache=not args.no_cache)
    print(json.dumps(rows, indent=2) if args.json else "\n".join(render(rows)))
    return 0


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "datasets",
        help="every dataset with technology, CI, LoC, GCI and buckets",
        description=__doc__,
    )
    parser.add_argument("root", nargs="?", type=Path, default=Path("."), metavar="ROOT")
    parser.add_argument("--json", action="store_true", help="print JSON, one object per dataset")
    parser.add_argument("--no-cache", action="store_true", help="measure again, ignore the cache")
    parser.set_defaults(handler=_handle)
