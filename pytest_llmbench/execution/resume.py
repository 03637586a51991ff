"""--llm-resume: which items an earlier run in the same report dir already finished.

Scored and unscored items count as finished; errored and skipped ones are run again.
results.jsonl is read by the one reader (reporting/reader.py): a line that is not a
readable result (cut short by a killed run, not UTF-8, of a newer schema version, ...)
is skipped, counted in one warning line, and its item runs again; so is a line whose
texts texts.jsonl has lost (its damage is one more warning line).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..reporting.reader import read_results
from ..schema.results import ItemResult

FINISHED = ("scored", "unscored")
RESUME_REASON = "finished in an earlier run (--llm-resume)"


@dataclass
class Resumed:
    results: dict[str, ItemResult] = field(default_factory=dict)  # nodeid -> stored result
    warnings: list[str] = field(default_factory=list)


def finished_results(results_file: Path) -> Resumed:
    """nodeid -> stored item result, in file order (a later copy wins).

    A missing file resumes nothing; one that cannot be read (a folder) is a FormatError.
    """
    if not results_file.exists():
        return Resumed()
    read = read_results(results_file)
    found = Resumed(
        {r.nodeid: r for r in read.items if r.status in FINISHED and r.nodeid},
    )
    skipped = read.skipped_line()
    if skipped:
        found.warnings.append(f"--llm-resume: {skipped}; their items run again")
    damaged = read.texts.damaged_line() if read.texts is not None else None
    if damaged:
        found.warnings.append(f"--llm-resume: {damaged}")
    return found
