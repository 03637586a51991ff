"""Streamed replies: read chunk by chunk, timing the first and the last generated token.

A streamed call says when its first token came (the time to first token: queueing on the
server and prompt reading) and when its last came; the tokens between them were generated
at the server's own pace, so their rate leaves everything else out (judging/scoring.py's
"stream" basis). The chunks are put back together into one response by litellm.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Callable
from dataclasses import dataclass
from typing import Any

# Words of a refusal to stream (a provider or model that cannot), beside "stream": the
# call is sent again without streaming, and the model streams no more in this run.
_REFUSAL_WORDS = ("not supported", "unsupported", "not support", "not allowed", "cannot")


@dataclass
class TokenTimes:
    """Seconds from the request to the first and to the last chunk carrying a token, and
    the server's own timings when a chunk carries them (llama.cpp: the last one)."""

    first: float | None = None
    last: float | None = None
    timings: dict[str, Any] | None = None

    def saw_token(self, at: float) -> None:
        if self.first is None:
            self.first = at
        self.last = at


def carries_token(chunk: Any) -> bool:
    """Whether a stream chunk carries generated text, reasoning or a tool call."""
    for choice in getattr(chunk, "choices", None) or ():
        delta = getattr(choice, "delta", None)
        if delta is None:
            continue
        for name in ("content", "reasoning_content", "tool_calls"):
            if getattr(delta, name, None):
                return True
    return False


async def read_stream(
    stream: AsyncIterable[Any], clock: Callable[[], float], start: float
) -> tuple[list[Any], TokenTimes]:
    """Every chunk of `stream`, and when (clock() - start) its first and last tokens came."""
    chunks: list[Any] = []
    times = TokenTimes()
    async for chunk in stream:
        chunks.append(chunk)
        timings = getattr(chunk, "timings", None)
        if isinstance(timings, dict):
            times.timings = timings
        if carries_token(chunk):
            times.saw_token(clock() - start)
    return chunks, times


def refuses_streaming(explanation: str) -> bool:
    """Whether a provider's explanation of a refused streamed call says it does not stream."""
    text = explanation.lower()
    return "stream" in text and any(word in text for word in _REFUSAL_WORDS)
