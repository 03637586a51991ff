"""The dialog's tool executor, the JSON text protocol, the script player and turn scoring."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pytest_llmbench.formats.criteria import Check, CriterionStep
from pytest_llmbench.formats.dialog import ScriptCall
from pytest_llmbench.formats.scenario import DialogTurn
from pytest_llmbench.models.base import ToolCall
from pytest_llmbench.models.script import as_reply, next_calls, position, replies
from pytest_llmbench.schema.results import MetricResult
from pytest_llmbench.tasks.tools import (
    MAX_FILE_CHARS,
    ToolWorkspace,
    text_commands,
    text_results,
)
from pytest_llmbench.tasks.turns import combine, workspace_check


@pytest.fixture
def workspace(tmp_path: Path) -> ToolWorkspace:
    root = tmp_path / "ws"
    root.mkdir()
    ws = ToolWorkspace(root)
    ws.seed({"src/app.js": "export const a = 1;\n", "README.md": "hi\n"})
    return ws


def call(name: str, **args: str) -> ToolCall:
    return ToolCall("c1", name, json.dumps(args))


def test_list_read_write_finish(workspace: ToolWorkspace) -> None:
    assert workspace.run(call("list_files")).text == "README.md\nsrc/app.js"
    assert workspace.run(call("read_file", path="./src/app.js")).text == "export const a = 1;\n"
    wrote = workspace.run(call("write_file", path="src/deep/new.js", content="x"))
    assert (wrote.outcome, wrote.path) == ("ok", "src/deep/new.js")
    assert workspace.files()["src/deep/new.js"] == "x"
    missing = workspace.run(call("read_file", path="nope.js"))
    assert missing.outcome == "ok" and missing.text == "error: no file nope.js"
    done = workspace.run(call("finish_step", summary="all done"))
    assert (done.outcome, done.summary) == ("finished", "all done")
    assert workspace.run(ToolCall("c", "finish_step", "")).outcome == "finished"


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("/etc/passwd", "absolute path"),
        ("~/x", "absolute path"),
        ("C:\\x", "absolute path"),
        ("../x", "climbs out"),
        ("src/../../x", "climbs out"),
        ("", "empty path"),
    ],
)
def test_paths_outside_the_workspace_are_refused(
    workspace: ToolWorkspace, tmp_path: Path, path: str, why: str
) -> None:
    for tool in ("read_file", "write_file"):
        result = workspace.run(call(tool, path=path, content="evil"))
        assert result.outcome == "refused" and why in result.text
    assert not (tmp_path / "x").exists()


def test_symlinks_are_refused_and_not_listed(workspace: ToolWorkspace, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    os.symlink(outside, workspace.root / "link")
    os.symlink(outside / "secret.txt", workspace.root / "file_link")
    for path in ("link/secret.txt", "file_link", "link/new.txt"):
        result = workspace.run(call("write_file", path=path, content="x"))
        assert result.outcome == "refused" and "symlink" in result.text
        assert workspace.run(call("read_file", path=path)).outcome == "refused"
    assert (outside / "secret.txt").read_text() == "secret"
    assert not (outside / "new.txt").exists()
    assert sorted(workspace.files()) == ["README.md", "src/app.js"]


@pytest.mark.parametrize(
    ("tool", "arguments", "message"),
    [
        ("write_file", "{not json", "not valid JSON"),
        ("write_file", "[1, 2]", "must be a JSON object"),
        ("write_file", '{"path": "a.js"}', "needs the string argument 'content'"),
        ("read_file", '{"path": 3}', "needs the string argument 'path'"),
        ("rm_rf", "{}", "unknown tool 'rm_rf'"),
    ],
)
def test_malformed_calls_get_an_error_result(
    workspace: ToolWorkspace, tool: str, arguments: str, message: str
) -> None:
    result = workspace.run(ToolCall("c", tool, arguments))
    assert result.outcome == "malformed" and message in result.text


def test_oversized_write_is_refused(workspace: ToolWorkspace) -> None:
    result = workspace.run(call("write_file", path="big.txt", content="x" * (MAX_FILE_CHARS + 1)))
    assert result.outcome == "refused" and "big.txt" not in workspace.files()


def test_text_protocol_commands_are_parsed_in_order() -> None:
    reply = (
        'I will look first.\n\n```json\n{"tool": "read_file", "path": "a.js"}\n```\n'
        "```js\nconsole.log('not a command');\n```\n"
        '```\n{"tool": "write_file", "path": "b.js", "content": "```x```"}\n```\n'
        '```json\n{"tool": "write_file", "path": \n```\n'
        '```json\n{"path": "c.js"}\n```\n'
    )
    calls = text_commands(reply)
    assert [c.name for c in calls] == ["read_file", "write_file", "", ""]
    assert json.loads(calls[0].arguments) == {"path": "a.js"}
    assert json.loads(calls[1].arguments)["content"] == "```x```"
    assert "not valid JSON" in calls[2].arguments and 'no "tool" field' in calls[3].arguments
    ws_results = [
        ToolWorkspace(Path(".")).run(c) for c in calls[2:]
    ]  # nameless calls never touch the folder
    assert [r.outcome for r in ws_results] == ["malformed", "malformed"]
    text = text_results(ws_results)
    assert text.startswith("Results:\n[1] malformed command: error: the command is not valid JSON")
    assert text_results([]).startswith("No command found.")


def test_script_player_position_and_replies() -> None:
    turn = (
        ScriptCall("list_files", {}),
        ScriptCall("read_file", {"path": "a"}),
        ScriptCall("write_file", {"path": "a", "content": "x"}),
        ScriptCall("finish_step", {"summary": "s"}),
    )
    assert [[c.tool for c in g] for g in replies(turn)] == [
        ["list_files"],
        ["read_file"],
        ["write_file", "finish_step"],
    ]
    script = (turn, (ScriptCall("finish_step", {}),))
    native_finish = {
        "role": "assistant",
        "tool_calls": [{"function": {"name": "finish_step", "arguments": "{}"}}],
    }
    text_finish = {"role": "assistant", "content": '```json\n{"tool": "finish_step"}\n```'}
    other = {"role": "assistant", "content": "thinking"}
    assert position([]) == (0, 0)
    assert position([other, other]) == (0, 2)
    assert position([other, native_finish, other]) == (1, 1)
    assert position([text_finish]) == (1, 0)
    assert [c.tool for c in next_calls(script, [other])] == ["read_file"]
    assert [c.tool for c in next_calls(script, [other] * 5)] == ["finish_step"]  # ran out
    assert [c.tool for c in next_calls(None, [])] == ["finish_step"]  # echo
    assert [c.tool for c in next_calls(script, [native_finish, text_finish])] == ["finish_step"]
    text, calls = as_reply(turn[2:], native=True, tag="0_2")
    assert text == "" and [(c.id, c.name) for c in calls] == [
        ("call_0_2_0", "write_file"),
        ("call_0_2_1", "finish_step"),
    ]
    text, calls = as_reply(turn[2:], native=False, tag="0_2")
    assert calls == () and [c.name for c in text_commands(text)] == ["write_file", "finish_step"]


def test_workspace_checks() -> None:
    files = {
        "src/a.js": "const a = 1;\n",
        "src/b.jsx": "export const B = () => <b>hi</b>;\n",
        ".eslintrc.json": '{"root": true}\n',
    }
    changed = {"src/b.jsx": files["src/b.jsx"]}

    def verdict(**kwargs: object) -> bool | None:
        result = workspace_check(Check(**kwargs), files, changed)  # type: ignore[arg-type]
        return None if result is None else result.passed

    assert verdict(file="src/a.js") is True
    assert verdict(file=["src/a.js", "src/c.js"]) is False
    assert verdict(path="src/a.js", contains="const a") is True
    assert verdict(path="src/a.js", not_contains="const a") is False
    assert verdict(path="src/c.js", not_contains="x") is False  # a missing file fails
    assert verdict(path="./src/a.js", regex=r"^const a = \d;$") is True
    # A path is normalised the one way every workspace path is: a dotfile keeps its dot.
    assert verdict(path="./.eslintrc.json", contains='"root"') is True
    assert verdict(path="src/../.eslintrc.json", parses=True) is True
    assert verdict(contains="const a") is False  # only what the turn changed
    assert verdict(contains="<b>hi</b>") is True
    assert verdict(path="src/a.js", parses=True) is True
    broken = {"src/a.js": "const = ;\n"}
    result = workspace_check(Check(path="src/a.js", parses=True), broken, {})
    assert result is not None and result.passed is False


def _turn(number: int, weights: dict[str, float]) -> DialogTurn:
    steps = tuple(
        CriterionStep(f"{m[0].upper()}1", m, "x", w, None)  # type: ignore[arg-type]
        for m, w in weights.items()
    )
    return DialogTurn(number, f"Step {number}", "p", steps)


def test_item_metric_is_the_weighted_mean_of_the_turns() -> None:
    one, two = _turn(1, {"accuracy": 1.0}), _turn(2, {"accuracy": 3.0})
    combined = combine(
        "accuracy",
        [
            (one, MetricResult(value=4.0, source="checks", pass_rate=1.0, check_pass_rate=1.0)),
            (two, MetricResult(value=2.0, source="checks", pass_rate=1 / 3, check_pass_rate=1 / 3)),
        ],
    )
    assert combined.value == pytest.approx((4 * 1 + 2 * 3) / 4)
    assert combined.pass_rate == pytest.approx((1 + 1) / 4) and combined.source == "checks"
    unscored = combine(
        "accuracy",
        [
            (one, MetricResult(value=4.0, source="checks")),
            (two, MetricResult(unscored_reason="no grade")),
        ],
    )
    assert unscored.value is None and unscored.unscored_reason == "turn 2: no grade"


def test_cache_key_includes_tools_and_replies_keep_their_tool_calls(tmp_path: Path) -> None:
    from dataclasses import replace

    from pytest_llmbench.execution.cache import RequestCache, request_key
    from pytest_llmbench.models.base import ModelReply, ModelRequest
    from pytest_llmbench.tasks.tools import TOOL_SCHEMAS

    plain = ModelRequest(messages=({"role": "user", "content": "hi"},), role="candidate")
    with_tools = replace(plain, tools=TOOL_SCHEMAS)
    assert request_key("m", None, plain) != request_key("m", None, with_tools)
    fewer = replace(plain, tools=TOOL_SCHEMAS[:2])
    assert request_key("m", None, fewer) != request_key("m", None, with_tools)
    reply = ModelReply(
        model="m",
        text="",
        latency_s=0.1,
        tool_calls=(ToolCall("c1", "read_file", '{"path": "a"}'),),
    )
    cache = RequestCache(tmp_path)
    cache.put("k", reply)
    assert cache.get("k") == reply
    cache.close()


def test_results_written_in_one_go_keep_the_dialog_workspaces(tmp_path: Path) -> None:
    # `llmbench merge` writes results through write_results: the workspaces come along.
    from pytest_llmbench.reporting.writer import write_results
    from pytest_llmbench.schema.results import (
        AttemptResult,
        DialogResult,
        ItemResult,
        MetricResult,
    )

    def attempt(number: int, dialog: DialogResult | None) -> AttemptResult:
        return AttemptResult(
            attempt=number,
            answer="",
            answer_latency_s=0.0,
            accuracy=MetricResult(),
            completeness=MetricResult(),
            steps=[],
            dialog=dialog,
        )

    def item(
        scenario: str, dataset: str | None, model: str, *attempts: AttemptResult
    ) -> ItemResult:
        return ItemResult(
            scenario=scenario,
            category="dialog",
            dataset=dataset,
            model=model,
            status="scored",
            attempts=list(attempts),
        )

    files = {"src/App.jsx": "export default 1;\n", "../escape.txt": "never written"}
    dialog = DialogResult(protocol="native", ended="finished", turns=[], files=files)
    upgrade = item("Upgrade", "Todo", "openai/x", attempt(2, dialog), attempt(3, None))
    write_results(tmp_path, [upgrade, item("Plain", None, "m", attempt(1, None))])
    from pytest_llmbench.reporting.workspaces import read_workspace

    root = tmp_path / "workspaces" / "Upgrade-Todo-openai_x"
    # Saved as an archive (nothing a model wrote lies about as a loose file); a path
    # climbing out is never stored.
    assert read_workspace(root / "attempt-2.zip") == {"src/App.jsx": "export default 1;\n"}
    assert sorted(p.name for p in root.iterdir()) == ["attempt-2.zip"]
    assert sorted(p.name for p in (tmp_path / "workspaces").iterdir()) == ["Upgrade-Todo-openai_x"]


def test_generation_rate_comes_from_the_replies_own_figures() -> None:
    from pytest_llmbench.judging.scoring import generation_rate
    from pytest_llmbench.schema.results import CallRecord

    def call(tokens: int | None, seconds: float, generating: float | None = None) -> CallRecord:
        return CallRecord(
            role="candidate",
            model="m",
            completion_tokens=tokens,
            latency_s=seconds,
            generation_s=generating,
        )

    assert generation_rate([call(500, 10.0)]) == (50.0, "call")
    assert generation_rate([call(None, 10.0)]) == (None, None)  # offline: no token counts
    assert generation_rate([call(500, 0.0)]) == (None, None)
    # Server timings count only when every call gives them.
    assert generation_rate([call(300, 10.0, 2.0), call(200, 10.0, 3.0)]) == (100.0, "generation")
    assert generation_rate([call(300, 10.0, 2.0), call(200, 10.0)]) == (25.0, "call")
