"""Anthropic's Message Batches API, for models litellm routes to the provider "anthropic".

litellm 1.106 cannot create an Anthropic batch (its batches transformation raises
NotImplementedError), so creation is our own POST; everything else is litellm's:
- a line's `params` are the Messages API body the direct call would send, built by litellm
  itself (`litellm.utils.return_raw_request`, which runs the same completion code up to the
  HTTP call): system prompt, cache_control marks, response_format (a native output_format
  or litellm's JSON tool) come out as on a direct call. Beta features a request needs
  (its `anthropic-beta` header, e.g. structured outputs) go on the batch's creation.
- the creation URL and headers are litellm's for Anthropic batches
  (AnthropicBatchesConfig: `{api_base}/v1/messages/batches`, x-api-key from
  ANTHROPIC_API_KEY, anthropic-version);
- a batch's state is read with `litellm.aretrieve_batch(custom_llm_provider="anthropic")`
  (processing_status "ended" is "completed"; canceled and expired requests end as lines);
- its results are our own GET of `{api_base}/v1/messages/batches/{id}/results` with those
  headers: litellm's `afile_content` for Anthropic returns the same JSONL unconverted, and
  leaves an un-awaited coroutine behind (a RuntimeWarning);
- each succeeded line's message becomes a chat completion by litellm's Anthropic response
  transformation (AnthropicConfig.transform_parsed_response, in JSON mode when the request
  had a response_format, as the direct call is), priced as in models/litellm_batch.py.

Anthropic batches carry no metadata, so the tag a batch is noted under before its creation
cannot be found in the provider's list: a run killed between sending the creation and
learning the batch's id asks its calls again (and the provider's batch is paid for
unused). Every byte of a result is the provider's (or an attacker's): a line that cannot
be read is that line's error, and a reply's model name is ours, never the message's.
"""

from __future__ import annotations

import asyncio
import json
from types import ModuleType
from typing import Any

from ..errors import ModelError
from .base import BatchState, LineResult, ModelReply, ModelRequest
from .litellm_batch import LitellmBatches, batch_priced, batch_state, read_lines
from .provider_errors import model_error

PROVIDER = "anthropic"
# A line carries the anthropic-beta header its request needs under this key until submit.
_BETA = "_anthropic_beta"
# Seconds for one HTTP exchange with the batches endpoint (creation, results).
HTTP_TIMEOUT_S = 600.0


