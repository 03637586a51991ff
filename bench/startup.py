"""Print how long `pytest scenarios --collect-only` and an offline run take, and whether
litellm was imported (it must not be: it costs about 4 s and only real calls need it).

    python bench/startup.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROBE = "import sys; print('litellm imported:', 'litellm' in sys.modules)"


def timed(args: list[str]) -> tuple[float, str]:
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    start = time.perf_counter()
    out = subprocess.run(args, cwd=REPO, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, out.stdout


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


if __name__ == "__main__":
    main()
