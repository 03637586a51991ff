"""Print how the catalogue's regex checks scale on adversarial answers: each pattern's
search time on every answer of tests/adversarial.py at a small and a large size, the
slowest answer at the large size and how much its time grew. A linear pattern grows
about as much as the size (x8 from 50 KB to 400 KB); a quadratic one about its square.

    python bench/regex_scaling.py [--small 50000] [--large 400000] [--top 25] [--match TEXT]

The unit test (tests/unit/test_regex_checks.py) asserts the behaviour at one size: every
pattern gives a verdict through the check's time limit. This script is the measurement.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import regex

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests import adversarial  # noqa: E402

LIMIT_S = 60.0


def _seconds(compiled: regex.Pattern[str], answer: str) -> float:
    start = time.perf_counter()
    try:
        compiled.search(answer, timeout=LIMIT_S, concurrent=True)
    except TimeoutError:
        return LIMIT_S
    return time.perf_counter() - start


def _answers(pattern: str, size: int) -> dict[str, str]:
    return dict(adversarial.adversarial_answers(pattern, size))


def measure(pattern: str, ignore_case: bool, small: int, large: int) -> tuple[float, float, str]:
    """(time at small, time at large, answer) for the answer slowest at the large size."""
    compiled = regex.compile(pattern, regex.MULTILINE | (regex.IGNORECASE if ignore_case else 0))
    at_small = {n: _seconds(compiled, a) for n, a in _answers(pattern, small).items()}
    at_large = {n: _seconds(compiled, a) for n, a in _answers(pattern, large).items()}
    worst = max(at_large, key=lambda n: at_large[n])
    return at_small[worst], at_large[worst], worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=50_000)
    parser.add_argument("--large", type=int, default=400_000)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--match", default="", help="only patterns containing this text")
    args = parser.parse_args()
    patterns = sorted(
        {(p, c): w for w, p, c in adversarial.catalogue_regexes(REPO / "scenarios")}.items()
    )
    rows = []
    started = time.perf_counter()
    for (pattern, ignore_case), where in patterns:
        if args.match in pattern:
            small, large, answer = measure(pattern, ignore_case, args.small, args.large)
            rows.append((large, small, answer, where, pattern))
    rows.sort(reverse=True)
    ratio = args.large / args.small
    print(f"{len(rows)} patterns, {args.small} -> {args.large} characters (x{ratio:g}), ")
    print(f"slowest {args.top} at the large size (seconds, growth, answer, file, pattern):")
    for large, small, answer, where, pattern in rows[: args.top]:
        growth = large / max(small, 1e-4)
        print(f"{large:8.3f} {small:7.3f} x{growth:<6.1f} {answer:28.28} {where}  {pattern[:70]}")
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
