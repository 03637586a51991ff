"""Print the throughput of functional verification: every catalogue scenario x dataset
that has hidden tests, run on the reference answer and on the echo model's answer (the
dataset unchanged), all at once through the test pool (one slot per core), as a run does.

    python bench/functional.py [--scenarios DIR] [--repeat N] [--only NAME] [--by-program]

Prints per item its rate, its wait-and-run seconds and its own run time, then items per
minute over the wall time of the whole batch and the pool size (cores) it ran with, how
busy the machine's cores were meanwhile (near 100%: only less CPU work makes it faster) and
their busy core-seconds, one core's speed on a fixed loop (to compare machines), then
per runner: items, their run time split by phase (FunctionalResult.phases: build (javac;
node's step before a run that makes the app's bundles), tests as the runner timed them,
start-up as the rest) and, in mutation mode, seconds per mutant (the items' run time,
clean and equivalent-mutant runs included, over their mutants), with the mutants no test
reached (they survive without a run), and that figure over all runners; last, what the
tests' own seconds alone allow (`floor`): the batch's shortest wall time were every
start-up and build free, hence the most items a minute and the fewest seconds per mutant
any runner design could reach with these tests on this machine. `--by-program` (root):
the batch's CPU seconds by program, from process accounting (accounting.py). The pool has
a slot per core (cpu.cores_per_worker): `PYTEST_XDIST_WORKER_COUNT=2` halves it, e.g. to
time the tests one run at a time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from contextlib import nullcontext
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench import accounting  # noqa: E402
from pytest_llmbench.cpu import cores_per_worker  # noqa: E402
from pytest_llmbench.formats.dataset import DatasetIndex  # noqa: E402
from pytest_llmbench.formats.scenario import NO_DATASET, Scenario, load_scenario  # noqa: E402
from pytest_llmbench.formats.workspace import answer_workspace  # noqa: E402
from pytest_llmbench.functional.outcome import add_phases  # noqa: E402
from pytest_llmbench.functional.verify import verify  # noqa: E402
from pytest_llmbench.schema.functional import FunctionalResult  # noqa: E402


def catalogue(scenarios: Path, datasets: Path, only: str | None) -> list[tuple[Scenario, str]]:
    index = DatasetIndex(datasets)
    found: list[tuple[Scenario, str]] = []
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
    parser.add_argument("--by-program", action="store_true")
    args = parser.parse_args()
    items = catalogue(args.scenarios, args.datasets, args.only)
    if not items:
        parser.exit(2, f"no scenario with hidden tests has an id containing {args.only!r}\n")
    speed = core_speed()
    jobs = [
        (scenario, key, which)
        for _ in range(args.repeat)
        for scenario, key in items
        for which in ("reference", "echo")
    ]
    with accounting.Accounting() if args.by_program else nullcontext() as programs:
        started, before = time.perf_counter(), cpu_ticks()
        results = await asyncio.gather(
            *(one(scenario, key, answer_of(scenario, key, which)) for scenario, key, which in jobs)
        )
        wall, after = time.perf_counter() - started, cpu_ticks()
    for (scenario, key, which), (result, seconds) in zip(jobs, results, strict=True):
        figure = f"{result.passed}/{result.total}"
        if result.mode == "mutation":
            figure = f"{sum(m.killed for m in result.mutants)}/{len(result.mutants)} mutants"
        print(
            f"{scenario.id:32s} {key:18s} {which:9s} rate {result.rate:4.2f} ({figure})"
            f" {seconds:6.1f} s (run {result.seconds:5.1f} s)"
            + (f"  error: {result.error[:80]}" if result.error else "")
        )
    slots = cores_per_worker()
    print(
        f"{len(jobs)} items in {wall:.1f} s: {len(jobs) / wall * 60:.1f} items/min "
        f"with a pool of {slots} (cores: {os.cpu_count()})"
    )
    used = None
    if before and after:
        busy = 1 - (after[1] - before[1]) / max(1, after[0] - before[0])
        print(f"the machine's cores were busy {busy:.0%} of the time (all processes, /proc/stat)")
        used = busy_seconds(before, after)
        print(f"{used:.1f} core-seconds busy in all, {used / len(jobs):.2f} per item")
    if programs is not None and programs.refused:
        print(f"CPU by program: process accounting could not be turned on ({programs.refused})")
    elif programs is not None:
        print("\n".join(accounting.lines(programs.totals, used)))
    print(
        f"one core's speed: {CALIBRATION:,} additions in a pure-Python loop took {speed:.2f} s "
        "(the best of 3, before the batch): compare figures of other machines by it"
    )
    for line in by_runner([result for result, _ in results]):
        print(line)
    print(floor([result for result, _ in results], slots))


CALIBRATION = 10_000_000


def core_speed() -> float:
    """Seconds one core takes for a fixed pure-Python loop, the best of 3: how fast this
    machine is, so that figures taken on machines of other speeds can be compared."""
    best = float("inf")
    for _ in range(3):
        started, total = time.perf_counter(), 0
        for number in range(CALIBRATION):
            total += number
        best = min(best, time.perf_counter() - started)
    return best


def cpu_ticks() -> tuple[int, int] | None:
    """All cores' ticks so far and their idle ones (idle and iowait), from /proc/stat's
    first line; None where there is none."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = [int(v) for v in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (sum(fields), fields[3] + fields[4]) if len(fields) > 4 else None


