"""Reading evaluator reports and grader replies, and matching verdicts to our steps."""

from __future__ import annotations

import json
import math

import pytest

from pytest_llmbench.errors import ReportParseError
from pytest_llmbench.formats.criteria import CriterionStep
from pytest_llmbench.judging.parsing import (
    ParsedStep,
    distribution_from_samples,
    grade_distribution_from_logprobs,
    grade_from_text,
    grade_token,
    match_steps,
    parse_evaluator_reply,
    summarise_distribution,
)

STEPS = (
    CriterionStep(
        "A1", "accuracy", "The component uses React hooks instead of class components", 1.0, None
    ),
    CriterionStep("A2", "accuracy", "No jQuery is used anywhere in the answer", 1.0, None),
    CriterionStep("C1", "completeness", "Todos are saved to localStorage", 2.0, None),
)


def step(criterion: str, key: str = "", passed: bool = True) -> ParsedStep:
    return ParsedStep(key, criterion, passed, 90.0, "")


# -- JSON reports ----------------------------------------------------------------------


def test_json_object_with_steps() -> None:
    reply = json.dumps(
        {
            "steps": [
                {
                    "id": "A1",
                    "criterion": "Uses hooks",
                    "passed": True,
                    "confidence": 90,
                    "explanation": "useState",
                },
                {
                    "id": "A2",
                    "criterion": "No jQuery",
                    "passed": False,
                    "confidence": 60,
                    "explanation": "imports $",
                },
            ]
        }
    )
    report = parse_evaluator_reply(reply)
    assert report.form == "json"
    assert report.steps == [
        ParsedStep("A1", "Uses hooks", True, 90.0, "useState"),
        ParsedStep("A2", "No jQuery", False, 60.0, "imports $"),
    ]


def test_json_wrapped_in_prose_and_a_fence() -> None:
    reply = (
        "Sure! I checked [A1] and the rest.\n\n```json\n"
        '{"evaluation": [{"step": "[C1] Todos are saved", "verdict": "Fail",'
        ' "reason": "no storage"}]}\n'
        "```\nLet me know if you need more."
    )
    report = parse_evaluator_reply(reply)
    assert report.form == "json"
    assert report.steps == [ParsedStep("C1", "Todos are saved", False, None, "no storage")]


def test_json_bare_list_with_alternative_keys() -> None:
    reply = '[{"text": "Uses hooks", "result": "Pass"}, {"criteria": "No jQuery", "passed": "no"}]'
    steps = parse_evaluator_reply(reply).steps
    assert [(s.criterion, s.passed) for s in steps] == [("Uses hooks", True), ("No jQuery", False)]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (0.9, 90.0),
        ("90%", 90.0),
        (90, 90.0),
        ("0.75", 75.0),
        (1, 100.0),
        ("high", None),
        (True, None),
        (-5, None),
    ],
)
def test_json_confidence_scales(given: object, expected: float | None) -> None:
    reply = json.dumps({"results": [{"criterion": "x", "passed": True, "confidence": given}]})
    assert parse_evaluator_reply(reply).steps[0].confidence == expected


@pytest.mark.parametrize(
    ("verdict", "passed"),
    [("Pass", True), ("FAIL", False), ("yes", True), ("no", False), ("✅ Passed", True)],
)
def test_json_verdict_strings(verdict: str, passed: bool) -> None:
    reply = json.dumps({"criteria": [{"criterion": "x", "verdict": verdict}]})
    assert parse_evaluator_reply(reply).steps[0].passed is passed


def test_json_entries_without_a_verdict_are_skipped() -> None:
    reply = json.dumps(
        {"steps": [{"criterion": "x", "passed": "maybe"}, {"criterion": "y", "passed": False}]}
    )
    assert [s.criterion for s in parse_evaluator_reply(reply).steps] == ["y"]


def test_json_single_step_object() -> None:
    reply = 'Result: {"id": "C1", "passed": false, "confidence": "80%"} done'
    assert parse_evaluator_reply(reply).steps == [ParsedStep("C1", "", False, 80.0, "")]


def test_json_per_metric_lists_are_read_in_order() -> None:
    reply = json.dumps(
        {
            "accuracy": [{"id": "A1", "criterion": "a", "passed": True}],
            "completeness": [{"id": "C1", "criterion": "c", "passed": False}],
        }
    )
    assert [s.key for s in parse_evaluator_reply(reply).steps] == ["A1", "C1"]


