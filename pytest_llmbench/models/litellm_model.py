"""Any provider litellm supports, or a local OpenAI-compatible server via api_base.

litellm takes about 4 s to import, so it is imported on the first real call only.
"""

from __future__ import annotations

import importlib
import json
import os
import time
from functools import cache
from types import ModuleType
from typing import Any

from ..errors import ModelError
from .base import ModelReply, ModelRequest, ToolCall

# Modules litellm 1.106 imports during its first call (1.5-2 s of CPU): imported with
# litellm instead, so that time is never counted in the first calls' latency.
_FIRST_CALL_MODULES = (
    "openai.resources",
    "litellm.llms.openai.openai",
    "litellm.proxy._types",
    "litellm._service_logger",
    "litellm.llms.litellm_proxy.chat.transformation",
)

# Local servers (Ollama, vLLM, llama.cpp) ignore the key, but the OpenAI client insists on one.
_PLACEHOLDER_KEY = "llmbench-no-key"


@cache
def litellm_module() -> ModuleType:
    # The bundled price table is used instead of fetching one at import time.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    for name in _FIRST_CALL_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:  # another litellm version: its first call pays instead
            pass
    return litellm


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:500]


# litellm exception classes worth retrying even when they carry no HTTP status.
_TRANSIENT = {"Timeout", "APIConnectionError", "ServiceUnavailableError", "InternalServerError"}


def _retry_after(exc: BaseException) -> float | None:
    headers = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        headers = getattr(getattr(exc, "response", None), "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:  # an HTTP date: rare enough to treat as "no hint"
        return None


def model_error(name: str, role: str, exc: BaseException) -> ModelError:
    """A provider failure as a ModelError that says whether another try may succeed."""
    status = getattr(exc, "status_code", None)
    status = status if isinstance(status, int) else None
    transient = type(exc).__name__ in _TRANSIENT or isinstance(exc, TimeoutError | ConnectionError)
    retryable = transient or status in (408, 409, 429) or (status is not None and status >= 500)
    return ModelError(
        f"{name} ({role}): {_first_line(exc)}",
        retryable=retryable,
        status=status,
        retry_after=_retry_after(exc),
    )


def _first_token_logprobs(choice: Any) -> list[tuple[str, float]] | None:
    logprobs = getattr(choice, "logprobs", None)
    content = getattr(logprobs, "content", None) if logprobs is not None else None
    if isinstance(logprobs, dict):
        content = logprobs.get("content")
    if not content:
        return None
    first = content[0]
    top = (
        first.get("top_logprobs")
        if isinstance(first, dict)
        else getattr(first, "top_logprobs", None)
    )
    if not top:
        return None
    pairs = []
    for alt in top:
        token = alt.get("token") if isinstance(alt, dict) else getattr(alt, "token", None)
        logprob = alt.get("logprob") if isinstance(alt, dict) else getattr(alt, "logprob", None)
        if token is not None and logprob is not None:
            pairs.append((str(token), float(logprob)))
    return pairs or None


def _tool_calls(message: Any) -> tuple[ToolCall, ...]:
    """The function calls of a reply, as written (arguments stay raw JSON text)."""
    calls = []
    for number, call in enumerate(getattr(message, "tool_calls", None) or [], start=1):
        function = getattr(call, "function", None)
        name = getattr(function, "name", None)
        arguments = getattr(function, "arguments", None)
        if not isinstance(arguments, str):
            # Some providers hand back a parsed object; keep the protocol's text form.
            arguments = json.dumps(arguments) if arguments is not None else ""
        calls.append(
            ToolCall(
                id=str(getattr(call, "id", None) or f"call_{number}"),
                name=str(name or ""),
                arguments=arguments,
            )
        )
    return tuple(calls)


class LiteLLMModel:
    offline = False

    def __init__(self, name: str, api_base: str | None = None) -> None:
        self.name = name
        self.api_base = api_base

    def _kwargs(self, request: ModelRequest) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": self.name,
            "messages": list(request.messages),
            "timeout": request.timeout,
            # Providers that lack a parameter (logprobs, temperature on reasoning models) drop it.
            "drop_params": True,
            # pytest-llmbench retries itself (execution/retry.py), with backoff across items.
            "max_retries": 0,
        }
        if self.api_base:
            kwargs["api_base"] = self.api_base
            if self.name.startswith("openai/") and not os.environ.get("OPENAI_API_KEY"):
                kwargs["api_key"] = _PLACEHOLDER_KEY
        if request.temperature is not None:
            kwargs["temperature"] = request.temperature
        if request.max_tokens is not None:
            kwargs["max_tokens"] = request.max_tokens
        if request.top_logprobs:
            kwargs["logprobs"] = True
            kwargs["top_logprobs"] = request.top_logprobs
        if request.tools:
            kwargs["tools"] = list(request.tools)
            # litellm 1.106 routes any request with tools through its MCP gateway check,
            # which imports the optional `mcp` package and fails without it; our tools are
            # plain functions, never MCP servers.
            kwargs["_skip_mcp_handler"] = True
        return kwargs

    async def complete(self, request: ModelRequest) -> ModelReply:
        litellm = litellm_module()
        start = time.perf_counter()
        try:
            response = await litellm.acompletion(**self._kwargs(request))
        except Exception as exc:  # litellm maps provider errors onto many exception types
            raise model_error(self.name, request.role, exc) from exc
        latency = time.perf_counter() - start
        try:
            choice = response.choices[0]
            text = choice.message.content or ""
        except (AttributeError, IndexError) as exc:
            raise ModelError(f"{self.name} ({request.role}): reply has no message ({exc})") from exc
        usage = getattr(response, "usage", None)
        # litellm prices every reply as it logs it; None when the model has no known price.
        hidden = getattr(response, "_hidden_params", None) or {}
        cost = hidden.get("response_cost")
        cost = float(cost) if isinstance(cost, int | float) else None
        return ModelReply(
            model=self.name,
            text=text,
            latency_s=latency,
            prompt_tokens=getattr(usage, "prompt_tokens", None),
            completion_tokens=getattr(usage, "completion_tokens", None),
            cost_usd=cost,
            first_token_logprobs=_first_token_logprobs(choice),
            finish_reason=getattr(choice, "finish_reason", None),
            tool_calls=_tool_calls(choice.message),
        )