def busy_seconds(before: tuple[int, int], after: tuple[int, int]) -> float:
    """The cores' busy seconds between two cpu_ticks() readings (all processes)."""
    ticks = (after[0] - before[0]) - (after[1] - before[1])
    return ticks / os.sysconf("SC_CLK_TCK")


def by_runner(results: list[FunctionalResult]) -> list[str]:
    """Per runner and mode: the items' run time by phase, and seconds per mutant."""
    groups: dict[tuple[str, str], list[FunctionalResult]] = {}
    for result in results:
        groups.setdefault((result.runner, result.mode), []).append(result)
    lines = []
    for (runner, mode), group in sorted(groups.items()):
        seconds = sum(r.seconds for r in group)
        phases: dict[str, float] = {}
        for result in group:
            phases = add_phases(phases, result.phases)
        runs = int(phases.pop("runs", 0))
        split = ", ".join(f"{name} {value:.1f} s" for name, value in sorted(phases.items()))
        line = f"{runner:7s} {mode:10s} {len(group):3d} items, {seconds:6.1f} s of runs"
        line += f" ({runs} runs: {split})" if runs else " (no phases timed)"
        mutants = sum(len(r.mutants) for r in group)
        if mode == "mutation" and mutants:
            with_mutants = sum(r.seconds for r in group if r.mutants)
            line += f"; {with_mutants / mutants:.2f} s per mutant ({mutants} mutants"
            unreached = sum(not m.ran for r in group for m in r.mutants)
            line += f", {unreached} in files no test ran: no run)" if unreached else ")"
        lines.append(line)
    mutation = [r for r in results if r.mode == "mutation" and r.mutants]
    if mutation:
        mutants = sum(len(r.mutants) for r in mutation)
        seconds = sum(r.seconds for r in mutation)
        lines.append(f"all runners: {seconds / mutants:.2f} s per mutant ({mutants} mutants)")
    return lines


def floor(results: list[FunctionalResult], slots: int) -> str:
    """What the tests' own seconds alone (as the runners timed them) allow: the batch's
    shortest wall time were start-up and builds free and the pool's slots always full, the
    most items a minute that gives, and the fewest seconds per mutant (the mutation items'
    tests over their mutants). Waits inside a test (an app's own timers) count in it."""
    tests = sum(r.phases.get("tests", 0.0) for r in results)
    if tests <= 0:
        return "the tests alone: no runner timed its tests"
    shortest = tests / max(1, slots)
    line = (
        f"the tests alone: {tests:.1f} s of runs; over {slots} slot{'s' * (slots != 1)} no "
        f"less than {shortest:.1f} s, at most {len(results) / shortest * 60:.1f} items/min"
    )
    mutation = [r for r in results if r.mode == "mutation" and r.mutants]
    if mutation:
        mutants = sum(len(r.mutants) for r in mutation)
        tested = sum(r.phases.get("tests", 0.0) for r in mutation)
        line += f"; at least {tested / mutants:.2f} s per mutant"
    return line


if __name__ == "__main__":
    asyncio.run(main())
