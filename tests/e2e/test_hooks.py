"""The hooks in pytest_llmbench/hookspecs.py, implemented from a conftest.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import read_leaderboard, read_results

CONFTEST = """
import time
from pytest_llmbench import Model, ModelReply

class Constant(Model):
    offline = False

    def __init__(self, name):
        self.name = name

    async def complete(self, request):
        return ModelReply(model=self.name, text="export function greet(name) {}\\n",
                          latency_s=0.5, prompt_tokens=7, completion_tokens=10)

def pytest_llmbench_make_model(name, settings):
    if name.startswith("mine/"):
        return Constant(name)
    return None

def pytest_llmbench_leaderboard(leaderboard, config):
    leaderboard.team = "platform"
"""


def test_conftest_provides_a_model_and_extends_the_leaderboard(
    pytester: pytest.Pytester, project: Path
) -> None:
    pytester.makeconftest(CONFTEST)
    result = pytester.runpytest("--llm-model=mine/constant,llmbench/reference", "-k", "AddGreeting")
    result.assert_outcomes(passed=2)
    items = {r["model"]: r for r in read_results(project)}
    mine = items["mine/constant"]
    assert mine["attempts"][0]["answer"].startswith("export function greet")
    assert mine["generation_rate"] == pytest.approx(20.0)
    board = read_leaderboard(project)
    assert board["leaderboard"]["team"] == "platform"
    assert board["leaderboard"]["max_rate"] == pytest.approx(20.0)


def test_markers_are_registered_for_strict_markers(
    pytester: pytest.Pytester, project: Path
) -> None:
    result = pytester.runpytest(
        "--strict-markers", "--collect-only", "-q", "-m", "generation or migration"
    )
    result.stdout.fnmatch_lines(["1/2 tests collected (1 deselected)*"])
    markers = pytester.runpytest("--markers").stdout.str()
    for name in ("migration:", "complexity_high:", "size_avg:"):
        assert name in markers


def test_a_hook_model_that_is_no_model_is_one_line_on_its_items(
    pytester: pytest.Pytester, project: Path
) -> None:
    pytester.makeconftest(
        "class Duck:\n"
        "    name = 'mine/duck'\n"
        "    async def complete(self, request):\n"
        "        raise AssertionError('never asked')\n"
        "def pytest_llmbench_make_model(name, settings):\n"
        "    return Duck() if name.startswith('mine/') else None\n"
    )
    result = pytester.runpytest("--llm-model=mine/duck", "-k", "AddGreeting")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*returned Duck for 'mine/duck': a model must subclass*"])
    assert "Traceback" not in result.stdout.str() and "INTERNALERROR" not in result.stdout.str()