class AnthropicBatches(LitellmBatches):
    """Anthropic's Message Batches (see the module's doc)."""

    provider = PROVIDER

    def _where(self) -> tuple[str | None, str | None]:
        """(api_base, api_key) of the direct call; None: litellm's default (its env)."""
        probe = self._kwargs(ModelRequest(messages=(), role="candidate"))
        return probe.get("api_base"), probe.get("api_key")

    def line(self, custom_id: str, request: ModelRequest) -> dict[str, Any]:
        kwargs = {k: v for k, v in self._kwargs(request).items() if k != "api_key"}
        module = self._module()
        raw = module.utils.return_raw_request(module.utils.CallTypes.completion, kwargs)
        body = raw.get("raw_request_body") if isinstance(raw, dict) else None
        if not isinstance(body, dict):
            why = raw.get("error") if isinstance(raw, dict) else None
            raise ModelError(f"{self.name}: litellm built no Messages request ({why})")
        headers = raw.get("raw_request_headers") or {}
        line: dict[str, Any] = {"custom_id": custom_id, "params": body}
        if isinstance(headers, dict) and headers.get("anthropic-beta"):
            line[_BETA] = str(headers["anthropic-beta"])
        return line

    async def _headers(self, beta: str | None = None) -> tuple[str, dict[str, str]]:
        """litellm's batch creation URL and headers for this model's api_base and key."""
        from litellm.llms.anthropic.batches.transformation import AnthropicBatchesConfig

        config, (base, key) = AnthropicBatchesConfig(), self._where()  # type: ignore[no-untyped-call]
        url = config.get_complete_batch_url(base, key, "", {}, {}, {})
        headers = await asyncio.to_thread(
            config.validate_environment,
            {"anthropic-beta": beta} if beta else {},
            "",
            [],
            {},
            {},
            key,
            base,
        )
        return url, headers

    async def _http(self, method: str, path: str, payload: Any = None, beta: str = "") -> Any:
        """One exchange with `{batches URL}{path}`: the httpx response (2xx), else a
        ModelError made as for a direct call's failure."""
        import httpx

        try:
            url, headers = await self._headers(beta)
            async with httpx.AsyncClient(timeout=HTTP_TIMEOUT_S) as client:
                response = await client.request(method, url + path, headers=headers, json=payload)
            response.raise_for_status()
        except Exception as exc:
            raise model_error(self.name, "batch", _provider_error(exc)) from exc
        return response

    async def submit(self, lines: list[dict[str, Any]], tag: str) -> str:
        """POST the lines as one batch (`tag` has nowhere to go: see the module's doc)."""
        betas = {b.strip() for x in lines for b in str(x.get(_BETA, "")).split(",") if b.strip()}
        requests = [{k: v for k, v in x.items() if k != _BETA} for x in lines]
        response = await self._http("POST", "", {"requests": requests}, ",".join(sorted(betas)))
        try:
            batch_id = response.json()["id"]
        except Exception as exc:
            raise ModelError(
                f"{self.name} (batch): the creation's reply has no id ({exc})"
            ) from exc
        if not isinstance(batch_id, str) or not batch_id:
            raise ModelError(f"{self.name} (batch): the creation's reply has no id")
        return batch_id

    async def find(self, tag: str) -> str | None:
        raise ModelError(f"{self.name}: Anthropic batches carry no tag to find one by")

    async def state(self, batch_id: str) -> BatchState:
        base, key = self._where()
        try:
            batch = await self._module().aretrieve_batch(
                batch_id=batch_id, custom_llm_provider=PROVIDER, api_base=base, api_key=key
            )
        except Exception as exc:
            raise model_error(self.name, "batch", _provider_error(exc)) from exc
        return batch_state(batch, batch_id, output_file=batch_id, error_file=None)

    async def results(self, state: BatchState) -> dict[str, LineResult]:
        response = await self._http("GET", f"/{state.id}/results")
        return read_results(response.content.decode("utf-8", "replace"))

    def reply(self, request: ModelRequest, body: dict[str, Any], waited_s: float) -> ModelReply:
        module = self._module()
        json_mode = "response_format" in self._kwargs(request)
        try:
            response = chat_completion(module, {**body, "model": self.name}, json_mode)
        except Exception as exc:  # not a message litellm can read
            raise ModelError(
                f"{self.name} ({request.role}): batch line is not a message ({exc})"
            ) from exc
        response.model = self.name
        return batch_priced(module, self.name, self._reply(request, response), waited_s)


def chat_completion(module: ModuleType, message: dict[str, Any], json_mode: bool) -> Any:
    """Anthropic's `message` as litellm's ModelResponse, by its own transformation."""
    import httpx
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig

    raw = httpx.Response(200, content=json.dumps(message).encode())
    return AnthropicConfig().transform_parsed_response(
        completion_response=message,
        raw_response=raw,
        model_response=module.ModelResponse(),
        json_mode=json_mode,
    )


def read_results(text: str) -> dict[str, LineResult]:
    """custom_id -> result of each readable line of a batch's results JSONL."""
    return read_lines(text, lambda line: line_result(line.get("result")))


def line_result(result: Any) -> LineResult:
    """One line's `result`: succeeded (its message), errored (its error's message),
    canceled or expired."""
    kind = result.get("type") if isinstance(result, dict) else None
    if kind == "succeeded" and isinstance(result.get("message"), dict):
        return LineResult(body=result["message"])
    if kind == "errored":
        error = result.get("error")
        inner = error.get("error") if isinstance(error, dict) else None
        message = inner.get("message") if isinstance(inner, dict) else None
        return LineResult(error=str(message or "errored")[:400])
    if kind in ("canceled", "expired"):
        return LineResult(error=f"the request was {kind} before it ran")
    return LineResult(error=f"a result of type {str(kind)[:40]!r} has no message")


def _provider_error(exc: BaseException) -> BaseException:
    """An HTTP failure as litellm's Anthropic error (its status and the body's message),
    so that model_error tells a retryable one apart; any other failure as it is."""
    import httpx

    if not isinstance(exc, httpx.HTTPStatusError):
        return exc
    from litellm.llms.anthropic.common_utils import AnthropicError

    response = exc.response
    return AnthropicError(
        status_code=response.status_code, message=response.text[:2000], headers=response.headers
    )