# -- Markdown reports ------------------------------------------------------------------


PUBLIC_REPORT = """\
# Evaluation report

### Evaluation Steps
- **Pass** (90%): The component uses React hooks instead of class components
    The answer defines function components with useState.

    It never extends React.Component.
- **Fail** (75%): [A2] No jQuery is used anywhere in the answer
    `import $ from 'jquery'` appears in App.jsx.
- **Pass**: C1: Todos are saved to localStorage

Total steps evaluated: 3
Passed: 2
Failed: 1
"""


def test_markdown_public_form() -> None:
    report = parse_evaluator_reply(PUBLIC_REPORT)
    assert report.form == "markdown"
    assert report.steps == [
        ParsedStep(
            "",
            "The component uses React hooks instead of class components",
            True,
            90.0,
            "The answer defines function components with useState. "
            "It never extends React.Component.",
        ),
        ParsedStep(
            "A2",
            "No jQuery is used anywhere in the answer",
            False,
            75.0,
            "`import $ from 'jquery'` appears in App.jsx.",
        ),
        ParsedStep("C1", "Todos are saved to localStorage", True, None, ""),
    ]


@pytest.mark.parametrize(
    ("line", "passed", "confidence", "key"),
    [
        ("✅ Pass: Uses hooks", True, None, ""),
        ("❌ Fail (80%) - Uses hooks", False, 80.0, ""),
        ("Pass (95%): Uses hooks", True, 95.0, ""),
        ("1. [A1] **Fail** (confidence: 60%): Uses hooks", False, 60.0, "A1"),
        ("- **Pass (70%)** A1 (accuracy): Uses hooks", True, 70.0, "A1"),
    ],
)
def test_markdown_verdict_line_variants(
    line: str, passed: bool, confidence: float | None, key: str
) -> None:
    (parsed,) = parse_evaluator_reply(line).steps
    assert (parsed.passed, parsed.confidence, parsed.key, parsed.criterion) == (
        passed,
        confidence,
        key,
        "Uses hooks",
    )


def test_markdown_prose_and_totals_are_not_steps() -> None:
    text = (
        "Pass rate is high overall\n**Pass rate**: 80%\n- **Passed**: 4\nFailed: 1 of 5\n"
        "- **Fail**: Uses hooks"
    )
    assert [s.criterion for s in parse_evaluator_reply(text).steps] == ["Uses hooks"]


@pytest.mark.parametrize(
    "reply", ["", "I cannot evaluate this.", '{"steps": []}', "Total steps evaluated: 3"]
)
def test_unusable_replies_raise(reply: str) -> None:
    with pytest.raises(ReportParseError):
        parse_evaluator_reply(reply)


# -- matching --------------------------------------------------------------------------


def test_match_by_key_is_case_insensitive_and_beats_text() -> None:
    parsed = [step("No jQuery is used anywhere in the answer", key="a1")]
    assert match_steps(parsed, STEPS) == {"A1": parsed[0]}


def test_match_by_exact_text_ignores_case_space_and_punctuation() -> None:
    parsed = [
        step("todos are SAVED to   localStorage."),
        step("no jquery is used anywhere in the answer!"),
    ]
    assert match_steps(parsed, STEPS) == {"C1": parsed[0], "A2": parsed[1]}


def test_match_by_fuzzy_text_and_containment() -> None:
    parsed = [
        step("The component uses React hook instead of class component"),  # ratio well above 0.8
        step("Criterion: Todos are saved to localStorage (checked in App.jsx)"),  # contains ours
    ]
    assert match_steps(parsed, STEPS) == {"A1": parsed[0], "C1": parsed[1]}


def test_unrelated_and_unknown_keys_do_not_match() -> None:
    parsed = [step("The README explains deployment", key="Z9"), step("Uses TypeScript")]
    assert match_steps(parsed, STEPS) == {}


def test_each_verdict_is_used_once() -> None:
    parsed = [step("Todos are saved to localStorage", key="C1")]
    steps = STEPS + (
        CriterionStep("C2", "completeness", "Todos are saved to localStorage", 1.0, None),
    )
    assert match_steps(parsed, steps) == {"C1": parsed[0]}


