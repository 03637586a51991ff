"""The tools a model works with in a dialog, and the two ways it can call them.

Tools: `list_files`, `read_file(path)`, `write_file(path, content)`,
`finish_step(summary)`. They act on a workspace folder only: a path that is absolute,
climbs out with `..`, or leads through a symlink is refused, and the refusal is the
tool's result (the model sees it and may correct itself).

Protocols:
  native  OpenAI/litellm function calling: the tools are offered as function schemas
          (TOOL_SCHEMAS) and the model's `tool_calls` are executed, each answered by a
          `tool` message.
  text    for models without function calling: each command is a fenced ```json block
          holding one object with a "tool" field and the arguments beside it, e.g.
          {"tool": "write_file", "path": "src/App.jsx", "content": "..."}. All commands of a
          reply run in order; their results come back in one user message.

A call that cannot be run (arguments that are not a JSON object, an unknown tool, a
missing argument) is malformed: its result says why. Malformed and refused calls are
counted against the dialog's `max_tool_errors`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..formats.codeblocks import extract_code_blocks
from ..formats.dialog import TOOL_ARGUMENTS
from ..formats.paths import safe_path
from ..models.base import ToolCall
from ..schema.vocabulary import ToolOutcome

MAX_FILE_CHARS = 400_000  # a write larger than this is refused, a read is cut there
MAX_LISTED = 2000

TOOL_SCHEMAS: tuple[dict[str, Any], ...] = (
    {
        "type": "function",
        "function": {
            "name": "list_files",
            "description": "List every file of the workspace (relative paths).",
            "parameters": {"type": "object", "properties": {}},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read one file of the workspace.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string", "description": "relative path"}},
                "required": ["path"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "write_file",
            "description": "Create or overwrite one file of the workspace with the full content.",
            "parameters": {
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "relative path"},
                    "content": {"type": "string", "description": "the whole new file"},
                },
                "required": ["path", "content"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "finish_step",
            "description": "Say that the current step is done; the next instruction follows.",
            "parameters": {
                "type": "object",
                "properties": {"summary": {"type": "string", "description": "what you did"}},
            },
        },
    },
)

NATIVE_INSTRUCTIONS = (
    "You work on a project in a workspace through the tools list_files, read_file, "
    "write_file and finish_step. Write every file completely with write_file; call "
    "finish_step when the current step is done."
)

TEXT_INSTRUCTIONS = """\
You work on a project in a workspace through commands. Give each command as its own
fenced ```json block holding one JSON object with a "tool" field:

```json
{"tool": "list_files"}
```
```json
{"tool": "read_file", "path": "src/App.jsx"}
```
```json
{"tool": "write_file", "path": "src/App.jsx", "content": "the whole new file"}
```
```json
{"tool": "finish_step", "summary": "what you did"}
```

All commands of a reply run in order and their results come back in the next message.
Paths are relative to the workspace. Write every file completely; give finish_step when
the current step is done."""

NUDGE = "No tool was called. Use the tools to do the step, then call finish_step."


@dataclass(frozen=True)
class ToolResult:
    """What one call did: its outcome, the text the model gets back, and the path it named."""

    call: ToolCall
    outcome: ToolOutcome
    text: str
    path: str | None = None
    summary: str | None = None  # finish_step's summary


class ToolWorkspace:
    """A folder the model's tool calls act on, and the paths written since a mark."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def seed(self, files: dict[str, str]) -> None:
        for rel, text in files.items():
            target = self.root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")

    def files(self) -> dict[str, str]:
        """Every regular file under the root (no symlinks followed), by relative path."""
        found: dict[str, str] = {}
        for folder, dirs, names in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not (Path(folder) / d).is_symlink())
            for name in sorted(names):
                path = Path(folder) / name
                if path.is_symlink() or not path.is_file():
                    continue
                rel = path.relative_to(self.root).as_posix()
                found[rel] = path.read_text(encoding="utf-8", errors="replace")
        return found

    def resolve(self, written: str) -> tuple[Path | None, str]:
        """(the file, its normalised path) or (None, why it is refused)."""
        rel, why = safe_path(written)
        if rel is None:
            return None, f"path {written!r} refused: {why}; use a path relative to the workspace"
        target = self.root
        for part in rel.split("/"):
            target = target / part
            if target.is_symlink():
                return None, f"path {written!r} refused: it leads through a symlink"
        if not target.resolve().is_relative_to(self.root):
            return None, f"path {written!r} refused: outside the workspace"
        return target, rel

    def run(self, call: ToolCall) -> ToolResult:
        """Execute one call; never raises for anything the model wrote."""
        if not call.name:  # a text-protocol block that is no command; arguments say why
            return ToolResult(call, "malformed", f"error: {call.arguments}")
        if call.name not in TOOL_ARGUMENTS:
            known = ", ".join(TOOL_ARGUMENTS)
            return ToolResult(
                call, "malformed", f"error: unknown tool {call.name!r}; tools: {known}"
            )
        try:
            arguments = json.loads(call.arguments) if call.arguments.strip() else {}
        except json.JSONDecodeError as exc:
            return ToolResult(call, "malformed", f"error: arguments are not valid JSON ({exc})")
        if not isinstance(arguments, dict):
            return ToolResult(call, "malformed", "error: arguments must be a JSON object")
        for name in TOOL_ARGUMENTS[call.name]:
            if not isinstance(arguments.get(name), str):
                return ToolResult(
                    call, "malformed", f"error: {call.name} needs the string argument {name!r}"
                )
        if call.name == "finish_step":
            summary = arguments.get("summary")
            return ToolResult(call, "finished", "step finished", summary=str(summary or ""))
        if call.name == "list_files":
            paths = sorted(self.files())
            shown = "\n".join(paths[:MAX_LISTED])
            more = f"\n... and {len(paths) - MAX_LISTED} more" if len(paths) > MAX_LISTED else ""
            return ToolResult(call, "ok", (shown or "(the workspace is empty)") + more)
        target, rel = self.resolve(arguments["path"])
        if target is None:
            return ToolResult(call, "refused", f"error: {rel}", path=arguments["path"])
        if call.name == "read_file":
            if not target.is_file():
                return ToolResult(call, "ok", f"error: no file {rel}", path=rel)
            text = target.read_text(encoding="utf-8", errors="replace")
            return ToolResult(call, "ok", text[:MAX_FILE_CHARS], path=rel)
        content = arguments["content"]
        if len(content) > MAX_FILE_CHARS:
            return ToolResult(
                call, "refused", f"error: {rel} is over {MAX_FILE_CHARS} characters", path=rel
            )
        if target.is_dir():
            return ToolResult(call, "ok", f"error: {rel} is a folder", path=rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
        return ToolResult(call, "ok", f"wrote {rel} ({len(content)} characters)", path=rel)


def text_commands(reply: str) -> list[ToolCall]:
    """The commands of a text-protocol reply: every ```json block (or unlabelled block
    that starts with "{") in order. A block that is not a JSON object with a string
    "tool" becomes a call with no name whose arguments say what is wrong, so running it
    reports it as malformed."""
    calls = []
    for number, block in enumerate(extract_code_blocks(reply), start=1):
        language = (block.language or "").lower()
        code = block.code.strip()
        if language != "json" and not (language == "" and code.startswith("{")):
            continue
        call_id = f"text_{number}"
        try:
            data = json.loads(code)
        except json.JSONDecodeError as exc:
            calls.append(ToolCall(call_id, "", f"the command is not valid JSON ({exc})"))
            continue
        if not isinstance(data, dict) or not isinstance(data.get("tool"), str):
            calls.append(ToolCall(call_id, "", 'the command has no "tool" field'))
            continue
        tool = data.pop("tool")
        calls.append(ToolCall(call_id, tool, json.dumps(data, ensure_ascii=False)))
    return calls


def text_results(results: list[ToolResult]) -> str:
    """The results of one text-protocol reply, as the next user message."""
    if not results:
        return (
            'No command found. Give commands as ```json blocks with a "tool" field; '
            "end the step with finish_step."
        )
    parts = []
    for number, result in enumerate(results, start=1):
        what = result.call.name or "malformed command"
        parts.append(f"[{number}] {what}: {result.text}")
    return "Results:\n" + "\n\n".join(parts)
