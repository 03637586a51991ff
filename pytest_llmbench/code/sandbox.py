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
- Files: where user namespaces work (`unshare`), the command runs in its own user, mount
  and PID namespaces: every mount is made read-only but the working folder, and the
  credential stores of the home folder (HIDDEN_IN_HOME: ~/.ssh, ~/.aws, ...) are covered
  by empty read-only folders (or /dev/null for files), so the command can write only in
  its folder and cannot read those. Fallback (no user namespaces, the seccomp way): the
  command runs with the user's own file access, with HOME pointed at its folder.
- Processes: at most PROCESS_LIMIT at once. Counted by the parent every POLL_S (as root,
  RLIMIT_NPROC does not apply); inside the namespaces RLIMIT_NPROC also stops forks at
  the limit for any other user.
- Time: at the limit, or when the process limit is crossed, the whole tree is killed:
  with a PID namespace, every process in it (a `setsid` child included); without one,
  every process of the command's session and its descendants. When the command itself
  ends, whatever it left running is killed too, so no background child holds the pipes;
  the pipes are closed on our side after a short grace period in any case.
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

TIME_LIMIT_S = 60.0
MEMORY_LIMIT_MB = 1024
PROCESS_LIMIT = 64
POLL_S = 0.05
HIDDEN_IN_HOME = (
    ".ssh", ".aws", ".azure", ".gnupg", ".config", ".docker", ".kube",
    ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".pgpass",
)  # fmt: skip
# Run by `sh` inside the namespaces: $1 the working folder, $2 the paths to hide (one a
# line), then the command.
_CONFINE = r"""
work=$1; hide=$2; shift 2
mount --bind "$work" "$work" && cd "$work" || exit 125
while read -r _ _ _ _ point _; do
  [ "$point" = "$work" ] || mount -o remount,bind,ro "$point" 2>/dev/null
done < /proc/self/mountinfo
printf '%s\n' "$hide" | while IFS= read -r path; do
  if [ -d "$path" ]; then mount -t tmpfs -o ro,size=4k,mode=0 llmbench-hidden "$path"
  elif [ -e "$path" ]; then mount --bind /dev/null "$path"; fi
done
exec "$@"
"""


@dataclass(frozen=True)
class Outcome:
    returncode: int | None  # None when a limit ended the process
    stdout: str
    stderr: str
    killed: str | None = None  # "time limit" or "process limit"

    @property
    def timed_out(self) -> bool:
        return self.killed == "time limit"


_NO_NETWORK = [sys.executable, "-I", str(Path(__file__).with_name("no_network.py"))]
# The isolating prefix of each way, tried in this order.
ISOLATIONS = {
    "unshare": [
        "unshare", "--user", "--map-root-user", "--net", "--mount", "--pid", "--fork",
        "--kill-child", "--mount-proc",
    ],
    "seccomp": _NO_NETWORK,
}  # fmt: skip


def _works(prefix: list[str]) -> bool:
    try:
        probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


@functools.cache
def network_isolation() -> str:
    """'unshare' (namespaces: no network, read-only files, own PIDs), 'seccomp' (socket()
    refused) or 'none'."""
    for name, prefix in ISOLATIONS.items():
        if shutil.which(prefix[0]) and _works(prefix):
            return name
    return "none"


def _limits(memory_mb: int, processes: int | None) -> None:  # in the child, before exec
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if processes is not None:
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))


def _limited(
    command: list[str], memory_mb: int, processes: int | None
) -> tuple[list[str], Callable[[], None] | None]:
    """The limits by util-linux `prlimit` where present (no code between fork and exec,
    which is safe in threads), else by a preexec function."""
    prlimit = shutil.which("prlimit")
    if prlimit:
        nproc = [f"--nproc={processes}"] if processes is not None else []
        return [prlimit, f"--data={memory_mb * 1024 * 1024}", "--core=0", *nproc, *command], None
    return command, lambda: _limits(memory_mb, processes)


def _hidden(cwd: Path) -> str:
    home = Path.home()
    paths = [home / name for name in HIDDEN_IN_HOME]
    return "\n".join(str(p) for p in paths if p.exists() and not cwd.is_relative_to(p))


