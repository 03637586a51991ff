"""Under xdist, give each worker a fixed share of the items, known before any runs.

xdist's default `load` scheduler hands items out as workers free up, so a worker cannot
start its items' model calls ahead of time without risking calls made twice. With this
scheduler worker gwK runs exactly the items whose collection index i has
i % workercount == K, so each worker starts all of its items when collection finishes.
Used when the user gave -n without choosing a --dist mode; with an explicit --dist, each
worker runs its items one at a time as they arrive (calls within an item still overlap).
"""

from __future__ import annotations

from typing import Any

import pytest
from xdist.scheduler import LoadScheduling

PARTITION_INPUT = "llmbench_partition"
RESUMED_INPUT = "llmbench_resumed"
_AUTO_KEY = pytest.StashKey[bool]()


def worker_index(worker_id: str) -> int | None:
    digits = worker_id.removeprefix("gw")
    return int(digits) if digits.isdigit() else None


def is_mine(index: int, worker_id: str, workers: int) -> bool:
    return index % workers == worker_index(worker_id)


class PartitionScheduling(LoadScheduling):
    def schedule(self) -> None:
        assert self.collection_is_completed
        if self.collection is not None or not self.node2collection:  # type: ignore[has-type]
            super().schedule()
            return
        if not self._check_nodes_have_same_collection():
            self.log("**Different tests collected, aborting run**")
            return
        collection = list(next(iter(self.node2collection.values())))
        self.collection = collection
        workers = len(self.nodes)
        unsent = set(range(len(collection)))
        for node in self.nodes:
            mine = [i for i in range(len(collection)) if is_mine(i, node.gateway.id, workers)]
            if mine:
                unsent.difference_update(mine)
                self.node2pending[node].extend(mine)
                node.send_runtest_some(mine)
        # Items whose worker is missing go out the ordinary way; then the nodes shut down.
        self.pending[:] = sorted(unsent)
        for node in self.nodes:
            self.check_schedule(node)


class XdistPartition:
    """Controller-side xdist hooks, registered when xdist is active."""

    def __init__(self, resumed: list[str]) -> None:
        self.resumed = resumed

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        return PartitionScheduling(config, log) if config.stash.get(_AUTO_KEY, False) else None

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[PARTITION_INPUT] = node.config.stash.get(_AUTO_KEY, False)
        node.workerinput[RESUMED_INPUT] = self.resumed


def note_dist_choice(config: pytest.Config) -> None:
    """Called before xdist turns `-n N` into --dist=load: was a mode chosen explicitly?"""
    option = config.option
    config.stash[_AUTO_KEY] = getattr(option, "dist", "no") == "no" and not getattr(
        option, "distload", False
    )
