"""bench/functional.py's last line: what the tests' own seconds allow (the batch's
shortest wall time over the pool's slots, were start-up and builds free)."""

from __future__ import annotations

from typing import Literal

from bench.functional import floor
from pytest_llmbench.schema.functional import FunctionalResult, MutantOutcome


def _result(
    mode: Literal["acceptance", "mutation"], tests: float, start_up: float, mutants: int = 0
) -> FunctionalResult:
    return FunctionalResult(
        runner="node" if mode == "acceptance" else "jest",
        mode=mode,
        seconds=tests + start_up,
        phases={"runs": 1.0, "build": 0.0, "tests": tests, "start-up": start_up},
        mutants=[MutantOutcome(id=f"m{n}", killed=True) for n in range(mutants)],
    )


def test_the_floor_counts_the_tests_own_seconds_alone_over_the_slots() -> None:
    results = [
        _result("acceptance", tests=20.0, start_up=5.0),
        _result("acceptance", tests=10.0, start_up=50.0),  # start-up is left out
        _result("mutation", tests=30.0, start_up=9.0, mutants=20),
        FunctionalResult(runner="junit", mode="acceptance"),  # no phases timed
    ]
    line = floor(results, slots=2)
    # 60 s of tests over 2 slots: 30 s at the least, so 4 items in 30 s at the most
    assert line.startswith("the tests alone: 60.0 s of runs; over 2 slots no less than 30.0 s")
    assert "at most 8.0 items/min" in line
    assert line.endswith("at least 1.50 s per mutant")  # 30 s of the mutation item's tests / 20


def test_the_floor_without_timed_tests_says_so_and_without_mutants_gives_no_mutant_figure() -> None:
    untimed = [FunctionalResult(runner="node", mode="acceptance")]
    assert floor(untimed, slots=1) == "the tests alone: no runner timed its tests"
    one = floor([_result("acceptance", tests=6.0, start_up=1.0)], slots=1)
    assert (
        one
        == "the tests alone: 6.0 s of runs; over 1 slot no less than 6.0 s, at most 10.0 items/min"
    )
