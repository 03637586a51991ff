"""--llm-batch (issue 28, point 2) through litellm against the local test server's files
and batches endpoints, and its Anthropic Message Batches (tests/llm_batches.py): the same
scores as direct calls, no chat call for the batched roles, the batch price on every
record, and a run killed with SIGKILL while its batch is pending that the next run
resumes without submitting it again. An offline model with --llm-batch says so once and
runs as today."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.models.litellm_model import litellm_module
from tests.conftest import read_leaderboard, read_results
from tests.llm_server import FakeLLMServer

MODEL = "openai/gpt-4o-mini"  # litellm's table has batch rates for both
JUDGE = "openai/gpt-4.1-mini"
CLAUDE = "anthropic/claude-haiku-4-5"  # litellm's table has batch rates for it
# The rate term needs a generation time, which a batch does not give: compared under a
# formula without it.
FORMULA = "--llm-score-formula=sum8"


def _args(server: FakeLLMServer, *extra: str, model: str = MODEL, judge: str = JUDGE) -> list[str]:
    return [
        f"--llm-model={model}",
        f"--llm-judge={judge}",
        f"--llm-api-base={server.base_url}",
        "--llm-attempts=1",
        FORMULA,
        "-p",
        "no:randomly",
        *extra,
    ]


def _rows(root: Path) -> list[dict[str, Any]]:
    """The leaderboard's rows without the figures a batch cannot share with direct calls
    (the generation rate, cost, latency and usage)."""
    rows = read_leaderboard(root)["leaderboard"]["models"]
    kept = (
        "model", "items", "scored", "unscored", "errors", "score", "accuracy", "completeness",
        "pass_rate", "judge_agreement", "metric_sources", "grade_methods", "candidate_tokens",
        "judge_tokens",
    )  # fmt: skip
    assert all(row["score"] is not None for row in rows)
    return [{k: row[k] for k in kept} for row in rows]


def _scores(root: Path) -> dict[str, tuple[Any, Any]]:
    return {i["scenario"]: (i["accuracy"], i["completeness"]) for i in read_results(root)}


def test_a_batch_run_scores_as_a_direct_run_at_the_batch_price(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    direct = pytester.runpytest(*_args(llm_server, "--llm-cache=off"))
    assert direct.ret == 0, direct.stdout.str()
    expected_rows, expected_scores = _rows(project), _scores(project)
    direct_requests = len(llm_server.requests)
    assert not llm_server.batches.created

    chat_calls = dict(llm_server.calls)
    result = pytester.runpytest(*_args(llm_server, "--llm-cache=off", "--llm-batch"))
    assert result.ret == 0, result.stdout.str()
    assert _rows(project) == expected_rows
    assert _scores(project) == expected_scores

    # The server: batches, one per model and stage, and no chat call of the batched run.
    assert llm_server.calls == chat_calls
    batched = llm_server.requests[direct_requests:]
    assert batched and all("_batch" in r for r in batched)
    assert sorted({r["_role"] for r in batched}) == ["candidate", "evaluator", "grader"]
    assert len(llm_server.batches.created) == 3  # the two items' calls share each stage
    result.stdout.fnmatch_lines(
        [
            "llmbench batch openai/gpt-4o-mini: batch_1 submitted (2 candidate call(s), priced at litellm's batch rates)*"
        ]
    )
    assert any("/2 completed" in line for line in result.outlines)
    result.stdout.fnmatch_lines(
        [
            "openai/gpt-4.1-mini: 6 call(s) through provider batches, 6 at litellm's batch "
            "rates, 0 at the normal rate*",
            "openai/gpt-4o-mini: 2 call(s) through provider batches, 2 at litellm's batch "
            "rates, 0 at the normal rate*",
        ]
    )

    # Every record: through a batch, at litellm's batch rates.
    module = litellm_module()
    for item in read_results(project):
        for call in item["attempts"][0]["calls"]:
            assert call["batch_id"] in llm_server.batches.created and call["batch_priced"]
            info = module.get_model_info(call["model"])
            expected = (
                call["prompt_tokens"] * info["input_cost_per_token_batches"]
                + call["completion_tokens"] * info["output_cost_per_token_batches"]
            )
            assert call["cost_usd"] == pytest.approx(expected)
        assert item["generation_rate"] is None  # a batch's wait is no generation time


def _wires(requests: list[dict[str, Any]]) -> list[str]:
    """The Messages requests' bodies as sent (a direct candidate call's `stream` aside)."""
    bodies = [{k: v for k, v in r["_wire"].items() if k != "stream"} for r in requests]
    return sorted(json.dumps(body, sort_keys=True) for body in bodies)


def test_an_anthropic_batch_run_scores_as_a_direct_run_at_the_batch_price(
    pytester: pytest.Pytester,
    project: Path,
    llm_server: FakeLLMServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "llmbench-test")  # the local server ignores it
    llm_server.policy.prompt_cache = True  # the batch's lines read what the direct run wrote
    args = _args(llm_server, "--llm-cache=off", model=CLAUDE, judge=CLAUDE)
    direct = pytester.runpytest(*args)
    assert direct.ret == 0, direct.stdout.str()
    expected_rows, expected_scores = _rows(project), _scores(project)
    direct_requests = list(llm_server.requests)
    chat_calls = dict(llm_server.calls)

    result = pytester.runpytest(*args, "--llm-batch")
    assert result.ret == 0, result.stdout.str()
    assert _rows(project) == expected_rows
    assert _scores(project) == expected_scores

    # No Messages call of the batched run: every request came as a batch's line, with the
    # body litellm sent directly (system prompt, cache_control marks, output format).
    assert llm_server.calls == chat_calls
    batched = llm_server.requests[len(direct_requests) :]
    assert batched and all("_batch" in r for r in batched)
    assert sorted({r["_role"] for r in batched}) == ["candidate", "evaluator", "grader"]
    assert _wires(batched) == _wires(direct_requests)
    assert any("cache_control" in json.dumps(r["_wire"]) for r in batched)
    desk = llm_server.batches
    # Candidate, evaluator, grader; then the grader's samples (Claude gives no logprobs).
    assert desk.created == ["msgbatch_1", "msgbatch_2", "msgbatch_3", "msgbatch_4"]
    for batch in desk.batches.values():  # litellm's batch headers, the model's key
        assert batch["headers"]["x-api-key"] == "llmbench-test"
        assert batch["headers"]["anthropic-version"] == "2023-06-01"
    result.stdout.fnmatch_lines(
        [
            f"llmbench batch {CLAUDE}: msgbatch_1 submitted (2 candidate call(s), priced at "
            "litellm's batch rates)*",
            f"llmbench batch {CLAUDE}: msgbatch_1 2/2 completed",
        ]
    )

    # Every record: through a batch, with the cache figures of its message, and at the batch
    # rates (cached tokens too: litellm's table has no batch rate for them).
    info = litellm_module().get_model_info(CLAUDE)
    calls = [c for item in read_results(project) for c in item["attempts"][0]["calls"]]
    for call in calls:
        assert call["batch_id"] in desk.created and call["batch_priced"]
        expected = (
            call["prompt_tokens"] * info["input_cost_per_token_batches"]
            + call["completion_tokens"] * info["output_cost_per_token_batches"]
        )
        assert call["cost_usd"] == pytest.approx(expected)
    candidates = [c for c in calls if c["role"] == "candidate"]
    assert candidates and all(c["cache_read_tokens"] > 0 for c in candidates)


def _paid(root: Path) -> float:
    return sum(c["cost_usd"] for i in read_results(root) for a in i["attempts"] for c in a["calls"])


def _estimated(result: pytest.RunResult) -> float:
    line = next(x for x in result.outlines if x.startswith("total cost USD: "))
    return float(re.findall(r"\d+\.\d+", line)[1])  # low / expected / high


@pytest.mark.parametrize("model", [MODEL, CLAUDE])
def test_the_estimate_with_batch_is_at_the_batch_rates_and_matches_the_batch_run(
    pytester: pytest.Pytester,
    project: Path,
    llm_server: FakeLLMServer,
    monkeypatch: pytest.MonkeyPatch,
    model: str,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "llmbench-test")  # the local server ignores it

    def run(*extra: str) -> pytest.RunResult:
        return pytester.runpytest(*_args(llm_server, "--llm-cache=off", *extra, model=model))

    run()
    direct = _paid(project)
    plain = _estimated(run("--llm-estimate"))
    estimate = run("--llm-estimate", "--llm-batch")
    both = ", ".join(sorted({JUDGE, model}))
    estimate.stdout.fnmatch_lines(
        [f"--llm-batch: single-shot items of {both} at litellm's batch rates*"]
    )
    batched = _estimated(estimate)
    run("--llm-batch")
    paid = _paid(project)
    # Both models' batch rates are half their normal rates in litellm's table.
    assert plain == pytest.approx(direct, abs=2e-6) and batched == pytest.approx(
        plain / 2, abs=2e-6
    )
    assert paid == pytest.approx(batched, abs=2e-6)


@pytest.mark.parametrize(
    ("model", "when"),
    [(MODEL, "pending"), (MODEL, "creating"), (CLAUDE, "pending"), (CLAUDE, "creating")],
)
def test_a_run_killed_while_its_batch_is_pending_resumes_it(
    pytester: pytest.Pytester,
    project: Path,
    llm_server: FakeLLMServer,
    monkeypatch: pytest.MonkeyPatch,
    model: str,
    when: str,
) -> None:
    """`pending`: killed once the batch was polled (noted by its id); `creating`: killed
    once the server created it, before the run could learn its id (noted by its tag, which
    OpenAI's batch carries and Anthropic's cannot: its calls are asked again)."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "llmbench-test")  # the local server ignores it
    judge = CLAUDE if model == CLAUDE else JUDGE
    args = _args(llm_server, "--llm-batch", "-k", "Explain", model=model, judge=judge)
    direct = pytester.runpytest(
        *_args(llm_server, "--llm-cache=off", "-k", "Explain", model=model, judge=judge)
    )
    assert direct.ret == 0, direct.stdout.str()
    expected = _scores(project)

    desk = llm_server.batches
    desk.hold, desk.hold_create = True, when == "creating"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", *args],
        cwd=project,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not (desk.created and (desk.hold_create or desk.polled(desk.created[0]))):
            assert run.poll() is None and time.monotonic() < deadline, "no batch was created"
            time.sleep(0.05)
        run.send_signal(signal.SIGKILL)
        run.wait(30)
    finally:
        if run.poll() is None:
            run.kill()
        desk.released.set()  # a held creation's reply goes to the killed run
    (first,) = desk.created
    candidates = [r for r in llm_server.requests if r["_role"] == "candidate"]

    desk.hold = desk.hold_create = False
    result = pytester.runpytest(*args)
    assert result.ret == 0, result.stdout.str()
    assert _scores(project) == expected
    created = llm_server.batches.created
    stages = 4 if model == CLAUDE else 3  # Claude's grader samples: a stage of their own
    if model == CLAUDE and when == "creating":
        result.stdout.fnmatch_lines(
            [
                f"llmbench batch {model}: the batch a stopped run was creating (llmbench-*) is "
                "not found (*Anthropic batches carry no tag to find one by); its calls are "
                "asked again"
            ]
        )
        assert len(created) == 1 + stages  # the stopped run's batch is created again
        return
    if when == "creating":
        result.stdout.fnmatch_lines([f"llmbench batch {model}: {first} found again*"])
    # The candidate's batch was not submitted again: the judging stages made their own.
    assert created[0] == first and len(created) == stages
    (item,) = read_results(project)
    calls = item["attempts"][0]["calls"]
    assert [c["batch_id"] for c in calls if c["role"] == "candidate"] == [first]
    answered = [r for r in llm_server.requests if r["_role"] == "candidate"]
    assert len(answered) == len(candidates) + 1 and answered[-1]["_batch"] == first

    # The batch's replies were cached: a third run submits nothing and calls nothing.
    seen = len(llm_server.requests)
    again = pytester.runpytest(*args)
    assert again.ret == 0, again.stdout.str()
    assert len(llm_server.batches.created) == stages and len(llm_server.requests) == seen
    assert _scores(project) == expected


