"""Retries with exponential backoff and jitter for failures worth another try, on tenacity.

A ModelError with `retryable=True` (429, 5xx, timeout, dropped connection) is tried
again up to `max_retries` times. The wait before retry k (k = 0, 1, ...) is drawn from
[d/2, d] with d = min(cap, base * 2**k) ("equal jitter": spreads the retries of many
concurrent calls without ever retrying at once), and is at least the provider's
Retry-After (itself capped at MAX_RETRY_AFTER_S). Every 429 is reported, the last one
too, so the caller can lower its concurrency. Any other exception is raised at once.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import NoReturn, TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt
from tenacity.stop import stop_base

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
    return float(delay)


def _failure(state: RetryCallState) -> ModelError:
    """The ModelError the attempt just made ended with (only those reach the callbacks)."""
    assert state.outcome is not None
    error = state.outcome.exception()
    assert isinstance(error, ModelError)
    return error


class _not_retryable(stop_base):
    """Stop at a failure not worth another try (after retries, it too says it gave up)."""

    def __call__(self, retry_state: RetryCallState) -> bool:
        return not _failure(retry_state).retryable


def _give_up(state: RetryCallState) -> NoReturn:
    error = _failure(state)
    retries = state.attempt_number - 1
    if retries:
        raise ModelError(
            f"{error} (gave up after {retries} retries)", status=error.status
        ) from error
    raise error


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

    def rate_limited(state: RetryCallState) -> None:
        if _failure(state).status == 429:
            on_rate_limit()

    def wait(state: RetryCallState) -> float:
        retry = state.attempt_number - 1
        return backoff_delay(policy, retry, _failure(state).retry_after, rand)

    retrying = AsyncRetrying(
        retry=retry_if_exception_type(ModelError),  # every ModelError reaches `stop`
        stop=stop_after_attempt(policy.max_retries + 1) | _not_retryable(),
        wait=wait,
        after=rate_limited,
        before_sleep=lambda state: on_retry(),
        sleep=sleep,
        retry_error_callback=_give_up,
    )
    return await retrying(call)
