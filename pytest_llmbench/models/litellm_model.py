"""Any provider litellm supports, or a local OpenAI-compatible server via api_base.

litellm takes about 4 s to import, so it is imported on the first real call only.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from dataclasses import replace
from functools import cache
from types import ModuleType
from typing import Any

from ..errors import ConfigError, ContextWindowError, ModelError
from ..schema.vocabulary import StructuredForm
from .anthropic_batch import AnthropicBatches
from .base import BatchAPI, Model, ModelReply, ModelRequest
from .litellm_batch import OpenAIBatches, batch_provider
from .prompt_cache import TokenPrices, cache_tokens, marked, needs_marks
from .provider_errors import model_error, provider_message
from .reply_parts import first_token_logprobs, tool_calls
from .streaming import TokenTimes, read_stream, refuses_streaming
from .structured import FormChain, response_format

# Modules litellm 1.106 imports during its first call (1.5-2 s of CPU): imported with
# litellm instead, so that time is never counted in the first calls' latency (nor, for
# a streamed call, between its first token and its last). The cl100k tokenizer
# (default_encoding, 0.2-0.5 s) counts prompt tokens (check_fits, images_dropped): done
# on the event loop at the first reply, it held up every call.
_FIRST_CALL_MODULES = (
    "openai.resources",
    "litellm.llms.openai.openai",
    "litellm.proxy._types",
    "litellm._service_logger",
    "litellm.llms.litellm_proxy.chat.transformation",
    "litellm.litellm_core_utils.default_encoding",
    "litellm.types.litellm_core_utils.streaming_chunk_builder_utils",
    "litellm.llms.openai_like.dynamic_config",
    "anyio._backends._asyncio",
    "anyio.streams.memory",
    "litellm.llms.openai.chat.gpt_audio_transformation",
    "litellm.llms.vertex_ai.vertex_ai_partner_models.anthropic.transformation",
    "litellm.proxy.openai_files_endpoints.common_utils",
)

# Pydantic models litellm 1.106 builds on first use (0.1-0.2 s on the event loop, during
# the first call): built with litellm's import instead.
_FIRST_USE_MODELS = (
    ("litellm.types.router", "GenericLiteLLMParams"),
    ("litellm.types.router", "LiteLLM_Params"),
    ("litellm.types.services", "ServiceLoggerPayload"),
)

# Local servers (Ollama, vLLM, llama.cpp) ignore the key, but the OpenAI client insists on one.
_PLACEHOLDER_KEY = "llmbench-no-key"


@cache
def litellm_module() -> ModuleType:
    # The bundled price table and Anthropic beta-header table are used instead of fetching them.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS", "True")
    import litellm

    litellm.suppress_debug_info = True
    # litellm ends a stream whose chunks repeat 100 times with an InternalServerError (a
    # looping model); a benchmark keeps such an answer (cut at its token limit) and scores it.
    setattr(litellm, "REPEATED_STREAMING_CHUNK_LIMIT", sys.maxsize)  # noqa: B010 (a Final)
    for name in _FIRST_CALL_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:  # another litellm version: its first call pays instead
            pass
    for module, model in _FIRST_USE_MODELS:
        try:
            getattr(importlib.import_module(module), model).model_rebuild()
        except Exception:  # another litellm version: its first call pays instead
            pass
    return litellm


def missing_credentials(name: str) -> list[str]:
    """The environment variables `name`'s provider needs that are unset (litellm knows
    which); only keys and tokens count, since e.g. OLLAMA_API_BASE has a default."""
    try:
        found = litellm_module().validate_environment(name)
    except Exception:  # an unknown provider: let the first call say what is wrong
        return []
    if found.get("keys_in_environment"):
        return []
    needed = [str(k) for k in found.get("missing_keys") or ()]
    return [k for k in needed if "KEY" in k.upper() or "TOKEN" in k.upper()]


def known_window(name: str) -> int | None:
    """The model's input window as litellm's model table gives it, None when unknown."""
    try:
        info = litellm_module().get_model_info(name)
    except Exception:  # litellm raises a bare Exception for models it does not map
        return None
    window = info.get("max_input_tokens") or info.get("max_tokens")
    return int(window) if isinstance(window, int) and window > 0 else None


def supports_response_schema(name: str) -> bool:
    """Whether litellm knows the model to take a JSON schema as response_format."""
    try:
        return bool(litellm_module().supports_response_schema(model=name))
    except Exception:  # a model litellm does not map
        return False


def token_prices(name: str) -> TokenPrices | None:
    """USD per token in litellm's price table (input, output, cache reads and writes where
    it has them); None when the model has no input and output price."""
    try:
        info = litellm_module().get_model_info(name)
    except Exception:  # a model litellm does not map
        return None
    rates = [
        info.get(key)
        for key in (
            "input_cost_per_token",
            "output_cost_per_token",
            "cache_read_input_token_cost",
            "cache_creation_input_token_cost",
        )
    ]
    found = [float(r) if isinstance(r, int | float) else None for r in rates]
    if found[0] is None or found[1] is None:
        return None
    return TokenPrices(found[0], found[1], found[2], found[3])


def prompt_tokens(name: str, request: ModelRequest) -> int | None:
    """litellm's count of the request's prompt tokens (its tokenizer for the model, else
    cl100k); None when it cannot count these messages."""
    try:
        count = litellm_module().token_counter(
            model=name, messages=list(request.messages), tools=list(request.tools or []) or None
        )
    except Exception:  # a message form the counter does not know: the provider decides
        return None
    return int(count) if isinstance(count, int) else None


# The fewest prompt tokens a provider counts for one image (OpenAI's low detail: 85).
IMAGE_FLOOR_TOKENS = 85
# A prompt counted below this share of the estimate (text + image floors) did not arrive
# whole. Tokenizers differ by tens of percent, so only a drop this large is certain: it
# catches servers that drop list-of-parts messages (a text-only llama.cpp keeps 52 tokens
# of a 2,000-token prompt), not one that drops a small image and keeps a long text.
FAR_BELOW = 0.5


def _without_images(message: dict[str, Any]) -> tuple[dict[str, Any], int]:
    content = message.get("content")
    if not isinstance(content, list):
        return message, 0
    kept = [p for p in content if not (isinstance(p, dict) and p.get("type") == "image_url")]
    return {**message, "content": kept}, len(content) - len(kept)


def images_dropped(name: str, request: ModelRequest, reported: int | None) -> str | None:
    """Why the reply cannot have seen the request's images, when the provider's prompt
    token count is below FAR_BELOW x (the text's estimate + IMAGE_FLOOR_TOKENS per image);
    None when it may have (or there is nothing to compare)."""
    stripped = [_without_images(m) for m in request.messages]
    images = sum(n for _, n in stripped)
    if not images or reported is None:
        return None
    text = prompt_tokens(name, replace(request, messages=tuple(m for m, _ in stripped)))
    if text is None or reported >= FAR_BELOW * (text + images * IMAGE_FLOOR_TOKENS):
        return None
    return (
        f"{name} did not see the prompt's images: it arrived as {reported} tokens, while its "
        f"text alone is about {text} and each of its {images} image(s) adds at least "
        f"{IMAGE_FLOOR_TOKENS} (the server dropped them: use a model that reads images)"
    )


def _generation_seconds(timings: Any) -> float | None:
    """The server's own generation time: llama.cpp's `timings.predicted_ms`."""
    ms = timings.get("predicted_ms") if isinstance(timings, dict) else None
    return ms / 1000 if isinstance(ms, int | float) and ms > 0 else None


class LiteLLMModel(Model):
    offline = False

    def __init__(
        self, name: str, api_base: str | None = None, context_window: int | None = None
    ) -> None:
        self.name = name
        self.api_base = api_base
        # --llm-context-window for this model, else litellm's table (looked up on first use)
        self._window = context_window
        self._window_known = context_window is not None
        # The form this model takes a response_schema in, learnt on the run's first calls.
        self.forms = FormChain()
        self._streaming = True  # until the provider refuses a streamed call

    @property
    def context_window(self) -> int | None:
        if not self._window_known:
            self._window, self._window_known = known_window(self.name), True
        return self._window

    def check_fits(self, request: ModelRequest) -> None:
        """Raise ContextWindowError, before anything is paid, when the prompt plus the
        reply's token limit cannot fit the model's window (when the window is known)."""
        window = self.context_window
        if window is None:
            return
        size = prompt_tokens(self.name, request)
        if size is None:
            return
        asked = size + (request.max_tokens or 0)
        if asked > window:
            reply = f" + {request.max_tokens} for the reply" if request.max_tokens else ""
            raise ContextWindowError(
                f"{self.name} ({request.role}): context window: prompt of {size} tokens{reply} "
                f"does not fit the model's window of {window} tokens"
            )

    def check_credentials(self) -> None:
        """A ConfigError naming the model and the variable when its key is not set. A local
        server (api_base) needs none. Called before the first call, on the main thread:
        litellm's import (seconds) then blocks no call on the loop."""
        litellm_module()
        if self.api_base:
            return
        missing = missing_credentials(self.name)
        if missing:
            raise ConfigError(
                f"{self.name}: no API key; set {' or '.join(missing)} in the environment "
                "(or give --llm-api-base for a local server)"
            )

    def takes_response_schema(self) -> bool:
        """litellm knows the model takes a schema; or a local server (api_base), which
        litellm cannot know: its form is found by the fallback chain (models/structured.py)."""
        return self.api_base is not None or supports_response_schema(self.name)

    def batch_api(self) -> BatchAPI | None:
        """The batch API of the provider litellm routes the model to (OpenAI: litellm_batch.py,
        Anthropic: anthropic_batch.py); a structured request in the form it takes so far."""
        provider = batch_provider(litellm_module(), self.name)
        if provider is None:
            return None

        def form(request: ModelRequest) -> StructuredForm | None:
            return self.forms.form if request.response_schema else None

        return (AnthropicBatches if provider == "anthropic" else OpenAIBatches)(
            self.name,
            litellm_module,
            lambda request: self._kwargs(request, form(request)),
            lambda request, got: self._reply(request, form(request), got, 0.0, TokenTimes()),
            self.check_fits,
        )

    def _messages(self, request: ModelRequest) -> list[dict[str, Any]]:
        """The request's messages, its stable prefix marked for caching when the provider
        needs marks (models/prompt_cache.py)."""
        if needs_marks(self.name):
            return marked(request.messages, request.stable_prefix)
        return list(request.messages)

    def _kwargs(self, request: ModelRequest, form: StructuredForm | None) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": self.name,
            "messages": self._messages(request),
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
        if request.response_schema and form is not None:
            sent = response_format(form, request.response_schema)
            if sent is not None:
                kwargs["response_format"] = sent
        if request.tools:
            kwargs["tools"] = list(request.tools)
            # litellm 1.106 routes any request with tools through its MCP gateway check,
            # which imports the optional `mcp` package and fails without it; our tools are
            # plain functions, never MCP servers.
            kwargs["_skip_mcp_handler"] = True
        return kwargs

    def streams(self, request: ModelRequest) -> bool:
        """Candidate calls stream (their first and last tokens are timed), unless this
        model's provider refused to."""
        return request.role == "candidate" and self._streaming

    async def complete(self, request: ModelRequest) -> ModelReply:
        self.check_fits(request)
        if not request.response_schema:
            return await self._send(request, None)
        return await self.forms.call(lambda form: self._send(request, form))

    async def _send(self, request: ModelRequest, form: StructuredForm | None) -> ModelReply:
        """One call, with the response schema (if any) in `form`; streamed when it can be."""
        kwargs = self._kwargs(request, form)
        stream = self.streams(request)
        if stream:
            kwargs.update(stream=True, stream_options={"include_usage": True})
        start = time.perf_counter()
        try:
            response, times = await self._response(kwargs, start)
        except Exception as exc:  # litellm maps provider errors onto many exception types
            error = model_error(self.name, request.role, exc)
            if not (stream and not error.retryable and refuses_streaming(provider_message(exc))):
                raise error from exc
            self._streaming = False  # the provider does not stream: ask as a whole from now on
            return await self._send(request, form)
        return self._reply(request, form, response, time.perf_counter() - start, times)

    async def _response(self, kwargs: dict[str, Any], start: float) -> tuple[Any, TokenTimes]:
        """The provider's response, a streamed one put back together, and its token times."""
        litellm = litellm_module()
        response = await litellm.acompletion(**kwargs)
        if not kwargs.get("stream"):
            return response, TokenTimes()
        chunks, times = await read_stream(response, time.perf_counter, start)
        whole = (
            litellm.stream_chunk_builder(chunks, messages=kwargs["messages"]) if chunks else None
        )
        return whole, times

    def _reply(
        self,
        request: ModelRequest,
        form: StructuredForm | None,
        response: Any,
        latency: float,
        times: TokenTimes,
    ) -> ModelReply:
        if not getattr(response, "choices", None):
            # A 200 with `choices: []`: a provider hiccup, retried like a 5xx.
            raise ModelError(
                f"{self.name} ({request.role}): reply has no choices (empty reply)", retryable=True
            )
        try:
            choice = response.choices[0]
            text = choice.message.content or ""
        except AttributeError as exc:
            raise ModelError(f"{self.name} ({request.role}): reply has no message ({exc})") from exc
        usage = getattr(response, "usage", None)
        reported = getattr(usage, "prompt_tokens", None)
        read, written = cache_tokens(usage)
        return ModelReply(
            model=self.name,
            text=text,
            latency_s=latency,
            prompt_tokens=reported,
            completion_tokens=getattr(usage, "completion_tokens", None),
            cost_usd=_cost(response),
            cache_read_tokens=read,
            cache_write_tokens=written,
            first_token_logprobs=first_token_logprobs(choice),
            finish_reason=getattr(choice, "finish_reason", None),
            generation_s=_generation_seconds(getattr(response, "timings", None) or times.timings),
            first_token_s=times.first,
            last_token_s=times.last,
            tool_calls=tool_calls(choice.message),
            degraded=images_dropped(self.name, request, reported),
            structured=form,
        )


def _cost(response: Any) -> float | None:
    """The reply's price as litellm knows it; None when the model has no known price.
    litellm prices a reply as it logs it; a streamed reply put back together is priced here.
    Either way its usage's cached tokens are priced at the model's cache read and write
    rates when the price table has them (cache_read_input_token_cost, ...)."""
    hidden = getattr(response, "_hidden_params", None) or {}
    cost = hidden.get("response_cost")
    if cost is None:
        try:
            cost = litellm_module().completion_cost(completion_response=response)
        except Exception:  # a model litellm has no price for
            return None
    return float(cost) if isinstance(cost, int | float) else None
