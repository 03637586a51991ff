"""Under xdist, give each worker a fixed share of the items, known before any runs, and
let all workers share each model's concurrency limit.

xdist's default `load` scheduler hands items out as workers free up, so a worker cannot
start its items' model calls ahead of time without risking calls made twice. With this
scheduler worker gwK runs exactly the items whose collection index i has
i % workercount == K, so each worker starts all of its items when collection finishes.
Used when the user gave -n without choosing a --dist mode; with an explicit --dist, each
worker runs its items one at a time as they arrive (calls within an item still overlap).

The scheduler is written against xdist's scheduler protocol (xdist.scheduler.protocol)
and the worker controller's public methods only (send_runtest_some, shutdown,
shutting_down, gateway.id). Whatever the dist mode, the controller hands every worker
one folder of shared slots (execution/limiter.py SharedSlots), so a model reaches
--llm-concurrency calls in flight whichever workers its items landed on.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

PARTITION_INPUT = "llmbench_partition"
RESUMED_INPUT = "llmbench_resumed"
SLOTS_INPUT = "llmbench_slots"
_AUTO_KEY = pytest.StashKey[bool]()


def worker_index(worker_id: str) -> int | None:
    digits = worker_id.removeprefix("gw")
    return int(digits) if digits.isdigit() else None


def is_mine(index: int, worker_id: str, workers: int) -> bool:
    return index % workers == worker_index(worker_id)


class PartitionScheduling:
    """xdist's Scheduling protocol: each worker gets its share at once; the items of a
    worker that went down (or has no share) go to the others one at a time."""

    def __init__(self, numnodes: int, log: Any = None) -> None:
        self.numnodes = numnodes
        self.log = log or (lambda *args: None)
        self.node2collection: dict[Any, list[str]] = {}
        self.node2pending: dict[Any, list[int]] = {}
        self.collection: list[str] | None = None
        self.pending: list[int] = []  # items no worker has been given

    @property
    def nodes(self) -> list[Any]:
        return list(self.node2pending)

    @property
    def collection_is_completed(self) -> bool:
        return len(self.node2collection) >= self.numnodes

    @property
    def tests_finished(self) -> bool:
        # A worker runs an item once it has the next one or is told to shut down.
        return (
            self.collection_is_completed
            and not self.pending
            and all(len(p) < 2 for p in self.node2pending.values())
        )

    @property
    def has_pending(self) -> bool:
        return bool(self.pending) or any(self.node2pending.values())

    def add_node(self, node: Any) -> None:
        self.node2pending[node] = []

    def add_node_collection(self, node: Any, collection: Sequence[str]) -> None:
        if self.collection is not None and list(collection) != self.collection:
            self.log(f"**{node.gateway.id} collected different tests; not used**")
            return
        self.node2collection[node] = list(collection)

    def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
        self.node2pending[node].remove(item_index)
        self._refill(node)

    def mark_test_pending(self, item: str) -> None:
        assert self.collection is not None
        self.pending.insert(0, self.collection.index(item))
        for node in self.nodes:
            self._refill(node)

    def remove_pending_tests_from_node(self, node: Any, indices: Sequence[int]) -> None:
        for index in indices:
            self.node2pending[node].remove(index)
        self.pending.extend(indices)

    def remove_node(self, node: Any) -> str | None:
        pending = self.node2pending.pop(node)
        if not pending or self.collection is None:
            return None
        crashed = self.collection[pending.pop(0)]
        self.pending.extend(pending)
        for other in self.nodes:
            self._refill(other)
        return crashed

    def schedule(self) -> None:
        if self.collection is None:
            collections = list(self.node2collection.values())
            if not collections:
                return
            if any(c != collections[0] for c in collections[1:]):
                self.log("**Different tests collected, aborting run**")
                return
            self.collection = collections[0]
            self._share_out(len(self.collection))
        for node in self.nodes:
            self._refill(node)

    def _share_out(self, count: int) -> None:
        workers = len(self.nodes)
        given: set[int] = set()
        for node in self.nodes:
            mine = [i for i in range(count) if is_mine(i, node.gateway.id, workers)]
            if mine:
                given.update(mine)
                self.node2pending[node].extend(mine)
                node.send_runtest_some(mine)
        self.pending = [i for i in range(count) if i not in given]

    def _refill(self, node: Any) -> None:
        """Give a worker one more left-over item, or tell it to finish."""
        if node.shutting_down or node not in self.node2pending:
            return
        if self.pending:
            if len(self.node2pending[node]) < 2:
                index = self.pending.pop(0)
                self.node2pending[node].append(index)
                node.send_runtest_some([index])
        else:
            node.shutdown()


class XdistPartition:
    """Controller-side xdist hooks, registered when xdist is active."""

    def __init__(self, resumed: list[str]) -> None:
        self.resumed = resumed
        self.slots: Path | None = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        if not config.stash.get(_AUTO_KEY, False):
            return None
        from xdist.workermanage import parse_tx_spec_config

        return PartitionScheduling(len(parse_tx_spec_config(config)), log)

    def pytest_configure_node(self, node: Any) -> None:
        if self.slots is None:
            self.slots = Path(tempfile.mkdtemp(prefix="llmbench-slots-"))
        node.workerinput[PARTITION_INPUT] = node.config.stash.get(_AUTO_KEY, False)
        node.workerinput[RESUMED_INPUT] = self.resumed
        node.workerinput[SLOTS_INPUT] = str(self.slots)

    def pytest_unconfigure(self) -> None:
        if self.slots is not None:
            shutil.rmtree(self.slots, ignore_errors=True)


def note_dist_choice(config: pytest.Config) -> None:
    """Called before xdist turns `-n N` into --dist=load: was a mode chosen explicitly?"""
    option = config.option
    config.stash[_AUTO_KEY] = getattr(option, "dist", "no") == "no" and not getattr(
        option, "distload", False
    )
