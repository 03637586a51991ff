"""Regex checks are bounded: a time limit per search, and the catalogue's patterns run in
linear time on answers built to make a backtracking pattern slow."""

from __future__ import annotations

import time

import pytest
import regex

from pytest_llmbench.code import checks
from pytest_llmbench.code.checks import run_check
from pytest_llmbench.formats.criteria import Check
from tests.adversarial import adversarial_answers, catalogue_regexes
from tests.conftest import REPO

CATALOGUE = catalogue_regexes(REPO / "scenarios")
# What a linear pattern needs on 50 KB, with a wide margin for a loaded machine; the
# matcher's own timeout says whether it was crossed (no wall clock of the test runner).
CATALOGUE_LIMIT_S = 0.5
# Alternations of line-bounded branches (`A[^\n]*B|C[^\n]*D`): quadratic in the length of
# one line made of the first word; every linear rewrite tried hit a slow path of the
# `regex` engine on alternations. Left to the check's time limit, and marked here.
QUADRATIC_IN_LINE = {
    r"(?i)JSON\.parse[^\n]*(try|catch|corrupt|invalid|malformed|crash|throw)|(corrupt|malformed|invalid)[^\n]*JSON",
    r"(?i)(deprecated|legacy|unsafe)[^\n]*(findDOMNode|string ref|componentWillReceiveProps)"
    r"|(findDOMNode|string ref|componentWillReceiveProps)[^\n]*(deprecated|legacy|unsafe)",
    r"(?i)\b140\b[^\n]*(edit|inconsisten)|edit[^\n]*\b140\b",
    r"(?i)querySelector[^\n]*(\bref\b|refs?\b|DOM)|direct DOM",
}  # fmt: skip


def test_a_catastrophic_pattern_is_a_recorded_check_error_not_a_hang(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(checks, "REGEX_TIME_LIMIT_S", 0.5)
    answer = "x" * 5000  # the search tries every way to split the x's between the two x+
    start = time.monotonic()
    verdict = run_check(Check(regex=r"(x+x+)+y"), answer)
    assert time.monotonic() - start < 30  # ended by the limit (loaded machines overshoot it)
    assert verdict is not None and not verdict.passed
    assert verdict.reason.startswith("check error: /(x+x+)+y/ exceeded the 0.5 s time limit")


def test_the_catalogue_has_regex_checks() -> None:
    assert len(CATALOGUE) > 300


@pytest.mark.parametrize(
    ("where", "pattern", "ignore_case"),
    [
        pytest.param(
            # Not strict: near the limit (0.3-0.6 s) these pass or fail with the machine's speed.
            w,
            p,
            c,
            marks=[pytest.mark.xfail(strict=False)] if p in QUADRATIC_IN_LINE else [],
        )
        for w, p, c in CATALOGUE
    ],
    ids=[f"{w}:{i}" for i, (w, _, _) in enumerate(CATALOGUE)],
)
def test_catalogue_regex_is_linear_on_adversarial_answers(
    where: str, pattern: str, ignore_case: bool
) -> None:
    flags = regex.MULTILINE | (regex.IGNORECASE if ignore_case else 0)
    compiled = regex.compile(pattern, flags)
    slow = []
    for name, answer in adversarial_answers(pattern):
        try:
            compiled.search(answer, timeout=CATALOGUE_LIMIT_S)
        except TimeoutError:
            slow.append(name)
    assert not slow, f"{where}: /{pattern}/ exceeds {CATALOGUE_LIMIT_S} s on: {', '.join(slow)}"
