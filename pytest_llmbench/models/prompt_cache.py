"""Prompt caching: which providers need a request's stable prefix marked, the marks, and
the cached input tokens a reply's usage reports.

Anthropic caches a prompt prefix only up to a content block carrying
`cache_control: {"type": "ephemeral"}`; litellm passes such blocks on to Anthropic, and to
Claude models on Bedrock and Vertex AI. OpenAI (and the providers that copy its API) cache
long prefixes by themselves, and litellm strips the marks from their requests: those
requests are sent as they are.

Cached tokens are part of a reply's prompt tokens. Usage reports them in two shapes:
OpenAI's `prompt_tokens_details.cached_tokens`, and Anthropic's top-level
`cache_read_input_tokens` / `cache_creation_input_tokens` (litellm copies the read count
into the OpenAI shape too, so the larger of the two counts, never their sum).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import StablePrefix

CACHE_MARK = {"type": "ephemeral"}

# litellm providers whose Claude models take cache_control blocks.
_CLAUDE_HOSTS = ("bedrock", "vertex_ai", "vertex_ai_beta")


def needs_marks(name: str) -> bool:
    """Whether requests to the litellm model `name` mark their stable prefix: Anthropic's
    models (`anthropic/...`, or a bare `claude-...` name, which litellm sends to Anthropic),
    and Claude models on Bedrock and Vertex AI. The one place that decides it."""
    provider, _, model = name.partition("/")
    if not model:
        return provider.lower().startswith("claude")
    provider = provider.lower()
    return provider == "anthropic" or (provider in _CLAUDE_HOSTS and "claude" in model.lower())


def _block(text: str, mark: bool) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "text", "text": text}
    if mark:
        block["cache_control"] = dict(CACHE_MARK)
    return block


def _marked_end(message: dict[str, Any]) -> dict[str, Any] | None:
    """`message` with its last content block marked (string content becomes one block);
    None when it has nothing to mark (no content: tool calls only)."""
    content = message.get("content")
    if isinstance(content, str) and content:
        return {**message, "content": [_block(content, True)]}
    if isinstance(content, list) and content and isinstance(content[-1], dict):
        last = {**content[-1], "cache_control": dict(CACHE_MARK)}
        return {**message, "content": [*content[:-1], last]}
    return None


def _split(message: dict[str, Any], chars: int) -> dict[str, Any] | None:
    """`message` with its text split after `chars` characters, the first part marked;
    None when its content has no text to split."""
    content = message.get("content")
    parts = [content] if isinstance(content, str) else content
    if not isinstance(parts, list):
        return None
    for index, part in enumerate(parts):
        text = part if isinstance(part, str) else None
        if isinstance(part, dict) and part.get("type") == "text":
            text = part.get("text")
        if not isinstance(text, str):
            continue
        head, rest = text[:chars], text[chars:]
        if not head:
            return None
        blocks = [_block(head, True), *([_block(rest, False)] if rest else [])]
        return {**message, "content": [*parts[:index], *blocks, *parts[index + 1 :]]}
    return None


def marked(
    messages: tuple[dict[str, Any], ...], prefix: StablePrefix | None
) -> list[dict[str, Any]]:
    """`messages` with one cache mark where `prefix` ends (the provider caches everything
    before it, the system prompt included); as they are without a prefix."""
    sent = list(messages)
    if prefix is None:
        return sent
    whole = min(prefix.messages, len(sent))
    if prefix.chars and whole < len(sent):
        split = _split(sent[whole], prefix.chars)
        if split is not None:
            sent[whole] = split
            return sent
    for index in range(whole - 1, -1, -1):  # the last whole message that has content
        end = _marked_end(sent[index])
        if end is not None:
            sent[index] = end
            break
    return sent


def _field(source: Any, name: str) -> Any:
    return source.get(name) if isinstance(source, dict) else getattr(source, name, None)


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def cache_tokens(usage: Any) -> tuple[int, int]:
    """(tokens read from the prompt cache, tokens written to it) in a reply's usage, in
    either shape; 0 for what it does not report. Both are part of the prompt tokens, so
    together never more than the usage's prompt_tokens (when it gives them)."""
    if usage is None:
        return 0, 0
    details = _field(usage, "prompt_tokens_details")
    read = max(
        _count(_field(details, "cached_tokens")), _count(_field(usage, "cache_read_input_tokens"))
    )
    written = max(
        _count(_field(details, "cache_creation_tokens")),
        _count(_field(usage, "cache_creation_input_tokens")),
    )
    prompt = _count(_field(usage, "prompt_tokens"))
    if prompt:
        read = min(read, prompt)
        written = min(written, prompt - read)
    return read, written


@dataclass(frozen=True)
class TokenPrices:
    """USD per token of a model: input, output, and input read from or written to the
    prompt cache (None: the price table has no such rate, so the input rate applies)."""

    input: float
    output: float
    cache_read: float | None = None
    cache_write: float | None = None

    def cost(self, inputs: float, outputs: float, read: float = 0.0, written: float = 0.0) -> float:
        """USD of `inputs` prompt tokens (of which `read` came from the cache and `written`
        went into it) and `outputs` completion tokens."""
        plain = max(0.0, inputs - read - written)
        read_rate = self.input if self.cache_read is None else self.cache_read
        write_rate = self.input if self.cache_write is None else self.cache_write
        return plain * self.input + read * read_rate + written * write_rate + outputs * self.output
