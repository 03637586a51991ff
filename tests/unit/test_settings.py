"""Settings: one declaration per option gives the options, their values and the README table."""

from __future__ import annotations

import argparse
import re
from dataclasses import asdict
from pathlib import Path

import pytest

from pytest_llmbench.settings import Settings, options_table, resolve
from tests.conftest import REPO


def test_the_readme_options_table_is_generated_from_the_declarations() -> None:
    readme = (REPO / "README.md").read_text()
    block = re.search(r"<!-- options:start -->\n(.*?)<!-- options:end -->", readme, re.DOTALL)
    assert block, "README.md has no <!-- options:start --> ... <!-- options:end --> block"
    assert block.group(1) == options_table(), (
        "README.md's options table is stale: replace it with `python -m pytest_llmbench.settings`"
    )


def test_the_table_lists_every_option_with_its_names_and_default() -> None:
    rows = options_table().splitlines()[2:]
    assert len(rows) == len(Settings.__dataclass_fields__)
    assert "| `--llm-max-retries` | `LLMBENCH_MAX_RETRIES` / `llm_max_retries` | 5 |" in rows[13]
    assert rows[17].startswith("| `--llm-resume` | `LLMBENCH_RESUME` / `llm_resume` | off |")


def _resolved(pytester: pytest.Pytester, *args: str) -> Settings:
    return resolve(pytester.parseconfig(*args))


def test_command_line_wins_over_environment_over_ini_over_default(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeini(
        "[pytest]\nllm_attempts = 4\nllm_timeout = 30\nllm_model = openai/a openai/b,openai/a\n"
    )
    monkeypatch.setenv("LLMBENCH_ATTEMPTS", "5")
    monkeypatch.setenv("LLMBENCH_TIMEOUT", "")  # an empty variable counts as not set
    assert _resolved(pytester, "--llm-attempts=6").attempts == 6
    settings = _resolved(pytester)
    assert settings.attempts == 5
    assert settings.timeout == 30.0
    assert settings.models == ("openai/a", "openai/b")  # split, comma lists too, once each
    assert settings.grader_samples == 5
    monkeypatch.delenv("LLMBENCH_ATTEMPTS")
    assert _resolved(pytester).attempts == 4


def test_defaults_and_derived_values(pytester: pytest.Pytester, tmp_path: Path) -> None:
    settings = _resolved(pytester)
    assert settings.models == ("llmbench/reference",) and settings.judges == ()
    assert settings.grader is None and settings.prices == {} and not settings.resume
    assert settings.tool_protocol("openai/x") == "auto"
    assert settings.report_dir == pytester.path / "reports"
    assert settings.cache_dir == pytester.path / ".llmbench_cache"
    assert settings.replay_dir is None
    settings = _resolved(
        pytester,
        "--llm-judge=openai/j1,openai/j2",
        "--llm-price=openai/m=1/2.5",
        "--llm-tool-protocol=text,openai/m=native",
        "--llm-report-dir=out",
        f"--llm-cache-dir={tmp_path}",
        "--llm-resume",
    )
    assert settings.judges == ("openai/j1", "openai/j2")
    assert settings.grader == "openai/j1"  # the first judge
    assert settings.prices == {"openai/m": (1.0, 2.5)}
    assert settings.tool_protocol("openai/m") == "native"
    assert settings.tool_protocol("openai/x") == "text"
    assert settings.report_dir == pytester.path / "out"
    assert settings.cache_dir == tmp_path  # an absolute path stays as it is
    assert settings.resume is True


def test_hidden_tests_run_by_default_and_feedback_is_asked_for(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _resolved(pytester)
    assert (settings.functional, settings.feedback) == (True, False)
    settings = _resolved(pytester, "--llm-feedback")
    assert (settings.functional, settings.feedback) == (True, True)
    monkeypatch.setenv("LLMBENCH_FUNCTIONAL", "off")
    assert _resolved(pytester).functional is False
    with pytest.raises(pytest.UsageError, match=r"^LLMBENCH_FUNCTIONAL: expected true or false"):
        monkeypatch.setenv("LLMBENCH_FUNCTIONAL", "sometimes")
        _resolved(pytester)


def test_the_leaderboard_keeps_its_settings_keys_in_order(pytester: pytest.Pytester) -> None:
    assert list(asdict(_resolved(pytester))) == [
        "models", "judges", "grader", "api_base", "attempts", "temperature", "max_tokens",
        "timeout", "grader_samples", "report_dir", "score_formula", "min_quality", "concurrency",
        "max_retries", "retry_backoff", "cache", "cache_dir", "resume", "budget_usd", "prices",
        "replay_dir", "tool_protocols",
        # Options added since: after the ones leaderboard.json always had.
        "scenario_roots", "judge_max_tokens", "grader_max_tokens", "context_windows",
        "structured_outputs", "functional", "feedback", "min_functional", "estimate", "batch",
    ]  # fmt: skip


def test_a_renamed_option_reads_its_former_names_after_the_current_ones(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_llmbench.settings import deprecations

    pytester.makeini("[pytest]\nllm_min_score = 0.5\n")
    config = pytester.parseconfig()
    assert resolve(config).min_quality == 0.5
    assert deprecations(config) == [
        "ini llm_min_score is deprecated: use ini llm_min_quality (same values)"
    ]
    monkeypatch.setenv("LLMBENCH_MIN_SCORE", "0.6")  # the environment wins over the ini
    config = pytester.parseconfig()
    assert resolve(config).min_quality == 0.6
    assert deprecations(config) == [
        "LLMBENCH_MIN_SCORE is deprecated: use LLMBENCH_MIN_QUALITY (same values)"
    ]
    monkeypatch.setenv("LLMBENCH_MIN_QUALITY", "0.7")  # the current name wins in its place
    config = pytester.parseconfig()
    assert (resolve(config).min_quality, deprecations(config)) == (0.7, [])
    config = pytester.parseconfig("--llm-min-score=0.8")
    assert resolve(config).min_quality == 0.8
    assert deprecations(config) == [
        "--llm-min-score is deprecated: use --llm-min-quality (same values)"
    ]
    assert "(formerly `--llm-min-score`, still read, deprecated)" in options_table()


def test_a_bad_ini_value_names_the_ini_key(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nllm_cache = maybe\n")
    with pytest.raises(pytest.UsageError, match=r"^ini llm_cache: expected one of on\|off"):
        _resolved(pytester)


def test_every_formula_the_option_accepts_is_defined() -> None:
    """--llm-score-formula checks names against the vocabulary; the formulas are defined in
    judging/formulas.py: the two lists are the same."""
    from pytest_llmbench.judging.formulas import FORMULAS
    from pytest_llmbench.option_values import formula_name
    from pytest_llmbench.schema.vocabulary import FORMULA_NAMES

    assert sorted(FORMULAS) == sorted(FORMULA_NAMES)
    assert formula_name(" unit ") == "unit"
    with pytest.raises(argparse.ArgumentTypeError, match="accepted: weighted, sum8"):
        formula_name("best")


def test_model_names_are_checked_by_the_registry() -> None:
    from pytest_llmbench.option_values import model_name

    assert model_name("llmbench/replay/NovaPro") == "llmbench/replay/NovaPro"
    assert model_name("openai/gpt-4o-mini") == "openai/gpt-4o-mini"
    with pytest.raises(argparse.ArgumentTypeError, match=r"built-in models: .*llmbench/replay\["):
        model_name("llmbench/nope")
    with pytest.raises(argparse.ArgumentTypeError, match="expected a model name"):
        model_name("two words")
