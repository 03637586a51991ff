"""Server-sent events for the local test server (tests/llm_server.py): a reply streamed
the way OpenAI-compatible servers stream it, one word (the server's token) per chunk.

The pacing follows an absolute schedule from the stream's start: the first token after
`first_token_s`, token k (from 0) at first_token_s + k / token_rate. A late write (a
loaded machine) therefore never delays the tokens after it, and the rate a client
measures from its first token to its last is the configured rate.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass
class StreamPacing:
    first_token_s: float = 0.0  # seconds before the first token
    token_rate: float | None = None  # tokens per second after it; None: all at once


def tokens_of(text: str) -> list[str]:
    """The reply's text as the chunks it is streamed in: one word each (with the
    whitespace before it), so they join back to the text and count as its tokens."""
    pieces = re.findall(r"\s*\S+", text)
    tail = text[len("".join(pieces)) :]
    if pieces and tail:
        pieces[-1] += tail
    return pieces or ([text] if text else [])


def _chunk(reply: dict[str, Any], delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {
        "id": reply["id"],
        "object": "chat.completion.chunk",
        "created": reply["created"],
        "model": reply["model"],
        "choices": [choice],
    }


def events(reply: dict[str, Any], body: dict[str, Any]) -> Iterator[tuple[bool, bytes]]:
    """(carries a token, SSE event) for each chunk of `reply`, a whole chat.completion."""
    choice = reply["choices"][0]
    message = choice["message"]
    yield False, _event(_chunk(reply, {"role": "assistant", "content": ""}, None))
    for piece in tokens_of(str(message.get("content") or "")):
        yield True, _event(_chunk(reply, {"content": piece}, None))
    calls = message.get("tool_calls") or []
    if calls:
        deltas = [{"index": i, **call} for i, call in enumerate(calls)]
        yield True, _event(_chunk(reply, {"tool_calls": deltas}, None))
    last = _chunk(reply, {}, choice["finish_reason"])
    if "timings" in reply:  # llama.cpp sends its timings with the last chunk
        last["timings"] = reply["timings"]
    yield False, _event(last)
    if (body.get("stream_options") or {}).get("include_usage"):
        usage = {**_chunk(reply, {}, None), "choices": [], "usage": reply["usage"]}
        yield False, _event(usage)
    yield False, b"data: [DONE]\n\n"


def _event(data: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(data)}\n\n".encode()


def schedule(pacing: StreamPacing, start: float, token: int) -> float:
    """When (time.monotonic) the token-th token (from 0) goes out."""
    rate = pacing.token_rate
    return start + pacing.first_token_s + (token / rate if rate else 0.0)


def wait_until(moment: float) -> None:
    delay = moment - time.monotonic()
    if delay > 0:
        time.sleep(delay)
