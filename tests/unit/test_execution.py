"""The engine's parts without pytest or a server: limiter, retries, cache, ledger, prices."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from pathlib import Path

import pytest

from pytest_llmbench.errors import BudgetExhausted, ModelError
from pytest_llmbench.execution.budget import Ledger, reply_cost
from pytest_llmbench.execution.cache import RequestCache, request_key
from pytest_llmbench.execution.limiter import MAX_SPACING_S, AdaptiveLimiter
from pytest_llmbench.execution.managed import ManagedModel, Services
from pytest_llmbench.execution.retry import RetryPolicy, backoff_delay, with_retries
from pytest_llmbench.models.base import Model, ModelReply, ModelRequest
from pytest_llmbench.models.provider_errors import model_error

REQUEST = ModelRequest(messages=({"role": "user", "content": "hi"},), role="candidate")


# -- limiter ----------------------------------------------------------------------------


def test_limiter_never_exceeds_its_limit_and_serves_in_arrival_order() -> None:
    async def scenario() -> tuple[int, list[str]]:
        limiter = AdaptiveLimiter(2)
        order: list[str] = []

        async def call(name: str) -> None:
            async with limiter.slot():
                order.append(name)
                await asyncio.sleep(0.01)

        await asyncio.gather(*(call(f"c{i}") for i in range(6)))
        return limiter.peak, order

    peak, order = asyncio.run(scenario())
    assert peak == 2
    assert order == [f"c{i}" for i in range(6)]


def test_waiting_calls_with_the_longest_chain_after_them_go_first() -> None:
    async def scenario() -> list[str]:
        limiter = AdaptiveLimiter(1)
        order: list[str] = []

        async def call(name: str, chain: int) -> None:
            async with limiter.slot(chain):
                order.append(name)
                await asyncio.sleep(0.01)

        # The first takes the slot at once; the others wait and are served by chain, then
        # in arrival order.
        chains = {"first": 0, "grader": 0, "candidate": 5, "evaluator": 4, "late": 5}
        await asyncio.gather(*(call(name, chain) for name, chain in chains.items()))
        return order

    assert asyncio.run(scenario()) == ["first", "candidate", "late", "evaluator", "grader"]


def test_with_positions_the_earliest_item_goes_first_then_the_longest_chain() -> None:
    async def scenario() -> list[str]:
        limiter = AdaptiveLimiter(1)
        order: list[str] = []

        async def call(name: str, chain: int, position: int) -> None:
            async with limiter.slot(chain, position):
                order.append(name)
                await asyncio.sleep(0.01)

        # -x: each call carries its item's place in pytest's order (the first one holds the
        # slot while the others queue).
        calls = {"first": (0, 0), "item2": (5, 2), "item1-grader": (0, 1), "item1": (4, 1)}
        await asyncio.gather(*(call(n, c, p) for n, (c, p) in calls.items()))
        return order

    assert asyncio.run(scenario()) == ["first", "item1", "item1-grader", "item2"]


class _FakeClock:
    """Time that moves only when a call holds its slot (`advance`) or the limiter waits
    (`sleep` wakes at its deadline: sleepers resume in the order they went to sleep)."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        wake = self.now + seconds
        await asyncio.sleep(0)
        self.now = max(self.now, wake)


def test_calls_start_spread_out_once_one_has_come_back() -> None:
    clock = _FakeClock()
    limiter = AdaptiveLimiter(4, clock=clock, sleep=clock.sleep)

    async def call(starts: list[float], seconds: float) -> None:
        async with limiter.slot():
            starts.append(clock())
            await asyncio.sleep(0)  # the others queue up meanwhile
            clock.now += seconds

    async def scenario() -> list[float]:
        assert limiter.spacing() == 0  # nothing known yet: no call waits
        with pytest.raises(RuntimeError):  # a call that failed tells nothing of latency
            async with limiter.slot():
                raise RuntimeError("refused")
        assert limiter.latency_s is None
        first: list[float] = []
        await call(first, 0.1)
        assert clock.sleeps == []  # before any call came back, none was held
        assert limiter.latency_s == pytest.approx(0.1)
        # Half the even spacing of 4 slots would be 12.5 ms: the cap is 5 ms.
        assert limiter.spacing() == MAX_SPACING_S
        later: list[float] = []
        await asyncio.gather(*(call(later, 0.0) for _ in range(4)))
        return later

    later = asyncio.run(scenario())
    gaps = [b - a for a, b in itertools.pairwise(later)]
    assert gaps == pytest.approx([MAX_SPACING_S] * 3)


