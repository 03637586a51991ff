"""Replaying a dialog's reference script as model replies (offline models, test server).

The player is stateless: where it is comes from the conversation so far. The turn is the
number of assistant messages that called finish_step; the reply within the turn is the
number of assistant messages since. A turn's calls are sent up to and including each
list_files / read_file (the player waits for their results), then the rest at once.
When the tools are offered the calls are native tool calls, otherwise text commands
(tasks/tools.py documents both).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from ..formats.dialog import READ_TOOLS, Script, ScriptCall
from .base import ToolCall

_FINISH_TEXT = re.compile(r'"tool"\s*:\s*"finish_step"')
FINISH = ScriptCall("finish_step", {"summary": "Nothing to change."})


def _finished(message: dict[str, Any]) -> bool:
    calls = message.get("tool_calls") or []
    if any((c.get("function") or {}).get("name") == "finish_step" for c in calls):
        return True
    return bool(_FINISH_TEXT.search(str(message.get("content") or "")))


def position(messages: Sequence[dict[str, Any]]) -> tuple[int, int]:
    """(turn index, reply index within the turn), from 0."""
    turn = reply = 0
    for message in messages:
        if message.get("role") != "assistant":
            continue
        if _finished(message):
            turn, reply = turn + 1, 0
        else:
            reply += 1
    return turn, reply


def replies(calls: Sequence[ScriptCall]) -> list[list[ScriptCall]]:
    groups: list[list[ScriptCall]] = [[]]
    for call in calls:
        groups[-1].append(call)
        if call.tool in READ_TOOLS:
            groups.append([])
    return [g for g in groups if g]


def next_calls(script: Script | None, messages: Sequence[dict[str, Any]]) -> list[ScriptCall]:
    """The calls of the next reply; finish_step alone once the script has nothing more
    for this turn (and for every turn when there is no script: the do-nothing player)."""
    turn, reply = position(messages)
    if script is None or turn >= len(script):
        return [FINISH]
    groups = replies(script[turn])
    return groups[reply] if reply < len(groups) else [FINISH]


def as_reply(
    calls: Sequence[ScriptCall], native: bool, tag: str
) -> tuple[str, tuple[ToolCall, ...]]:
    """(text, tool calls) of a reply making these calls, natively or as text commands."""
    if native:
        return "", tuple(
            ToolCall(f"call_{tag}_{i}", c.tool, json.dumps(c.arguments, ensure_ascii=False))
            for i, c in enumerate(calls)
        )
    blocks = [
        "```json\n" + json.dumps({"tool": c.tool, **c.arguments}, ensure_ascii=False) + "\n```"
        for c in calls
    ]
    return "\n\n".join(blocks), ()


def play(
    script: Script | None, messages: Sequence[dict[str, Any]], native: bool
) -> tuple[str, tuple[ToolCall, ...]]:
    turn, reply = position(messages)
    return as_reply(next_calls(script, messages), native, f"{turn}_{reply}")
