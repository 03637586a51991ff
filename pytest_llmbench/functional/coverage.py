"""Which test files can see a mutant (mutation mode): the dataset's files whose code each
test file's clean run executed, as the runner gives it (Jest: the modules its runtime
ran for the test file, recorded by our runtime class, jest.py; Vitest: the modules its
module runner evaluated for the test file, noted by our setup file, vitest.py), written to
OUT/COVERAGE, one JSON line per test file:

    {"test": "src/a.test.js", "files": ["src/a.js", "src/b.js"]}

A mutant's run then runs only the test files whose run executed code of the mutated
file; a mutant in a file no test file ran survives without a run. The choice is by file,
not by line: V8's block counts mapped back to lines through Babel's source maps put lines
at 0 that a test plainly runs (the body of a `case` a reducer's tests go through), and a
test file left out by a wrong line lets a mutant that the suite kills survive.

The file is written where the answer's code runs and may be forged. A forged one can only
leave test files out of a mutant's run, which kills fewer mutants, or make a test file's
outcome hang on another one left out; the equivalent mutants run among the mutants are run
with the test files of a mutant they stand in for (mutation.py), so a suite that fails
when run in part is caught there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..formats.mutants import Mutant
from .outcome import read_lines

COVERAGE = "coverage.jsonl"  # in OUT


@dataclass
class Coverage:
    """Per test file, the dataset's files its clean run executed code of."""

    ran: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> Coverage | None:
        """The coverage a clean run wrote, or None where there is none (then every test
        file runs for every mutant); lines that are not one are skipped."""
        found = cls()
        for line in read_lines(path):
            try:
                row = json.loads(line)
                test, files = str(row["test"]), row["files"]
            except (ValueError, KeyError, TypeError):
                continue
            if isinstance(files, list):
                found.ran.setdefault(test, set()).update(f for f in files if isinstance(f, str))
        return found if found.ran else None

    def tests_for(self, mutant: Mutant) -> list[str]:
        """The test files whose run executed code of `mutant`'s file, the most focused
        first (those whose run reached the fewest files): a mutant's run stops at its
        first failure, which a test of the mutated unit is likeliest to give."""
        return sorted(
            (test for test, files in self.ran.items() if mutant.file in files),
            key=lambda test: (len(self.ran[test]), test),
        )