def test_spacing_never_holds_starts_below_twice_the_rate_a_full_limit_needs() -> None:
    limiter = AdaptiveLimiter(8)
    limiter._observe(0.016)  # fast calls: 8 slots need a start every 2 ms
    assert limiter.spacing() == pytest.approx(0.001)
    limiter.rate_limited()  # 4 slots: a start every 4 ms suffices
    assert limiter.spacing() == pytest.approx(0.002)


def test_a_lowered_limit_holds_new_calls_back_until_enough_return() -> None:
    async def scenario() -> list[int]:
        limiter = AdaptiveLimiter(4, grow_after=100)
        seen: list[int] = []

        async def call() -> None:
            async with limiter.slot():
                seen.append(limiter.in_flight)
                await asyncio.sleep(0.01)

        first = [asyncio.ensure_future(call()) for _ in range(4)]
        await asyncio.sleep(0)
        limiter.rate_limited()  # 4 -> 2 while 4 are in flight
        await asyncio.gather(*first, *(call() for _ in range(6)))
        return seen

    seen = asyncio.run(scenario())
    assert seen[:4] == [1, 2, 3, 4]
    assert max(seen[4:]) <= 2


def test_limiter_halves_on_429_and_grows_back_after_a_run_of_successes() -> None:
    limiter = AdaptiveLimiter(16, grow_after=3)
    limiter.rate_limited()
    assert limiter.limit == 8
    limiter.rate_limited()
    limiter.rate_limited()
    limiter.rate_limited()
    limiter.rate_limited()
    assert limiter.limit == 1  # never below one
    for _ in range(2):
        limiter.succeeded()
    assert limiter.limit == 1
    limiter.succeeded()
    assert limiter.limit == 2
    limiter.succeeded()
    limiter.succeeded()
    limiter.rate_limited()  # a 429 resets the run of successes
    limiter.succeeded()
    limiter.succeeded()
    assert limiter.limit == 1
    for _ in range(3 * 20):
        limiter.succeeded()
    assert limiter.limit == 16  # back to the configured maximum, not beyond


# -- retries ----------------------------------------------------------------------------


def test_backoff_doubles_with_jitter_up_to_the_cap_and_honours_retry_after() -> None:
    policy = RetryPolicy(max_retries=5, base_s=1.0, cap_s=10.0)
    assert [backoff_delay(policy, k, None, lambda: 1.0) for k in range(5)] == [1, 2, 4, 8, 10]
    assert [backoff_delay(policy, k, None, lambda: 0.0) for k in range(3)] == [0.5, 1, 2]
    assert backoff_delay(policy, 0, 7.0, lambda: 0.0) == 7.0
    assert backoff_delay(policy, 3, 1.0, lambda: 1.0) == 8.0


def _failing(errors: list[ModelError]) -> tuple[list[int], object]:
    tries: list[int] = []

    async def call() -> str:
        tries.append(1)
        if errors:
            raise errors.pop(0)
        return "ok"

    return tries, call


def test_retries_transient_errors_then_succeeds() -> None:
    sleeps: list[float] = []
    rate_limits: list[int] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    tries, call = _failing(
        [
            ModelError("429", retryable=True, status=429, retry_after=3.0),
            ModelError("500", retryable=True, status=500),
        ]
    )
    result = asyncio.run(
        with_retries(
            call,  # type: ignore[arg-type]
            RetryPolicy(base_s=0.5),
            on_rate_limit=lambda: rate_limits.append(1),
            sleep=sleep,
            rand=lambda: 1.0,
        )
    )
    assert result == "ok" and len(tries) == 3
    assert sleeps == [3.0, 1.0]  # Retry-After, then 0.5 * 2
    assert rate_limits == [1]


def test_gives_up_after_max_retries_and_does_not_retry_permanent_errors() -> None:
    async def sleep(seconds: float) -> None:
        pass

    tries, call = _failing([ModelError("503", retryable=True, status=503)] * 4)
    with pytest.raises(ModelError, match="503 \\(gave up after 2 retries\\)"):
        asyncio.run(with_retries(call, RetryPolicy(max_retries=2), sleep=sleep))  # type: ignore[arg-type]
    assert len(tries) == 3
    tries, call = _failing([ModelError("401 bad key", status=401)])
    with pytest.raises(ModelError, match="^401 bad key$"):
        asyncio.run(with_retries(call, RetryPolicy(), sleep=sleep))  # type: ignore[arg-type]
    assert len(tries) == 1


