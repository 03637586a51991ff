"""Prompt caching (issue 28, point 3): which providers get the stable prefix marked, where
the mark goes, the cached tokens of both usage shapes, and their price."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pytest_llmbench.execution.estimate import Range, RoleLine
from pytest_llmbench.formats.dataset import DatasetIndex
from pytest_llmbench.formats.render import inline_files
from pytest_llmbench.formats.scenario import load_scenario
from pytest_llmbench.judging.prompts import evaluator_messages, evaluator_prefix
from pytest_llmbench.models.base import ModelRequest, StablePrefix
from pytest_llmbench.models.litellm_model import LiteLLMModel
from pytest_llmbench.models.prompt_cache import (
    CACHE_MARK,
    TokenPrices,
    cache_tokens,
    marked,
    needs_marks,
)
from pytest_llmbench.reporting import leaderboard, markdown
from pytest_llmbench.reporting.usage import usage_lines
from pytest_llmbench.schema.results import CallRecord, ItemResult, Usage
from pytest_llmbench.tasks.case import Case
from tests.conftest import write_project

SYSTEM = {"role": "system", "content": "You are a careful engineer."}
PROMPT = "Here is the code:\nCODE\nNow explain it."
PREFIX = StablePrefix(messages=1, chars=len("Here is the code:\nCODE\n"))


def _request(content: Any = PROMPT, prefix: StablePrefix | None = PREFIX) -> ModelRequest:
    return ModelRequest(
        messages=(SYSTEM, {"role": "user", "content": content}),
        role="candidate",
        stable_prefix=prefix,
    )


@pytest.mark.parametrize(
    ("name", "marks"),
    [
        ("anthropic/claude-haiku-4-5", True),
        ("claude-sonnet-4-5", True),
        ("bedrock/anthropic.claude-3-5-haiku-20241022-v1:0", True),
        ("vertex_ai/claude-3-5-haiku@20241022", True),
        ("openai/gpt-4o-mini", False),
        ("gpt-4o-mini", False),
        ("bedrock/amazon.nova-pro-v1:0", False),
        ("ollama/llama3", False),
    ],
)
def test_only_anthropic_and_claude_on_bedrock_or_vertex_need_marks(name: str, marks: bool) -> None:
    assert needs_marks(name) is marks


def test_anthropic_requests_carry_one_mark_where_the_stable_prefix_ends() -> None:
    sent = LiteLLMModel("anthropic/claude-haiku-4-5")._kwargs(_request(), None)["messages"]
    assert sent[0] == SYSTEM  # cached with the prefix: the mark after it covers it
    assert sent[1]["content"] == [
        {"type": "text", "text": "Here is the code:\nCODE\n", "cache_control": CACHE_MARK},
        {"type": "text", "text": "Now explain it."},
    ]
    assert "".join(b["text"] for b in sent[1]["content"]) == PROMPT


def test_openai_requests_are_sent_as_they_are() -> None:
    request = _request()
    sent = LiteLLMModel("openai/gpt-4o-mini")._kwargs(request, None)["messages"]
    assert sent == list(request.messages)
    assert "cache_control" not in json.dumps(sent)


def test_a_prefix_of_whole_messages_marks_the_last_of_them() -> None:
    sent = marked(_request(prefix=StablePrefix(messages=1)).messages, StablePrefix(messages=1))
    assert sent[0]["content"] == [
        {"type": "text", "text": SYSTEM["content"], "cache_control": CACHE_MARK}
    ]
    assert sent[1]["content"] == PROMPT


def test_a_dialog_prefix_ending_in_a_tool_call_marks_the_last_message_with_content() -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}
    messages = (
        SYSTEM,
        {"role": "user", "content": "task"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "file text"},
    )
    sent = marked(messages, StablePrefix(messages=3))
    assert sent[1]["content"] == [{"type": "text", "text": "task", "cache_control": CACHE_MARK}]
    assert sent[2] == messages[2] and sent[3] == messages[3]
    assert json.dumps(sent).count("cache_control") == 1


def test_an_image_message_is_split_in_its_text_part_and_keeps_its_images() -> None:
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    request = _request([{"type": "text", "text": PROMPT}, image])
    sent = marked(request.messages, PREFIX)
    assert sent[1]["content"][0]["cache_control"] == CACHE_MARK
    assert sent[1]["content"][1] == {"type": "text", "text": "Now explain it."}
    assert sent[1]["content"][2] == image


def test_no_prefix_no_mark() -> None:
    request = _request(prefix=None)
    assert marked(request.messages, None) == list(request.messages)


def test_the_case_prefix_is_the_system_prompt_and_the_prompt_through_its_inlined_dataset(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path)
    scenario = load_scenario(
        root / "scenarios" / "generation" / "AddGreeting.yaml", DatasetIndex(root / "datasets")
    )
    case = Case(scenario, scenario.datasets[0])
    prefix = case.stable_prefix()
    prompt = case.messages()[1]["content"]
    assert prefix.messages == 1
    assert prompt[: prefix.chars].startswith("Add a function `greet(name)`")
    assert prompt[: prefix.chars].endswith(inline_files(case.dataset))
    assert prompt[prefix.chars :].strip() == ""  # the template ends with the dataset


def test_the_evaluator_prefix_is_its_system_prompt_and_the_task_up_to_the_answer() -> None:
    messages = evaluator_messages("SYS", "TASK PROMPT", "THE ANSWER", [])
    prefix = evaluator_prefix("SYS", "TASK PROMPT")
    user = messages[1]["content"]
    assert prefix.messages == 1
    assert user[: prefix.chars].rstrip().endswith("TASK PROMPT")
    assert user[prefix.chars :].startswith("## The model's answer")


def test_cached_tokens_are_read_from_openais_usage_shape() -> None:
    usage = SimpleNamespace(prompt_tokens=1200, prompt_tokens_details={"cached_tokens": 1024})
    assert cache_tokens(usage) == (1024, 0)


def test_cached_tokens_are_read_from_anthropics_usage_shape() -> None:
    usage = {
        "prompt_tokens": 1500,
        "cache_read_input_tokens": 0,
        "cache_creation_input_tokens": 1400,
    }
    assert cache_tokens(usage) == (0, 1400)
    read = {"cache_read_input_tokens": 1400, "prompt_tokens_details": {"cached_tokens": 1400}}
    assert cache_tokens(read) == (1400, 0)  # litellm copies it: counted once


def test_cache_figures_over_the_prompt_tokens_are_cut_to_them() -> None:
    usage = {"prompt_tokens": 100, "cache_read_input_tokens": 90, "cache_creation_input_tokens": 50}
    assert cache_tokens(usage) == (90, 10)
    assert cache_tokens({"prompt_tokens": 100, "cache_read_input_tokens": 10**9}) == (100, 0)


def test_usage_without_cache_figures_counts_none() -> None:
    assert cache_tokens(None) == (0, 0)
    assert cache_tokens({"prompt_tokens": 10, "prompt_tokens_details": None}) == (0, 0)


def test_cached_input_is_priced_at_the_cache_rates() -> None:
    prices = TokenPrices(input=1e-6, output=5e-6, cache_read=1e-7, cache_write=1.25e-6)
    full = 1000 * 1e-6 + 10 * 5e-6
    assert prices.cost(1000, 10, read=800) == pytest.approx(full - 800 * (1e-6 - 1e-7))
    assert prices.cost(1000, 10, written=800) == pytest.approx(full + 800 * (1.25e-6 - 1e-6))
    # No cache rate in the table: cached input at the input rate.
    assert TokenPrices(1e-6, 5e-6).cost(1000, 10, read=800) == pytest.approx(full)


def test_the_estimate_prices_an_earlier_runs_cache_reads_at_the_cache_rate() -> None:
    prices = TokenPrices(input=1e-6, output=5e-6, cache_read=1e-7)
    line = RoleLine("anthropic/claude-haiku-4-5", "candidate")
    line.add(Range(1, 1, 1), Range(1000, 1000, 1000), Range(10, 10, 10), prices, (800.0, 0.0))
    assert line.cost is not None
    assert line.cost.expected == pytest.approx(200 * 1e-6 + 800 * 1e-7 + 10 * 5e-6)


def test_the_usage_table_shows_cached_input_per_model() -> None:
    call = CallRecord(
        role="candidate",
        model="anthropic/claude-haiku-4-5",
        prompt_tokens=1500,
        completion_tokens=20,
        cache_read_tokens=1400,
        latency_s=1.0,
        cost_usd=0.0003,
    )
    header, row, *_ = usage_lines([], ordinary=[call, call])
    assert header.split()[-4:] == ["cached", "in", "out", "tokens", "cost", "USD"][-4:]
    assert "cached in" in header
    assert row.split() == [
        "anthropic/claude-haiku-4-5",
        "2",
        "0",
        "0",
        "3000",
        "2800",
        "40",
        "0.0006",
    ]


def _priced_item(model: str, cache_read_tokens: int) -> ItemResult:
    return ItemResult(
        scenario="S",
        category="analysis",
        dataset=None,
        model=model,
        status="unscored",
        candidate_usage=Usage(prompt_tokens=2000, cache_read_tokens=cache_read_tokens, calls=1),
        judge_usage=Usage(prompt_tokens=900, cache_read_tokens=cache_read_tokens // 2, calls=2),
    )


def test_the_leaderboard_sums_cache_reads_and_shows_them_when_there_are_some() -> None:
    board = leaderboard.build([_priced_item("a", 1500), _priced_item("a", 0)], attempts=1)
    (row,) = board.models
    assert (row.candidate_cached_tokens, row.judge_cached_tokens) == (1500, 750)
    shown = "\n".join(markdown.model_table(board))
    assert "Cached in (cand. / judges)" in shown and "| 1500 / 750 |" in shown
    plain = leaderboard.build([_priced_item("a", 0)], attempts=1)
    assert "Cached in" not in "\n".join(markdown.model_table(plain))
