"""Real models behind local servers (issue 19): the local test server plays how small
models misbehave, and each test shows what pytest-llmbench does about it."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from pytest_llmbench.models.base import ModelRequest
from pytest_llmbench.models.litellm_model import LiteLLMModel
from tests.conftest import REPO, read_results
from tests.conftest import judged_args as _args
from tests.dialog_project import script_player, write_dialog_project
from tests.llm_server import FakeLLMServer, prompt_size, text_of


def _requests(server: FakeLLMServer, role: str) -> list[dict]:
    return [r for r in server.requests if r["_role"] == role]


def test_a_rambling_judge_is_bounded_cut_recorded_and_repaired_briefly(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.real.ramble_words = 20_000
    result = pytester.runpytest(*_args(llm_server, "--llm-judge-max-tokens=300", "-k", "Explain"))
    result.assert_outcomes(failed=1)
    (item,) = read_results(project)
    # The candidate's answer stays; its metrics are unscored with the reason.
    assert item["status"] == "unscored"
    (attempt,) = item["attempts"]
    assert attempt["answer"].startswith("```js")
    assert "cut at the 300-token limit" in attempt["accuracy"]["unscored_reason"]
    evaluator_calls = [c for c in attempt["calls"] if c["role"] == "evaluator"]
    assert [c["finish_reason"] for c in evaluator_calls] == ["length", "length"]
    sent = _requests(llm_server, "evaluator")
    assert [r["max_tokens"] for r in sent] == [300, 300]
    # The repair request shows an excerpt of the 300-word reply, not the reply itself.
    repair = text_of(sent[1]["messages"][-1]["content"])
    assert "characters left out" in repair and repair.count("hmm,") < 200


def test_a_judge_call_that_fails_keeps_the_answer_unscored(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    # The repair request overflows the window (as in the issue): the attempt stays.
    llm_server.policy.evaluator_form = "garbage"
    llm_server.policy.status = lambda role, n: 400 if role == "evaluator" and n == 2 else 200
    result = pytester.runpytest(*_args(llm_server, "-k", "Explain"))
    result.assert_outcomes(failed=1)
    (item,) = read_results(project)
    assert item["status"] == "unscored" and len(item["attempts"]) == 1
    reason = item["attempts"][0]["accuracy"]["unscored_reason"]
    assert "unreadable report" in reason and "the repair call: " in reason
    assert item["attempts"][0]["answer"]


def test_an_unreadable_judge_reply_is_not_replayed_from_the_cache(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.evaluator_form = "garbage"
    pytester.runpytest(*_args(llm_server, "-k", "Explain")).assert_outcomes(failed=1)
    first = llm_server.roles().count("evaluator")
    llm_server.policy.evaluator_form = "json"
    pytester.runpytest(*_args(llm_server, "-k", "Explain")).assert_outcomes(passed=1)
    assert llm_server.roles().count("candidate") == 1  # the candidate's reply was replayed
    assert llm_server.roles().count("evaluator") == first + 1  # the judge was asked again
    (item,) = read_results(project)
    assert item["status"] == "scored"


def test_a_grader_whose_first_tokens_are_words_is_sampled_and_says_why(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.real.grader_words_first = True
    pytester.runpytest(
        *_args(llm_server, "--llm-grader-samples=2", "-k", "Explain")
    ).assert_outcomes(passed=1)
    (item,) = read_results(project)
    grade = item["attempts"][0]["accuracy"]["grades"][0]
    assert grade["method"] == "sampling" and grade["distribution"]["3"] == 1.0
    assert "below 50%" in grade["sampled_because"]
    assert grade["top_logprobs"][3] == ["1", -3.2]
    samples = [r for r in _requests(llm_server, "grader") if r.get("temperature") == 1]
    assert len(samples) == 2 * 2 and all(r["max_tokens"] == 512 for r in samples)
    first = [r for r in _requests(llm_server, "grader") if r.get("logprobs")]
    assert first and all(r["max_tokens"] == 16 for r in first)


def test_a_candidate_prompt_over_the_window_is_one_line_before_any_call(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    args = _args(llm_server, "--llm-context-window=openai/cand=20", "-k", "Explain")
    result = pytester.runpytest(*args)
    result.assert_outcomes(errors=1)
    (item,) = read_results(project)
    assert item["status"] == "error" and "\n" not in item["reason"]
    assert "openai/cand (candidate): context window: prompt of " in item["reason"]
    assert "does not fit the model's window of 20 tokens" in item["reason"]
    assert llm_server.total_calls() == 0  # refused before anything was paid


def test_a_bad_context_window_option_is_one_line(pytester: pytest.Pytester, project: Path) -> None:
    result = pytester.runpytest("--llm-context-window=openai/cand")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*--llm-context-window: expected MODEL=N*got 'openai/cand'*"])


def _sizes(server: FakeLLMServer, role: str) -> list[int]:
    return [prompt_size(server.policy.real, r["messages"]) for r in _requests(server, role)]


def test_an_evaluator_prompt_over_the_window_gets_the_shorter_view(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    code = "\n".join(f"export const value{i} = {i} + {i};" for i in range(300))
    (project / "datasets" / "javascript" / "Mini" / "src" / "big.js").write_text(code)
    args = _args(llm_server, "--llm-judge-max-tokens=50", "--llm-cache=off", "-k", "Explain")
    pytester.runpytest(*args).assert_outcomes(passed=1)
    (candidate,), (evaluator,) = _sizes(llm_server, "candidate"), _sizes(llm_server, "evaluator")
    assert evaluator > candidate + 50
    # A window the candidate fits and the whole evaluator prompt does not.
    llm_server.policy.real.context_window = (candidate + evaluator + 50) // 2
    llm_server.requests.clear()
    pytester.runpytest(*args).assert_outcomes(passed=1)
    (item,) = read_results(project)
    (report,) = item["attempts"][0]["reports"]
    assert report["error"] is None and report["input_cut"] > 0
    shown = text_of(_requests(llm_server, "evaluator")[-1]["messages"][1]["content"])
    assert "characters of input code, is left out" in shown
    assert item["attempts"][0]["answer"] in shown  # the answer and the criteria stay whole
    assert "- C1 (completeness): Says it returns the sum" in shown


def test_a_dialog_that_reaches_the_window_ends_like_a_limit(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    root = write_dialog_project(pytester.path)
    llm_server.policy.candidate = script_player(
        [root / "scenarios" / "dialog" / "GreetInSteps.yaml"]
    )
    args = [
        "--llm-model=openai/cand",
        f"--llm-api-base={llm_server.base_url}",
        "--llm-attempts=1",
        "--llm-cache=off",
    ]
    pytester.runpytest(*args).assert_outcomes(passed=1)
    sizes = _sizes(llm_server, "candidate")
    assert len(sizes) == 4 and sizes == sorted(sizes)
    llm_server.policy.real.context_window = sizes[2] - 1  # the third round does not fit
    llm_server.requests.clear()
    pytester.runpytest(*args)
    (item,) = read_results(root)
    assert item["status"] != "error"
    attempt = item["attempts"][0]
    dialog = attempt["dialog"]
    assert dialog["ended"] == "context limit" and "maximum context length" in dialog["end_reason"]
    assert dialog["rounds"] == 2 and len(dialog["turns"]) == 2
    assert [t["finished"] for t in dialog["turns"]] == [False, False]
    assert len([c for c in attempt["calls"] if c["role"] == "candidate"]) == 2
    saved = root / "reports" / "workspaces" / "GreetInSteps-Mini-openai_cand" / "attempt-1.zip"
    assert saved.is_file()  # the workspace, kept as an archive


def test_a_server_that_drops_images_is_detected_and_not_scored(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    for folder in ("scenarios/multimodal", "datasets/javascript/PricingPage_NativeJS"):
        shutil.copytree(REPO / folder, pytester.path / folder)
    args = _args(llm_server, "--llm-cache=off", "-k", "MatchScreenshot")
    pytester.runpytest(*args)  # a server that reads the images: the attempt counts
    (item,) = read_results(pytester.path)
    assert item["attempts"][0]["degraded"] is None
    llm_server.policy.real.drop_images = True
    judged = llm_server.roles().count("evaluator")
    pytester.runpytest(*args).assert_outcomes(failed=1)
    (item,) = read_results(pytester.path)
    assert item["status"] == "unscored"
    (attempt,) = item["attempts"]
    assert "openai/cand did not see the prompt's images" in attempt["degraded"]
    assert attempt["accuracy"]["unscored_reason"] == attempt["degraded"]
    assert "did not see the prompt's images" in item["reason"]
    assert llm_server.roles().count("evaluator") == judged  # not judged


def test_a_server_that_ignores_tools_is_detected(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    root = write_dialog_project(pytester.path)
    llm_server.policy.real.ignore_tools = True
    pytester.runpytest(
        "--llm-model=openai/cand", f"--llm-api-base={llm_server.base_url}", "--llm-attempts=1"
    ).assert_outcomes(failed=1)
    (item,) = read_results(root)
    attempt = item["attempts"][0]
    assert attempt["dialog"]["ended"] == "round limit"
    assert "made no tool call in 4 rounds with tools offered" in attempt["degraded"]
    assert "--llm-tool-protocol=text" in item["reason"]


def test_calls_of_an_errored_dialog_are_in_the_usage_and_cost(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    root = write_dialog_project(pytester.path)
    llm_server.policy.candidate = script_player(
        [root / "scenarios" / "dialog" / "GreetInSteps.yaml"]
    )
    llm_server.policy.status = lambda role, n: 400 if n == 3 else 200
    result = pytester.runpytest(
        "--llm-model=openai/cand",
        f"--llm-api-base={llm_server.base_url}",
        "--llm-attempts=1",
        "--llm-price=openai/cand=1000000/1000000",
    )
    result.assert_outcomes(errors=1)
    (item,) = read_results(root)
    assert item["status"] == "error" and item["attempts"] == []
    assert len(item["failed_calls"]) == 2
    paid = sum(c["prompt_tokens"] + c["completion_tokens"] for c in item["failed_calls"])
    assert item["candidate_usage"]["calls"] == 2
    assert item["candidate_usage"]["cost_usd"] == pytest.approx(paid)
    # model, calls, cached, retries, in tokens, cached in, out tokens, cost
    result.stdout.re_match_lines([r"openai/cand\s+2\s+0\s+0\s+\d+\s+0\s+\d+\s+\d+\.\d{4}"])


def test_generation_rate_uses_server_timings_when_given_and_says_which(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    args = ["--llm-model=openai/cand", f"--llm-api-base={llm_server.base_url}"]
    pytester.runpytest(*args, "--llm-attempts=1", "--llm-cache=off", "-k", "Explain")
    (item,) = read_results(project)
    assert item["attempts"][0]["generation_rate_basis"] == "call"
    llm_server.policy.real.predicted_ms = 500.0
    pytester.runpytest(*args, "--llm-attempts=1", "--llm-cache=off", "-k", "Explain")
    (item,) = read_results(project)
    (attempt,) = item["attempts"]
    (call,) = attempt["calls"]
    assert attempt["generation_rate_basis"] == "generation" and call["generation_s"] == 0.5
    assert attempt["generation_rate"] == pytest.approx(call["completion_tokens"] / 0.5)
    assert call["finish_reason"] == "stop"


def test_a_streamed_reply_is_timed_from_its_first_token_at_the_servers_rate(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    # The server streams 80 tokens at 25 tokens/s after a 2 s first-token delay (its own
    # schedule): the rate over the whole call would be about 80 / 5.2 s.
    rate = 25.0
    llm_server.policy.stream.first_token_s = 2.0
    llm_server.policy.stream.token_rate = rate
    llm_server.policy.candidate = lambda body: " ".join(f"word{i}" for i in range(80))
    args = ["--llm-model=openai/cand", f"--llm-api-base={llm_server.base_url}"]
    pytester.runpytest(*args, "--llm-attempts=1", "--llm-cache=off", "-k", "Explain")
    (candidate,) = _requests(llm_server, "candidate")
    assert candidate["stream"] is True and candidate["stream_options"] == {"include_usage": True}
    (item,) = read_results(project)
    (attempt,) = item["attempts"]
    (call,) = attempt["calls"]
    assert call["completion_tokens"] == 80 and call["response"].startswith("word0 word1 ")
    assert attempt["generation_rate_basis"] == "stream"
    # How close the recorded rate comes to the server's is a timing: bench/stream_rate.py
    # prints it (a loaded machine reads tokens late, so no test asserts it).
    assert attempt["generation_rate"] > 0
    # The delay is the server's: the first token cannot come sooner.
    assert call["first_token_s"] >= 2.0 and attempt["first_token_s"] == call["first_token_s"]
    board = json.loads((project / "reports" / "leaderboard.json").read_text())
    (row,) = board["leaderboard"]["models"]
    assert row["generation_rate"] == pytest.approx(attempt["generation_rate"])


def test_a_provider_that_does_not_stream_is_asked_for_whole_replies(
    llm_server: FakeLLMServer,
) -> None:
    llm_server.policy.real.no_streaming = True
    model = LiteLLMModel("openai/whole", llm_server.base_url)
    request = ModelRequest(messages=({"role": "user", "content": "hi"},), role="candidate")
    first, second = asyncio.run(model.complete(request)), asyncio.run(model.complete(request))
    assert first.text == second.text != "" and first.first_token_s is None
    # One refused streamed call, then whole replies only.
    assert llm_server.calls["candidate"] == 3 and len(llm_server.requests) == 2
    assert all("stream" not in r for r in llm_server.requests)


def test_provider_errors_are_one_line_with_their_kind_once(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.real.context_window = 5
    pytester.runpytest(*_args(llm_server, "-k", "Explain")).assert_outcomes(errors=1)
    (item,) = read_results(project)
    assert item["reason"].startswith(
        "attempt 1: openai/cand (candidate): context window: This model's maximum context "
        "length is 5 tokens. However, you requested"
    )
    assert "litellm" not in item["reason"] and "Error" not in item["reason"]


def test_leaderboard_md_with_one_attempt_and_nothing_scored(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.evaluator_form = "garbage"
    llm_server.policy.status = lambda role, n: 500 if role == "candidate" and n == 1 else 200
    args = _args(llm_server, "--llm-max-retries=0", "--llm-retry-backoff=0.01")
    pytester.runpytest(*args).assert_outcomes(failed=1, errors=1)
    text = (project / "reports" / "leaderboard.md").read_text()
    assert "pass@1 and pass@1" not in text and "pass@1: an attempt passes" in text
    assert "metrics from ;" not in text and "by no grader" not in text
    assert "- openai/cand: nothing scored of 2 items (1 unscored, 1 error)" in text
    assert "| 0/2 (1 unscored, 1 error) |" in text


def test_a_judge_that_answers_only_under_a_json_schema(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.real.json_schema_only = True
    # Asked as text, the report is prose.
    as_text = "--llm-structured-output=openai/judge=text"
    pytester.runpytest(*_args(llm_server, as_text, "-k", "Explain")).assert_outcomes(failed=1)
    (item,) = read_results(project)
    assert item["attempts"][0]["reports"][0]["output"] == "text"
    assert "response_format" not in _requests(llm_server, "evaluator")[0]
    # auto: litellm does not know the local model, so the chain finds its form; the first
    # form, json_schema, is taken.
    pytester.runpytest(*_args(llm_server, "-k", "Explain")).assert_outcomes(passed=1)
    (item,) = read_results(project)
    (report,) = item["attempts"][0]["reports"]
    assert report["output"] == "schema" and report["form"] == "json" and report["error"] is None
    sent = _requests(llm_server, "evaluator")[-1]["response_format"]
    assert sent["type"] == "json_schema"
    assert sent["json_schema"]["schema"]["required"] == ["steps"]


@pytest.mark.parametrize("mode", ["schema", "auto"])
def test_a_llama_cpp_python_server_is_asked_in_the_form_it_takes(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer, mode: str
) -> None:
    # It answers json_schema with a 500 whose body says the request is invalid: not
    # retried, and both items' judges then ask with json_object + schema.
    llm_server.policy.real.llama_cpp_python = True
    args = _args(llm_server, f"--llm-structured-output={mode}", "--llm-cache=off")
    pytester.runpytest(*args)
    items = read_results(project)
    assert [i["status"] for i in items] == ["scored", "scored"]
    reports = [r for i in items for r in i["attempts"][0]["reports"]]
    assert [(r["output"], r["form"], r["error"]) for r in reports] == [
        ("json_object", "json", None)
    ] * 2
    sent = [r.get("response_format") for r in _requests(llm_server, "evaluator")]
    assert [f["type"] for f in sent] == ["json_object", "json_object"]
    assert all(f["schema"]["required"] == ["steps"] for f in sent)
    # One refused call in the run, never retried: the server saw one more evaluator call
    # than it answered.
    assert llm_server.calls["evaluator"] == len(sent) + 1
