"""Which test files can see a mutant (mutation mode): the lines each test file's run
executed in the clean run, as the runner's coverage gives them (Jest's, per test file),
written by our reporter to OUT/COVERAGE, one JSON line per test file:

    {"test": "src/a.test.js", "files": {"src/a.js": {"ran": [[3, 5], ...], "all": [[1, 1], ...]}}}

`ran`: the line spans of the statements that file's tests executed; `all`: every
statement's span. A mutant's run then runs only the test files whose run executed a
statement on its lines (or, where no statement lies on them, any statement of its file); a
mutant no test file reached survives without a run.

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
Span = tuple[int, int]


def _spans(value: object) -> list[Span]:
    spans: list[Span] = []
    for item in value if isinstance(value, list) else []:
        if (
            isinstance(item, list)
            and len(item) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in item)
        ):
            spans.append((item[0], item[1]))
    return spans


@dataclass
class Coverage:
    """Per test file, per source file, the spans its run executed; per source file, all."""

    ran: dict[str, dict[str, list[Span]]] = field(default_factory=dict)
    statements: dict[str, list[Span]] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> Coverage | None:
        """The coverage a clean run wrote, or None where there is none (then every test
        file runs for every mutant); lines that are not one are skipped."""
        lines = read_lines(path)
        if not lines:
            return None
        found = cls()
        for line in lines:
            try:
                row = json.loads(line)
                test, files = str(row["test"]), row["files"]
                assert isinstance(files, dict)
            except (ValueError, KeyError, TypeError, AssertionError):
                continue
            for name, spans in files.items():
                if not isinstance(spans, dict):
                    continue
                ran = found.ran.setdefault(test, {}).setdefault(str(name), [])
                ran.extend(_spans(spans.get("ran")))
                known = found.statements.setdefault(str(name), [])
                known.extend(s for s in _spans(spans.get("all")) if s not in known)
        return found if found.ran else None

    def tests_for(self, mutant: Mutant, text: str) -> list[str]:
        """The test files that can see `mutant` of the file whose text is `text`, the most
        focused first (those whose run reached the fewest source files): a mutant's run
        stops at its first failure, which a test of the mutated unit is likeliest to give."""
        first = text.count("\n", 0, mutant.start) + 1
        lines = (first, first + mutant.find.count("\n"))
        on_lines = any(_meets(s, lines) for s in self.statements.get(mutant.file, []))
        return sorted(
            (
                test
                for test, files in self.ran.items()
                if any(_meets(s, lines) or not on_lines for s in files.get(mutant.file, []))
            ),
            key=lambda test: (sum(bool(spans) for spans in self.ran[test].values()), test),
        )


def _meets(span: Span, lines: Span) -> bool:
    return span[0] <= lines[1] and span[1] >= lines[0]
