"""Shared fixtures: pytester, a local OpenAI-compatible server, and a small benchmark project."""

from __future__ import annotations

import importlib
import json
import os
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.reporting.reader import parse_result
from pytest_llmbench.reporting.textstore import TEXTS, read_texts
from pytest_llmbench.toolchain import jvm_share
from tests.llm_server import FakeLLMServer

pytest_plugins = ["pytester"]


def pytest_configure(config: pytest.Config) -> None:
    # pytester's inline runs drop modules they imported; litellm leaves an importlib_metadata
    # finder on sys.meta_path that then hides every entry point (our plugin included) from the
    # next inline run. Importing litellm once out here keeps its modules alive across runs.
    from pytest_llmbench.models.litellm_model import litellm_module

    litellm_module()
    # Likewise the worker processes of the code metrics (pytest_llmbench.cpu): a process
    # pool made in one inline run pickles functions of modules the next run imported anew.
    for name in (
        "pytest_llmbench.cpu",
        "multiprocessing.connection",
        "multiprocessing.popen_spawn_posix",
        "multiprocessing.queues",
        "multiprocessing.resource_tracker",
        "multiprocessing.spawn",
        "multiprocessing.synchronize",
    ):
        importlib.import_module(name)
    # One folder of JVM class data archives (toolchain/jvm_share.py) for the whole session,
    # its workers and its pytester runs: pytester sets HOME to each test's own folder, where
    # every test that runs JUnit would make them anew.
    os.environ.setdefault(jvm_share.CACHE_ENV, str(jvm_share.cache_folder()))


REPO = Path(__file__).resolve().parent.parent
# The attack corpus's hidden tests and answers are data of its scenarios, never tests of ours.
collect_ignore = ["attacks"]


@pytest.fixture
def llm_server() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer().start()
    yield server
    server.stop()


def judged_args(server: FakeLLMServer, *extra: str) -> list[str]:
    """Options of a run whose candidate and judge are the local server, through litellm."""
    return [
        "--llm-model=openai/cand",
        "--llm-judge=openai/judge",
        f"--llm-api-base={server.base_url}",
        "--llm-attempts=1",
        *extra,
    ]


MINI_SCENARIO = """\
id: AddGreeting
title: Add a greeting function
category: generation
datasets: [Mini]
prompt: |
  Add a function `greet(name)` to this code base that returns "Hello, <name>!".
  Return every changed file as a fenced block headed by its path.

  {{ dataset | inline_files }}
references:
  Mini: |
    ### src/app.js
    ```javascript
    export function add(a, b) {
      return a + b;
    }

    export function greet(name) {
      return `Hello, ${name}!`;
    }
    ```
criteria:
  accuracy:
    - criterion: The code parses
      check: {parses: true}
    - Uses a template literal or string concatenation
  completeness:
    - criterion: Defines greet
      weight: 2
      check: {contains: "function greet"}
    - criteria: Keeps add
      check: {regex: "function add\\\\("}
"""

EXPLAIN_SCENARIO = """\
id: ExplainMini
category: explanation
datasets: [Mini]
prompt: |
  Explain this code.
  {{ dataset | inline_files }}
references:
  Mini: "The module exports add(a, b), which returns the sum of a and b."
criteria:
  accuracy:
    - criterion: Names add
      check: {contains: "add(a, b)"}
  completeness:
    - criterion: Says it returns the sum
      check: {contains: "sum", ignore_case: true}
"""


def write_project(root: Path, scenarios: dict[str, str] | None = None) -> Path:
    """A dataset `javascript/Mini` and scenarios (default: AddGreeting and ExplainMini)."""
    dataset = root / "datasets" / "javascript" / "Mini"
    (dataset / "src").mkdir(parents=True, exist_ok=True)
    (dataset / "dataset.yaml").write_text(
        "technology: plain ES modules\ndescription: one small module\n"
    )
    (dataset / "src" / "app.js").write_text("export function add(a, b) {\n  return a + b;\n}\n")
    if scenarios is None:
        scenarios = {
            "generation/AddGreeting.yaml": MINI_SCENARIO,
            "explanation/ExplainMini.yaml": EXPLAIN_SCENARIO,
        }
    for rel, text in scenarios.items():
        path = root / "scenarios" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    return write_project(pytester.path)


def read_leaderboard(root: Path) -> dict[str, Any]:
    return json.loads((root / "reports" / "leaderboard.json").read_text())


def report_lines(folder: Path) -> list[dict[str, Any]]:
    """Every line of a report dir's results.jsonl as the result's whole JSON: read by the
    reader's own rule (texts from texts.jsonl, criteria and defaults put back)."""
    texts = read_texts(folder / TEXTS).table
    lines = (folder / "results.jsonl").read_text().splitlines()
    return [parse_result(json.loads(line), texts).model_dump(mode="json") for line in lines]


def read_results(root: Path) -> list[dict[str, Any]]:
    return report_lines(root / "reports")


def json_report_results(folder: Path) -> list[dict[str, Any]]:
    """The item results a report dir's report.json carries, as their whole JSON (read by the
    reader's own rule)."""
    texts = read_texts(folder / TEXTS).table
    report = json.loads((folder / "report.json").read_text())
    return [
        parse_result(json.loads(prop["llmbench"]), texts).model_dump(mode="json")
        for test in report["tests"]
        for prop in test.get("user_properties", [])
        if "llmbench" in prop
    ]


def model_row(board: dict[str, Any], model: str) -> dict[str, Any]:
    return next(r for r in board["leaderboard"]["models"] if r["model"] == model)
