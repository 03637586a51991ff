"""A per-model concurrency limit that adapts to rate limits (AIMD).

At most `limit` calls are in flight. A 429 halves the limit (never below 1); every
`grow_after` successes in a row add one slot back, up to the configured maximum.
Waiting calls are served longest chain first (`priority`: how many calls its item will
still make one after another, models.base.CALLS_AFTER), then in arrival order: the items
whose work would end last start it sooner, so the run's last calls are not one long
item's chain behind idle slots (bench/limiter_order.py simulates the orders;
docs/measurements.md has its figures). A `position` comes before both: with -x or
--maxfail each call carries its item's place in pytest's order (0 otherwise), so of the
items running at once (execution/engine.py's window) the one pytest reports first
finishes first, and a stop comes before most calls are paid.

Calls start at least `spacing()` apart: half the even spacing of a full set of slots
(the calls' recent time in a slot / (2 x limit)), at most MAX_SPACING_S, and none before
the first call has come back. Calls of equal latency otherwise start, and come back, in
bursts of `limit`, and one event loop handles a burst's replies one after another, so
each reply would wait for most of the burst and hold its slot that much longer
(bench/throughput.py measures it). Starts are never held below twice the rate a full
set of slots needs, so the pacing alone can never keep a slot idle.

The pacing reads the time and waits through the limiter's `clock` and `sleep`
(time.monotonic and asyncio.sleep, unless a test gives it a fake clock).

Under xdist the limit is for all workers together: each worker's limiter also takes one
of `maximum` slots shared through lock files (SharedSlots), so a model reaches its limit
whichever workers its items landed on. A lock dies with its process, so a crashed worker
never keeps a slot.
"""

from __future__ import annotations

import asyncio
import hashlib
import heapq
import itertools
import os
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no shared slots; the engine splits the limit instead
    fcntl = None  # type: ignore[assignment]

SHARED_SLOTS_AVAILABLE = fcntl is not None
_POLL_MAX_S = 0.02
# The event loop's CPU time to handle one reply (litellm's own work): spreading the starts
# further than that only delays calls.
MAX_SPACING_S = 0.005
_LATENCY_WEIGHT = 0.2  # of each new call in the running mean of the time in a slot


class SharedSlots:
    """At most `count` slots held at once by all processes that use the same folder.

    Slot i is an exclusive flock on file i; a process polls for a free one (one waiter
    at a time per process, in arrival order, backing off up to 20 ms).
    """

    def __init__(self, folder: Path, count: int) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self._fds = [
            os.open(folder / f"{i}.lock", os.O_RDWR | os.O_CREAT, 0o600) for i in range(count)
        ]
        self._free: deque[int] = deque(range(count))  # slots this process does not hold
        self._turn = asyncio.Lock()

    @classmethod
    def for_model(cls, root: Path, model: str, count: int) -> SharedSlots:
        return cls(root / hashlib.sha256(model.encode()).hexdigest()[:16], count)

    def try_acquire(self) -> int | None:
        for _ in range(len(self._free)):
            slot = self._free.popleft()
            try:
                fcntl.flock(self._fds[slot], fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self._free.append(slot)
                continue
            return slot
        return None

    async def acquire(self) -> int:
        async with self._turn:
            delay = 0.001
            while (slot := self.try_acquire()) is None:
                await asyncio.sleep(delay)
                delay = min(_POLL_MAX_S, delay * 2)
            return slot

    def release(self, slot: int) -> None:
        fcntl.flock(self._fds[slot], fcntl.LOCK_UN)
        self._free.append(slot)

    def close(self) -> None:
        for fd in self._fds:
            os.close(fd)
        self._fds = []


class AdaptiveLimiter:
    def __init__(
        self,
        maximum: int,
        grow_after: int | None = None,
        shared: SharedSlots | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if maximum < 1:
            raise ValueError("maximum must be >= 1")
        self.maximum = maximum
        self.limit = maximum
        self.grow_after = grow_after if grow_after is not None else max(4, maximum)
        self.in_flight = 0
        self.peak = 0
        self._successes = 0
        # (position, -priority, arrival, waiter): a heap, earliest item first, then longest
        # chain, then arrival order.
        self._waiters: list[tuple[int, int, int, asyncio.Future[None]]] = []
        self._arrivals = itertools.count()
        self.shared = shared
        self.latency_s: float | None = None  # running mean of a call's time in its slot
        self._next_start = 0.0
        self._clock = clock
        self._sleep = sleep

    def _wake(self) -> None:
        while self._waiters and self.in_flight < self.limit:
            *_, waiter = heapq.heappop(self._waiters)
            if not waiter.done():
                self.in_flight += 1
                self.peak = max(self.peak, self.in_flight)
                waiter.set_result(None)

    async def acquire(self, priority: int = 0, position: int = 0) -> None:
        """Wait for a slot; among waiting calls the lowest `position` goes first, then the
        highest `priority`."""
        if self.in_flight < self.limit and not self._waiters:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (position, -priority, next(self._arrivals), waiter))
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # the slot was handed over just as we were cancelled
            raise

    def release(self) -> None:
        self.in_flight -= 1
        self._wake()

    def spacing(self) -> float:
        """The least time between two call starts: 0 until a call has come back."""
        if self.latency_s is None:
            return 0.0
        return min(MAX_SPACING_S, self.latency_s / (2 * self.limit))

    async def _paced(self) -> None:
        now = self._clock()
        start = max(now, self._next_start)
        self._next_start = start + self.spacing()
        if start > now:
            await self._sleep(start - now)

    def _observe(self, seconds: float) -> None:
        previous = self.latency_s
        self.latency_s = (
            seconds if previous is None else previous + _LATENCY_WEIGHT * (seconds - previous)
        )

    @asynccontextmanager
    async def slot(self, priority: int = 0, position: int = 0) -> AsyncIterator[None]:
        await self.acquire(priority, position)
        try:
            await self._paced()
            shared_slot = None if self.shared is None else await self.shared.acquire()
            try:
                started = self._clock()
                yield
                self._observe(self._clock() - started)  # calls that raised are not counted
            finally:
                if self.shared is not None and shared_slot is not None:
                    self.shared.release(shared_slot)
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
