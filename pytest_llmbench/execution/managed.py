"""The one layer every model call goes through, whatever the model (offline, litellm, or
one a plugin made): request cache -> budget -> per-model limiter -> retries -> the call.

Each try of a call ends at the request's timeout (--llm-timeout), however the provider
sends its reply (a body trickled byte by byte never trips a read timeout); it is then a
retryable ModelError, tried again like a 5xx.

The pipeline and the models stay unaware of it: a ManagedModel is itself a Model.
"""

from __future__ import annotations

import asyncio
import contextvars
from dataclasses import dataclass, field, replace

from ..errors import BudgetExhausted, ModelError
from ..models.base import Model, ModelReply, ModelRequest
from ..schema.vocabulary import CacheMode
from .budget import Ledger, Prices, reply_cost
from .cache import RequestCache, request_key
from .limiter import AdaptiveLimiter
from .retry import RetryPolicy, with_retries


@dataclass
class ItemState:
    """Per item, shared by all its calls (set in a context variable by the engine)."""

    budget_stopped: bool = False


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
    # Cache key -> the call answering it right now: an identical request waits for it.
    in_flight: dict[str, asyncio.Future[ModelReply]] = field(default_factory=dict)
    # Keys answered by this process: with --llm-cache=refresh an identical request later
    # in the run reads them back instead of paying again.
    fetched: set[str] = field(default_factory=set)

    def limiter(self, model: str) -> AdaptiveLimiter:
        if model not in self.limiters:
            self.limiters[model] = AdaptiveLimiter(self.concurrency)
        return self.limiters[model]

    def check_budget(self) -> None:
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


class ManagedModel:
    def __init__(self, inner: Model, services: Services) -> None:
        self.inner = inner
        self.services = services
        self.name = inner.name
        self.offline = inner.offline
        self.api_base: str | None = getattr(inner, "api_base", None)

    async def complete(self, request: ModelRequest) -> ModelReply:
        services = self.services
        # Offline models answer instantly from the task itself: nothing to cache or to pay.
        cache = None if self.offline else services.cache
        key = request_key(self.name, self.api_base, request) if cache is not None else ""
        if cache is not None and (
            services.cache_mode in ("on", "replay") or key in services.fetched
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
            return await self._call(request)
        running = services.in_flight.get(key)
        if running is not None:
            try:
                reply = await asyncio.shield(running)
            except BudgetExhausted:
                budget_stopped()
                raise
            return replace(reply, extra={"cached": True})
        future: asyncio.Future[ModelReply] = asyncio.get_running_loop().create_future()
        services.in_flight[key] = future
        try:
            reply = await self._call(request)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning when nobody waits
            raise
        finally:
            del services.in_flight[key]
        future.set_result(reply)
        cache.put(key, reply)
        services.fetched.add(key)
        return reply

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

    async def _call(self, request: ModelRequest) -> ModelReply:
        services = self.services
        limiter = services.limiter(self.name)
        retries = 0

        async def once() -> ModelReply:
            async with limiter.slot():
                services.check_budget()  # checked as the call starts, after any wait
                reply = await self._within_timeout(request)
            limiter.succeeded()
            return reply

        def count_retry() -> None:
            nonlocal retries
            retries += 1

        reply = await with_retries(
            once, services.retry, on_rate_limit=limiter.rate_limited, on_retry=count_retry
        )
        cost = reply_cost(self.name, reply, services.prices)
        reply = replace(reply, cost_usd=cost, extra={**reply.extra, "retries": retries})
        if services.ledger is not None and cost:
            services.ledger.add(cost)
        return reply
