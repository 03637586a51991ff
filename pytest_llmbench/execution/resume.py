"""--llm-resume: which items an earlier run in the same report dir already finished.

Scored and unscored items count as finished; errored and skipped ones are run again.
A line cut short by a killed run is ignored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FINISHED = ("scored", "unscored")
RESUME_REASON = "finished in an earlier run (--llm-resume)"


def finished_results(results_file: Path) -> dict[str, dict[str, Any]]:
    """nodeid -> stored item result, in file order."""
    found: dict[str, dict[str, Any]] = {}
    if not results_file.is_file():
        return found
    for line in results_file.read_text(encoding="utf-8").splitlines():
        try:
            result = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(result, dict) and result.get("status") in FINISHED and result.get("nodeid"):
            found[result["nodeid"]] = result
    return found
