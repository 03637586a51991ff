"""Run a checker on model-written files: a subprocess with a time limit, a memory limit,
a temporary working folder and no network.

- Memory: RLIMIT_DATA (heap and private mappings), set by `prlimit`. RLIMIT_AS is not used because V8
  (node) and Go (esbuild) reserve far more address space than they use and abort under it.
- Network: the command runs in a new, empty network namespace (`unshare -rn`, which also
  works without root where user namespaces are enabled). Where that is not possible the
  checkers still only parse, never run, the code; `NETWORK_ISOLATION` says which applies.
- Time: the process group is killed at the limit and the run reports it.
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import signal
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

TIME_LIMIT_S = 60.0
MEMORY_LIMIT_MB = 1024


@dataclass(frozen=True)
class Outcome:
    returncode: int | None  # None when the time limit ended the process
    stdout: str
    stderr: str

    @property
    def timed_out(self) -> bool:
        return self.returncode is None


@functools.cache
def network_isolation() -> str:
    """'unshare' when commands can run in an empty network namespace, else 'none'."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return "none"
    try:
        probe = subprocess.run([unshare, "-rn", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "none"
    return "unshare" if probe.returncode == 0 else "none"


def _limits(memory_mb: int) -> None:  # runs in the child between fork and exec
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _limited(command: list[str], memory_mb: int) -> tuple[list[str], Callable[[], None] | None]:
    """The limits by util-linux `prlimit` where present (no code between fork and exec,
    which is safe in threads), else by a preexec function."""
    prlimit = shutil.which("prlimit")
    if prlimit:
        return [prlimit, f"--data={memory_mb * 1024 * 1024}", "--core=0", *command], None
    return command, lambda: _limits(memory_mb)


def run(
    command: list[str],
    cwd: Path,
    *,
    timeout: float = TIME_LIMIT_S,
    memory_mb: int = MEMORY_LIMIT_MB,
) -> Outcome:
    """Run `command` in `cwd` under the limits; never raises for the command's failures."""
    command, preexec = _limited(command, memory_mb)
    if network_isolation() == "unshare":
        command = ["unshare", "-rn", *command]
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(cwd), "LANG": "C.UTF-8"}
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=True,
        preexec_fn=preexec,
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        return Outcome(None, stdout, stderr)
    return Outcome(process.returncode, stdout, stderr)