def test_retry_after_wins_over_a_shorter_backoff_up_to_its_cap_and_backoff_stops_at_60_s() -> None:
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    tries, call = _failing(
        [
            ModelError("503", retryable=True, status=503, retry_after=1000.0),
            ModelError("429", retryable=True, status=429, retry_after=5.0),
            *[ModelError("500", retryable=True, status=500)] * 3,
        ]
    )
    policy = RetryPolicy(max_retries=5, base_s=16.0)
    assert asyncio.run(with_retries(call, policy, sleep=sleep, rand=lambda: 1.0)) == "ok"  # type: ignore[arg-type]
    # Retry-After 1000 s is capped at 300; 5 s is below the backoff of 32; then the 60 s cap.
    assert sleeps == [300.0, 32.0, 60.0, 60.0, 60.0] and len(tries) == 6
    sleeps.clear()
    _, call = _failing([ModelError("429", retryable=True, status=429, retry_after=5.0)])
    asyncio.run(with_retries(call, RetryPolicy(base_s=1.0), sleep=sleep, rand=lambda: 1.0))  # type: ignore[arg-type]
    assert sleeps == [5.0]  # Retry-After wins over a shorter backoff


def test_every_429_is_reported_and_a_late_permanent_error_says_how_many_retries() -> None:
    async def sleep(seconds: float) -> None:
        pass

    rate_limits: list[int] = []
    retries: list[int] = []
    tries, call = _failing(
        [
            ModelError("429", retryable=True, status=429),
            ModelError("429", retryable=True, status=429),
            ModelError("400 bad request", status=400),
        ]
    )
    with pytest.raises(ModelError, match=r"^400 bad request \(gave up after 2 retries\)$") as info:
        asyncio.run(
            with_retries(
                call,  # type: ignore[arg-type]
                RetryPolicy(),
                on_rate_limit=lambda: rate_limits.append(1),
                on_retry=lambda: retries.append(1),
                sleep=sleep,
            )
        )
    assert info.value.status == 400 and not info.value.retryable
    assert isinstance(info.value.__cause__, ModelError)
    assert len(tries) == 3 and len(rate_limits) == 2 and len(retries) == 2
    rate_limits.clear()
    _, call = _failing([ModelError("429", retryable=True, status=429)] * 2)
    with pytest.raises(ModelError, match="gave up after 1 retries") as info:
        asyncio.run(
            with_retries(
                call,  # type: ignore[arg-type]
                RetryPolicy(max_retries=1),
                on_rate_limit=lambda: rate_limits.append(1),
                sleep=sleep,
            )
        )
    assert info.value.status == 429
    assert len(rate_limits) == 2  # the last 429, not retried, still lowers the limit


def test_other_exceptions_are_not_retried() -> None:
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    tries: list[int] = []

    async def call() -> str:
        tries.append(1)
        raise KeyError("a bug, not a provider failure")

    with pytest.raises(KeyError, match="a bug"):
        asyncio.run(with_retries(call, RetryPolicy(), sleep=sleep))
    assert len(tries) == 1 and sleeps == []


class _Provider(Exception):
    def __init__(
        self, status: int | None, headers: dict[str, str] | None = None, text: str = ""
    ) -> None:
        super().__init__(text or f"status {status}")
        self.status_code = status
        self.litellm_response_headers = headers


