"""The built wheel carries the catalogue and runs it from any folder (issue 14 point 9).

Slow (a wheel build, a venv, a catalogue run: about a minute), so marked `wheel`;
.ci/run runs it with the rest (`pytest tests`), `-m "not wheel"` leaves it out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.wheel


def _run(*command: str | Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def test_the_wheel_runs_its_catalogue_from_an_empty_folder(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    dist = tmp_path / "dist"
    _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "-q",
        "-w",
        dist,
        REPO,
        cwd=tmp_path,
        env=env,
    )
    (wheel,) = dist.glob("pytest_llmbench-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    scenarios = [n for n in names if n.startswith("pytest_llmbench/catalogue/scenarios/")]
    datasets = [n for n in names if n.startswith("pytest_llmbench/catalogue/datasets/")]
    assert len(scenarios) == len(list((REPO / "scenarios").rglob("*.*")))
    assert len(datasets) == len([p for p in (REPO / "datasets").rglob("*") if p.is_file()])

    # A fresh venv that sees this one's dependencies, with the wheel installed into it.
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path, env=env)
    purelib = Path(
        subprocess.check_output(
            [
                venv / "bin" / "python",
                "-c",
                "import sysconfig; print(sysconfig.get_path('purelib'))",
            ],
            text=True,
        ).strip()
    )
    (purelib / "shared-deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    python = venv / "bin" / "python"
    _run(python, "-m", "pip", "install", "--no-deps", "-q", wheel, cwd=tmp_path, env=env)

    here = tmp_path / "empty"
    here.mkdir()
    done = _run(venv / "bin" / "llmbench", "run", "-q", "-p", "no:randomly", cwd=here, env=env)
    assert "llmbench leaderboard" in done.stdout
    results = (here / "reports" / "results.jsonl").read_text().splitlines()
    assert len(results) > 30 and all(json.loads(r)["status"] == "scored" for r in results)
    # The run used the installed wheel and its copy of the catalogue.
    code = "from pytest_llmbench.cli.run import catalogue_root; print(catalogue_root())"
    root = _run(python, "-c", code, cwd=here, env=env).stdout.strip()
    assert root == str(purelib / "pytest_llmbench" / "catalogue")
    for written in ("leaderboard.json", "leaderboard.md", "report.html", "results.jsonl"):
        assert (here / "reports" / written).is_file()
    assert (here / ".llmbench_cache").is_dir() and (here / ".pytest_cache").is_dir()
    # Nothing was written next to the installed catalogue.
    package = purelib / "pytest_llmbench"
    assert not list(package.rglob("reports")) and not list(package.rglob(".pytest_cache"))
    assert not list(package.rglob(".llmbench_cache"))