def test_an_expired_batch_is_one_line_and_its_calls_run_directly(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    direct = pytester.runpytest(*_args(llm_server, "--llm-cache=off", "-k", "Explain"))
    assert direct.ret == 0, direct.stdout.str()
    expected, chat = _scores(project), dict(llm_server.calls)

    llm_server.batches.end_state = "expired"
    result = pytester.runpytest(*_args(llm_server, "--llm-batch", "-k", "Explain"))
    assert result.ret == 0, result.stdout.str()
    assert _scores(project) == expected
    ended = [x for x in result.outlines if "ended expired" in x]
    assert ended == [
        f"llmbench batch {model}: {batch} ended expired; its calls run directly"
        for model, batch in [(MODEL, "batch_1"), (JUDGE, "batch_2"), (JUDGE, "batch_3")]
    ]
    # Each stage was submitted once, then called directly: twice the chat calls.
    assert {role: n - chat[role] for role, n in llm_server.calls.items()} == chat
    calls = read_results(project)[0]["attempts"][0]["calls"]
    assert all(c["batch_id"] is None and not c["batch_priced"] for c in calls)


def test_an_anthropic_batch_whose_lines_expired_runs_them_directly(
    pytester: pytest.Pytester,
    project: Path,
    llm_server: FakeLLMServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An Anthropic batch always ends "ended"; its requests expire one by one (a line's
    result `expired`), and those calls run directly."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "llmbench-test")  # the local server ignores it
    args = _args(llm_server, "-k", "Explain", model=CLAUDE, judge=CLAUDE)
    direct = pytester.runpytest(*args, "--llm-cache=off")
    assert direct.ret == 0, direct.stdout.str()
    expected, chat = _scores(project), dict(llm_server.calls)

    llm_server.batches.end_state = "expired"
    result = pytester.runpytest(*args, "--llm-batch")
    assert result.ret == 0, result.stdout.str()
    assert _scores(project) == expected
    created = llm_server.batches.created
    said = [x for x in result.outlines if "answered with an error" in x]
    assert len(said) == len(created) == 4
    for line, batch in zip(said, created, strict=True):
        assert re.fullmatch(
            rf"llmbench batch {CLAUDE}: {batch}: \d+ line\(s\) answered with an error; "
            "those calls run directly",
            line,
        )
    # Each stage went into a batch, then every call ran directly: twice the Messages calls.
    assert {role: n - chat[role] for role, n in llm_server.calls.items()} == chat
    calls = read_results(project)[0]["attempts"][0]["calls"]
    assert all(c["batch_id"] is None and not c["batch_priced"] for c in calls)


def test_an_offline_model_with_batch_says_so_once_and_runs_as_today(
    pytester: pytest.Pytester, project: Path
) -> None:
    said = "llmbench/echo: an offline model has no batch API; its calls run directly"
    result = pytester.runpytest("--llm-model=llmbench/echo", "--llm-batch")
    assert [x for x in result.outlines if x.startswith("llmbench batch")] == [
        f"llmbench batch: {said}"
    ]
    items = read_results(project)
    assert len(items) == 2 and {i["model"] for i in items} == {"llmbench/echo"}
    calls = [c for i in items for a in i["attempts"] for c in a["calls"]]
    assert calls and all(c["batch_id"] is None for c in calls)

    # Under xdist both workers say it; the controller's summary says it once.
    result = pytester.runpytest("--llm-model=llmbench/echo", "--llm-batch", "-n", "2")
    assert [x for x in result.outlines if "batch API" in x] == [f"llmbench: batch: {said}"]
