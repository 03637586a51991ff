"""Bad options, environment and ini values, report dirs and cache dirs: one usage-error line
naming the option, before any model call (the cases test_user_errors.py has are not repeated)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bad_inputs.builders import write
from tests.conftest import write_project

# (kind, command-line args, environment, ini lines, patterns of the one line); "{tmp}" is
# the project folder, where `a-file` is a file and `reports-taken` a report dir whose
# results.jsonl and `reports-taken2` whose leaderboard.json are folders.
OPTION_CASES: list[tuple[str, list[str], dict[str, str], str, list[str]]] = [
    ("budget-nan", ["--llm-budget-usd=nan"], {}, "", ["--llm-budget-usd", "finite", "'nan'"]),
    ("budget-inf", ["--llm-budget-usd=inf"], {}, "", ["--llm-budget-usd", "finite"]),
    ("budget-minus-inf", ["--llm-budget-usd=-inf"], {}, "", ["--llm-budget-usd", "finite"]),
    ("min-quality-nan", ["--llm-min-quality=NaN"], {}, "", ["--llm-min-quality", "finite"]),
    ("temperature-nan", ["--llm-temperature=nan"], {}, "", ["--llm-temperature", "finite"]),
    ("timeout-inf", ["--llm-timeout=Infinity"], {}, "", ["--llm-timeout", "finite"]),
    ("backoff-nan", ["--llm-retry-backoff=nan"], {}, "", ["--llm-retry-backoff", "finite"]),
    ("price-nan", ["--llm-price=openai/x=nan/1"], {}, "", ["--llm-price", "MODEL=IN/OUT"]),
    ("price-inf", ["--llm-price=openai/x=1/inf"], {}, "", ["--llm-price", "MODEL=IN/OUT"]),
    ("env-budget-nan", [], {"LLMBENCH_BUDGET_USD": "NaN"}, "", ["LLMBENCH_BUDGET_USD", "finite"]),
    ("env-temperature-word", [], {"LLMBENCH_TEMPERATURE": "warm"}, "", ["LLMBENCH_TEMPERATURE"]),
    ("ini-min-score-inf", [], {}, "llm_min_score = inf", ["ini llm_min_score", "finite"]),
    ("ini-timeout-negative", [], {}, "llm_timeout = -1", ["ini llm_timeout", "> 0.0"]),
    ("attempts-float", ["--llm-attempts=1e3"], {}, "", ["--llm-attempts", "whole number"]),
    ("attempts-5000-digits", ["--llm-attempts=" + "9" * 5000], {}, "", ["--llm-attempts"]),
    ("max-tokens-zero", ["--llm-max-tokens=0"], {}, "", ["--llm-max-tokens", ">= 1"]),
    ("grader-samples-zero", ["--llm-grader-samples=0"], {}, "", ["--llm-grader-samples"]),
    ("timeout-blank", ["--llm-timeout= "], {}, "", ["--llm-timeout", "expected a number"]),
    ("formula-unknown", ["--llm-score-formula=best"], {}, "", ["--llm-score-formula", "'best'"]),
    (
        "report-dir-file",
        ["--llm-report-dir=a-file"],
        {},
        "",
        ["--llm-report-dir", "a-file is a file"],
    ),
    (
        "report-dir-under-file",
        ["--llm-report-dir=a-file/r"],
        {},
        "",
        ["--llm-report-dir", "a-file/r"],
    ),
    ("report-dir-proc", ["--llm-report-dir=/proc/llmbench"], {}, "", ["--llm-report-dir", "/proc"]),
    (
        "report-results-folder",
        ["--llm-report-dir=reports-taken"],
        {},
        "",
        ["results.jsonl is a folder"],
    ),
    (
        "report-board-folder",
        ["--llm-report-dir=reports-taken2"],
        {},
        "",
        ["leaderboard.json is a folder"],
    ),
    (
        "env-report-dir-file",
        [],
        {"LLMBENCH_REPORT_DIR": "a-file"},
        "",
        ["--llm-report-dir", "is a file"],
    ),
    ("cache-dir-file", ["--llm-cache-dir=a-file"], {}, "", ["--llm-cache-dir", "a-file is a file"]),
    ("cache-dir-under-file", ["--llm-cache-dir=a-file/c"], {}, "", ["--llm-cache-dir", "a-file/c"]),
    ("cache-dir-proc", ["--llm-cache-dir=/proc/llmbench"], {}, "", ["--llm-cache-dir", "/proc"]),
    ("ini-cache-dir-file", [], {}, "llm_cache_dir = a-file", ["--llm-cache-dir", "is a file"]),
]


def _layout(root: Path) -> None:
    write_project(root)
    write(root, "a-file", "not a folder\n")
    (root / "reports-taken" / "results.jsonl").mkdir(parents=True)
    (root / "reports-taken2" / "leaderboard.json").mkdir(parents=True)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("args", "env", "ini", "patterns"),
    [case[1:] for case in OPTION_CASES],
    ids=[case[0] for case in OPTION_CASES],
)
def test_bad_option_is_one_line_before_any_call(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    env: dict[str, str],
    ini: str,
    patterns: list[str],
) -> None:
    _layout(pytester.path)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    if ini:
        pytester.makeini(f"[pytest]\n{ini}\n")
    result = pytester.runpytest("--collect-only", "-q", *args)
    output = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR, output
    assert "Traceback" not in output and "INTERNALERROR" not in output
    lines = [line for line in output.splitlines() if all(p in line for p in patterns)]
    assert len(lines) == 1, output
    assert not (pytester.path / "a-file" / "r").exists()


def test_the_folder_checks_leave_nothing_behind(pytester: pytest.Pytester) -> None:
    """A report or cache dir that does not exist yet is tried and removed again; one that
    is off (--llm-cache=off) is not checked at all (documented tolerance)."""
    _layout(pytester.path)
    result = pytester.runpytest(
        "--collect-only",
        "-q",
        "--llm-report-dir=new/reports",
        "--llm-cache=off",
        "--llm-cache-dir=a-file",
    )
    assert result.ret == pytest.ExitCode.OK
    assert not (pytester.path / "new").exists()
