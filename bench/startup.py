"""Print how long `pytest scenarios --collect-only` and an offline run take, whether
litellm was imported (it must not be: it costs about 4 s and only real calls need it), and
the plugin's start-up tax on a suite with no scenario: `pytest -q` on a one-test file with
the plugin against `-p no:llmbench` (median of --repeat runs; the target is under 0.1 s).

    python bench/startup.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROBE = "import sys; print('litellm imported:', 'litellm' in sys.modules)"


def timed(args: list[str], cwd: Path = REPO) -> tuple[float, str]:
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: compiled modules are cached
    start = time.perf_counter()
    out = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, out.stdout


def startup_tax(repeat: int) -> None:
    """`pytest -q` on one ordinary test, with and without the plugin (runs interleaved)."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "test_one.py").write_text("def test_one():\n    assert True\n")
        base = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_one.py"]
        runs: dict[str, list[float]] = {"with the plugin": [], "-p no:llmbench": []}
        timed(base, Path(folder))  # warm the caches once
        for _ in range(repeat):
            runs["with the plugin"].append(timed(base, Path(folder))[0])
            runs["-p no:llmbench"].append(timed([*base, "-p", "no:llmbench"], Path(folder))[0])
        medians = {label: statistics.median(times) for label, times in runs.items()}
        for label, value in medians.items():
            print(f"pytest -q one test, {label:24s} median {value:6.2f} s  (n={repeat})")
        tax = medians["with the plugin"] - medians["-p no:llmbench"]
        print(f"start-up tax of the plugin (no scenario)     {tax:+.3f} s  (target < 0.1 s)")
        # Less noisy on a busy machine: what importing the plugin's modules costs.
        own = [own_import_s(base, Path(folder)) for _ in range(repeat)]
        print(f"of which importing pytest_llmbench           median {statistics.median(own):.3f} s")


def own_import_s(args: list[str], cwd: Path) -> float:
    """Seconds spent importing pytest_llmbench modules (python -X importtime, cumulative
    figures of the top-level imports)."""
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run(
        [args[0], "-X", "importtime", *args[1:]], cwd=cwd, env=env, capture_output=True, text=True
    )
    total_us = 0
    for line in out.stderr.splitlines():
        fields = line.split("|")
        if len(fields) == 3 and fields[2].startswith(" pytest_llmbench"):  # not nested ones
            total_us += int(fields[1])
    return total_us / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    pytest_cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "scenarios", "-q"]
    runs = {
        "python -c 'import litellm'": [sys.executable, "-c", "import litellm"],
        "pytest scenarios --collect-only": [*pytest_cmd, "--collect-only"],
        "pytest scenarios (offline models)": [
            *pytest_cmd,
            "--llm-model=llmbench/reference,llmbench/echo",
            "--llm-report-dir=/tmp/llmbench-bench-reports",
        ],
    }
    for label, cmd in runs.items():
        times = [timed(cmd)[0] for _ in range(repeat)]
        print(
            f"{label:40s} median {statistics.median(times):6.2f} s  (min {min(times):.2f}, n={repeat})"
        )
    probe = [
        sys.executable,
        "-c",
        "import sys, pytest; pytest.main(['-q', '-p', 'no:cacheprovider', '--collect-only', 'scenarios']); "
        + PROBE,
    ]
    print("after collection:", timed(probe)[1].strip().splitlines()[-1])
    startup_tax(max(repeat, 7))


if __name__ == "__main__":
    main()
