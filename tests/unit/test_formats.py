"""Loading scenarios and datasets, and rendering prompts."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_llmbench.errors import FormatError
from pytest_llmbench.formats.dataset import DatasetIndex, SourceFile
from pytest_llmbench.formats.render import fenced, inline_files
from pytest_llmbench.formats.scenario import load_scenario
from pytest_llmbench.metrics.complexity import complexity_bucket, measure, size_bucket
from tests.conftest import MINI_SCENARIO, write_project


def test_three_public_step_forms_are_accepted(tmp_path: Path) -> None:
    write_project(tmp_path)
    scenario = load_scenario(
        tmp_path / "scenarios/generation/AddGreeting.yaml", DatasetIndex(tmp_path / "datasets")
    )
    assert [
        (s.id, s.text, s.weight, s.check is not None)
        for s in scenario.steps_for(scenario.datasets[0])
    ] == [
        ("A1", "The code parses", 1.0, True),
        ("A2", "Uses a template literal or string concatenation", 1.0, False),
        ("C1", "Defines greet", 2.0, True),
        ("C2", "Keeps add", 1.0, True),
    ]


def test_category_system_prompt_file_is_the_default(tmp_path: Path) -> None:
    write_project(tmp_path)
    (tmp_path / "scenarios/generation/system.md").write_text("Be a React expert.\n")
    scenario = load_scenario(
        tmp_path / "scenarios/generation/AddGreeting.yaml", DatasetIndex(tmp_path / "datasets")
    )
    assert scenario.system == "Be a React expert."


def test_reference_from_file_and_unknown_reference_key(tmp_path: Path) -> None:
    text = (
        MINI_SCENARIO[: MINI_SCENARIO.index("references:")]
        + "references:\n  Mini: {file: ref.md}\n"
        + MINI_SCENARIO[MINI_SCENARIO.index("criteria:") :]
    )
    write_project(tmp_path, {"generation/AddGreeting.yaml": text})
    (tmp_path / "scenarios/generation/ref.md").write_text("the answer")
    index = DatasetIndex(tmp_path / "datasets")
    scenario = load_scenario(tmp_path / "scenarios/generation/AddGreeting.yaml", index)
    assert scenario.reference_for(scenario.datasets[0]) == "the answer"
    bad = text.replace("  Mini: {file: ref.md}", "  Other: x")
    (tmp_path / "scenarios/generation/AddGreeting.yaml").write_text(bad)
    with pytest.raises(
        FormatError, match=r"references.Other: is not one of this scenario's datasets \(Mini\)"
    ):
        load_scenario(tmp_path / "scenarios/generation/AddGreeting.yaml", index)


def test_dataset_criteria_follow_the_shared_steps(tmp_path: Path) -> None:
    text = MINI_SCENARIO + ("dataset_criteria:\n  Mini: {file: criteria/Mini.yaml}\n")
    write_project(tmp_path, {"generation/AddGreeting.yaml": text})
    own = tmp_path / "scenarios/generation/criteria/Mini.yaml"
    own.parent.mkdir()
    own.write_text("accuracy: []\ncompleteness:\n  - criterion: Exports greet\n    weight: 3\n")
    index = DatasetIndex(tmp_path / "datasets")
    path = tmp_path / "scenarios/generation/AddGreeting.yaml"
    scenario = load_scenario(path, index)
    steps = scenario.steps_for(scenario.datasets[0])
    assert [(s.id, s.text, s.weight) for s in steps if s.metric == "completeness"] == [
        ("C1", "Defines greet", 2.0),
        ("C2", "Keeps add", 1.0),
        ("C3", "Exports greet", 3.0),
    ]
    own.write_text("accuracy:\n  - weight: 2\n")
    with pytest.raises(FormatError, match=r"criteria/Mini.yaml: accuracy.0.criterion"):
        load_scenario(path, index)
    path.write_text(text.replace("Mini: {file", "Maxi: {file"))
    with pytest.raises(FormatError, match=r"dataset_criteria.Maxi: is not one of"):
        load_scenario(path, index)


def test_every_dataset_needs_steps_of_both_metrics(tmp_path: Path) -> None:
    start = MINI_SCENARIO.index("criteria:")
    text = MINI_SCENARIO[:start] + ("dataset_criteria:\n  Mini:\n    accuracy: [Uses const]\n")
    write_project(tmp_path, {"generation/AddGreeting.yaml": text})
    path = tmp_path / "scenarios/generation/AddGreeting.yaml"
    with pytest.raises(
        FormatError,
        match=r"criteria.completeness: no completeness steps for dataset Mini; .*"
        r"\(or set criteria_missing: true to run it unscored\)",
    ):
        load_scenario(path, DatasetIndex(tmp_path / "datasets"))
    # Marked as imported before its criteria exist: it loads, with the steps it has.
    path.write_text(text + "criteria_missing: true\n")
    scenario = load_scenario(path, DatasetIndex(tmp_path / "datasets"))
    assert scenario.criteria_missing is True
    assert [(s.id, s.text) for s in scenario.steps_for(scenario.datasets[0])] == [
        ("A1", "Uses const")
    ]


def test_inline_files_is_sorted_and_headed_by_paths(tmp_path: Path) -> None:
    write_project(tmp_path)
    (tmp_path / "datasets/javascript/Mini/README.md").write_text("# Mini\n")
    dataset = DatasetIndex(tmp_path / "datasets").get(
        "Mini", referrer=tmp_path, field_name="datasets.0"
    )
    text = inline_files(dataset)
    assert text.index("### README.md") < text.index("### src/app.js")
    assert "```javascript\nexport function add" in text
    assert "dataset.yaml" not in text


def test_fence_outgrows_backticks_inside_the_file() -> None:
    block = fenced(SourceFile("doc.md", "```js\ncode\n```\n"))
    assert block.startswith("### doc.md\n````markdown\n") and block.endswith("\n````\n")


def test_ambiguous_dataset_name_asks_for_language(tmp_path: Path) -> None:
    write_project(tmp_path)
    other = tmp_path / "datasets/python/Mini"
    other.mkdir(parents=True)
    (other / "dataset.yaml").write_text("technology: py\ndescription: d\n")
    (other / "m.py").write_text("x = 1\n")
    with pytest.raises(FormatError, match="ambiguous; write one of javascript/Mini, python/Mini"):
        DatasetIndex(tmp_path / "datasets").get("Mini", referrer=tmp_path, field_name="datasets.0")


@pytest.mark.parametrize(
    ("loc", "bucket"), [(0, "low"), (199, "low"), (200, "avg"), (500, "avg"), (501, "high")]
)
def test_size_buckets(loc: int, bucket: str) -> None:
    assert size_bucket(loc) == bucket


@pytest.mark.parametrize(
    ("gci", "bucket"), [(0.11, "low"), (0.1101, "avg"), (0.17, "avg"), (0.1955, "high")]
)
def test_complexity_buckets(gci: float, bucket: str) -> None:
    assert complexity_bucket(gci) == bucket


def test_measure_sums_function_complexity_over_lines() -> None:
    code = "function f(a) {\n  if (a && a.b) {\n    return 1;\n  }\n  return 2;\n}\n"
    figures = measure((SourceFile("f.js", code), SourceFile("notes.txt", "not code\n")))
    assert (figures.ci, figures.loc, figures.functions) == (3, 6, 1)
    assert figures.gci == pytest.approx(0.5)


def test_prompts_are_rendered_once_at_load_with_the_code_inlined(tmp_path: Path) -> None:
    write_project(tmp_path)
    scenario = load_scenario(
        tmp_path / "scenarios/generation/AddGreeting.yaml", DatasetIndex(tmp_path / "datasets")
    )
    (mini,) = scenario.datasets
    prompt = scenario.prompt_for(mini)
    assert prompt.startswith("Add a function `greet(name)`")
    assert "### src/app.js\n```javascript\nexport function add(a, b) {" in prompt
    assert set(scenario.prompts) == {"Mini"}
