"""--llm-timeout bounds each try of a call, even when the server trickles its body."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

from pytest_llmbench.errors import ModelError
from pytest_llmbench.execution.managed import ManagedModel, Services
from pytest_llmbench.execution.retry import RetryPolicy
from pytest_llmbench.models.base import ModelRequest
from pytest_llmbench.models.litellm_model import LiteLLMModel, litellm_module
from tests.conftest import read_results, write_project
from tests.llm_server import FakeLLMServer

SLOW_BYTE_S = 0.05  # a reply of some 400 bytes then takes about 20 s


def test_a_trickled_reply_ends_at_the_timeout(llm_server: FakeLLMServer) -> None:
    llm_server.policy.trickle = lambda role, n: SLOW_BYTE_S
    litellm_module()  # the import is not part of the call
    model = ManagedModel(
        LiteLLMModel("openai/slow", llm_server.base_url),
        Services(concurrency=1, retry=RetryPolicy(max_retries=0)),
    )
    request = ModelRequest(
        messages=({"role": "user", "content": "hi"},), role="candidate", timeout=2.0
    )
    with pytest.raises(ModelError, match=r"no complete reply within 2 s \(--llm-timeout\)") as info:
        asyncio.run(model.complete(request))
    assert info.value.retryable
    _wait_for(lambda: llm_server.abandoned == 1)  # the client hung up mid-reply


def test_a_timed_out_try_is_retried_and_the_item_ends_near_the_limit(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    write_project(pytester.path)
    # The first candidate reply trickles; the retry is answered at once.
    llm_server.policy.trickle = lambda role, n: SLOW_BYTE_S if role == "candidate" and n == 1 else 0
    result = pytester.runpytest(
        "-k",
        "ExplainMini",
        "--llm-model=openai/cand",
        "--llm-judge=openai/judge",
        f"--llm-api-base={llm_server.base_url}",
        "--llm-attempts=1",
        "--llm-timeout=2",
        "--llm-retry-backoff=0.01",
        "--llm-cache=off",
    )
    result.assert_outcomes(passed=1)
    (item,) = read_results(pytester.path)
    (candidate,) = [c for c in item["attempts"][0]["calls"] if c["role"] == "candidate"]
    assert candidate["retries"] == 1 and llm_server.calls["candidate"] == 2
    # The trickled reply was dropped at the timeout, not read to its end.
    _wait_for(lambda: llm_server.abandoned == 1)


def _wait_for(condition: Callable[[], bool]) -> None:
    """Until `condition` holds (the server sees a hang-up on its next byte), at most 30 s."""
    deadline = time.monotonic() + 30
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert condition()
