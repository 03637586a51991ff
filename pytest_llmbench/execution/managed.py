"""The one layer every model call goes through, whatever the model (offline, litellm, or
one a plugin made): request cache -> budget -> per-model limiter -> retries -> the call.

Each try of a call ends at the request's timeout (--llm-timeout), however the provider
sends its reply (a body trickled byte by byte never trips a read timeout); it is then a
retryable ModelError, tried again like a 5xx.

With --llm-batch a batchable call (models.base.BATCHABLE) of a model with a batch API
goes from the cache and in-flight sharing, through the budget check, into a provider
batch (execution/batches.py) instead of the limiter, retries and timeout; when the batch
gives it no reply, it is called directly as above.

The pipeline and the models stay unaware of it: a ManagedModel is itself a Model.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import BudgetExhausted, LLMBenchError, ModelError, RunStopped
from ..models.base import (
    BATCHABLE,
    CALLS_AFTER,
    QUEUE_CLOCK,
    Model,
    ModelReply,
    ModelRequest,
    bounded,
)
from ..schema.vocabulary import CacheMode
from .batches import Batcher
from .budget import Ledger, Prices, reply_cost
from .cache import RequestCache, request_key
from .limiter import AdaptiveLimiter, SharedSlots
from .retry import RetryPolicy, with_retries


@dataclass
class ItemState:
    """Per item, shared by all its calls (set in a context variable by the engine)."""

    budget_stopped: bool = False
    fresh: bool = False  # a rerun: ask the model again, do not read the cache
    calls: int = 0  # calls started for the item
    # With -x/--maxfail: the item's index in pytest's order, so that its calls are served
    # before those of later items (0 for all otherwise: the limiter's own order).
    position: int = 0


CURRENT_ITEM: contextvars.ContextVar[ItemState | None] = contextvars.ContextVar(
    "llmbench_item", default=None
)


@dataclass
class Services:
    """What the managed models of one process share."""

    concurrency: int
    retry: RetryPolicy
    cache_mode: CacheMode = "off"
    cache: RequestCache | None = None
    ledger: Ledger | None = None
    prices: Prices = field(default_factory=dict)
    limiters: dict[str, AdaptiveLimiter] = field(default_factory=dict)
    # xdist: the folder of the slots all workers share, so `concurrency` is per model overall.
    shared_slots: Path | None = None
    # Cache key -> the call answering it right now: an identical request waits for it.
    in_flight: dict[str, asyncio.Future[ModelReply]] = field(default_factory=dict)
    # Keys answered by this process: with --llm-cache=refresh an identical request later
    # in the run reads them back instead of paying again.
    fetched: set[str] = field(default_factory=set)
    # Why the run stopped (-x, --maxfail, Ctrl-C, end of session): no call starts after it.
    stopped: str | None = None
    # --llm-batch: batchable calls go through provider batches (execution/batches.py).
    batches: Batcher | None = None

    def limiter(self, model: str) -> AdaptiveLimiter:
        if model not in self.limiters:
            shared = self.shared_slots
            self.limiters[model] = AdaptiveLimiter(
                self.concurrency,
                shared=SharedSlots.for_model(shared, model, self.concurrency) if shared else None,
            )
        return self.limiters[model]

    def close(self) -> None:
        for limiter in self.limiters.values():
            if limiter.shared is not None:
                limiter.shared.close()
        for resource in (self.cache, self.ledger, self.batches):
            if resource is not None:
                resource.close()

    def check_budget(self) -> None:
        if self.stopped is not None:
            raise RunStopped(f"not called: the run stopped ({self.stopped})")
        if self.ledger is not None and self.ledger.exhausted():
            budget_stopped()
            raise BudgetExhausted(
                f"budget of {self.ledger.budget_usd:g} USD spent (--llm-budget-usd)"
            )


def budget_stopped() -> None:
    """Mark the current item as stopped by the budget (it is then skipped, not an error)."""
    state = CURRENT_ITEM.get()
    if state is not None:
        state.budget_stopped = True


@asynccontextmanager
async def _timed(limiter: AdaptiveLimiter) -> AsyncIterator[None]:
    """The limiter's slot, by the item's position (ItemState) and its remaining chain
    (CALLS_AFTER); the wait for it goes on the task's QueueClock (if it has one)."""
    clock, priority = QUEUE_CLOCK.get(), CALLS_AFTER.get()
    state = CURRENT_ITEM.get()
    position = state.position if state is not None else 0
    if clock is None:
        async with limiter.slot(priority, position):
            yield
        return
    start = clock.waiting_since = time.monotonic()
    try:
        async with limiter.slot(priority, position):
            clock.waiting_since = None
            clock.queued_s += time.monotonic() - start
            yield
    finally:
        if clock.waiting_since == start:  # cancelled or failed while still waiting
            clock.waiting_since = None
            clock.queued_s += time.monotonic() - start


