"""Paired statistics end to end, against the local server: two candidates that differ on
a few items only are told apart by the paired test while their own intervals overlap;
two candidates with identical answers share their rank."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import read_leaderboard, write_project
from tests.llm_server import FakeLLMServer, text_of

SCENARIOS = 30
# Scenarios where "openai/better" writes one more of the words the criteria ask for.
DIFFER = {1, 5, 9, 13, 17, 21, 25, 29}
WORDS = ("a1", "c1", "a2", "c2")


def _scenario(k: int) -> str:
    words = [f"w{k:02d}{w}" for w in WORDS]
    return f"""\
id: Explain{k:02d}
category: explanation
datasets: [Mini]
prompt: |
  Explain part {k:02d} of this code.
  {{{{ dataset | inline_files }}}}
references:
  Mini: "{" ".join(words)}"
criteria:
  accuracy:
    - Mentions {words[0]}
    - Mentions {words[2]}
  completeness:
    - Mentions {words[1]}
    - Mentions {words[3]}
"""


def _answer(body: dict[str, Any]) -> str:
    """Item k gets (3k mod 4) of its words, the better model one more on DIFFER: items
    differ widely in score, the two models on 8 of 30 only."""
    prompt = " ".join(text_of(m.get("content")) for m in body["messages"])
    k = int(re.search(r"Explain part (\d+)", prompt).group(1))  # type: ignore[union-attr]
    count = (3 * k) % 4 + (body["model"] == "better" and k in DIFFER)
    return " ".join(f"w{k:02d}{w}" for w in WORDS[:count]) or "nothing"


def _run(pytester: pytest.Pytester, server: FakeLLMServer, models: str, *extra: str) -> Any:
    server.policy.candidate = _answer
    server.policy.verdict = lambda sid, criterion, answer: criterion.split()[-1] in answer
    result = pytester.runpytest(
        f"--llm-model={models}",
        "--llm-judge=openai/judge",
        f"--llm-api-base={server.base_url}",
        "--llm-attempts=1",
        "--llm-score-formula=sum8",  # no rate term: the scores are the answers' alone
        *extra,
    )
    return result


@pytest.fixture
def many(pytester: pytest.Pytester) -> Path:
    return write_project(
        pytester.path, {f"explanation/Explain{k:02d}.yaml": _scenario(k) for k in range(SCENARIOS)}
    )


def test_paired_test_finds_what_the_intervals_do_not(
    pytester: pytest.Pytester, many: Path, llm_server: FakeLLMServer
) -> None:
    _run(pytester, llm_server, "openai/better,openai/plain").assert_outcomes(passed=60)
    board = read_leaderboard(many)["leaderboard"]
    rows = {r["model"]: r for r in board["models"]}
    better, plain = rows["openai/better"], rows["openai/plain"]
    # The per-model 95% intervals overlap: on their own they cannot tell the two apart.
    assert better["score_ci"][0] < plain["score_ci"][1]
    (pair,) = board["pairs"]
    assert (pair["a"], pair["b"], pair["items"]) == ("openai/better", "openai/plain", 60 // 2)
    assert pair["difference_ci"][0] > 0
    assert pair["p_holm"] < 0.05 and pair["significant"]
    assert (better["rank"], plain["rank"]) == ("1", "2")
    text = (many / "reports" / "leaderboard.md").read_text()
    assert (
        "## Pairwise comparisons" in text and "| openai/better | openai/plain | 30 (30) |" in text
    )


def test_identical_answers_share_the_rank(
    pytester: pytest.Pytester, many: Path, llm_server: FakeLLMServer
) -> None:
    _run(pytester, llm_server, "openai/plain,openai/twin", "-k", "Explain0").assert_outcomes(
        passed=20
    )
    board = read_leaderboard(many)["leaderboard"]
    (pair,) = board["pairs"]
    assert pair["difference"] == 0 and pair["difference_ci"] == [0, 0] and pair["p"] == 1
    assert [r["rank"] for r in board["models"]] == ["1-2", "1-2"]


def test_a_judge_of_the_candidates_family_marks_its_row(
    pytester: pytest.Pytester, project: Path, llm_server: FakeLLMServer
) -> None:
    result = pytester.runpytest(
        "--llm-model=openai/gpt-4o-mini",
        "--llm-judge=openai/gpt-4o,openai/claude-judge",
        f"--llm-api-base={llm_server.base_url}",
        "--llm-attempts=1",
        "-k",
        "ExplainMini",
    )
    result.assert_outcomes(passed=1)
    (row,) = read_leaderboard(project)["leaderboard"]["models"]
    assert row["own_family_judges"] == ["openai/gpt-4o"]
    assert row["marks"] == ["judged by its own family: openai/gpt-4o"]
    # The server's judges agree, so the other judge alone gives the same score.
    assert row["score_other_judges"] == pytest.approx(row["score"])
    text = (project / "reports" / "leaderboard.md").read_text()
    assert "openai/gpt-4o-mini [judged by its own family: openai/gpt-4o]" in text
