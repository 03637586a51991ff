"""The xdist scheduler (against xdist's Scheduling protocol, with fake worker controllers)
and the slots that let all workers share one model's concurrency limit."""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.synchronize
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pytest_llmbench.execution.limiter import SHARED_SLOTS_AVAILABLE, AdaptiveLimiter, SharedSlots
from pytest_llmbench.execution.partition import PartitionScheduling

pytestmark = pytest.mark.skipif(not SHARED_SLOTS_AVAILABLE, reason="needs fcntl")


@dataclass
class Gateway:
    id: str


@dataclass(eq=False)
class FakeNode:
    """What the scheduler may use of xdist's WorkerController."""

    gateway: Gateway
    sent: list[int] = field(default_factory=list)
    shutting_down: bool = False

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def _scheduler(workers: int, items: int) -> tuple[PartitionScheduling, list[FakeNode]]:
    sched = PartitionScheduling(workers)
    nodes = [FakeNode(Gateway(f"gw{k}")) for k in range(workers)]
    collection = [f"test_{i}" for i in range(items)]
    for node in nodes:
        sched.add_node(node)
    for node in nodes:
        assert not sched.collection_is_completed
        sched.add_node_collection(node, collection)
    assert sched.collection_is_completed
    return sched, nodes


def test_each_worker_gets_every_nth_item_at_once_then_is_told_to_finish() -> None:
    sched, (gw0, gw1) = _scheduler(2, 5)
    sched.schedule()
    assert gw0.sent == [0, 2, 4] and gw1.sent == [1, 3]
    assert gw0.shutting_down and gw1.shutting_down  # nothing left to hand out
    assert sched.has_pending and not sched.tests_finished
    for index in (0, 2, 4):
        sched.mark_test_complete(gw0, index)
    for index in (1, 3):
        sched.mark_test_complete(gw1, index)
    assert sched.tests_finished and not sched.has_pending


def test_the_items_of_a_crashed_worker_go_to_the_others() -> None:
    sched, (gw0, gw1) = _scheduler(2, 6)
    sched.schedule()
    sched.mark_test_complete(gw1, 1)
    gw0.shutting_down = False  # still working through its share
    crashed = sched.remove_node(gw1)
    assert crashed == "test_3"  # the item it was running
    assert sched.pending == [5]  # what it had not started yet...
    sched.mark_test_complete(gw0, 0)
    assert 5 not in gw0.sent  # the survivor still has two of its own queued
    sched.mark_test_complete(gw0, 2)
    assert gw0.sent[-1] == 5 and sched.pending == []  # ...then it gets the left-over item
    sched.mark_test_complete(gw0, 4)
    sched.mark_test_complete(gw0, 5)
    assert sched.tests_finished


def test_different_collections_are_not_scheduled() -> None:
    sched = PartitionScheduling(2)
    nodes = [FakeNode(Gateway("gw0")), FakeNode(Gateway("gw1"))]
    for node in nodes:
        sched.add_node(node)
    sched.add_node_collection(nodes[0], ["a", "b"])
    sched.add_node_collection(nodes[1], ["a", "c"])
    sched.schedule()
    assert nodes[0].sent == [] and nodes[1].sent == []


def _hold_slots(
    folder: str,
    count: int,
    done: multiprocessing.synchronize.Event,
    results: multiprocessing.Queue[int],
) -> None:
    async def main() -> None:
        slots = SharedSlots(Path(folder), count)
        slot = await slots.acquire()
        results.put(slot)
        while not done.is_set():  # held until the test says so
            await asyncio.sleep(0.01)
        slots.release(slot)

    asyncio.run(main())


async def _until(condition: Callable[[], bool]) -> None:
    while not condition():
        await asyncio.sleep(0.01)


def test_shared_slots_bound_all_processes_together(tmp_path: Path) -> None:
    """Two processes and this one share 2 slots: the third holder waits for a release."""
    ctx = multiprocessing.get_context("spawn")
    results: multiprocessing.Queue[int] = ctx.Queue()
    done = ctx.Event()
    holders = [
        ctx.Process(target=_hold_slots, args=(str(tmp_path), 2, done, results)) for _ in range(2)
    ]
    for process in holders:
        process.start()
    assert sorted(results.get(timeout=30) for _ in holders) == [0, 1]

    async def mine() -> tuple[bool, int]:
        slots = SharedSlots(tmp_path, 2)
        assert slots.try_acquire() is None  # both taken by the other processes
        waiting = asyncio.ensure_future(slots.acquire())
        await asyncio.sleep(0.2)
        waited = not waiting.done()
        done.set()  # the holders release their slots
        slot = await asyncio.wait_for(waiting, 30)
        slots.release(slot)
        slots.close()
        return waited, slot

    waited, slot = asyncio.run(mine())
    for process in holders:
        process.join(timeout=30)
    assert waited  # no slot while both were held ...
    assert slot in (0, 1)  # ... one once a holder released it


def test_a_limiter_with_shared_slots_counts_every_process(tmp_path: Path) -> None:
    async def scenario() -> tuple[int, int]:
        other = SharedSlots(tmp_path, 3)  # another worker holding two of the three slots
        held = [other.try_acquire(), other.try_acquire()]
        limiter = AdaptiveLimiter(3, shared=SharedSlots(tmp_path, 3))
        finish = asyncio.Event()
        inside = peak = 0

        async def call() -> None:
            nonlocal inside, peak
            async with limiter.slot():
                inside += 1
                peak = max(peak, inside)
                await finish.wait()
                inside -= 1

        task = asyncio.gather(*(call() for _ in range(4)))
        await _until(lambda: inside == 1)
        await asyncio.sleep(0.1)  # the other calls poll for a shared slot meanwhile
        peak_while_held = peak
        for slot in held:
            assert slot is not None
            other.release(slot)
        await _until(lambda: inside == 3)
        finish.set()
        await task
        return peak_while_held, peak

    while_held, overall = asyncio.run(scenario())
    assert while_held == 1  # only the one free slot
    assert overall == 3
