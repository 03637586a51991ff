"""OpenAI's batch API through litellm (files + batches), for models litellm routes to the
provider "openai" (OpenAI itself, or an OpenAI-compatible server at --llm-api-base); and
what every litellm batch API shares: which providers have one (BATCH_PROVIDERS; Anthropic's
is models/anthropic_batch.py, as litellm 1.106 cannot create Anthropic batches itself) and
how a batched reply is priced.

A reply is priced at litellm's batch rates (`input_cost_per_token_batches`,
`output_cost_per_token_batches`) when its table has them; otherwise at the model's
normal price as a direct call is, and the reply says so (`batch_priced` false): half the
price is never assumed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from types import ModuleType
from typing import Any

from ..errors import ModelError
from .base import BatchAPI, BatchState, LineResult, ModelReply, ModelRequest
from .provider_errors import model_error

ENDPOINT = "/v1/chat/completions"
# Keyword arguments of litellm's call that are not part of the provider's request body.
_CALL_ONLY = ("drop_params", "max_retries", "timeout", "_skip_mcp_handler", "api_base", "api_key")
# The metadata key of the tag a batch is noted under before it is created (batch_table).
TAG_KEY = "llmbench_tag"
# The provider a model must route to (litellm.get_llm_provider) for this BatchAPI.
PROVIDER = "openai"
# The providers whose models have a batch API here (litellm_model.LiteLLMModel.batch_api).
BATCH_PROVIDERS = ("openai", "anthropic")


def batch_provider(module: ModuleType, name: str) -> str | None:
    """The provider litellm routes `name` to, when it is one of BATCH_PROVIDERS."""
    try:
        provider = str(module.get_llm_provider(name)[1])
    except Exception:  # a model litellm cannot route: it has no batch API either
        return None
    return provider if provider in BATCH_PROVIDERS else None


def batch_prices(module: ModuleType, name: str) -> tuple[float, float] | None:
    """USD per input and output token of a batched call in litellm's table, if it has them."""
    try:
        info = module.get_model_info(name)
    except Exception:  # a model litellm does not map
        return None
    rates = (info.get("input_cost_per_token_batches"), info.get("output_cost_per_token_batches"))
    if not all(isinstance(r, int | float) for r in rates):
        return None
    return float(rates[0] or 0.0), float(rates[1] or 0.0)


def batch_basis(module: ModuleType, name: str) -> str:
    """How a batched reply of `name` is priced, in words (BatchAPI.price_basis)."""
    if batch_prices(module, name) is not None:
        return "at litellm's batch rates"
    return "at its normal rate: litellm's table has no batch rate for it"


def batch_priced(module: ModuleType, name: str, reply: ModelReply, waited_s: float) -> ModelReply:
    """`reply` (priced as a direct call) as a batched one: its wait as its latency, and at
    litellm's batch rates where its table has them. Every prompt token is at the batch
    input rate there, cached ones too: the table has no batch rate for cache reads or writes."""
    prices = batch_prices(module, name)
    if prices is None:
        return replace(reply, latency_s=waited_s)
    cost = (reply.prompt_tokens or 0) * prices[0] + (reply.completion_tokens or 0) * prices[1]
    return replace(reply, latency_s=waited_s, cost_usd=cost, batch_priced=True)


class LitellmBatches(BatchAPI):
    """What the batch APIs of litellm's models share. `kwargs(request)`: litellm's keyword
    arguments for the direct call; `reply(request, response)`: the model's reply to a
    litellm response; `admit(request)`: the direct call's checks before sending (the
    context window)."""

    def __init__(
        self,
        name: str,
        module: Callable[[], ModuleType],
        kwargs: Callable[[ModelRequest], dict[str, Any]],
        reply: Callable[[ModelRequest, Any], ModelReply],
        admit: Callable[[ModelRequest], None] = lambda request: None,
    ) -> None:
        self.name = name
        self._module = module
        self._kwargs = kwargs
        self._reply = reply
        self._admit = admit

    def admit(self, request: ModelRequest) -> None:
        self._admit(request)

    def price_basis(self) -> str:
        return batch_basis(self._module(), self.name)


def batch_state(
    batch: Any, batch_id: str, output_file: str | None, error_file: str | None
) -> BatchState:
    """A batch litellm read (its status and request counts) as the Batcher's state."""
    counts = getattr(batch, "request_counts", None)
    done = int(getattr(counts, "completed", 0) or 0) + int(getattr(counts, "failed", 0) or 0)
    return BatchState(
        id=batch_id,
        status=str(batch.status),
        done=done,
        total=int(getattr(counts, "total", 0) or 0),
        output_file=output_file,
        error_file=error_file,
    )


