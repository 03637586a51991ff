"""Prompt caching (issue 28, point 3) through litellm against the local test server: an
Anthropic candidate's stable prefix is marked and, once the server has seen it, read from
its cache at the cache read rate; an OpenAI judge is sent unmarked and the server's
automatic cache still counts; the cached tokens reach the usage table, leaderboard.json,
leaderboard.md and report.html, and the estimate after the run prices them as paid."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.models.litellm_model import litellm_module
from pytest_llmbench.reporting import html
from tests.conftest import model_row, read_leaderboard, read_results, write_project
from tests.llm_server import FakeLLMServer

CLAUDE = "anthropic/claude-haiku-4-5"  # priced with cache read and write rates
JUDGE = "openai/gpt-4o-mini"  # priced with a cache read rate; OpenAI caches unasked
# A dataset file long enough that its cached share shows in a 6-decimal cost.
LONG_FILE = "// " + " ".join(f"word{i}" for i in range(1500)) + "\nexport const a = 1;\n"


def _scenario(name: str, ask: str) -> str:
    return f"""\
id: {name}
category: explanation
datasets: [Mini]
prompt: |
  {{{{ dataset | inline_files }}}}
  {ask}
criteria:
  accuracy:
    - Names add
  completeness:
    - Says what add returns
"""


@pytest.fixture
def cached_project(pytester: pytest.Pytester) -> Path:
    root = write_project(
        pytester.path,
        {
            "explanation/ExplainAdd.yaml": _scenario("ExplainAdd", "Explain add."),
            "explanation/ExplainAll.yaml": _scenario("ExplainAll", "Explain every export."),
        },
    )
    (root / "datasets" / "javascript" / "Mini" / "src" / "long.js").write_text(LONG_FILE)
    return root


def _args(server: FakeLLMServer, *extra: str, judge: str = JUDGE) -> list[str]:
    return [
        f"--llm-model={CLAUDE}",
        f"--llm-judge={judge}",
        f"--llm-api-base={server.base_url}",
        "--llm-attempts=1",
        "--llm-cache=off",
        *extra,
    ]


def _candidate_calls(root: Path) -> dict[str, dict[str, Any]]:
    return {
        item["scenario"]: next(c for c in item["attempts"][0]["calls"] if c["role"] == "candidate")
        for item in read_results(root)
    }


def _full_rate(model: str, call: dict[str, Any]) -> float:
    info = litellm_module().get_model_info(model)
    return float(
        call["prompt_tokens"] * info["input_cost_per_token"]
        + call["completion_tokens"] * info["output_cost_per_token"]
    )


def _usage_row(result: pytest.RunResult, model: str) -> list[str]:
    line = next(x for x in result.outlines if x.startswith(model + " "))
    return line.split()


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["no-xdist", "n2"])
def test_the_shared_prefix_is_marked_cached_and_priced_at_the_cache_rate(
    pytester: pytest.Pytester,
    cached_project: Path,
    llm_server: FakeLLMServer,
    monkeypatch: pytest.MonkeyPatch,
    xdist: list[str],
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "llmbench-test")  # the local server ignores it
    llm_server.policy.prompt_cache = True
    result = pytester.runpytest(*_args(llm_server), *xdist)
    assert result.ret == 0, result.stdout.str()

    # The marks: Anthropic's request carries one, at the end of the inlined dataset; the
    # OpenAI judge's and grader's requests carry none.
    wires = [r["_wire"] for r in llm_server.requests if "_wire" in r]
    assert len(wires) == 2
    for wire in wires:
        head = wire["messages"][0]["content"][0]
        assert head["cache_control"] == {"type": "ephemeral"}
        assert head["text"].rstrip().endswith("export const a = 1;\n```")
        assert "Explain" not in head["text"]
    judged = [r for r in llm_server.requests if "_wire" not in r]
    assert judged and all("cache_control" not in json.dumps(r) for r in judged)

    # One item wrote the prefix, the other read it (whichever came second).
    calls = _candidate_calls(cached_project)
    reads = sorted(c["cache_read_tokens"] for c in calls.values())
    writes = sorted(c["cache_write_tokens"] for c in calls.values())
    assert reads[0] == 0 and writes[1] == reads[1] > 1500 and writes[0] == 0

    # The cost: the full rate less exactly the cost map's discount (and plus its surcharge).
    info = litellm_module().get_model_info(CLAUDE)
    for call in calls.values():
        discount = call["cache_read_tokens"] * (
            info["input_cost_per_token"] - info["cache_read_input_token_cost"]
        )
        surcharge = call["cache_write_tokens"] * (
            info["cache_creation_input_token_cost"] - info["input_cost_per_token"]
        )
        assert call["cost_usd"] == pytest.approx(
            _full_rate(CLAUDE, call) - discount + surcharge, rel=1e-9
        )
    reader = next(c for c in calls.values() if c["cache_read_tokens"])
    assert reader["cost_usd"] < _full_rate(CLAUDE, reader) / 2

    # The usage table: calls, cached, retries, in tokens, cached in, out tokens, cost.
    cached_in = reads[1]
    assert _usage_row(result, CLAUDE)[5] == str(cached_in)
    judge_row = _usage_row(result, JUDGE)
    assert int(judge_row[5]) > 0  # the server cached the judges' shared task unasked
    result.stdout.fnmatch_lines(["*cached in: input tokens read from the provider's prompt cache*"])

    # leaderboard.json, leaderboard.md and report.html, per model.
    row = model_row(read_leaderboard(cached_project), CLAUDE)
    judge_cached = sum(
        c["cache_read_tokens"]
        for item in read_results(cached_project)
        for c in item["attempts"][0]["calls"]
        if c["role"] != "candidate"
    )
    assert (row["candidate_cached_tokens"], row["judge_cached_tokens"]) == (cached_in, judge_cached)
    markdown = (cached_project / "reports" / "leaderboard.md").read_text()
    assert "Cached in (cand. / judges)" in markdown
    assert re.search(rf"\| {CLAUDE} .*\| {cached_in} / {judge_cached} \|", markdown)
    page = (cached_project / "reports" / "report.html").read_text()
    run = html.embedded_files(page)["index.json.gz"]["runs"][0]
    (shown,) = run["board"]["models"]
    assert (shown["candidate_cached_tokens"], shown["judge_cached_tokens"]) == (
        cached_in,
        judge_cached,
    )
    assert run["columns"]["cached_tokens"]["label"] == "Cached in"

    # The estimate after the run prices the recorded cache reads and writes as they were paid.
    estimate = pytester.runpytest(*_args(llm_server, "--llm-estimate"))
    line = next(x for x in estimate.outlines if x.startswith(CLAUDE) and "candidate" in x)
    expected = float(line.split()[-1].split("/")[1])
    paid = sum(c["cost_usd"] for c in calls.values())
    assert expected == pytest.approx(paid, abs=1e-6)
    assert expected < sum(_full_rate(CLAUDE, c) for c in calls.values()) - 1e-4


def test_a_claude_judge_gets_the_task_and_the_rubric_marked_and_reads_them_again(
    pytester: pytest.Pytester,
    cached_project: Path,
    llm_server: FakeLLMServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "llmbench-test")
    llm_server.policy.prompt_cache = True
    # A failed step keeps attempt 1 below the best quality, so attempt 2 runs and is judged.
    llm_server.policy.verdict = lambda step, criterion, answer: step != "C1"
    result = pytester.runpytest(
        *_args(llm_server, "--llm-structured-output=text", "--llm-grader-samples=2", judge=CLAUDE),
        "--llm-attempts=2",
        "scenarios/explanation/ExplainAdd.yaml",
    )
    assert result.ret == 0, result.stdout.str()
    by_role: dict[str, list[dict[str, Any]]] = {}
    for request in llm_server.requests:
        by_role.setdefault(request["_role"], []).append(request["_wire"])
    assert len(by_role["evaluator"]) == 2 and by_role["grader"]

    # The evaluator: one mark, after the task (its input code), before the answer.
    for wire in by_role["evaluator"]:
        assert json.dumps(wire).count("cache_control") == 1
        head = wire["messages"][0]["content"][0]
        assert head["cache_control"] == {"type": "ephemeral"}
        assert head["text"].rstrip().endswith("Explain add.")
        assert "<answer>" not in head["text"]
    # The grader: its system prompt (the metric's rubric) marked, the report not.
    for wire in by_role["grader"]:
        (rubric,) = wire["system"]
        assert rubric["text"].startswith("You grade the") and rubric["cache_control"]
        assert "cache_control" not in json.dumps(wire["messages"])

    # Attempt 2's evaluator read what attempt 1's wrote.
    (item,) = read_results(cached_project)
    evaluators = [c for a in item["attempts"] for c in a["calls"] if c["role"] == "evaluator"]
    assert [c["cache_write_tokens"] > 0 for c in evaluators] == [True, False]
    assert evaluators[1]["cache_read_tokens"] == evaluators[0]["cache_write_tokens"]
    graders = [c for a in item["attempts"] for c in a["calls"] if c["role"] == "grader"]
    assert sum(c["cache_read_tokens"] for c in graders) > 0
