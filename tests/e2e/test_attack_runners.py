"""The attack corpus one answer at a time, at the runner level: the answer's files go
straight to run_functional (the code the pipeline calls after parsing the reply), with
the same assertions as test_attacks.py. For working on one attack or one runner:
`-k "node/exit-zero"` or `-k junit-mutation` runs just those, in seconds; the whole
corpus costs as much as test_attacks.py, which runs it through the full pipeline."""

from __future__ import annotations

import os

import pytest

from pytest_llmbench.functional.verify import run_functional
from pytest_llmbench.tasks.functional import answer_files
from tests.attack_corpus import Answer, answers, dataset_of, functional_of, host_socket

# The whole corpus runs in test_attacks.py on every run of the suite; this file is the tool
# for working on one attack, so it runs only when asked for.
pytestmark = [
    pytest.mark.timeout(300),
    pytest.mark.skipif(
        not os.environ.get("LLMBENCH_RUNNER_CORPUS"),
        reason="the runner-level corpus runs with LLMBENCH_RUNNER_CORPUS=1 (test_attacks.py runs it all)",
    ),
]

CORPUS = answers()


def _got(answer: Answer, rate: float, tampered: bool, error: str | None) -> str:
    return f"{answer.label} ({answer.description}) got rate {rate}, tampered {tampered}, error {error!r}"


@pytest.mark.parametrize("answer", CORPUS, ids=[a.label for a in CORPUS])
def test_each_answer_on_its_runner(answer: Answer) -> None:
    suite = answer.suite
    with host_socket():  # what escape-host-socket.md looks for
        result = run_functional(functional_of(suite), dataset_of(suite), answer_files(answer.text))
    got = _got(answer, result.rate, result.tampered, result.error)
    assert not result.unavailable, got  # the machine lacks the runner: nothing was tried
    if answer.kind == "attack":
        assert result.tampered and result.tamper_evidence and result.rate == 0.0, got
    elif answer.kind == "control":
        assert not result.tampered and result.rate == 1.0 and result.error is None, got
    else:  # a probe: its escape must not work
        assert result.rate < 1.0, got
