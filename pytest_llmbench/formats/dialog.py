"""Dialog scenarios (category `dialog`): the turns, their limits and reference scripts.

A dialog scenario gives `turns:` instead of `prompt:`. Each turn is a user message (a
jinja2 template, like `prompt`) with its own criteria; the model works on a workspace
through tools (tasks/tools.py) until it calls `finish_step`. A reference is a
script: per turn, the tool calls that do the step correctly, which the offline
`llmbench/reference` model and the test server replay (models/script.py).

Script file (YAML):

    turns:                      # one list of calls per turn of the scenario
      - - tool: list_files
        - tool: read_file
          path: js/app.js
        - tool: write_file
          path: src/App.jsx
          content: |            # the text, or:
            ...
        - tool: write_file
          path: package.json
          from: ../references/Other.md   # the fenced block headed `package.json` there
          block: package.json            # optional: take the block of another path
        - tool: finish_step
          summary: What was done

A player sends calls up to and including each `list_files` / `read_file` as one reply
(it needs their results before it goes on), and the rest of the turn as the last reply.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..errors import FormatError
from .codeblocks import extract_code_blocks
from .paths import named_file, safe_path
from .validation import read_text, read_yaml

# The tools a model gets in a dialog, with their required arguments (tasks/tools.py).
TOOL_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "list_files": (),
    "read_file": ("path",),
    "write_file": ("path", "content"),
    "finish_step": (),
}
READ_TOOLS = ("list_files", "read_file")


class DialogLimits(BaseModel):
    """Bounds of one dialog; reaching one ends the dialog with the reason recorded."""

    model_config = ConfigDict(extra="forbid")
    max_rounds: int = Field(default=30, ge=1, description="model round-trips per turn")
    max_tokens: int = Field(
        default=2_000_000, ge=1, description="prompt + completion tokens over the dialog"
    )
    max_seconds: float = Field(default=1800.0, gt=0, description="wall time of the dialog")
    max_tool_errors: int = Field(
        default=5, ge=0, description="malformed or refused tool calls before the dialog ends"
    )


@dataclass(frozen=True)
class ScriptCall:
    tool: str
    arguments: dict[str, Any]


Script = tuple[tuple[ScriptCall, ...], ...]  # per turn, the calls in order


def _block_text(script: Path, written: str, wanted: str, where: str, root: Path) -> str:
    source = named_file(script, f"{where}.from", written, root)
    for block in reversed(extract_code_blocks(read_text(source))):
        if block.path == wanted:
            return block.code if block.code.endswith("\n") else block.code + "\n"
    raise FormatError(script, f"{where}.from", f"{source.name} has no block headed {wanted}")


def _call(script: Path, where: str, raw: Any, root: Path) -> ScriptCall:
    if not isinstance(raw, dict) or not isinstance(raw.get("tool"), str):
        raise FormatError(script, where, "each call is a mapping with a `tool` field")
    tool = raw["tool"]
    if tool not in TOOL_ARGUMENTS:
        raise FormatError(
            script, f"{where}.tool", f"unknown tool {tool!r}; accepted: {', '.join(TOOL_ARGUMENTS)}"
        )
    arguments = {k: v for k, v in raw.items() if k not in ("tool", "from", "block")}
    if "from" in raw:
        if tool != "write_file" or "content" in raw:
            raise FormatError(
                script, f"{where}.from", "only write_file takes from, instead of content"
            )
        block = str(raw.get("block") or raw.get("path") or "")
        arguments["content"] = _block_text(script, str(raw["from"]), block, where, root)
    for name in TOOL_ARGUMENTS[tool]:
        if not isinstance(arguments.get(name), str):
            raise FormatError(script, f"{where}.{name}", f"{tool} needs {name} (a string)")
    if "path" in arguments:
        _, why = safe_path(arguments["path"])
        if why is not None:
            raise FormatError(
                script, f"{where}.path", f"must be a relative path inside the workspace ({why})"
            )
    return ScriptCall(tool, arguments)


def load_script(script: Path, turns: int, root: Path) -> Script:
    """A reference script with one list of calls per turn, each turn ending in finish_step;
    the files its `from:` fields name stay inside `root` (the scenarios folder)."""
    raw = read_yaml(script)
    listed = raw.get("turns") if isinstance(raw, dict) else None
    if not isinstance(listed, list):
        raise FormatError(script, "turns", "required: one list of tool calls per turn")
    if len(listed) != turns:
        raise FormatError(script, "turns", f"has {len(listed)} turns but the scenario has {turns}")
    result = []
    for t, calls in enumerate(listed):
        if not isinstance(calls, list) or not calls:
            raise FormatError(script, f"turns.{t}", "a non-empty list of tool calls")
        parsed = tuple(_call(script, f"turns.{t}.{i}", c, root) for i, c in enumerate(calls))
        if parsed[-1].tool != "finish_step":
            raise FormatError(script, f"turns.{t}", "must end with a finish_step call")
        result.append(parsed)
    return tuple(result)


def script_files(script: Script) -> dict[str, str]:
    """Every file the script writes, with its last content, by path."""
    files: dict[str, str] = {}
    for turn in script:
        for call in turn:
            if call.tool == "write_file":
                path, _ = safe_path(call.arguments["path"])  # checked when the script loaded
                files[path or call.arguments["path"]] = call.arguments["content"]
    return files
