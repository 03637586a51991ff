"""Anthropic's Message Batches (models/anthropic_batch.py): a line's params are the body
litellm builds for the direct call (system prompt and cache_control carried), a results
line of each kind is read as a reply or as that line's error, a reply is priced at the
batch rates (else the normal rate, said), and a refused creation is one ModelError."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from pytest_llmbench.errors import ModelError
from pytest_llmbench.models.anthropic_batch import AnthropicBatches, chat_completion, read_results
from pytest_llmbench.models.base import BatchAPI, ModelRequest, StablePrefix
from pytest_llmbench.models.litellm_model import LiteLLMModel, litellm_module
from tests.llm_server import FakeLLMServer

CLAUDE = "anthropic/claude-haiku-4-5"
KEY = "a" * 64  # a request key: the line's custom_id
SYSTEM = "You review code. Be brief."
DATASET = "```js\nexport const add = (a, b) => a + b;\n```\n"


def _request(**extra: Any) -> ModelRequest:
    return ModelRequest(
        messages=(
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": DATASET + "Explain add."},
        ),
        role="candidate",
        temperature=0.0,
        max_tokens=64,
        stable_prefix=StablePrefix(messages=1, chars=len(DATASET)),
        **extra,
    )


def _api(model: LiteLLMModel) -> BatchAPI:
    api = model.batch_api()
    assert isinstance(api, AnthropicBatches)
    return api


def test_a_line_carries_the_direct_calls_body_with_its_system_prompt_and_cache_marks() -> None:
    line = _api(LiteLLMModel(CLAUDE)).line(KEY, _request())
    assert set(line) == {"custom_id", "params"} and line["custom_id"] == KEY
    params = line["params"]
    assert params["model"] == "claude-haiku-4-5" and "stream" not in params
    assert params["max_tokens"] == 64 and params["temperature"] == 0.0
    # The system prompt goes to Anthropic's `system`; the one mark ends the inlined
    # dataset, and Anthropic caches everything before it, the system prompt included.
    assert params["system"] == [{"type": "text", "text": SYSTEM}]
    (user,) = params["messages"]
    assert user["role"] == "user"
    assert user["content"][0] == {
        "type": "text",
        "text": DATASET,
        "cache_control": {"type": "ephemeral"},
    }
    assert user["content"][1] == {"type": "text", "text": "Explain add."}


def test_a_structured_request_carries_its_output_format_and_beta_header() -> None:
    model = LiteLLMModel(CLAUDE)
    assert model.forms.form == "schema"  # the first form tried
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    line = _api(model).line(KEY, _request(response_schema=schema))
    assert line["params"]["output_format"]["schema"]["properties"] == schema["properties"]
    assert "structured-outputs" in line["_anthropic_beta"]


def _message(text: str, model: str = "claude-haiku-4-5") -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 10,
            "cache_read_input_tokens": 100,
            "cache_creation_input_tokens": 20,
            "output_tokens": 5,
        },
    }


def test_results_lines_of_every_kind_are_read_and_garbage_is_skipped() -> None:
    lines = [
        {"custom_id": "ok", "result": {"type": "succeeded", "message": _message("hi")}},
        {
            "custom_id": "bad",
            "result": {
                "type": "errored",
                "error": {"type": "error", "error": {"type": "overloaded", "message": "busy"}},
            },
        },
        {"custom_id": "late", "result": {"type": "expired"}},
        {"custom_id": "gone", "result": {"type": "canceled"}},
        {"custom_id": "odd", "result": {"type": "succeeded", "message": "not a message"}},
        {"custom_id": "weird", "result": "x"},
        {"custom_id": 7, "result": {"type": "succeeded", "message": _message("no")}},
    ]
    text = "\n".join(json.dumps(x) for x in lines) + "\nnot json\n[1]\n"
    found = read_results(text)
    assert set(found) == {"ok", "bad", "late", "gone", "odd", "weird"}
    assert found["ok"].body == _message("hi") and found["ok"].error is None
    assert found["bad"] == type(found["bad"])(error="busy")
    assert found["late"].error == "the request was expired before it ran"
    assert found["gone"].error == "the request was canceled before it ran"
    assert all(found[k].body is None and found[k].error for k in ("odd", "weird"))


def test_a_reply_has_the_cache_figures_and_the_batch_price_and_names_our_model() -> None:
    api = _api(LiteLLMModel(CLAUDE))
    reply = api.reply(_request(), _message("the answer", model="claude-3-haiku-cheap"), 42.0)
    assert reply.text == "the answer" and reply.model == CLAUDE and reply.latency_s == 42.0
    assert (reply.prompt_tokens, reply.completion_tokens) == (130, 5)
    assert (reply.cache_read_tokens, reply.cache_write_tokens) == (100, 20)
    info = litellm_module().get_model_info(CLAUDE)
    rates = (info["input_cost_per_token_batches"], info["output_cost_per_token_batches"])
    assert reply.batch_priced and reply.cost_usd == pytest.approx(130 * rates[0] + 5 * rates[1])
    assert api.price_basis() == "at litellm's batch rates"


def test_a_model_without_batch_rates_is_priced_at_its_normal_rate_and_says_so() -> None:
    name = "anthropic/claude-mythos-preview"  # litellm prices it, with no batch rate
    api = _api(LiteLLMModel(name))
    reply = api.reply(_request(), _message("x"), 1.0)
    assert not reply.batch_priced and reply.cost_usd and reply.cost_usd > 0
    assert api.price_basis() == "at its normal rate: litellm's table has no batch rate for it"


def test_a_line_that_is_no_message_is_a_model_error() -> None:
    with pytest.raises(ModelError, match="batch line is not a message"):
        _api(LiteLLMModel(CLAUDE)).reply(_request(), {"content": 3}, 1.0)


def test_a_json_tool_answer_becomes_the_text_in_json_mode() -> None:
    message = _message("")
    message["content"] = [
        {"type": "tool_use", "id": "t1", "name": "json_tool_call", "input": {"ok": True}}
    ]
    response = chat_completion(litellm_module(), message, json_mode=True)
    assert json.loads(response.choices[0].message.content) == {"ok": True}


def test_a_refused_creation_is_one_model_error_with_the_providers_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "llmbench-test")
    server = FakeLLMServer().start()
    try:
        api = _api(LiteLLMModel(CLAUDE, api_base=server.base_url))
        with pytest.raises(ModelError) as raised:
            asyncio.run(api.submit([], "llmbench-tag"))
    finally:
        server.stop()
    assert not raised.value.retryable
    assert "bad request" in str(raised.value) and "requests: a non-empty list" in str(raised.value)
    assert "\n" not in str(raised.value)
