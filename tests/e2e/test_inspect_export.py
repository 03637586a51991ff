"""`llmbench export --format inspect`: a judged run's report dir read back by inspect_ai's
own reader, one log per model, every item a sample with our grades, the leaderboard's
means as the results."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_llmbench.cli import main
from tests.conftest import model_row, read_leaderboard, read_results
from tests.llm_server import FakeLLMServer

inspect_log = pytest.importorskip("inspect_ai.log")


def test_a_judged_run_reads_back_in_inspect(
    pytester: pytest.Pytester,
    project: Path,
    llm_server: FakeLLMServer,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The judge fails the steps that mention "template" or "sum", so grades differ by item.
    llm_server.policy.verdict = lambda sid, text, answer: (
        "template" not in text and "sum" not in text
    )
    pytester.runpytest(
        "--llm-model=openai/cand,llmbench/echo",
        "--llm-judge=openai/judge",
        f"--llm-api-base={llm_server.base_url}",
        "--llm-attempts=1",
    ).assert_outcomes(passed=4)
    capsys.readouterr()
    assert main(["export", "--format", "inspect", "reports", "-o", "inspect-logs"]) == 0
    assert "exported 4 items of 2 models" in capsys.readouterr().out
    results = read_results(project)
    board = read_leaderboard(project)
    logs = [inspect_log.read_eval_log(str(p)) for p in sorted(Path("inspect-logs").glob("*.json"))]
    assert sorted(log.eval.model for log in logs) == ["llmbench/echo", "openai/cand"]
    listed = inspect_log.list_eval_logs(str(Path("inspect-logs").resolve()))
    assert sorted(Path(info.name).name for info in listed) == sorted(
        p.name for p in Path("inspect-logs").glob("*.json")
    )  # what `inspect view --log-dir` lists
    for log in logs:
        mine = {
            f"{r['scenario']}-{r['dataset']}": r for r in results if r["model"] == log.eval.model
        }
        assert log.status == "success" and log.samples is not None
        assert {s.id for s in log.samples} == set(mine)
        for found in log.samples:
            item = mine[str(found.id)]
            attempt = item["attempts"][0]
            assert found.epoch == 1 and found.input == item["prompt"]
            assert found.output.completion == attempt["answer"]
            assert [m.role for m in found.messages] == ["user", "assistant"]
            scores = found.scores or {}
            assert scores["accuracy"].value == pytest.approx(item["accuracy"])
            assert scores["completeness"].value == pytest.approx(item["completeness"])
            assert scores["quality"].value == pytest.approx(attempt["quality"])
            for metric in ("accuracy", "completeness"):
                grades = (scores[metric].metadata or {})["grades"]
                assert grades == [{k: g[k] for k in grades[0]} for g in attempt[metric]["grades"]]
                assert grades[0]["judge"] == "openai/judge"
                explanation = scores[metric].explanation or ""
                for step in attempt["steps"]:
                    if step["metric"] == metric:
                        assert step["judges"]["openai/judge"]["reason"] in explanation
            assert found.metadata["scenario"] == item["scenario"]
            assert found.metadata["complexity"] == item["complexity"]
            assert found.error is None
        row = model_row(board, log.eval.model)
        assert log.results is not None
        means = {s.name: s.metrics["mean"].value for s in log.results.scores}
        assert means["accuracy"] == pytest.approx(row["accuracy"])
        assert means["completeness"] == pytest.approx(row["completeness"])
        assert means["score"] == pytest.approx(row["score"])
        sample_scores = [(s.scores or {})["score"].value for s in log.samples]
        assert means["score"] == pytest.approx(sum(sample_scores) / len(sample_scores))
        assert log.results.total_samples == row["items"] == 2
        assert log.stats.model_usage[log.eval.model].total_tokens == sum(
            r["candidate_usage"]["prompt_tokens"] + r["candidate_usage"]["completion_tokens"]
            for r in results
            if r["model"] == log.eval.model
        )
