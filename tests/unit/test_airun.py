"""Readers of the public AIRUN formats, on small fixtures written here."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_llmbench.airun.answers import AnswerFileError, parse_answer_file
from pytest_llmbench.airun.criteria import read_criteria
from pytest_llmbench.airun.grading import read_grading
from pytest_llmbench.airun.importer import jinja_literal, prompt_template
from pytest_llmbench.airun.names import map_category, parse_prompt_name, scenario_id
from pytest_llmbench.formats.render import compile_template, render
from tests.airun_clones import answer_report, make_criteria, write

DATASETS = ["ToDoList", "ToDoApp_ReactJS", "Todo_Legacy"]


@pytest.mark.parametrize(
    ("stem", "scenario", "dataset", "complexity", "size", "index"),
    [
        # A dataset the clone does not have is still named: the parts after the first.
        ("WriteTests_ReactSelect_high_avg", "WriteTests", "ReactSelect", "high", "avg", None),
        ("Explain_ToDoApp_ReactJS_high_low", "Explain", "ToDoApp_ReactJS", "high", "low", None),
        (
            "Legacy_Tests_ToDoApp_ReactJS_avg_high_2",
            "Legacy_Tests",
            "ToDoApp_ReactJS",
            "avg",
            "high",
            2,
        ),
        ("explain_todoapp_reactjs_HIGH_low", "explain", "ToDoApp_ReactJS", "high", "low", None),
        ("GenerateBaseComponent", "GenerateBaseComponent", None, None, None, None),
        ("GenerateBaseComponent_3", "GenerateBaseComponent", None, None, None, 3),
        ("Generate_React_App", "Generate_React_App", None, None, None, None),
        ("Template_high_low", "Template", None, "high", "low", None),
        ("Migrate_Old_App_low_low", "Migrate", "Old_App", "low", "low", None),
    ],
)
def test_prompt_file_names(
    stem: str,
    scenario: str,
    dataset: str | None,
    complexity: str | None,
    size: str | None,
    index: int | None,
) -> None:
    name = parse_prompt_name(stem, DATASETS)
    assert (name.stem, name.scenario, name.dataset) == (stem, scenario, dataset)
    assert (name.complexity, name.size, name.index) == (complexity, size, index)


def test_the_known_dataset_wins_over_a_shorter_one() -> None:
    # "Todo_Legacy" is a dataset, and so would be "Legacy" if it existed: the longest is taken.
    name = parse_prompt_name("Explain_Todo_Legacy_high_low", ["Legacy", "Todo_Legacy"])
    assert (name.scenario, name.dataset) == ("Explain", "Todo_Legacy")
    # One part before the buckets is the scenario, even when a dataset has that name.
    assert parse_prompt_name("ToDoList_high_low_1", ["ToDoList"]).dataset is None
    with pytest.raises(ValueError, match="empty"):
        parse_prompt_name("__", [])


def test_category_folders_map_onto_our_ids() -> None:
    assert map_category("code_translation") == "migration"
    assert map_category("Component Generation") == "generation"
    assert map_category("CodeExplanation") == "explanation"
    assert map_category("testing") == "testing"
    assert map_category("poetry_writing") is None
    # Our dialogs are written as turns: a single public prompt file never maps onto them.
    assert map_category("dialog") is None
    assert map_category("large_context_instruction_following") is None
    assert map_category("poetry_writing", {"poetry_writing": "documentation"}) == "documentation"
    assert scenario_id("2nd-try.v1") == "S2nd_try_v1"
    assert scenario_id("Explain_ToDoList_high_low") == "Explain_ToDoList_high_low"


def test_criteria_files_in_all_three_step_forms(tmp_path: Path) -> None:
    found, problems = read_criteria(make_criteria(tmp_path))
    by_id = {c.scenario_id: c for c in found}
    legacy = by_id["ExplainCode_Todo_Legacy_high_low"]
    assert [s.criterion for s in legacy.steps.accuracy] == [
        "Names the count function",
        "Says it returns the length",
    ]
    assert [(s.criterion, s.weight) for s in legacy.steps.completeness] == [
        ("Mentions the argument", 2.0)
    ]
    assert legacy.repository == "Todo_Legacy" and legacy.category == "code_explanation"
    button = by_id["GenerateButton"]
    assert [(s.criterion, s.weight) for s in button.steps.accuracy] == [
        ("Uses a React hook for the count", 3.0)
    ]
    assert button.repository is None  # an empty repository means no dataset
    (problem,) = problems
    assert "broken.yaml: evaluation_steps.accuracy.0.weight" in problem


def test_the_prompt_keeps_its_text_and_inlines_the_first_tag_only() -> None:
    text = (
        "Keep {{ braces }}, {% if x %} and {%- endraw %} as text.\n"
        '<place_code_here repo="Todo_Legacy"/>\nthen <place_code_here repo="Other"/>\n'
    )
    template, repo = prompt_template(text)
    assert repo == "Todo_Legacy"
    rendered = render(compile_template(template), dataset=None)
    assert rendered == text.replace('<place_code_here repo="Todo_Legacy"/>', "", 1)
    assert (
        render(compile_template(jinja_literal("{% endraw %}{{x}}")), dataset=None)
        == "{% endraw %}{{x}}"
    )
    assert prompt_template("no tag here")[1] is None


def test_answer_report_with_thoughts() -> None:
    published = parse_answer_file(
        answer_report(
            2,
            "First line.\n### src/App.js\n```js\nlet a = 1;\n```",
            thoughts="Plan: read, then write.",
            tokens="{'input_tokens': 313, 'output_tokens': 5424}",
            seconds="12.5",
        )
    )
    assert published.run == 2
    # The '### Answer:' inside the prompt part and the answer's own heading do not cut it.
    assert published.answer == "First line.\n### src/App.js\n```js\nlet a = 1;\n```\n"
    assert published.thoughts == "Plan: read, then write."
    assert (published.input_tokens, published.output_tokens, published.seconds) == (313, 5424, 12.5)
    assert published.rate == pytest.approx(5424 / 12.5)


def test_answer_report_without_thoughts_and_with_odd_whitespace() -> None:
    text = (
        "prompt\r\n##  Run 1 :\r\n###Answer:   \r\n\r\n  Indented answer.\r\n\r\n"
        "###   Tokens :  {'input_tokens':1 ,'output_tokens' : 40}\r\n"
        "### Execution time:\r\n  8 seconds\r\n"
    )
    published = parse_answer_file(text)
    assert published.thoughts is None
    assert published.answer.strip() == "Indented answer."
    assert (published.input_tokens, published.output_tokens, published.seconds) == (1, 40, 8.0)


def test_answer_report_problems() -> None:
    with pytest.raises(AnswerFileError, match="no '### Answer:'"):
        parse_answer_file("## Run 1:\n### Tokens: {}\n")
    # literal_eval, never eval: a call is refused, not run.
    with pytest.raises(AnswerFileError, match="not a dict literal"):
        parse_answer_file("## Run 1:\n### Answer:\nhi\n### Tokens: __import__('os').getcwd()\n")
    bare = parse_answer_file("## Run 1:\n### Answer:\nonly this\n")
    assert (bare.answer, bare.output_tokens, bare.seconds, bare.rate) == (
        "only this\n",
        None,
        None,
        None,
    )


HEADER = (
    "metric,score,weighted_score,is_confident,score_1,score_2,score_3,score_4,score_5,"
    "category,experiment,repository,scenario_id,model"
)


def test_grading_csv_is_read_by_its_header(tmp_path: Path) -> None:
    reordered = (
        "model,scenario_id,repository,experiment,category,score_4,score_3,score_2,score_1,"
        "is_confident,weighted_score,score,metric\n"
        "judge-a,Explain,ToDoList,exp1,code_explanation,0.95,0.05,,,True,3.95,4,accuracy\n"
        "judge-a,Explain,ToDoList,exp1,code_explanation,,,,,,,2,completeness\n"
    )
    rows, problems = read_grading(write(tmp_path / "a.csv", reordered))
    assert problems == []
    first, second = rows
    assert (first.metric, first.score, first.weighted, first.confident) == (
        "accuracy",
        4,
        3.95,
        True,
    )
    assert first.distribution == {"1": 0.0, "2": 0.0, "3": 0.05, "4": 0.95}
    assert (first.evaluator, first.scenario_id, first.repository) == (
        "judge-a",
        "Explain",
        "ToDoList",
    )
    # No probabilities at all: the score stands, weighted = score, not confident.
    assert (second.score, second.weighted, second.confident) == (2, 2.0, False)


def test_grading_csv_rows_that_cannot_be_read_are_named(tmp_path: Path) -> None:
    text = "\n".join(
        [
            HEADER,
            "accuracy,3,3.1,False,0,0.1,0.7,0.2,,code_analysis,e,R,S,judge",
            "speed,3,3,False,0,0,1,0,0,code_analysis,e,R,S,judge",
            "accuracy,seven,3,False,0,0,1,0,0,code_analysis,e,R,S,judge",
            "accuracy,3,3,False,0,0,1.5,0,0,code_analysis,e,R,S,judge",
            "accuracy,3,3,False,0,0,1,0,0,code_analysis,e,R,,judge",
            "accuracy,3,3,False",
            ",,,,0.1,0.2,0.6,0.1,,code_analysis,e,R,S,judge",
            "completeness,,,,0.1,0.2,0.6,0.1,,code_analysis,e,R,S,judge",
        ]
    )
    path = write(tmp_path / "grading.csv", text)
    rows, problems = read_grading(path)
    assert [r.line for r in rows] == [2, 9]
    # Score and weighted score come from the probabilities when their cells are empty.
    assert (rows[1].score, rows[1].weighted) == (3, pytest.approx(2.7))
    assert problems == [
        f"{path}:3: metric 'speed' is not accuracy or completeness",
        f"{path}:4: score 'seven' is not a number",
        f"{path}:5: score_3 1.5 is not a probability",
        f"{path}:6: empty scenario_id",
        f"{path}:7: 4 cells, the header has 14",
        f"{path}:8: empty metric",
    ]
    missing = write(tmp_path / "other.csv", "metric,score\naccuracy,3\n")
    assert read_grading(missing) == ([], [f"{missing}:1: header has no scenario_id, model column"])