@pytest.mark.parametrize(
    ("exc", "retryable", "retry_after"),
    [
        (_Provider(429, {"retry-after": "2"}), True, 2.0),
        (_Provider(500), True, None),
        (_Provider(503, {"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}), True, None),
        (_Provider(400), False, None),
        (_Provider(401), False, None),
        # litellm's word for a missing OpenAI key: a 500 InternalServerError
        (
            type("InternalServerError", (_Provider,), {})(
                500, text="OpenAIException - Missing credentials. Please pass an `api_key`"
            ),
            False,
            None,
        ),
        (type("AuthenticationError", (_Provider,), {})(500), False, None),
        (_Provider(429, text="Rate limit reached for this API key"), True, None),
        (type("BadRequestError", (_Provider,), {})(None), False, None),
        (TimeoutError("slow"), True, None),
        (ConnectionResetError("dropped"), True, None),
        (type("APIConnectionError", (Exception,), {})("refused"), True, None),
    ],
)
def test_provider_failures_are_classified(
    exc: Exception, retryable: bool, retry_after: float | None
) -> None:
    error = model_error("openai/x", "candidate", exc)
    assert error.retryable is retryable
    assert error.retry_after == retry_after
    assert str(error).startswith("openai/x (candidate): ")


# -- cache ------------------------------------------------------------------------------


def test_cache_key_covers_what_decides_the_reply_and_nothing_else() -> None:
    key = request_key("openai/a", "http://h/v1", REQUEST)
    assert key == request_key("openai/a", "http://h/v1", REQUEST)
    variants = [
        request_key("openai/b", "http://h/v1", REQUEST),
        request_key("openai/a", None, REQUEST),
        request_key("openai/a", "http://h/v1", ModelRequest(messages=({"role": "user", "content": "ho"},), role="candidate")),
        request_key("openai/a", "http://h/v1", ModelRequest(messages=REQUEST.messages, role="candidate", temperature=0.5)),
        request_key("openai/a", "http://h/v1", ModelRequest(messages=REQUEST.messages, role="candidate", max_tokens=9)),
        request_key("openai/a", "http://h/v1", ModelRequest(messages=REQUEST.messages, role="candidate", attempt=2)),
        request_key("openai/a", "http://h/v1", ModelRequest(messages=REQUEST.messages, role="candidate", sample=1)),
        request_key("openai/a", "http://h/v1", ModelRequest(messages=REQUEST.messages, role="candidate", top_logprobs=5)),
    ]  # fmt: skip
    assert len({key, *variants}) == len(variants) + 1
    # The timeout does not change the reply.
    longer = ModelRequest(messages=REQUEST.messages, role="candidate", timeout=5.0)
    assert request_key("openai/a", "http://h/v1", longer) == key


def test_cache_round_trip_and_a_corrupt_row_is_dropped(tmp_path: Path) -> None:
    cache = RequestCache(tmp_path / "c")
    reply = ModelReply(
        model="openai/a",
        text="4",
        latency_s=0.5,
        prompt_tokens=3,
        completion_tokens=1,
        cost_usd=0.01,
        first_token_logprobs=[("4", -0.1), ("3", -2.5)],
        finish_reason="stop",
        extra={"retries": 2},
    )
    cache.put("k", reply)
    assert cache.get("k") == ModelReply(**{**reply.__dict__, "extra": {}})
    assert cache.get("missing") is None
    cache.close()
    db = sqlite3.connect(tmp_path / "c" / "requests.sqlite3")
    db.execute("UPDATE replies SET reply = '{not json' WHERE key = 'k'")
    db.commit()
    db.close()
    cache = RequestCache(tmp_path / "c")
    assert cache.get("k") is None  # ignored ...
    rows = sqlite3.connect(tmp_path / "c" / "requests.sqlite3").execute(
        "SELECT COUNT(*) FROM replies"
    )
    assert rows.fetchone()[0] == 0  # ... and removed, so the next reply is stored afresh


class _Counting(Model):
    name = "openai/a"
    offline = False
    api_base = "http://h/v1"

    def __init__(self) -> None:
        self.calls = 0

    async def complete(self, request: ModelRequest) -> ModelReply:
        self.calls += 1
        await asyncio.sleep(0.01)
        return ModelReply(
            model=self.name, text="hi", latency_s=0.01, prompt_tokens=10, completion_tokens=5
        )


def test_managed_model_caches_refetches_corrupt_rows_and_stops_at_the_budget(
    tmp_path: Path,
) -> None:
    inner = _Counting()
    cache = RequestCache(tmp_path)
    services = Services(concurrency=2, retry=RetryPolicy(), cache_mode="on", cache=cache)
    model = ManagedModel(inner, services)

    async def twice() -> list[ModelReply]:
        return list(await asyncio.gather(model.complete(REQUEST), model.complete(REQUEST)))

    first, second = asyncio.run(twice())
    assert inner.calls == 1  # the identical request in flight waited for the first
    assert first.extra == {"retries": 0} and second.extra == {"cached": True}
    cache._store.run(lambda db: db.execute("UPDATE replies SET reply = '[]'"))
    assert asyncio.run(model.complete(REQUEST)).extra == {"retries": 0}
    assert inner.calls == 2
    assert asyncio.run(model.complete(REQUEST)).extra == {"cached": True}

    services.cache_mode = "replay"
    other = ModelRequest(messages=REQUEST.messages, role="candidate", attempt=2)
    with pytest.raises(ModelError, match="no cached reply"):
        asyncio.run(model.complete(other))
    assert inner.calls == 2

    services.cache_mode = "off"
    services.cache = None
    services.prices = {"openai/a": (1e6, 1e6)}  # 1 USD per token: 15 USD per call
    services.ledger = Ledger(tmp_path, "run-1", budget_usd=20.0)
    assert asyncio.run(model.complete(REQUEST)).cost_usd == 15.0
    asyncio.run(model.complete(REQUEST))  # 15 < 20 spent: this one may still start
    with pytest.raises(BudgetExhausted, match="budget of 20 USD spent"):
        asyncio.run(model.complete(REQUEST))
    assert inner.calls == 4
    assert Ledger(tmp_path, "run-2", budget_usd=20.0).spent() == 0  # per run


def test_a_call_is_paid_before_its_slot_is_free(tmp_path: Path) -> None:
    # Another xdist worker may take the freed slot at once: its budget check must see
    # the spend (CI once saw a third call under -n 2 when the spend came after).
    services = Services(concurrency=1, retry=RetryPolicy(), cache_mode="off")
    services.prices = {"openai/a": (1e6, 1e6)}  # 15 USD per call
    services.ledger = Ledger(tmp_path, "run-1", budget_usd=20.0)
    model = ManagedModel(_Counting(), services)
    limiter = services.limiter("openai/a")
    spent_at_release: list[float] = []
    release = limiter.release

    def watched_release() -> None:
        assert services.ledger is not None
        spent_at_release.append(services.ledger.spent())
        release()

    limiter.release = watched_release  # type: ignore[method-assign]
    asyncio.run(model.complete(REQUEST))
    assert spent_at_release == [15.0]


def test_workers_of_one_run_share_the_ledger(tmp_path: Path) -> None:
    # Each xdist worker opens its own Ledger on the report dir; they must see one total.
    first, second = (Ledger(tmp_path, "run-1", budget_usd=10.0) for _ in range(2))
    first.add(6.0)
    assert second.spent() == 6.0 and not second.exhausted()
    second.add(4.0)
    assert first.exhausted() and second.exhausted()
    first.close()
    second.close()


def test_refresh_fetches_stored_replies_again_but_pays_once_per_request_in_a_run(
    tmp_path: Path,
) -> None:
    cache = RequestCache(tmp_path)
    old = ModelReply(model="openai/a", text="old", latency_s=0.0)
    cache.put(request_key("openai/a", "http://h/v1", REQUEST), old)
    inner = _Counting()
    services = Services(concurrency=2, retry=RetryPolicy(), cache_mode="refresh", cache=cache)
    model = ManagedModel(inner, services)
    first = asyncio.run(model.complete(REQUEST))
    assert first.text == "hi" and inner.calls == 1  # the stored reply was not used
    again = asyncio.run(model.complete(REQUEST))  # the same request later in the run
    assert again.text == "hi" and again.extra["cached"] is True and inner.calls == 1
    assert cache.get(request_key("openai/a", "http://h/v1", REQUEST)).text == "hi"  # type: ignore[union-attr]


def test_a_429_through_a_managed_model_halves_that_models_limit(tmp_path: Path) -> None:
    class _RateLimited(_Counting):
        async def complete(self, request: ModelRequest) -> ModelReply:
            if self.calls == 0:
                self.calls += 1
                raise ModelError("429", retryable=True, status=429, retry_after=0.0)
            return await super().complete(request)

    inner = _RateLimited()
    services = Services(concurrency=8, retry=RetryPolicy(base_s=0.001))
    reply = asyncio.run(ManagedModel(inner, services).complete(REQUEST))
    assert reply.extra["retries"] == 1 and inner.calls == 2
    assert services.limiter("openai/a").limit == 4


def test_configured_price_wins_over_litellms() -> None:
    reply = ModelReply(
        model="m", text="", latency_s=0, prompt_tokens=1000, completion_tokens=500, cost_usd=9.0
    )
    assert reply_cost("m", reply, {"m": (2.0, 4.0)}) == pytest.approx(0.004)
    assert reply_cost("m", reply, {}) == 9.0
