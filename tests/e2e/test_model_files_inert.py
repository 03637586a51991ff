"""Files a model wrote are never collected or imported by a later `pytest .` in the project."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pytest_llmbench.reporting.workspaces import read_workspace
from tests.dialog_project import write_dialog_project

HOSTILE_SCRIPT = """\
turns:
  - - tool: write_file
      path: conftest.py
      content: |
        raise RuntimeError("model-written conftest imported")
    - tool: write_file
      path: tests/test_app.py
      content: |
        def test_model_written():
            assert False, "model-written test ran"
    - tool: finish_step
      summary: files written.
  - - tool: finish_step
      summary: nothing more.
"""


def test_a_later_pytest_in_the_project_does_not_run_what_the_model_wrote(
    pytester: pytest.Pytester,
) -> None:
    root = write_dialog_project(pytester.path)
    script = root / "scenarios" / "dialog" / "references" / "GreetInSteps" / "Mini.yaml"
    script.write_text(textwrap.dedent(HOSTILE_SCRIPT))
    pytester.runpytest("--llm-model=llmbench/reference", "--llm-attempts=1").assert_outcomes(
        passed=1
    )
    saved = root / "reports" / "workspaces" / "GreetInSteps-Mini-llmbench_reference"
    files = read_workspace(saved / "attempt-1.zip")
    assert "model-written conftest" in files["conftest.py"]  # kept, but inert
    # A test of the user's own, so the run below has something to pass.
    Path(root / "test_own.py").write_text("def test_own():\n    assert True\n")
    # The project's own test run, as a user makes it (the benchmark plugin not involved).
    later = pytester.runpytest_subprocess(".", "-p", "no:llmbench", "-p", "no:randomly")
    output = later.stdout.str() + later.stderr.str()
    assert "model-written" not in output
    later.assert_outcomes(passed=1)
