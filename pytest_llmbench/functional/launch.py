"""How every test runner starts its command: one call of sandbox.run, with the runner's
own limits and what it reads, and the hidden tests (HIDDEN) always read-only to the run,
so a runner states only what differs from the others."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..toolchain import sandbox
from .workspace import HIDDEN


@dataclass(frozen=True)
class RunnerSandbox:
    """A runner's limits in the sandbox: its memory (RLIMIT_DATA) and the process limit
    it runs at when the scenario sets none (threads count: sandbox.py)."""

    memory_mb: int
    processes: int

    def run(
        self,
        command: list[str],
        workspace: Path,
        timeout_s: float,
        processes: int | None,
        *,
        env: dict[str, str],
        reads: Sequence[Path],
        protect: Sequence[Path] = (),
    ) -> sandbox.Outcome:
        """`command` in `workspace` under `processes` (the scenario's limit) or the
        runner's own; `reads`: what it reads outside the workspace besides the toolchain;
        `protect`: paths in the workspace it may read but not change besides HIDDEN."""
        return sandbox.run(
            command,
            workspace,
            timeout=timeout_s,
            memory_mb=self.memory_mb,
            processes=processes or self.processes,
            env=env,
            reads=reads,
            protect=list(dict.fromkeys([workspace / HIDDEN, *protect])),
        )
