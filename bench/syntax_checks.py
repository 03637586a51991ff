"""Print what the syntax checks of a catalogue run cost: every scenario x dataset's
reference answer and do-nothing answer (the dataset inlined, what llmbench/echo says)
checked as the code metrics check them, one after another, three times:

- `cold`: no results kept (each file group runs its checkers, as before a cache folder);
- `into cache`: the same with an empty cache folder (`syntax/`), which keeps the results;
- `from cache`: again with that folder, as another worker process or a later run reads it.

Per checker: its runs and the seconds they took; then the CPU seconds of the whole machine
meanwhile (/proc/stat: the checkers run in their sandboxes, outside this process's
rusage), so run it on an idle machine. For comparison, `--no-archive` checks Java without
javac's class data archive (toolchain/jvm_share.parse_archive), `--plain-javac` also
without syntax.JAVAC_FLAGS' JIT and GC flags (javac as the JDK starts it).

    python bench/syntax_checks.py [--no-archive | --plain-javac]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.functional import busy_seconds, cpu_ticks  # noqa: E402
from pytest_llmbench.formats.dataset import DatasetIndex  # noqa: E402
from pytest_llmbench.formats.render import inline_files  # noqa: E402
from pytest_llmbench.formats.scenario import load_scenario  # noqa: E402
from pytest_llmbench.formats.workspace import answer_workspace  # noqa: E402
from pytest_llmbench.metrics import syntax  # noqa: E402
from pytest_llmbench.toolchain import jvm_share  # noqa: E402

Files = tuple[tuple[str, str, str], ...]


def answers(scenarios: Path, datasets: Path) -> list[Files]:
    """The checkable files of every reference and do-nothing answer, as measure_answer
    takes them."""
    index = DatasetIndex(datasets)
    found: list[Files] = []
    for path in sorted(scenarios.glob("*/*.yaml")):
        scenario = load_scenario(path.resolve(), index)
        for dataset in scenario.datasets or [None]:
            texts = [scenario.reference_for(dataset) or ""]
            texts += [inline_files(dataset)] if dataset is not None else []
            for text in texts:
                files = tuple(
                    (f.label, f.language, f.code)
                    for f in answer_workspace(text).files
                    if f.language in syntax.TOOL_KINDS
                )
                if files:
                    found.append(files)
    return found


def one_pass(groups: list[Files], cache_dir: Path | None) -> tuple[Counter[str], dict[str, float]]:
    """Check every group; (runs, seconds) per checker."""
    runs: Counter[str] = Counter()
    seconds: dict[str, float] = {}
    real = syntax._run_group

    def timed(kind: str, *args: object) -> object:
        started = time.perf_counter()
        try:
            return real(kind, *args)  # type: ignore[arg-type]
        finally:
            runs[kind] += 1
            seconds[kind] = seconds.get(kind, 0.0) + time.perf_counter() - started

    syntax._run_group = timed  # type: ignore[assignment]
    syntax._check_cached.cache_clear()
    try:
        for files in groups:
            syntax.check_files(files, cache_dir)
    finally:
        syntax._run_group = real
        syntax._check_cached.cache_clear()
    return runs, seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenarios", type=Path, default=REPO / "scenarios")
    parser.add_argument("--datasets", type=Path, default=REPO / "datasets")
    parser.add_argument("--no-archive", action="store_true")
    parser.add_argument("--plain-javac", action="store_true")
    args = parser.parse_args()
    if args.plain_javac:
        syntax.JAVAC_FLAGS = tuple(f for f in syntax.JAVAC_FLAGS if not f.startswith("-J-XX:"))
    if args.no_archive or args.plain_javac:
        jvm_share.parse_archive = lambda javac, flags: jvm_share.Archives()
    else:  # made before the passes, as a run's first Java check makes it
        javac = syntax._tool("javac")
        if javac is not None:
            jvm_share.parse_archive(javac, syntax.JAVAC_FLAGS)
    groups = answers(args.scenarios, args.datasets)
    print(f"{len(groups)} answers with checkable files")
    with tempfile.TemporaryDirectory(prefix="llmbench-bench-syntax-") as folder:
        for name, cache_dir in (
            ("cold", None),
            ("into cache", Path(folder)),
            ("from cache", Path(folder)),
        ):
            before, started = cpu_ticks(), time.perf_counter()
            runs, seconds = one_pass(groups, cache_dir)
            wall, after = time.perf_counter() - started, cpu_ticks()
            busy = busy_seconds(before, after) if before and after else 0.0
            split = (
                ", ".join(f"{k} {runs[k]} runs {seconds[k]:.2f} s" for k in sorted(runs))
                or "no checker ran"
            )
            print(f"{name:10s} {wall:6.2f} s, the machine's CPU {busy:6.2f} s: {split}")


if __name__ == "__main__":
    main()
