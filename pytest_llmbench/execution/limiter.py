"""A per-model concurrency limit that adapts to rate limits (AIMD).

At most `limit` calls are in flight. A 429 halves the limit (never below 1); every
`grow_after` successes in a row add one slot back, up to the configured maximum.
Waiting calls are served by priority, then in arrival order: graders and evaluators
of items already under way go before new candidate calls, so items finish early and
their results can be recorded (and a killed run keeps them).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class AdaptiveLimiter:
    def __init__(self, maximum: int, grow_after: int | None = None) -> None:
        if maximum < 1:
            raise ValueError("maximum must be >= 1")
        self.maximum = maximum
        self.limit = maximum
        self.grow_after = grow_after if grow_after is not None else max(4, maximum)
        self.in_flight = 0
        self.peak = 0
        self._successes = 0
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def _wake(self) -> None:
        while self._waiters and self.in_flight < self.limit:
            _, _, waiter = heapq.heappop(self._waiters)
            if not waiter.done():
                self.in_flight += 1
                self.peak = max(self.peak, self.in_flight)
                waiter.set_result(None)

    async def acquire(self, priority: int = 0) -> None:
        """Wait for a slot; a lower `priority` number is served first."""
        if self.in_flight < self.limit and not self._waiters:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (priority, next(self._order), waiter))
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # the slot was handed over just as we were cancelled
            raise

    def release(self) -> None:
        self.in_flight -= 1
        self._wake()

    @asynccontextmanager
    async def slot(self, priority: int = 0) -> AsyncIterator[None]:
        await self.acquire(priority)
        try:
            yield
        finally:
            self.release()

    def rate_limited(self) -> None:
        """A 429: halve the limit."""
        self.limit = max(1, self.limit // 2)
        self._successes = 0

    def succeeded(self) -> None:
        """A call went through: after a run of successes, one more slot."""
        self._successes += 1
        if self._successes >= self.grow_after and self.limit < self.maximum:
            self.limit += 1
            self._successes = 0
            self._wake()
