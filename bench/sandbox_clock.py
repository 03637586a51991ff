"""Print what a node process in the sandbox spends on its first local time (the first
`Date` read in local time: jsdom reads one as it makes each document), with the run's
environment as it is (TZ=UTC, toolchain/sandbox.py) and with TZ removed, where node's ICU
searches for a zone, since the sandbox shows no /etc/localtime.

    python bench/sandbox_clock.py [--repeat N]

Each figure is the median of N sandboxed runs (V8's own clock, inside the process).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from pytest_llmbench.toolchain import sandbox  # noqa: E402
from pytest_llmbench.toolchain.node_packages import node_program  # noqa: E402

PROBE = (
    "const start = process.hrtime.bigint(); new Date().getMonth();"
    "console.log(Number(process.hrtime.bigint() - start) / 1e6)"
)


def first_local_time_ms(work: Path, prefix: list[str], repeat: int) -> float:
    seen = []
    node = node_program()
    reads = [Path(node).resolve().parent.parent] if Path(node).is_absolute() else []
    for _ in range(repeat):
        outcome = sandbox.run([*prefix, node, "-e", PROBE], work, reads=reads)
        if outcome.returncode != 0:
            raise SystemExit(f"node failed in the sandbox: {outcome.stderr.strip()[-300:]}")
        seen.append(float(outcome.stdout))
    return statistics.median(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    if (why := sandbox.missing()) is not None:
        raise SystemExit(why)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for label, prefix in (("TZ=UTC (the runs')", []), ("TZ removed", ["env", "-u", "TZ"])):
            ms = first_local_time_ms(work, prefix, args.repeat)
            print(f"{label:20} first local time in a sandboxed node: {ms:7.2f} ms")


if __name__ == "__main__":
    main()
