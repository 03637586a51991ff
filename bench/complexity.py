"""Print how long analysing every dataset takes: cold (a fresh process: imports of lizard
and radon, then every dataset measured), warm (the same process measuring again) and from
the disk cache that `llmbench datasets` and the plugin's markers read.

    python bench/complexity.py [ROOT] [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pytest_llmbench.formats.dataset import Dataset, DatasetIndex, load_dataset

REPO = Path(__file__).resolve().parent.parent

COLD = """
import sys, time
from pathlib import Path
start = time.perf_counter()
from pytest_llmbench.formats.dataset import DatasetIndex, load_dataset
from pytest_llmbench.metrics.complexity import measure
for folders in DatasetIndex(Path(sys.argv[1])).folders().values():
    for folder in folders:
        measure(load_dataset(folder).files)
print(time.perf_counter() - start)
"""


def _datasets(root: Path) -> list[Dataset]:
    return [
        load_dataset(folder)
        for folders in DatasetIndex(root).folders().values()
        for folder in folders
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", nargs="?", type=Path, default=REPO / "datasets")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    from pytest_llmbench.metrics.complexity import cached_measure, measure

    datasets = _datasets(args.root)
    files = sum(len(d.files) for d in datasets)
    loc = sum(measure(d.files).loc for d in datasets)
    print(f"{len(datasets)} datasets, {files} files, {loc} analysed lines")

    cold = [
        float(
            subprocess.run(
                [sys.executable, "-c", COLD, str(args.root)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for _ in range(args.repeat)
    ]
    warm = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for d in datasets:
            measure(d.files)
        warm.append(time.perf_counter() - start)
    with tempfile.TemporaryDirectory() as cache:
        for d in datasets:
            cached_measure(d.files, d.content_hash, Path(cache))
        hits = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            for d in datasets:
                cached_measure(d.files, d.content_hash, Path(cache))
            hits.append(time.perf_counter() - start)
    for label, times in (
        ("cold (new process, imports included)", cold),
        ("warm (same process, measured again)", warm),
        ("disk cache hit", hits),
    ):
        print(
            f"{label:40s} median {statistics.median(times) * 1000:8.1f} ms  "
            f"(min {min(times) * 1000:.1f}, n={args.repeat})"
        )


if __name__ == "__main__":
    main()
