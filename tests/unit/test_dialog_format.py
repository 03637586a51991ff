"""Dialog scenario files and reference scripts: what loads, and one clear error per mistake;
and the token limit of the runner."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pytest_llmbench.cpu import close_processes
from pytest_llmbench.errors import FormatError
from pytest_llmbench.formats.dataset import DatasetIndex
from pytest_llmbench.formats.scenario import Scenario, load_scenario
from pytest_llmbench.judging.judge import JudgeSetup
from pytest_llmbench.models.base import Model, ModelReply, ModelRequest, ToolCall
from pytest_llmbench.schema.results import AttemptResult
from pytest_llmbench.tasks.attempt import ItemRun
from pytest_llmbench.tasks.case import Case, Generation
from pytest_llmbench.tasks.dialog import run_dialog_attempt
from tests.conftest import MINI_SCENARIO
from tests.dialog_project import GREET_DIALOG, GREET_SCRIPT, write_dialog_project

SCENARIO = "scenarios/dialog/GreetInSteps.yaml"
SCRIPT = "scenarios/dialog/references/GreetInSteps/Mini.yaml"


def _load(root: Path, rel: str = SCENARIO) -> Scenario:
    return load_scenario(root / rel, DatasetIndex(root / "datasets"))


def test_turns_steps_script_and_reference_are_loaded(tmp_path: Path) -> None:
    scenario = _load(write_dialog_project(tmp_path))
    mini = scenario.datasets[0]
    turns = scenario.turns_for(mini)
    assert scenario.is_dialog and [t.title for t in turns] == ["Add greet", "Test greet"]
    assert [s.id for s in turns[0].steps] == ["A1", "C1", "C2"]
    assert [s.id for s in scenario.steps_for(mini)] == ["T1.A1", "T1.C1", "T1.C2", "T2.A1", "T2.C1"]
    assert scenario.prompt_for(mini) == turns[0].prompt
    assert turns[0].steps[0].check is not None and turns[0].steps[0].check.path == "src/app.js"
    script = scenario.script_for(mini)
    assert script is not None and [c.tool for c in script[1]] == ["write_file", "finish_step"]
    reference = scenario.reference_for(mini) or ""
    assert "### src/app.js" in reference and "### test/app.test.js" in reference
    assert scenario.limits.max_rounds == 4 and scenario.limits.max_seconds == 1800


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("turns:\n", "prompt: hi\nturns:\n", "prompt: a dialog scenario gives it per turn"),
        ("limits: {max_rounds: 4", "limits: {max_rounds: 0", "limits.max_rounds: Input should be"),
        ("limits: {", "limits: {max_turns: 3, ", "limits.max_turns: unknown field"),
        (
            "check: {path: src/app.js, parses: true}",
            "check: {path: ../app.js, parses: true}",
            "turns.0.criteria.accuracy.0.check: path '../app.js' must be relative",
        ),
        (
            "check: {file: test/app.test.js}",
            "check: {file: test/app.test.js, path: x}",
            "path goes with contains, not_contains, regex or parses, not file",
        ),
        (
            "      completeness:\n        - criterion: the test calls greet",
            "      other:\n        - criterion: the test calls greet",
            "turns.1.criteria.other: unknown field",
        ),
        (
            "  Mini: {script: references/GreetInSteps/Mini.yaml}",
            "  Mini: {file: x.md}",
            "references.Mini: a dialog's reference is {script: file.yaml}",
        ),
        (
            "  Mini: {script: references/GreetInSteps/Mini.yaml}",
            "  Mini: {script: missing.yaml}",
            "references.Mini.script: missing.yaml does not exist",
        ),
        ("Add a function `greet(name)`", "Add {{ nothing }}", "turns.0.prompt: template error"),
    ],
)
def test_scenario_mistakes_name_file_and_field(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    _assert_mistake(tmp_path, SCENARIO, GREET_DIALOG, old, new, message)


def _assert_mistake(tmp_path: Path, rel: str, text: str, old: str, new: str, message: str) -> None:
    """Writing `text` with `old` replaced by `new` to `rel` fails loading with `message`,
    in one error that starts with that file's path."""
    root = write_dialog_project(tmp_path)
    assert old in text
    (root / rel).write_text(text.replace(old, new, 1))
    with pytest.raises(FormatError) as info:
        _load(root)
    assert str(info.value).startswith(f"{root / rel}: ") and message in str(info.value)


def test_a_turn_needs_steps_of_both_metrics(tmp_path: Path) -> None:
    root = write_dialog_project(tmp_path)
    text = GREET_DIALOG.replace(
        "      completeness:\n        - criterion: the test calls greet\n"
        "          check: {contains: \"greet('Ada')\"}\n",
        "",
    )
    (root / SCENARIO).write_text(text)
    with pytest.raises(FormatError, match=r"turns\.1\.criteria\.completeness: no completeness"):
        _load(root)


