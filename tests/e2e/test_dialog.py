"""Dialog scenarios end to end: offline, through the local server with native tool calls
and with the JSON text protocol, and models that misbehave (bounded failures)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.reporting import html, viewdata
from pytest_llmbench.reporting.workspaces import read_workspace
from tests.conftest import (
    EXPLAIN_SCENARIO,
    REPO,
    json_report_results,
    model_row,
    read_leaderboard,
    read_results,
    write_project,
)
from tests.dialog_project import arguments, message, script_player, write_dialog_project
from tests.e2e.test_report_html import chromium
from tests.llm_server import FakeLLMServer


@pytest.fixture
def dialog_project(pytester: pytest.Pytester) -> Path:
    return write_dialog_project(pytester.path)


def _server_args(server: FakeLLMServer, *extra: str) -> list[str]:
    return [
        "--llm-model=openai/cand",
        f"--llm-api-base={server.base_url}",
        "--llm-attempts=1",
        "--llm-cache=off",
        *extra,
    ]


def _scenario_file(root: Path) -> Path:
    return root / "scenarios" / "dialog" / "GreetInSteps.yaml"


def test_offline_reference_plays_the_script_and_echo_scores_low(
    pytester: pytest.Pytester, dialog_project: Path
) -> None:
    result = pytester.runpytest("--llm-model=llmbench/reference,llmbench/echo", "--llm-attempts=1")
    result.assert_outcomes(passed=2)
    items = {r["model"]: r for r in read_results(dialog_project)}
    reference, echo = items["llmbench/reference"], items["llmbench/echo"]
    dialog = reference["attempts"][0]["dialog"]
    assert dialog["protocol"] == "native" and dialog["ended"] == "finished"
    assert [t["finished"] for t in dialog["turns"]] == [True, True]
    assert dialog["turns"][0]["changed"] == ["src/app.js"]
    assert dialog["turns"][1]["changed"] == ["test/app.test.js"]
    steps = {s["id"]: s["check"]["passed"] for s in reference["attempts"][0]["steps"]}
    assert steps == {"T1.A1": True, "T1.C1": True, "T1.C2": True, "T2.A1": True, "T2.C1": True}
    assert reference["accuracy"] == reference["completeness"] == 4.0
    # Echo finishes every step without writing: only "src/app.js parses" holds.
    assert echo["attempts"][0]["dialog"]["turns"][0]["changed"] == []
    assert echo["accuracy"] == pytest.approx(1 + 3 * 0.5) and echo["completeness"] == 1.0
    saved = dialog_project / "reports" / "workspaces" / "GreetInSteps-Mini-llmbench_reference"
    files = read_workspace(saved / "attempt-1.zip")
    assert "greet('Ada')" in files["test/app.test.js"]
    assert files["src/app.js"] == dialog["files"]["src/app.js"]
    data = html.embedded_files((dialog_project / "reports" / "report.html").read_text())
    shown = viewdata.resolved_details(data)
    dialogs = [a["dialog"] for i in shown for a in i["attempts"] if a.get("dialog")]
    assert len(dialogs) == 2 and "Test greet" in {t["title"] for d in dialogs for t in d["turns"]}
    # The conversation with its tool calls (the viewer shows them as `-> write_file(...)`).
    calls = [c for d in dialogs for m in d["messages"] for c in m.get("tool_calls") or []]
    assert "write_file" in {c["function"]["name"] for c in calls}
    with chromium() as browser:
        page = browser.new_page()
        page.goto((dialog_project / "reports" / "report.html").as_uri() + "#/item?i=0")
        page.wait_for_selector("section.dialog")
        shown_dialog = page.locator("section.dialog")
        assert "Test greet" in shown_dialog.locator("table.turns").inner_text()
        assert "src/app.js" in shown_dialog.locator("table.turns").inner_text()
        assert page.locator("pre.call", has_text="-> write_file(").count() >= 1
    board = read_leaderboard(dialog_project)
    assert {r["category"] for r in board["leaderboard"]["categories"]} == {"dialog"}
    assert (
        model_row(board, "llmbench/reference")["score"] > model_row(board, "llmbench/echo")["score"]
    )


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["no-xdist", "xdist"])
def test_native_tool_calls_through_litellm(
    pytester: pytest.Pytester,
    dialog_project: Path,
    llm_server: FakeLLMServer,
    workers: list[str],
) -> None:
    llm_server.policy.candidate = script_player([_scenario_file(dialog_project)])
    result = pytester.runpytest(*_server_args(llm_server, "--llm-judge=openai/judge", *workers))
    result.assert_outcomes(passed=1)
    (item,) = read_results(dialog_project)
    attempt = item["attempts"][0]
    dialog = attempt["dialog"]
    assert dialog["protocol"] == "native" and dialog["ended"] == "finished"
    candidate = [r for r in llm_server.requests if r["_role"] == "candidate"]
    assert len(candidate) == dialog["rounds"] == 4
    assert all({t["function"]["name"] for t in r["tools"]} >= {"write_file"} for r in candidate)
    # The server got each tool call's result back as a tool message with its id, then the
    # next turn: turn 1's third reply was write_file and finish_step.
    last = candidate[-1]["messages"]
    assert [m["role"] for m in last[-4:]] == ["assistant", "tool", "tool", "user"]
    assert [m["tool_call_id"] for m in last[-3:-1]] == ["call_0_2_0", "call_0_2_1"]
    assert last[-2]["content"] == "step finished"
    # Per turn: the judge's grades, and a call log with tokens, time and the tool calls.
    for turn in dialog["turns"]:
        assert turn["accuracy"]["source"] == "judges" and turn["accuracy"]["grades"]
    calls = [c for c in attempt["calls"] if c["role"] == "candidate"]
    assert [c["turn"] for c in calls] == [1, 1, 1, 2]
    assert calls[2]["tool_calls"][0]["name"] == "write_file"
    assert all(c["prompt_tokens"] > 0 and c["latency_s"] > 0 for c in calls)
    assert dialog["tokens"] == sum(c["prompt_tokens"] + c["completion_tokens"] for c in calls)
    assert item["accuracy"] == pytest.approx(4 * 0.8 + 3 * 0.2)  # grade 4 at p=0.8
    assert llm_server.roles().count("evaluator") == 2  # one report per turn
    written = dialog_project / "reports" / "workspaces" / "GreetInSteps-Mini-openai_cand"
    assert "test/app.test.js" in read_workspace(written / "attempt-1.zip")


def test_text_protocol_by_option(
    pytester: pytest.Pytester, dialog_project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.candidate = script_player([_scenario_file(dialog_project)])
    pytester.runpytest(*_server_args(llm_server, "--llm-tool-protocol=text")).assert_outcomes(
        passed=1
    )
    (item,) = read_results(dialog_project)
    dialog = item["attempts"][0]["dialog"]
    assert dialog["protocol"] == "text" and dialog["ended"] == "finished"
    assert item["accuracy"] == item["completeness"] == 4.0
    assert all("tools" not in r for r in llm_server.requests)
    system = llm_server.requests[0]["messages"][0]["content"]
    assert '{"tool": "write_file"' in system
    # Results come back as one user message per reply.
    assert llm_server.requests[1]["messages"][-1]["content"].startswith("Results:\n[1] list_files")


def test_auto_falls_back_to_text_when_the_provider_rejects_tools(
    pytester: pytest.Pytester, dialog_project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.candidate = script_player([_scenario_file(dialog_project)])
    llm_server.policy.status_of_request = lambda body: 400 if body.get("tools") else None
    pytester.runpytest(*_server_args(llm_server)).assert_outcomes(passed=1)
    (item,) = read_results(dialog_project)
    dialog = item["attempts"][0]["dialog"]
    assert dialog["protocol"] == "text"
    assert "native tool calls rejected" in dialog["protocol_note"]
    assert item["accuracy"] == 4.0


def _misbehaving(reply: Any) -> Any:
    """A candidate that gives `reply(n)` for its n-th request (from 1)."""
    count = {"n": 0}

    def candidate(body: dict[str, Any]) -> Any:
        count["n"] += 1
        return reply(count["n"])

    return candidate


def test_writes_outside_the_workspace_are_refused_and_bounded(
    pytester: pytest.Pytester, dialog_project: Path, llm_server: FakeLLMServer
) -> None:
    outside = pytester.path / "escaped.txt"
    attempts = [str(outside), "../escaped.txt", "src/../../escaped.txt"]
    llm_server.policy.candidate = _misbehaving(
        lambda n: message("", [("write_file", arguments(path=attempts[(n - 1) % 3], content="x"))])
    )
    result = pytester.runpytest(*_server_args(llm_server, "--llm-timeout=30"))
    result.assert_outcomes(failed=0, passed=1)
    assert not outside.exists()
    (item,) = read_results(dialog_project)
    dialog = item["attempts"][0]["dialog"]
    assert dialog["ended"] == "tool error limit" and dialog["tool_errors"] == 3
    assert [e["outcome"] for e in dialog["events"]] == ["refused"] * 3
    assert "absolute path" in dialog["events"][0]["message"]
    assert "climbs out" in dialog["events"][1]["message"]
    tool_messages = [m for m in dialog["messages"] if m["role"] == "tool"]
    assert tool_messages[0]["content"].startswith("error: path")
    assert [t["finished"] for t in dialog["turns"]] == [False, False]
    assert item["completeness"] == 1.0  # nothing was written: every completeness check fails


def test_a_model_that_never_finishes_hits_the_round_limit(
    pytester: pytest.Pytester, dialog_project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.candidate = lambda body: message("", [("list_files", "{}")])
    pytester.runpytest(*_server_args(llm_server)).assert_outcomes(passed=1)
    (item,) = read_results(dialog_project)
    dialog = item["attempts"][0]["dialog"]
    assert dialog["ended"] == "round limit"
    assert "turn 1 not finished in 4 rounds" in dialog["end_reason"]
    assert dialog["rounds"] == 4 and llm_server.roles().count("candidate") == 4
    assert dialog["turns"][1]["rounds"] == 0


def test_plain_text_without_tool_calls_is_nudged_then_bounded(
    pytester: pytest.Pytester, dialog_project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.candidate = lambda body: "I would change src/app.js."
    # Never a tool call with tools offered: not scored as if the model had used them.
    pytester.runpytest(*_server_args(llm_server)).assert_outcomes(failed=1)
    (item,) = read_results(dialog_project)
    dialog = item["attempts"][0]["dialog"]
    assert dialog["ended"] == "round limit"
    assert "made no tool call in 4 rounds" in item["attempts"][0]["degraded"]
    assert dialog["messages"][-1] == {
        "role": "user",
        "content": "No tool was called. Use the tools to do the step, then call finish_step.",
    }


def test_malformed_tool_calls_get_errors_and_are_bounded(
    pytester: pytest.Pytester, dialog_project: Path, llm_server: FakeLLMServer
) -> None:
    bad = [("write_file", "{not json"), ("delete_everything", "{}"), ("read_file", "{}")]
    llm_server.policy.candidate = _misbehaving(lambda n: message("", [bad[(n - 1) % 3]]))
    pytester.runpytest(*_server_args(llm_server)).assert_outcomes(passed=1)
    (item,) = read_results(dialog_project)
    dialog = item["attempts"][0]["dialog"]
    assert dialog["ended"] == "tool error limit"
    assert [e["outcome"] for e in dialog["events"]] == ["malformed"] * 3
    messages = [e["message"] for e in dialog["events"]]
    assert "not valid JSON" in messages[0]
    assert "unknown tool 'delete_everything'" in messages[1]
    assert "needs the string argument 'path'" in messages[2]


def test_a_hanging_model_hits_the_time_limit(
    pytester: pytest.Pytester, dialog_project: Path, llm_server: FakeLLMServer
) -> None:
    scenario = _scenario_file(dialog_project)
    scenario.write_text(
        scenario.read_text().replace("max_tool_errors: 2}", "max_tool_errors: 2, max_seconds: 1}")
    )
    llm_server.policy.latency = 3.0
    pytester.runpytest(*_server_args(llm_server)).assert_outcomes(passed=1)
    (item,) = read_results(dialog_project)
    dialog = item["attempts"][0]["dialog"]
    assert dialog["ended"] == "time limit"
    # Cut while the 3 s reply was still coming, not noticed once it was there.
    assert dialog["end_reason"] == "time limit of 1 s reached during a call"


@pytest.fixture
def dialog_catalogue(pytester: pytest.Pytester) -> Path:
    """The repository's dialog scenarios with their two datasets (and the single-shot
    reference answer one of their scripts takes files from, and the shared helpers of
    their hidden tests)."""
    for rel in (
        "scenarios/dialog",
        "scenarios/migration/references/UpdateReact",
        "scenarios/migration/functional/shared",
    ):
        shutil.copytree(REPO / rel, pytester.path / rel)
    for name in ("ToDoApp_AngularJS", "ToDoApp_ReactJS"):
        source = REPO / "datasets" / "javascript" / name
        shutil.copytree(source, pytester.path / "datasets" / "javascript" / name)
    return pytester.path


@pytest.mark.parametrize("how", ["offline", "native", "text"])
def test_catalogue_dialogs_run_end_to_end(
    pytester: pytest.Pytester, dialog_catalogue: Path, llm_server: FakeLLMServer, how: str
) -> None:
    """Both dialog scenarios of the catalogue: the reference script played by the offline
    model, or by the local server through litellm as tool calls or as JSON text commands."""
    if how == "offline":
        args = ["--llm-model=llmbench/reference", "--llm-attempts=1"]
    else:
        scenarios = sorted((dialog_catalogue / "scenarios" / "dialog").glob("*.yaml"))
        llm_server.policy.candidate = script_player(scenarios)
        args = _server_args(llm_server, "--llm-judge=openai/judge")
        if how == "text":
            args.append("--llm-tool-protocol=openai/cand=text")
    pytester.runpytest("scenarios", *args).assert_outcomes(passed=2)
    results = {r["scenario"]: r for r in read_results(dialog_catalogue)}
    assert sorted(results) == ["MigrateTodoAngularJSToReact", "UpgradeReactTodo"]
    in_report = {r["scenario"]: r for r in json_report_results(dialog_catalogue / "reports")}
    for name, item in results.items():
        attempt = item["attempts"][0]
        dialog = attempt["dialog"]
        assert dialog["ended"] == "finished" and dialog["tool_errors"] == 0
        assert dialog["protocol"] == ("text" if how == "text" else "native")
        assert [t["finished"] for t in dialog["turns"]] == [True] * 4
        assert all(t["changed"] for t in dialog["turns"])
        checked = [s for s in attempt["steps"] if s["check"] is not None]
        assert {s["id"].split(".")[0] for s in checked} == {"T1", "T2", "T3", "T4"}
        assert all(s["check"]["passed"] for s in checked), name
        if how != "offline":
            assert all(t["accuracy"]["source"] == "judges" for t in dialog["turns"])
            assert all(s["judges"]["openai/judge"]["passed"] for s in attempt["steps"])
        assert item["accuracy"] == pytest.approx(4.0 if how == "offline" else 3.8)
        assert in_report[name]["attempts"][0]["dialog"]["turns"] == dialog["turns"]
        model = "llmbench_reference" if how == "offline" else "openai_cand"
        saved = dialog_catalogue / "reports" / "workspaces" / f"{name}-{item['dataset']}-{model}"
        assert "package.json" in read_workspace(saved / "attempt-1.zip")
    migrated = dialog_catalogue / "reports" / "workspaces"
    (archive,) = migrated.glob("MigrateTodoAngularJSToReact-*/attempt-1.zip")
    assert "src/todos.test.js" in read_workspace(archive)


def test_a_mistake_in_a_script_is_one_collection_error_line(
    pytester: pytest.Pytester, dialog_project: Path
) -> None:
    script = dialog_project / "scenarios/dialog/references/GreetInSteps/Mini.yaml"
    script.write_text(script.read_text().replace("tool: list_files", "tool: ls", 1))
    result = pytester.runpytest("--llm-model=llmbench/reference")
    result.assert_outcomes(errors=1)
    output = result.stdout.str()
    assert "Traceback" not in output and "INTERNALERROR" not in output
    result.stdout.fnmatch_lines(
        ["*GreetInSteps/Mini.yaml: turns.0.0.tool: unknown tool 'ls'; accepted: list_files, *"]
    )


def test_dialog_calls_are_cached_like_any_other(
    pytester: pytest.Pytester, dialog_project: Path, llm_server: FakeLLMServer
) -> None:
    llm_server.policy.candidate = script_player([_scenario_file(dialog_project)])
    args = [a for a in _server_args(llm_server) if a != "--llm-cache=off"]
    pytester.runpytest(*args).assert_outcomes(passed=1)
    first = llm_server.total_calls()
    assert first == 4
    pytester.runpytest(*args).assert_outcomes(passed=1)
    assert llm_server.total_calls() == first  # every round of the dialog came from the cache
    (item,) = read_results(dialog_project)
    calls = item["attempts"][0]["calls"]
    assert len(calls) == 4 and all(c["cached"] for c in calls)
    assert item["attempts"][0]["dialog"]["ended"] == "finished"
    assert item["accuracy"] == 4.0


def test_a_dialogs_time_and_limit_leave_out_its_waits_behind_other_items(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    """One call at a time for the model: the dialog's calls queue behind 16 other items'
    calls (over 3 s), while its own calls take about 1.5 s. Its 3 s limit is not reached."""
    root = write_dialog_project(pytester.path)
    scenario = _scenario_file(root)
    scenario.write_text(
        scenario.read_text().replace(
            "limits: {max_rounds: 4, max_tool_errors: 2}",
            "limits: {max_rounds: 4, max_tool_errors: 2, max_seconds: 3}",
        )
    )
    write_project(
        root,
        {
            f"explanation/Explain{i}.yaml": EXPLAIN_SCENARIO.replace(
                "id: ExplainMini", f"id: Explain{i}"
            ).replace("Explain this code.", f"Explain this code (variant {i}).")
            for i in range(16)
        },
    )
    play_script = script_player([scenario])
    llm_server.policy.candidate = lambda body: (
        play_script(body) if body.get("tools") else "The code adds two numbers: add(a, b)."
    )
    llm_server.policy.latency = 0.2
    result = pytester.runpytest(*_server_args(llm_server, "--llm-concurrency=1"))
    result.assert_outcomes(passed=17)
    (item,) = [r for r in read_results(root) if r["category"] == "dialog"]
    dialog = item["attempts"][0]["dialog"]
    assert dialog["ended"] == "finished", dialog["end_reason"]
    # Its 3 s limit counts its own calls' time (plus the tools' work), not its calls' waits
    # behind the other items' 64 calls of 0.2 s each: "finished" says the limit held.
