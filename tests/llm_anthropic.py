"""Anthropic's Messages API on the local test server (tests/llm_server.py): litellm sends an
`anthropic/...` model given --llm-api-base to `<api base>/v1/messages`.

A request is read as the chat request it stands for (system blocks and content blocks
joined to text), answered by the server's policies like any chat request, and written
back in Anthropic's shape: a whole message, or its server-sent events. Its usage reports
the prompt cache the way Anthropic does (`cache_read_input_tokens`,
`cache_creation_input_tokens`, and `input_tokens` for the rest): the cached prefix is every
block up to the last one marked with `cache_control`, read when the server has seen that
prefix before, else written. Tokens are words, as everywhere in the test server.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from tests.llm_stream import tokens_of

STOP_REASONS = {"stop": "end_turn", "length": "max_tokens", "tool_calls": "tool_use"}


def _text(content: Any) -> str:
    """A system or message content's text: the string, or its text blocks joined as sent."""
    if isinstance(content, list):
        return "".join(str(b.get("text", "")) for b in content if b.get("type") == "text")
    return str(content or "")


def as_chat(body: dict[str, Any]) -> dict[str, Any]:
    """The chat-completions request an Anthropic Messages request stands for."""
    messages = [{"role": "system", "content": _text(body["system"])}] if body.get("system") else []
    messages += [
        {"role": m.get("role"), "content": _text(m.get("content"))} for m in body["messages"]
    ]
    chat = {
        key: body[key] for key in ("model", "max_tokens", "temperature", "stream") if key in body
    }
    return {**chat, "messages": messages}


def _blocks(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every content block of the request in the order Anthropic caches them: system, then
    the messages (a string content counts as one unmarked block)."""
    contents = [body.get("system"), *(m.get("content") for m in body.get("messages", []))]
    blocks: list[dict[str, Any]] = []
    for content in contents:
        if isinstance(content, list):
            blocks += [b for b in content if isinstance(b, dict)]
        elif content:
            blocks.append({"type": "text", "text": str(content)})
    return blocks


def marked_prefix(body: dict[str, Any]) -> tuple[tuple[str, ...], int]:
    """(the words up to and including the last block marked cache_control, all words)."""
    words: list[str] = []
    cut = 0
    for block in _blocks(body):
        words += str(block.get("text", "")).split()
        if block.get("cache_control"):
            cut = len(words)
    return tuple(words[:cut]), len(words)


def cache_usage(
    wire: dict[str, Any], output: int, seen: Callable[[str, tuple[str, ...]], bool] | None
) -> dict[str, int]:
    """Anthropic's usage of a Messages request: its marked prefix read when `seen` says it
    was written before, else written; no cache figures without `seen` (cache off)."""
    prefix, total = marked_prefix(wire)
    read = written = 0
    if prefix and seen is not None:
        read, written = (
            (len(prefix), 0) if seen(str(wire.get("model", "")), prefix) else (0, len(prefix))
        )
    return {
        "input_tokens": total - read - written,
        "cache_read_input_tokens": read,
        "cache_creation_input_tokens": written,
        "output_tokens": output,
    }


def message(reply: dict[str, Any], usage: dict[str, int]) -> dict[str, Any]:
    """A chat.completion reply of the server as Anthropic's message (text only)."""
    choice = reply["choices"][0]
    return {
        "id": f"msg_{reply['id']}",
        "type": "message",
        "role": "assistant",
        "model": reply["model"],
        "content": [{"type": "text", "text": str(choice["message"].get("content") or "")}],
        "stop_reason": STOP_REASONS.get(choice["finish_reason"], "end_turn"),
        "stop_sequence": None,
        "usage": usage,
    }


def events(whole: dict[str, Any]) -> Iterator[tuple[bool, bytes]]:
    """(carries a token, SSE event) for each event of the message `whole`, streamed."""
    usage = {**whole["usage"], "output_tokens": 0}
    start = {**whole, "content": [], "stop_reason": None, "usage": usage}
    yield False, _event("message_start", {"message": start})
    block = {"type": "text", "text": ""}
    yield False, _event("content_block_start", {"index": 0, "content_block": block})
    for piece in tokens_of(whole["content"][0]["text"]):
        delta = {"type": "text_delta", "text": piece}
        yield True, _event("content_block_delta", {"index": 0, "delta": delta})
    yield False, _event("content_block_stop", {"index": 0})
    stop = {"stop_reason": whole["stop_reason"], "stop_sequence": None}
    out = {"output_tokens": whole["usage"]["output_tokens"]}
    yield False, _event("message_delta", {"delta": stop, "usage": out})
    yield False, _event("message_stop", {})


def _event(kind: str, data: dict[str, Any]) -> bytes:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n".encode()
