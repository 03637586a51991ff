"""The GitHub workflow's commands, run locally: two shard runs with offline models, then merge.

The commands come from .github/workflows/benchmark.yml itself, with the matrix model
replaced by an offline model and the artifact upload/download replaced by moving each
shard's report dir to where download-artifact puts it (shards/<artifact name>/). The
Install steps are not repeated: the test runs in this installed checkout (`pip install -e .`
and `scripts/install-runners` are the README's set-up).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO

WORKFLOW = REPO / ".github" / "workflows" / "benchmark.yml"


def _run_steps(job: dict[str, Any]) -> dict[str, str]:
    return {step["name"]: step["run"] for step in job["steps"] if "run" in step}


def _step(job: dict[str, Any], uses: str) -> dict[str, Any]:
    return next(s for s in job["steps"] if s.get("uses", "").startswith(uses))


def test_workflow_commands_shard_and_merge(pytester: pytest.Pytester, project: Path) -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text())
    shard, merge = workflow["jobs"]["shard"], workflow["jobs"]["merge"]
    assert merge["needs"] == "shard" and merge["if"] == "always()"
    assert shard["strategy"]["matrix"]["model"], "the matrix runs over models"
    assert "${{ secrets." in json.dumps(shard["env"])
    benchmark = _run_steps(shard)["Benchmark"]
    upload = _step(shard, "actions/upload-artifact")["with"]
    download = _step(merge, "actions/download-artifact")["with"]
    assert upload["name"] == "report-${{ strategy.job-index }}"
    assert download["pattern"] == "report-*"

    args = shlex.split(benchmark)
    assert args[0] == "pytest"
    report_dir = next(a.split("=", 1)[1] for a in args if a.startswith("--llm-report-dir="))
    assert upload["path"].rstrip("/") == report_dir
    for index, model in enumerate(["llmbench/reference", "llmbench/echo"]):
        shard_args = [a.replace("${{ matrix.model }}", model) for a in args[1:]]
        pytester.runpytest(*shard_args).assert_outcomes(passed=2)
        target = project / download["path"] / f"report-{index}"
        target.parent.mkdir(exist_ok=True)
        shutil.move(project / report_dir, target)

    summary = project / "summary.md"
    env = {
        **os.environ,
        "GITHUB_STEP_SUMMARY": str(summary),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    steps = _run_steps(merge)
    for name in ("Merge", "Job summary"):
        done = subprocess.run(
            steps[name], shell=True, cwd=project, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
    merged = project / "merged"
    uploaded = _step(merge, "actions/upload-artifact")["with"]["path"].split()
    assert all((project / path).is_file() for path in uploaded)
    board = json.loads((merged / "leaderboard.json").read_text())["leaderboard"]
    assert [r["model"] for r in board["models"]] == ["llmbench/reference", "llmbench/echo"]
    assert sum(r["items"] for r in board["models"]) == 4
    assert summary.read_text().startswith("# pytest-llmbench leaderboard")
    assert "| 1-2 | llmbench/reference |" in summary.read_text()  # 2 scenarios: not apart
