"""Which order should waiting calls get a concurrency slot in? A simulation of the run's
shape, without the plugin: items of A attempts, each attempt a chain of stages (the
candidate, an evaluator, then the graders side by side), calls of equal length L, S slots.
It prints the span of all calls against the ideal (calls x L / S) for three orders:

  arrival        first come, first served
  longest chain  the call whose item still has the most stages to go (then arrival):
                 what execution/limiter.py does, with models.base.CALLS_AFTER
  judges first   graders and evaluators before candidates (the opposite)

`--overhead 0.07` lengthens every call by 7% (litellm's own time in a slot at 32 calls
in flight, measured against the local server: about 1.07 x the server's latency).

    python bench/limiter_order.py [--slots 32] [--overhead 0.0]
"""

from __future__ import annotations

import argparse
import heapq
import itertools
from collections.abc import Callable

# One attempt: a candidate, then an evaluator, then two graders (accuracy, completeness).
STAGES = (1, 1, 2)

Order = Callable[[int, int], tuple[int, ...]]
ORDERS: dict[str, Order] = {
    "arrival": lambda left, arrival: (arrival,),
    "longest chain": lambda left, arrival: (-left, arrival),
    # The stage within its attempt is (-left) % 3: candidate 0, evaluator 1, grader 2.
    "judges first": lambda left, arrival: (-((-left) % len(STAGES)), arrival),
}


def span(items: int, attempts: int, slots: int, length: float, order: Order) -> tuple[int, float]:
    """(calls, time the last call ends) of a run where every item runs its stages in turn."""
    chain = STAGES * attempts
    stage = dict.fromkeys(range(items), 0)
    open_calls = dict.fromkeys(range(items), 0)
    waiting: list[tuple[tuple[int, ...], int]] = []
    running: list[tuple[float, int]] = []
    arrivals = itertools.count()
    now, calls = 0.0, 0

    def ready(item: int) -> None:
        open_calls[item] = chain[stage[item]]
        left = len(chain) - stage[item]
        for _ in range(chain[stage[item]]):
            heapq.heappush(waiting, (order(left, next(arrivals)), item))

    for item in range(items):
        ready(item)
    while waiting or running:
        while waiting and len(running) < slots:
            _, item = heapq.heappop(waiting)
            heapq.heappush(running, (now + length, item))
            calls += 1
        now, item = heapq.heappop(running)
        open_calls[item] -= 1
        if not open_calls[item]:
            stage[item] += 1
            if stage[item] < len(chain):
                ready(item)
    return calls, now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--slots", type=int, default=32)
    parser.add_argument("--overhead", type=float, default=0.0)
    args = parser.parse_args()
    shapes = ((31, 3), (31, 1), (100, 1), (120, 1), (64, 2), (200, 3))
    print(f"{args.slots} slots, calls of {1 + args.overhead:g} x L; span / ideal (L = 1):")
    for items, attempts in shapes:
        figures = []
        for name, order in ORDERS.items():
            calls, end = span(items, attempts, args.slots, 1.0 + args.overhead, order)
            figures.append(f"{name} {end / (calls / args.slots):.3f}")
        print(f"  {items:>3} items x {attempts} attempts ({calls} calls): " + ", ".join(figures))


if __name__ == "__main__":
    main()
