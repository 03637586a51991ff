"""The parts of a litellm reply that come in more than one shape: the first token's
log-probabilities (objects or dicts) and the function calls (arguments as text or parsed)."""

from __future__ import annotations

import json
from typing import Any

from .base import ToolCall


def first_token_logprobs(choice: Any) -> list[tuple[str, float]] | None:
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


def tool_calls(message: Any) -> tuple[ToolCall, ...]:
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
