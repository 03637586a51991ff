"""Hidden Jest specs (`describe`/`test`/`expect`) as acceptance tests: the spec files are
laid over the workspace at their paths (overlay.py), so `import ... from './module'`
finds the answer's code, and run by the jest runner (jest.py: our config, Babel, the
sandbox) with the run's canary file among them. A scenario sets the test environment
with `jest.json` in its hidden tests (`{"environment": "node"}`; jsdom by default).

Outcomes are named `<spec path> > <describe ...> <test>`: workspace-relative, the same in
every run."""

from __future__ import annotations

from pathlib import Path

from . import jest
from .outcome import Run, SuiteRun
from .overlay import overlay

SPEC_SUFFIXES = tuple(f".{kind}{suffix}" for kind in ("spec", "test") for suffix in jest.SUFFIXES)


def hidden(
    workspace: Path, hidden_folder: Path, timeout_s: float, *, processes: int | None = None
) -> Run:
    """The hidden specs (`*.spec.js`, `*.test.js`, ...) on the workspace's code."""
    placed = overlay(workspace, hidden_folder)
    specs = [p for p in placed if p.endswith(SPEC_SUFFIXES)]
    if not specs:
        return Run.broken("the hidden tests folder has no *.spec.js or *.test.js file")
    return jest.run(
        workspace, SuiteRun(tuple(specs), timeout_s, processes=processes, protect=tuple(placed))
    )