class ManagedModel(Model):
    """A model behind the run's services: request cache, in-flight sharing, retries,
    concurrency slot, budget and timeout."""

    def __init__(self, inner: Model, services: Services) -> None:
        self.inner = inner
        self.services = services
        self.name = inner.name
        self.offline = inner.offline
        self.api_base = inner.api_base

    def check_credentials(self) -> None:
        self.inner.check_credentials()

    def takes_response_schema(self) -> bool:
        return self.inner.takes_response_schema()

    async def complete(self, request: ModelRequest) -> ModelReply:
        services = self.services
        # Offline models answer instantly from the task itself: nothing to cache or to pay.
        cache = None if self.offline else services.cache
        key = request_key(self.name, self.api_base, request) if cache is not None else ""
        state = CURRENT_ITEM.get()
        fresh = state is not None and state.fresh and services.cache_mode != "replay"
        if (
            cache is not None
            and (services.cache_mode in ("on", "replay") or key in services.fetched)
            and not fresh
        ):
            hit = cache.get(key)
            if hit is not None:
                return replace(hit, extra={**hit.extra, "cached": True})
            if services.cache_mode == "replay":
                raise ModelError(
                    f"{self.name} ({request.role}): no cached reply for this request "
                    "(--llm-cache=replay makes no calls; record it first with --llm-cache=on)"
                )
        if cache is None:
            return await self._send(request, key)
        running = services.in_flight.get(key)
        if running is not None and not fresh:
            try:
                reply = await asyncio.shield(running)
            except BudgetExhausted:
                budget_stopped()
                raise
            return replace(reply, extra={"cached": True})
        future: asyncio.Future[ModelReply] = asyncio.get_running_loop().create_future()
        services.in_flight[key] = future
        try:
            reply = await self._send(request, key)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning when nobody waits
            raise
        finally:
            if services.in_flight.get(key) is future:  # a rerun's fresh call may have replaced it
                del services.in_flight[key]
        future.set_result(reply)
        cache.put(key, reply)
        services.fetched.add(key)
        return reply

    def forget(self, request: ModelRequest) -> None:
        """Drop the cached reply to this request: the judge could not use it, so the next
        run asks again (a new call) instead of replaying it. Replay mode keeps it."""
        self.inner.forget(request)
        services = self.services
        if self.offline or services.cache is None or services.cache_mode == "replay":
            return
        key = request_key(self.name, self.api_base, request)
        services.cache.forget(key)
        services.fetched.discard(key)

    async def _within_timeout(self, request: ModelRequest) -> ModelReply:
        try:
            async with asyncio.timeout(request.timeout):
                return await self.inner.complete(request)
        except TimeoutError:
            raise ModelError(
                f"{self.name} ({request.role}): no complete reply within "
                f"{request.timeout:g} s (--llm-timeout)",
                retryable=True,
            ) from None

    async def _send(self, request: ModelRequest, key: str) -> ModelReply:
        """The call through a provider batch when it may go in one (--llm-batch), else
        directly. A batched call is counted and paid like a direct one."""
        services, batches = self.services, self.services.batches
        batchable = BATCHABLE.get()
        if batches is None or not batchable:
            if batches is not None and batchable is False:
                batches.in_dialog(self.name)
            return await self._call(request)
        services.check_budget()
        reply = await batches.complete(
            self.inner, request, lambda: key or request_key(self.name, self.api_base, request)
        )
        if reply is None:
            return await self._call(request)
        state = CURRENT_ITEM.get()
        if state is not None:
            state.calls += 1
        cost = reply_cost(self.name, reply, services.prices)
        if services.ledger is not None and cost:
            services.ledger.add(cost)
        # A configured price (--llm-price) wins over the table's batch rate.
        priced = reply.batch_priced and self.name not in services.prices
        return bounded(replace(reply, cost_usd=cost, batch_priced=priced))

    async def _call(self, request: ModelRequest) -> ModelReply:
        services = self.services
        limiter = services.limiter(self.name)
        retries = 0

        async def once() -> ModelReply:
            async with _timed(limiter):
                services.check_budget()  # checked as the call starts, after any wait
                state = CURRENT_ITEM.get()
                if state is not None:
                    state.calls += 1
                try:
                    reply = await self._within_timeout(request)
                except LLMBenchError:
                    raise
                except Exception as exc:  # a model a plugin made: its failure is the item's error
                    raise ModelError(f"{self.name}: {type(exc).__name__}: {exc}") from exc
                # Paid before the slot is free: the call that takes it next (in any xdist
                # worker) sees this spend when it checks the budget.
                cost = reply_cost(self.name, reply, services.prices)
                if services.ledger is not None and cost:
                    services.ledger.add(cost)
            limiter.succeeded()
            return replace(reply, cost_usd=cost)

        def count_retry() -> None:
            nonlocal retries
            retries += 1

        reply = bounded(
            await with_retries(
                once, services.retry, on_rate_limit=limiter.rate_limited, on_retry=count_retry
            )
        )
        return replace(reply, extra={**reply.extra, "retries": retries})
