"""Retries with exponential backoff and jitter for failures worth another try.

A ModelError with `retryable=True` (429, 5xx, timeout, dropped connection) is tried
again up to `max_retries` times. The wait before retry k (k = 0, 1, ...) is drawn from
[d/2, d] with d = min(cap, base * 2**k) ("equal jitter": spreads the retries of many
concurrent calls without ever retrying at once), and is at least the provider's
Retry-After.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from ..errors import ModelError

T = TypeVar("T")

MAX_RETRY_AFTER_S = 300.0


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 5
    base_s: float = 1.0
    cap_s: float = 60.0


def backoff_delay(
    policy: RetryPolicy, retry: int, retry_after: float | None, rand: Callable[[], float]
) -> float:
    ceiling = min(policy.cap_s, policy.base_s * 2**retry)
    delay = ceiling / 2 + rand() * ceiling / 2
    if retry_after is not None:
        delay = max(delay, min(retry_after, MAX_RETRY_AFTER_S))
    return delay


async def with_retries(
    call: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    *,
    on_rate_limit: Callable[[], None] = lambda: None,
    on_retry: Callable[[], None] = lambda: None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    rand: Callable[[], float] = random.random,
) -> T:
    """`call()` until it succeeds, fails for good, or the retries are used up."""
    retry = 0
    while True:
        try:
            return await call()
        except ModelError as exc:
            if exc.status == 429:
                on_rate_limit()
            if not exc.retryable or retry >= policy.max_retries:
                if retry:
                    raise ModelError(
                        f"{exc} (gave up after {retry} retries)",
                        status=exc.status,
                    ) from exc
                raise
            on_retry()
            await sleep(backoff_delay(policy, retry, exc.retry_after, rand))
            retry += 1
