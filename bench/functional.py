"""Print the throughput of functional verification: every catalogue scenario x dataset
that has hidden tests, run on the reference answer and on the echo model's answer (the
dataset unchanged), all at once through the test pool (one slot per core), as a run does.

    python bench/functional.py [--scenarios DIR] [--repeat N] [--only NAME]

Prints per item its rate and seconds, then items per minute over the wall time of the
whole batch, and the pool size (cores) it ran with.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from pytest_llmbench.formats.dataset import DatasetIndex  # noqa: E402
from pytest_llmbench.formats.scenario import NO_DATASET, Scenario, load_scenario  # noqa: E402
from pytest_llmbench.formats.workspace import answer_workspace  # noqa: E402
from pytest_llmbench.functional.verify import verify  # noqa: E402
from pytest_llmbench.schema.functional import FunctionalResult  # noqa: E402


def catalogue(scenarios: Path, datasets: Path, only: str | None) -> list[tuple[Scenario, str]]:
    index = DatasetIndex(datasets)
    found = []
    for path in sorted(scenarios.glob("*/*.yaml")):
        scenario = load_scenario(path.resolve(), index)
        if only and only not in scenario.id:
            continue
        found.extend((scenario, key) for key in sorted(scenario.functional))
    return found


async def one(scenario: Scenario, key: str, answer: str) -> tuple[FunctionalResult, float]:
    dataset = next((d for d in scenario.datasets if d.name == key), None)
    functional = scenario.functional[key]
    files = [(f.path, f.code) for f in answer_workspace(answer).files if f.path]
    started = time.perf_counter()
    result = await verify(functional, dataset, files)
    return result, time.perf_counter() - started


def answer_of(scenario: Scenario, key: str, which: str) -> str:
    if which == "echo":
        return ""  # the echo model's files are the dataset's own: nothing is applied
    if key == NO_DATASET:
        return scenario.references.get(NO_DATASET, "")
    return scenario.references.get(key, "")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenarios", type=Path, default=REPO / "scenarios")
    parser.add_argument("--datasets", type=Path, default=REPO / "datasets")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--only")
    args = parser.parse_args()
    items = catalogue(args.scenarios, args.datasets, args.only)
    jobs = [
        (scenario, key, which)
        for _ in range(args.repeat)
        for scenario, key in items
        for which in ("reference", "echo")
    ]
    started = time.perf_counter()
    results = await asyncio.gather(
        *(one(scenario, key, answer_of(scenario, key, which)) for scenario, key, which in jobs)
    )
    wall = time.perf_counter() - started
    for (scenario, key, which), (result, seconds) in zip(jobs, results, strict=True):
        figure = f"{result.passed}/{result.total}"
        if result.mode == "mutation":
            figure = f"{sum(m.killed for m in result.mutants)}/{len(result.mutants)} mutants"
        print(
            f"{scenario.id:32s} {key:18s} {which:9s} rate {result.rate:4.2f} ({figure})"
            f" {seconds:6.1f} s" + (f"  error: {result.error[:80]}" if result.error else "")
        )
    print(
        f"{len(jobs)} items in {wall:.1f} s: {len(jobs) / wall * 60:.1f} items/min "
        f"with a pool of {os.cpu_count()} (cores: {os.cpu_count()})"
    )


if __name__ == "__main__":
    asyncio.run(main())
