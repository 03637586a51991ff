"""Bad input gets one line naming the file, field or option, never an INTERNALERROR."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import EXPLAIN_SCENARIO, read_results, write_project


def _assert_one_line_error(result: pytest.RunResult, *patterns: str) -> None:
    output = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in output
    assert "Traceback" not in output
    lines = [line for line in output.splitlines() if all(p in line for p in patterns)]
    assert lines, f"no line with {patterns} in:\n{output}"


@pytest.mark.parametrize(
    ("yaml_text", "field", "problem"),
    [
        (
            EXPLAIN_SCENARIO.replace("category: explanation", "category: poetry"),
            "category",
            "unknown category 'poetry'",
        ),
        (
            EXPLAIN_SCENARIO.replace("datasets: [Mini]", "datasets: [Nope]"),
            "datasets.0",
            "dataset 'Nope' not found",
        ),
        (
            EXPLAIN_SCENARIO.replace("Explain this code.", "Explain {{ missing }}."),
            "prompt",
            "'missing' is undefined",
        ),
        (
            EXPLAIN_SCENARIO.replace("Explain this code.", "Explain {% if %}."),
            "prompt",
            "template error on line 1",
        ),
        (EXPLAIN_SCENARIO.replace("prompt: |", "promt: |"), "promt", "unknown field"),
        (
            EXPLAIN_SCENARIO.replace(
                "prompt: |\n  Explain this code.\n  {{ dataset | inline_files }}\n", ""
            ),
            "prompt",
            "required field is missing",
        ),
        (
            EXPLAIN_SCENARIO.replace(
                'check: {contains: "add(a, b)"}', "check: {contains: x, regex: y}"
            ),
            "criteria.accuracy.0.check",
            "exactly one of",
        ),
        (
            EXPLAIN_SCENARIO.replace('check: {contains: "add(a, b)"}', "weight: -1"),
            "criteria.accuracy.0.weight",
            "greater than 0",
        ),
        ("id: X\n  bad: [", "line", "not valid YAML"),
    ],
)
def test_malformed_scenario_is_one_collection_error_line(
    pytester: pytest.Pytester, yaml_text: str, field: str, problem: str
) -> None:
    write_project(pytester.path, {"explanation/ExplainMini.yaml": yaml_text})
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.INTERRUPTED
    _assert_one_line_error(result, "scenarios/explanation/ExplainMini.yaml", field, problem)


def test_category_must_match_folder(pytester: pytest.Pytester) -> None:
    write_project(pytester.path, {"analysis/ExplainMini.yaml": EXPLAIN_SCENARIO})
    result = pytester.runpytest()
    _assert_one_line_error(result, "ExplainMini.yaml: category", "scenarios/analysis/")


def test_missing_dataset_manifest(pytester: pytest.Pytester, project: Path) -> None:
    (project / "datasets" / "javascript" / "Mini" / "dataset.yaml").unlink()
    result = pytester.runpytest()
    _assert_one_line_error(result, "dataset 'Mini' not found")


@pytest.mark.parametrize(
    ("args", "env", "patterns"),
    [
        (["--llm-attempts=0"], {}, ["--llm-attempts", "whole number >= 1"]),
        (["--llm-attempts=three"], {}, ["--llm-attempts", "'three'"]),
        (["--llm-temperature=3"], {}, ["--llm-temperature", "<= 2.0"]),
        (["--llm-timeout=0"], {}, ["--llm-timeout", "> 0.0"]),
        (
            ["--llm-model=llmbench/nope"],
            {},
            ["--llm-model", "unknown built-in model 'llmbench/nope'"],
        ),
        (["--llm-judge=llmbench/echo"], {}, ["--llm-judge", "offline model and cannot judge"]),
        (["--llm-grader=openai/x"], {}, ["--llm-grader", "needs at least one --llm-judge"]),
        ([], {"LLMBENCH_ATTEMPTS": "-2"}, ["LLMBENCH_ATTEMPTS", "whole number >= 1"]),
        (["--llm-concurrency=0"], {}, ["--llm-concurrency", "whole number >= 1"]),
        (["--llm-max-retries=-1"], {}, ["--llm-max-retries", "whole number >= 0"]),
        (["--llm-cache=maybe"], {}, ["--llm-cache", "on|off|refresh|replay", "'maybe'"]),
        (["--llm-budget-usd=0"], {}, ["--llm-budget-usd", "> 0.0"]),
        # quality (Acc + Compl)/8 is 0.25-1: a gate below 0.25 passes everything
        (["--llm-min-quality=0.1"], {}, ["--llm-min-quality", ">= 0.25 and <= 1.0"]),
        (["--llm-price=openai/x=1"], {}, ["--llm-price", "MODEL=IN/OUT", "'openai/x=1'"]),
        ([], {"LLMBENCH_RESUME": "perhaps"}, ["LLMBENCH_RESUME", "true or false"]),
        (
            ["--llm-tool-protocol=openai/x=json"],
            {},
            [
                "--llm-tool-protocol",
                "auto|native|text or MODEL=auto|native|text",
                "'openai/x=json'",
            ],
        ),
    ],
)
def test_bad_option_is_one_usage_error_line(
    pytester: pytest.Pytester,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    env: dict[str, str],
    patterns: list[str],
) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    _assert_one_line_error(result, *patterns)


def test_bad_ini_value_names_the_ini_key(pytester: pytest.Pytester, project: Path) -> None:
    pytester.makeini("[pytest]\nllm_max_tokens = lots\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    _assert_one_line_error(result, "ini llm_max_tokens", "'lots'")


def test_bad_ini_price_names_the_ini_key(pytester: pytest.Pytester, project: Path) -> None:
    pytester.makeini("[pytest]\nllm_price = openai/a=1/2 openai/b=cheap/2\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    _assert_one_line_error(result, "ini llm_price", "'openai/b=cheap/2'")


def test_cli_wins_over_env_and_ini(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeini("[pytest]\nllm_model = llmbench/echo\n")
    monkeypatch.setenv("LLMBENCH_MODEL", "llmbench/reference")
    collected = pytester.runpytest("--collect-only", "-q")
    collected.stdout.fnmatch_lines(["*-llmbench/reference]", "2 tests collected*"])
    cli = pytester.runpytest("--collect-only", "-q", "--llm-model=llmbench/echo")
    cli.stdout.fnmatch_lines(["*-llmbench/echo]", "2 tests collected*"])


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["no-xdist", "n2"])
def test_a_missing_api_key_stops_the_run_before_any_call(
    pytester: pytest.Pytester,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    xdist: list[str],
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = pytester.runpytest("--llm-model=llmbench/reference,anthropic/claude-x", *xdist)
    # Alone the run stops as a usage error; under xdist the controller stops it.
    expected = pytest.ExitCode.INTERRUPTED if xdist else pytest.ExitCode.USAGE_ERROR
    assert result.ret == expected
    _assert_one_line_error(result, "anthropic/claude-x", "no API key", "ANTHROPIC_API_KEY")
    assert result.parseoutcomes().get("passed", 0) == 0  # the offline model did not run either
    # No model answered: an item pytest reported (the worker's first, failed with that
    # line) is recorded as the error it was, never as an answer.
    results = (
        read_results(pytester.path)
        if (pytester.path / "reports" / "results.jsonl").exists()
        else []
    )
    assert all(r["status"] == "error" and not r["attempts"] for r in results)