def test_turns_belong_to_dialog_scenarios_only(tmp_path: Path) -> None:
    root = write_dialog_project(tmp_path)
    generation = root / "scenarios/generation/AddGreeting.yaml"
    generation.parent.mkdir(parents=True)
    generation.write_text(MINI_SCENARIO + "turns:\n  - prompt: hi\n    criteria: {}\n")
    with pytest.raises(FormatError, match="turns: only scenarios of the category dialog"):
        _load(root, "scenarios/generation/AddGreeting.yaml")
    generation.write_text(
        MINI_SCENARIO.replace("check: {parses: true}", "check: {parses: true, path: a.js}")
    )
    with pytest.raises(FormatError, match=r"criteria\.accuracy\.0\.check\.path: is for dialog"):
        _load(root, "scenarios/generation/AddGreeting.yaml")
    (root / SCENARIO).write_text(GREET_DIALOG[: GREET_DIALOG.index("turns:")])
    with pytest.raises(FormatError, match="turns: a dialog scenario needs a list of turns"):
        _load(root)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("tool: list_files", "tool: delete_all", "turns.0.0.tool: unknown tool 'delete_all'"),
        (
            "      path: src/app.js\n      content",
            "      path: /src/app.js\n      content",
            "turns.0.2.path: must be a relative",
        ),
        (
            "    - tool: finish_step\n      summary: test added.\n",
            "",
            "turns.1: must end with a finish_step",
        ),
        (
            "    - tool: read_file\n      path: src/app.js\n",
            "    - tool: read_file\n",
            "turns.0.1.path: read_file needs path",
        ),
    ],
)
def test_script_mistakes_name_the_script_and_call(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    _assert_mistake(tmp_path, SCRIPT, GREET_SCRIPT, old, new, message)


def test_a_script_needs_one_list_of_calls_per_turn(tmp_path: Path) -> None:
    root = write_dialog_project(tmp_path)
    (root / SCRIPT).write_text(
        GREET_SCRIPT[: GREET_SCRIPT.index("  - - tool: write_file\n      path: test/")]
    )
    with pytest.raises(FormatError, match="Mini.yaml: turns: has 1 turns but the scenario has 2"):
        _load(root)


def test_write_from_a_markdown_reference(tmp_path: Path) -> None:
    root = write_dialog_project(tmp_path)
    (root / SCRIPT).parent.joinpath("answer.md").write_text(
        "### test/app.test.js\n```js\nimport { greet } from '../src/app.js';\ngreet('Ada');\n```\n"
    )
    test_write = GREET_SCRIPT[GREET_SCRIPT.index("  - - tool: write_file\n      path: test/") :]
    first = GREET_SCRIPT[: GREET_SCRIPT.index(test_write)]
    (root / SCRIPT).write_text(
        first
        + "  - - tool: write_file\n      path: test/app.test.js\n      from: answer.md\n"
        + "    - tool: finish_step\n"
    )
    script = _load(root).scripts["Mini"]
    assert (
        script[1][0].arguments["content"]
        == "import { greet } from '../src/app.js';\ngreet('Ada');\n"
    )
    (root / SCRIPT).write_text(
        first + "  - - tool: write_file\n      path: other.js\n      from: answer.md\n"
        "    - tool: finish_step\n"
    )
    with pytest.raises(FormatError, match="turns.1.0.from: answer.md has no block headed other.js"):
        _load(root)


class _Chatty(Model):
    """A model double that lists files forever and reports 600 tokens per reply."""

    name = "chatty"
    offline = False

    def __init__(self) -> None:
        self.requests: list[ModelRequest] = []

    async def complete(self, request: ModelRequest) -> ModelReply:
        self.requests.append(request)
        return ModelReply(
            model=self.name,
            text="",
            latency_s=0.01,
            prompt_tokens=500,
            completion_tokens=100,
            tool_calls=(ToolCall("c", "list_files", "{}"),),
        )


def test_the_token_limit_ends_the_dialog(tmp_path: Path) -> None:
    root = write_dialog_project(tmp_path)
    (root / SCENARIO).write_text(
        GREET_DIALOG.replace("max_rounds: 4,", "max_rounds: 4, max_tokens: 1500,")
    )
    scenario = _load(root)
    model = _Chatty()
    setup = JudgeSetup(judges=(), grader=None, grader_samples=1, timeout=5)
    run = ItemRun(Case(scenario, scenario.datasets[0]), model, Generation(1, None, None, 5), setup)

    async def whole() -> AttemptResult:
        return await (await run_dialog_attempt(run, 1)).result()

    try:
        attempt = asyncio.run(whole())
    finally:
        close_processes()  # the attempt's metrics ran in worker processes; no engine closes them
    assert attempt.dialog is not None
    assert attempt.dialog.ended == "token limit" and attempt.dialog.tokens == 1800
    assert len(model.requests) == 3  # 600, 1200, 1800: the fourth call is not made
    assert all(r.tools and r.task is not None for r in model.requests)
    offered = [t["function"]["name"] for t in model.requests[0].tools or ()]
    assert offered == ["list_files", "read_file", "write_file", "finish_step"]
    assert attempt.completeness.value == 1.0 and attempt.quality is not None
