"""Readers of the public AIRUN formats, on small fixtures written here."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_llmbench.airun.answers import answer_files, parse_answer_file
from pytest_llmbench.airun.criteria import criteria_root, read_criteria
from pytest_llmbench.airun.grading import UNNAMED, read_grading, round_half_even
from pytest_llmbench.airun.importer import jinja_literal, prompt_template
from pytest_llmbench.airun.names import (
    current_name,
    map_category,
    parse_prompt_name,
    published_names,
    scenario_id,
)
from pytest_llmbench.airun.summary import Cell, read_summary
from pytest_llmbench.errors import AnswerFileError
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
        # extra_high is one complexity; the multimodal names put the dataset first.
        (
            "WriteTests_ToDoList_extra_high_high",
            "WriteTests",
            "ToDoList",
            "extra_high",
            "high",
            None,
        ),
        ("ToDoList_Q10_high_high", "Q10", "ToDoList", "high", "high", None),
        ("Weather_App_Q2_avg_low", "Q2", "Weather_App", "avg", "low", None),
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


def test_criteria_are_linked_by_file_name_with_numeric_ids(tmp_path: Path) -> None:
    results = make_criteria(tmp_path)
    found, problems = read_criteria(criteria_root(results))
    by_stem = {c.stem: c for c in found}
    legacy = by_stem["ExplainCode_Todo_Legacy_high_low"]
    assert [s.criterion for s in legacy.steps.accuracy] == [
        "Names the count function",
        "Says it returns the length",
    ]
    assert [(s.criterion, s.weight) for s in legacy.steps.completeness] == [
        ("Mentions the argument", 2.0)
    ]
    # The metadata is kept as read (a number, a quoted '08'), but the link is the name.
    assert (legacy.metadata.scenario_id, by_stem["GenerateButton"].metadata.scenario_id) == (
        7,
        "08",
    )
    assert legacy.fits("ExplainCode_Todo_Legacy_high_low", "code_explanation")
    assert not legacy.fits("ExplainCode_Todo_Legacy_high_low", "code_analysis")
    (problem,) = problems
    assert "Broken_criteria.yaml: evaluation_steps.accuracy.0.weight" in problem
    # The older set names the dataset by its old name: it links to the current prompt.
    (older,) = read_criteria(criteria_root(results, "Criteria_v1"))[0]
    assert older.stem == "Review_AngularJSCosmoPage_avg_high" and older.folder == "code_analysis"
    assert current_name("X_AngularCosmoPage_avg_high") == "X_AngularJSCosmoPage_avg_high"
    assert published_names("X_AngularJSCalendar_high_high") == [
        "X_AngularJSCalendar_high_high",
        "X_AngularCalendar_high_high",
    ]


def test_answers_published_under_a_renamed_dataset_are_found(tmp_path: Path) -> None:
    model = tmp_path / "Output" / "M"
    old = model / "JS/code_analysis/result_1/Review_AngularCosmoPage_avg_high"
    write(old / "Review_AngularCosmoPage_avg_high_report_1.md", "## Run 1:\n### Answer:\nok\n")
    found = answer_files(model, "Review_AngularJSCosmoPage_avg_high", 1, "JS", "code_analysis")
    assert found == [old / "Review_AngularCosmoPage_avg_high_report_1.md"]


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
    "metric,score,weighted_score,is_confident,score_5,category,experiment,repository,"
    "scenario_id,model,score_4,score_3,score_2,score_1"
)


def test_grading_csv_is_read_by_its_header_on_the_public_1_to_5_scale(tmp_path: Path) -> None:
    reordered = (
        "model,scenario_id,repository,experiment,category,score_5,score_4,score_3,"
        "is_confident,weighted_score,score,metric\n"
        "judge-a,08,todo_list,code_explanation,Explain_ToDoList_high_low,0.9,0.1,,True,4.9,5,accuracy\n"
        "judge-a,08,todo_list,code_explanation,Explain_ToDoList_high_low,,,,,,2,completeness\n"
    )
    rows, problems = read_grading(write(tmp_path / "a.csv", reordered))
    assert problems == []
    first, second = rows
    assert (first.metric, first.score, first.weighted, first.confident) == (
        "accuracy",
        5,
        4.9,
        True,
    )
    assert first.distribution == {"3": 0.0, "4": 0.1, "5": 0.9}
    assert (first.evaluator, first.scenario_id, first.category) == (
        "judge-a",
        "08",
        "Explain_ToDoList_high_low",
    )
    # The published figure is weighted - 1, rounded half to even as upstream (numpy).
    assert first.published == 3.9
    assert round_half_even(3.365) == 3.36 and round_half_even(0.995) == 1.0
    # No probabilities at all: the score stands, weighted = score, not confident.
    assert (second.score, second.weighted, second.confident) == (2, 2.0, False)


def test_short_rows_are_padded_realigned_or_named(tmp_path: Path) -> None:
    text = "\n".join(
        [
            HEADER,
            "accuracy,5,5.0,True,1.0,S_X_high_low,code_analysis,x,1,judge",  # only score_k missing
            "speed,3,3,False,,c,e,R,1,judge,0,1,0,0",
            "accuracy,seven,3,False,,c,e,R,1,judge,0,1,0,0",
            "accuracy,3,3,False,,c,e,R,1,judge,0,1.5,0,0",
            "accuracy,3,3,False",
            ",,,,,c,e,R,1,judge,0.1,0.6,0.2,0.1",
            "completeness,,,,,c,e,R,1,judge,0.1,0.6,0.2,0.1",
        ]
    )
    path = write(tmp_path / "grading.csv", text)
    rows, problems = read_grading(path)
    assert [r.line for r in rows] == [2, 8]
    padded, derived = rows
    assert (padded.evaluator, padded.distribution["5"], padded.note) == ("judge", 1.0, None)
    # Score and weighted score come from the probabilities when their cells are empty.
    assert (derived.score, derived.weighted) == (3, pytest.approx(2.7))
    assert problems == [
        f"{path}:3: metric 'speed' is not accuracy or completeness",
        f"{path}:4: score 'seven' is not a number",
        f"{path}:5: score_3 1.5 is not a probability",
        f"{path}:6: 4 cells, the header has 14 and the missing category, experiment, "
        "repository, scenario_id, model cannot be empty",
        f"{path}:7: empty metric",
    ]
    # A row written in another order than its file's header (probabilities first there):
    # with one probability, the score's, it is read in the writer's order and named.
    other = write(
        tmp_path / "v1.csv",
        "metric,score,weighted_score,is_confident,score_4,score_3,category,experiment,"
        "repository,scenario_id,score_5\n"
        "accuracy,5,5.0,True,,,S_X_high_low,code_analysis,x,1,1.0\n"
        "accuracy,5,5.0,True,1.0,S_Y_high_low,code_analysis,y,2\n",
    )
    (aligned, realigned), notes = read_grading(other)
    assert (realigned.category, realigned.scenario_id, realigned.evaluator) == (
        "S_Y_high_low",
        "2",
        UNNAMED,
    )
    assert realigned.distribution["5"] == 1.0 and aligned.distribution["5"] == 1.0
    assert notes == [
        f"{other}:3: 9 cells fit not the header; read as metric,score,weighted_score,"
        "is_confident,score_5,category,experiment,repository,scenario_id"
    ]
    missing = write(tmp_path / "other.csv", "score,model\n3,x\n")
    assert read_grading(missing) == ([], [f"{missing}:1: header has no metric column"])


def test_files_of_one_evaluator_and_files_naming_the_candidate(tmp_path: Path) -> None:
    older = write(
        tmp_path / "b.csv",
        "metric,score,weighted_score,is_confident,score_4,scenario_id,scenario_name,category\n"
        "accuracy,4,4.0,True,1.0,3,generate_button,component_generation\n",
    )
    run = write(
        tmp_path / "d.csv",
        "metric,score,weighted_score,is_confident,score_4,scenario_id,scenario_name,category,"
        "experiment_date,model,input_tokens\n"
        "accuracy,4,4.0,True,1.0,3,generate_button,component_generation,2024-06-01,cand,10\n",
    )
    for path in (older, run):
        (row,), problems = read_grading(path)
        assert problems == [] and row.evaluator == UNNAMED
        assert (row.scenario_name, row.category) == ("generate_button", "component_generation")


def test_summary_rows_give_rates_figures_and_hand_corrections(tmp_path: Path) -> None:
    path = write(
        tmp_path / "summary.csv",
        "Experiment,Type,Category,Language,Models,Dataset,Complexity,Size,Attempt,Input,"
        "Reasons,Output,Time,Accuracy,Completeness,Accuracy_judge-a,Completeness_judge-a\n"
        "g,code_analysis,Review,JS,M,ToDoList,avg,avg_2,1,10,0,500,10.0,3.5,2.0,3.5,1.5->2.0\n"
        "g,component_generation,GenerateButton,none,M,none,none,none,1,1,0,0,0.0,,,,\n",
    )
    (review, button), problems = read_summary(path)
    assert (review.folder, review.stem, review.rate) == (
        "code_analysis",
        "Review_ToDoList_avg_avg_2",
        50.0,
    )
    assert review.figures == {"accuracy": 3.5, "completeness": 2.0}
    assert review.cells[("completeness", "judge-a")] == Cell(2.0, 1.5)
    assert (button.stem, button.rate, button.figures["accuracy"]) == ("GenerateButton", None, None)
    assert problems == [
        f"{path}:2: Completeness_judge-a corrected by hand from 1.5 to 2.0; 2.0 is read"
    ]
