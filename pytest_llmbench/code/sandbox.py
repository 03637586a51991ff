"""Run a checker on model-written files: a subprocess with a time limit, a memory limit,
a temporary working folder and no network.

- Memory: RLIMIT_DATA (heap and private mappings), set by `prlimit`. RLIMIT_AS is not used because V8
  (node) and Go (esbuild) reserve far more address space than they use and abort under it.
- Network: the command runs in a new, empty network namespace (`unshare -rn`, which also
  works without root where user namespaces are enabled). Where that is not possible, it
  runs under a seccomp filter that refuses every socket() call (no_network.py, which needs
  no privilege). Only on a system with neither (not Linux, or a kernel without seccomp)
  does a checker run with the network; `network_isolation()` says which applies, and the
  checkers only parse, never run, the code.
- Time: the process group is killed at the limit and the run reports it.
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
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


_NO_NETWORK = [sys.executable, "-I", str(Path(__file__).with_name("no_network.py"))]
# The isolating prefix of each way, tried in this order.
ISOLATIONS = {"unshare": ["unshare", "-rn"], "seccomp": _NO_NETWORK}


def _works(prefix: list[str]) -> bool:
    try:
        probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


@functools.cache
def network_isolation() -> str:
    """'unshare' (an empty network namespace), 'seccomp' (socket() refused) or 'none'."""
    for name, prefix in ISOLATIONS.items():
        if shutil.which(prefix[0]) and _works(prefix):
            return name
    return "none"


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


def start(
    command: list[str], cwd: Path, *, memory_mb: int = MEMORY_LIMIT_MB
) -> subprocess.Popen[str]:
    """A long-lived checker (it reads requests on stdin, one answer line each on stdout),
    with the limits and isolation of run() except the time limit, which its caller keeps
    per request. The memory limit needs prlimit here."""
    command, preexec = _limited(command, memory_mb)
    isolation = network_isolation()
    if isolation != "none":
        command = [*ISOLATIONS[isolation], *command]
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(cwd), "LANG": "C.UTF-8"}
    return subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        errors="replace",
        start_new_session=True,
        preexec_fn=preexec,
    )


def run(
    command: list[str],
    cwd: Path,
    *,
    timeout: float = TIME_LIMIT_S,
    memory_mb: int = MEMORY_LIMIT_MB,
) -> Outcome:
    """Run `command` in `cwd` under the limits; never raises for the command's failures."""
    command, preexec = _limited(command, memory_mb)
    isolation = network_isolation()
    if isolation != "none":
        command = [*ISOLATIONS[isolation], *command]
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