def test_best_fuzzy_pair_wins_over_step_order() -> None:
    # C1 alone would take the first verdict (0.88), which fits C2 better (0.97) and is C2's only
    # match above 0.8; pairing the best pairs first gives both steps a verdict.
    steps = (
        CriterionStep("C1", "completeness", "Adds a todo item on Enter key", 1.0, None),
        CriterionStep("C2", "completeness", "Adds a todo item on Enter key press", 1.0, None),
    )
    parsed = [
        step("Adds a todo item on Enter key presses"),
        step("Adds a todo item with the Enter key"),
    ]
    assert match_steps(parsed, steps) == {"C2": parsed[0], "C1": parsed[1]}


# -- grades ----------------------------------------------------------------------------


def test_logprob_distribution_sums_token_variants_and_ignores_others() -> None:
    top = [
        (" 3", math.log(0.4)),
        ("3", math.log(0.2)),
        ("4", math.log(0.2)),
        ("**", math.log(0.15)),
        ("10", math.log(0.05)),
    ]
    dist, why = grade_distribution_from_logprobs(top)
    assert dist is not None and why is None
    assert dist == pytest.approx({1: 0.0, 2: 0.0, 3: 0.75, 4: 0.25})


def test_logprob_distribution_without_grades_is_none() -> None:
    dist, why = grade_distribution_from_logprobs([("The", -0.1), ("**", -2.0)])
    assert dist is None and why is not None and "no grade 1-4" in why
    assert grade_distribution_from_logprobs([]) == (None, "the provider gave no logprobs")


def test_a_grade_with_a_small_share_of_the_first_token_is_not_a_distribution() -> None:
    # The case: "1" at about 4% behind words; renormalising would make it {1: 1.0}.
    top = [("The", -2.17), ("You", -2.70), ("Your", -2.83), ("1", -3.20), ("A", -3.26)]
    dist, why = grade_distribution_from_logprobs(top)
    assert dist is None
    assert why is not None and "below 50%" in why and "'1' -3.20" in why


def test_grade_tokens_count_at_the_minimum_share_with_spaces_and_quotes() -> None:
    top = [
        (" 3", math.log(0.3)),
        ("'3", math.log(0.1)),
        ('"4', math.log(0.1)),
        ("The", math.log(0.5)),
    ]
    dist, why = grade_distribution_from_logprobs(top)  # grades hold exactly half: enough
    assert why is None and dist == pytest.approx({1: 0.0, 2: 0.0, 3: 0.8, 4: 0.2})
    top[0] = (" 3", math.log(0.29))
    assert grade_distribution_from_logprobs(top)[0] is None


@pytest.mark.parametrize(
    ("token", "grade"),
    [
        (" 3", 3),
        ("'3", 3),
        ('"3', 3),
        ("\u01203", 3),
        ("4", 4),
        ("5", None),
        ("3.", None),
        ("The", None),
    ],
)
def test_grade_token_recognises_decorated_digits(token: str, grade: int | None) -> None:
    assert grade_token(token) == grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("3", 3),
        ("Grade: 3", 3),
        ("**4**", 4),
        (" 2\n", 2),
        ("On a 1-4 scale: 3", 3),
        ("A1 and C2 pass; 2", 2),
        ("10", None),
        ("3.5", None),
        ("5", None),
        ("no grade", None),
    ],
)
def test_grade_from_text(text: str, grade: int | None) -> None:
    assert grade_from_text(text) == grade


def test_distribution_from_samples() -> None:
    assert distribution_from_samples([3, 3, 4, 2, 7]) == {1: 0.0, 2: 0.25, 3: 0.5, 4: 0.25}
    assert distribution_from_samples([]) == {}


def test_summary_of_a_confident_distribution() -> None:
    argmax, weighted, confident = summarise_distribution({1: 0.0, 2: 0.0, 3: 0.05, 4: 0.95})
    assert (argmax, confident) == (4, True) and weighted == pytest.approx(3.95)


def test_summary_ties_take_the_lowest_grade_and_are_not_confident() -> None:
    argmax, weighted, confident = summarise_distribution({2: 0.5, 3: 0.5})
    assert (argmax, confident) == (2, False) and weighted == pytest.approx(2.5)
    assert summarise_distribution({3: 0.9, 4: 0.1})[2] is False  # confidence needs more than 0.9


def test_summary_of_an_empty_distribution_raises() -> None:
    with pytest.raises(ValueError):
        summarise_distribution({})