class OpenAIBatches(LitellmBatches):
    """OpenAI's files + batches API through litellm."""

    provider = PROVIDER

    def _access(self, request: ModelRequest | None = None) -> dict[str, Any]:
        """Where and as whom to call: the direct call's api_base and key."""
        probe = self._kwargs(request or ModelRequest(messages=(), role="candidate"))
        found: dict[str, Any] = {k: probe[k] for k in ("api_base", "api_key") if k in probe}
        return {"custom_llm_provider": PROVIDER, **found}

    def line(self, custom_id: str, request: ModelRequest) -> dict[str, Any]:
        body = {k: v for k, v in self._kwargs(request).items() if k not in _CALL_ONLY}
        body["model"] = self._module().get_llm_provider(self.name)[0]
        return {"custom_id": custom_id, "method": "POST", "url": ENDPOINT, "body": body}

    async def submit(self, lines: list[dict[str, Any]], tag: str) -> str:
        module, access = self._module(), self._access()
        data = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode()
        try:
            file = await module.acreate_file(
                file=("llmbench-batch.jsonl", data, "application/jsonl"), purpose="batch", **access
            )
            batch = await module.acreate_batch(
                completion_window="24h",
                endpoint=ENDPOINT,
                input_file_id=file.id,
                metadata={TAG_KEY: tag},
                **access,
            )
        except Exception as exc:
            raise model_error(self.name, "batch", exc) from exc
        return str(batch.id)

    async def find(self, tag: str) -> str | None:
        """The newest page of the organisation's batches (OpenAI lists newest first)."""
        try:
            page = await self._module().alist_batches(limit=100, **self._access())
        except Exception as exc:
            raise model_error(self.name, "batch", exc) from exc
        for batch in getattr(page, "data", None) or ():
            metadata = getattr(batch, "metadata", None) or {}
            if isinstance(metadata, dict) and metadata.get(TAG_KEY) == tag:
                return str(batch.id)
        return None

    async def state(self, batch_id: str) -> BatchState:
        try:
            batch = await self._module().aretrieve_batch(batch_id=batch_id, **self._access())
        except Exception as exc:
            raise model_error(self.name, "batch", exc) from exc
        output, errors = (getattr(batch, f"{n}_file_id", None) for n in ("output", "error"))
        return batch_state(batch, batch_id, output, errors)

    async def results(self, state: BatchState) -> dict[str, LineResult]:
        found: dict[str, LineResult] = {}
        for file_id in (state.error_file, state.output_file):  # output last: it wins
            if file_id:
                found.update(read_lines(await self._content(file_id)))
        return found

    async def _content(self, file_id: str) -> str:
        try:
            content = await self._module().afile_content(file_id=file_id, **self._access())
        except Exception as exc:
            raise model_error(self.name, "batch", exc) from exc
        raw = getattr(content, "content", content)
        return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)

    def reply(self, request: ModelRequest, body: dict[str, Any], waited_s: float) -> ModelReply:
        module = self._module()
        try:
            response = module.ModelResponse(**body)
        except Exception as exc:  # not a chat completion
            raise ModelError(
                f"{self.name} ({request.role}): batch line is not a chat completion ({exc})"
            ) from exc
        return batch_priced(module, self.name, self._reply(request, response), waited_s)


def read_lines(
    text: str, result: Callable[[dict[str, Any]], LineResult] | None = None
) -> dict[str, LineResult]:
    """custom_id -> `result` (OpenAI's `line_result` unless given) of each readable line of
    a batch's JSONL (an output or error file, Anthropic's results); others are skipped."""
    found: dict[str, LineResult] = {}
    for raw in text.splitlines():
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(line, dict) or not isinstance(line.get("custom_id"), str):
            continue
        found[line["custom_id"]] = (result or line_result)(line)
    return found


def line_result(line: dict[str, Any]) -> LineResult:
    response = line.get("response") if isinstance(line.get("response"), dict) else {}
    body = response.get("body") if isinstance(response, dict) else None
    status = response.get("status_code") if isinstance(response, dict) else None
    if isinstance(body, dict) and status == 200 and not line.get("error"):
        return LineResult(body=body)
    error = line.get("error")
    if not error and isinstance(body, dict):
        error = body.get("error")
    message = error.get("message") if isinstance(error, dict) else error
    return LineResult(error=str(message or f"HTTP {status}")[:400])
