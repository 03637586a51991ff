"""A long-lived command of answers' code (functional/warm.py: one answer's runs served by
one process), confined as sandbox.run confines a run: bubblewrap's allow-list, the memory
and process limits, a user id of its own as root. Its caller keeps the time limit, one
per request, and ends it with `end` (the whole tree killed)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

from . import confine, sandbox


def serve(
    command: list[str],
    cwd: Path,
    *,
    memory_mb: int,
    processes: int,
    env: dict[str, str],
    reads: Sequence[Path] = (),
    protect: Sequence[Path] = (),
) -> tuple[subprocess.Popen[bytes], int | None] | sandbox.Outcome:
    """`command` started in `cwd` with stdin and stdout pipes (stderr joined to stdout).
    Returns the process and, as root, the user id it runs under (hand `cwd` to it again
    after writing there: confine.hand_over); or, refused, the outcome of a run never
    started: where bubblewrap cannot run, or where the kernel does not count the run's
    processes apart (only a run's parent counts them then, and a served command has no
    parent watching between requests)."""
    if (why := sandbox.missing()) is not None:
        return sandbox.refused(why)
    if not sandbox.kernel_holds_limit():
        return sandbox.refused("the kernel does not count this sandbox's processes apart")
    uid = confine.fresh_id() if os.geteuid() == 0 else None
    limited, preexec = sandbox.confined_command(
        command, cwd, (memory_mb, processes), reads, protect, uid
    )
    process = subprocess.Popen(
        limited,
        cwd=cwd,
        env=sandbox.environment(cwd, env),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=preexec,
    )
    return process, uid


def end(process: subprocess.Popen[bytes]) -> None:
    """A served command ended: its whole tree killed, its pipes closed."""
    sandbox.kill_tree(process.pid)
    process.kill()
    for pipe in (process.stdin, process.stdout):
        if pipe is not None:
            try:
                pipe.close()
            except OSError:
                pass
    process.wait()