def _processes() -> dict[int, tuple[int, int, str]]:
    """pid -> (parent pid, session id, PID namespace) of every process we can see."""
    found: dict[int, tuple[int, int, str]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            namespace = os.readlink(f"/proc/{entry.name}/ns/pid")
        except OSError:  # gone meanwhile, or not ours to read
            continue
        found[int(entry.name)] = (int(fields[1]), int(fields[3]), namespace)
    return found


def tree(root: int) -> set[int]:
    """The command's processes: its descendants, its session, and every process in a PID
    namespace one of them made."""
    table = _processes()
    own = table.get(os.getpid(), (0, 0, ""))[2]
    members = {root} | {pid for pid, (_, sid, _) in table.items() if sid == root}
    grew = True
    while grew:
        namespaces = {table[p][2] for p in members if p in table} - {own}
        more = {
            pid
            for pid, (parent, _, ns) in table.items()
            if pid not in members and (parent in members or ns in namespaces)
        }
        members |= more
        grew = bool(more)
    return {p for p in members if p in table}


def _kill_tree(root: int) -> None:
    for pid in tree(root):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _finish(process: subprocess.Popen[str]) -> tuple[str, str]:
    """What is left on the pipes, without waiting for a child that escaped the kill."""
    try:
        return process.communicate(timeout=1.0)
    except subprocess.TimeoutExpired:
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()
        process.wait()
        return "", ""


def _supervise(process: subprocess.Popen[str], timeout: float) -> Outcome:
    deadline = time.monotonic() + timeout
    while True:
        try:
            stdout, stderr = process.communicate(timeout=POLL_S)
            return Outcome(process.returncode, stdout, stderr)
        except subprocess.TimeoutExpired:
            pass
        killed = None
        if time.monotonic() >= deadline:
            killed = "time limit"
        elif len(tree(process.pid)) > PROCESS_LIMIT + 2:  # + unshare and its shell
            killed = "process limit"
        elif process.poll() is not None:  # done, but something it started holds the pipes
            _kill_tree(process.pid)
            stdout, stderr = _finish(process)
            return Outcome(process.returncode, stdout, stderr)
        if killed is not None:
            _kill_tree(process.pid)
            stdout, stderr = _finish(process)
            return Outcome(None, stdout, stderr, killed)


def _prepared(
    command: list[str],
    cwd: Path,
    memory_mb: int,
    confine: bool,
    extra_env: dict[str, str] | None = None,
) -> tuple[list[str], Callable[[], None] | None, dict[str, str]]:
    """The command wrapped in the limits and the isolation this machine allows (and, with
    `confine`, the read-only filesystem outside `cwd`), its preexec function and its env."""
    isolation = network_isolation()
    # RLIMIT_NPROC counts per user namespace: only inside our own is it the sandbox's count.
    processes = PROCESS_LIMIT if isolation == "unshare" else None
    command, preexec = _limited(command, memory_mb, processes)
    if isolation == "unshare" and confine:
        wrapper = ["sh", "-c", _CONFINE, "llmbench-sandbox", str(cwd.resolve()), _hidden(cwd)]
        command = [*ISOLATIONS[isolation], *wrapper, *command]
    elif isolation != "none":
        command = [*ISOLATIONS[isolation], *command]
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(cwd), "LANG": "C.UTF-8"}
    env.update(extra_env or {})
    return command, preexec, env


def start(
    command: list[str], cwd: Path, *, memory_mb: int = MEMORY_LIMIT_MB
) -> subprocess.Popen[str]:
    """A long-lived checker (it reads requests on stdin, one answer line each on stdout),
    with the limits and isolation of run() except the time limit, which its caller keeps
    per request, and the filesystem confinement (it reads files it is named). The memory
    limit needs prlimit here."""
    command, preexec, env = _prepared(command, cwd, memory_mb, confine=False)
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
    env: dict[str, str] | None = None,
) -> Outcome:
    """Run `command` in `cwd` under the limits; never raises for the command's failures.
    `env` adds variables to the minimal environment (PATH, HOME=cwd, LANG)."""
    command, preexec, env = _prepared(command, cwd, memory_mb, confine=True, extra_env=env)
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
        return _supervise(process, timeout)
    finally:
        if process.poll() is None:  # an unexpected error in the parent: leave nothing behind
            _kill_tree(process.pid)
            process.kill()
