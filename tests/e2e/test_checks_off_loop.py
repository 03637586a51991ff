"""A regex check that backtracks for seconds runs in a worker thread and ends at its time
limit as a recorded check error, while the other items go on with all their attempts.
(How long the other calls take beside it is a timing: no test asserts one.)"""

from __future__ import annotations

import pytest

from tests.conftest import read_results, write_project
from tests.llm_server import FakeLLMServer

CHECKED = """\
id: {id}
category: explanation
datasets: [Mini]
prompt: |
  {prompt}
  {{{{ dataset | inline_files }}}}
criteria:
  accuracy:
    - criterion: the answer has the shape
      check: {{regex: "{regex}"}}
  completeness:
    - criterion: never there, so every attempt is made
      check: {{contains: "zzz-never"}}
"""
LATENCY = 0.5


@pytest.mark.timeout(300)
def test_a_slow_check_neither_blocks_nor_inflates_other_calls(
    pytester: pytest.Pytester, llm_server: FakeLLMServer
) -> None:
    scenarios = {
        "explanation/SlowCheck.yaml": CHECKED.format(
            id="SlowCheck", prompt="Slow check please.", regex="(x+x+)+y"
        )
    }
    for i in range(4):
        scenarios[f"explanation/Plain{i}.yaml"] = CHECKED.format(
            id=f"Plain{i}", prompt=f"Plain answer please ({i}).", regex="answer"
        )
    write_project(pytester.path, scenarios)
    llm_server.policy.latency = LATENCY
    llm_server.policy.candidate = lambda body: (
        "x" * 5000 if "Slow check" in str(body["messages"]) else "a plain answer"
    )
    result = pytester.runpytest(
        "--llm-model=openai/cand",
        f"--llm-api-base={llm_server.base_url}",
        "--llm-attempts=3",
        "--llm-cache=off",
        "--llm-concurrency=8",
    )
    result.assert_outcomes(passed=5)
    items = {r["scenario"]: r for r in read_results(pytester.path)}
    slow = items["SlowCheck"]["attempts"][0]["steps"][0]["check"]
    assert slow["passed"] is False and slow["reason"].startswith("check error: /(x+x+)+y/")
    latencies = [
        a["answer_latency_s"]
        for name, r in items.items()
        if name != "SlowCheck"
        for a in r["attempts"]
    ]
    assert len(latencies) == 12
