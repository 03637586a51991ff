"""ruff and mypy, as configured in pyproject.toml, pass on the package and the tests."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.conftest import REPO


@pytest.mark.parametrize(
    "command",
    [["ruff", "check", "pytest_llmbench", "tests", "bench"], [sys.executable, "-m", "mypy"]],
    ids=["ruff", "mypy"],
)
def test_static_checks_pass(command: list[str]) -> None:
    if command[0] == "ruff" and shutil.which("ruff") is None:
        command = [sys.executable, "-m", "ruff", *command[1:]]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
