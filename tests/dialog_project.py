"""A small dialog scenario on the Mini dataset of tests/conftest.py, with its reference
script, and server policies that play scripts or misbehave in set ways."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_llmbench.formats.dataset import DatasetIndex
from pytest_llmbench.formats.scenario import load_scenario
from pytest_llmbench.models.base import ToolCall
from pytest_llmbench.models.script import play
from tests.conftest import write_project

GREET_DIALOG = """\
id: GreetInSteps
title: Greeting, in two steps
category: dialog
datasets: [Mini]
limits: {max_rounds: 4, max_tool_errors: 2}
turns:
  - title: Add greet
    prompt: |
      Add a function `greet(name)` to src/app.js that returns "Hello, <name>!".
    criteria:
      accuracy:
        - criterion: src/app.js parses
          check: {path: src/app.js, parses: true}
      completeness:
        - criterion: greet is defined and add is kept
          check: {path: src/app.js, contains: ["function greet(name)", "function add"]}
        - criterion: greet uses a template literal
          check: {contains: "`Hello, ${name}!`"}
  - title: Test greet
    prompt: Add a test file test/app.test.js for greet, using node:test.
    criteria:
      accuracy:
        - criterion: the test file exists
          check: {file: test/app.test.js}
      completeness:
        - criterion: the test calls greet
          check: {contains: "greet('Ada')"}
references:
  Mini: {script: references/GreetInSteps/Mini.yaml}
"""

GREET_SCRIPT = """\
turns:
  - - tool: list_files
    - tool: read_file
      path: src/app.js
    - tool: write_file
      path: src/app.js
      content: |
        export function add(a, b) {
          return a + b;
        }

        export function greet(name) {
          return `Hello, ${name}!`;
        }
    - tool: finish_step
      summary: greet added beside add.
  - - tool: write_file
      path: test/app.test.js
      content: |
        import { test } from 'node:test';
        import assert from 'node:assert/strict';
        import { greet } from '../src/app.js';

        test('greet', () => {
          assert.equal(greet('Ada'), 'Hello, Ada!');
        });
    - tool: finish_step
      summary: test added.
"""


def write_dialog_project(root: Path) -> Path:
    write_project(root, {"dialog/GreetInSteps.yaml": GREET_DIALOG})
    script = root / "scenarios" / "dialog" / "references" / "GreetInSteps" / "Mini.yaml"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(textwrap.dedent(GREET_SCRIPT))
    return root


Reply = str | dict[str, Any]


def message(text: str, calls: list[tuple[str, str]] | None = None) -> dict[str, Any]:
    """An assistant message for the test server: text and (name, arguments) tool calls."""
    return with_calls(text, [ToolCall(f"call_{i}", n, a) for i, (n, a) in enumerate(calls or [])])


def with_calls(text: str, calls: list[ToolCall]) -> dict[str, Any]:
    out: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        out["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in calls
        ]
    return out


def script_player(scenario_files: list[Path]) -> Callable[[dict[str, Any]], Reply]:
    """A server candidate that plays the reference script of whichever scenario the
    request's first turn belongs to, natively when tools are offered, else as text."""
    by_prompt: dict[str, Any] = {}
    for path in scenario_files:
        scenario = load_scenario(path, DatasetIndex(path.parent.parent.parent / "datasets"))
        for dataset in scenario.datasets:
            by_prompt[scenario.turns_for(dataset)[0].prompt] = scenario.script_for(dataset)

    def candidate(body: dict[str, Any]) -> Reply:
        messages = body["messages"]
        first = next(m["content"] for m in messages if m["role"] == "user")
        text, calls = play(by_prompt[first], messages, native=bool(body.get("tools")))
        return with_calls(text, list(calls)) if calls else text

    return candidate


def arguments(**values: str) -> str:
    return json.dumps(values)
