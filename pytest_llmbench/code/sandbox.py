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
- Who: as root (where `unshare` and util-linux `setpriv` work: `own_user()`), each run()
  gets a user and group id of its own, drawn at random from confine.ID_RANGE, and no
  capability; the namespaces are then made as root (no user namespace) and `setpriv`
  drops to that id just before the command. Root's files (/etc/shadow, /root) are out of
  its reach, and its working folder is handed to it (chown). Any other user: the command
  runs as root of its own user namespace, and `setpriv` (where present) removes every
  capability (else it could remount the filesystem writable). start() never changes the id: its checker
  reads files its caller writes in the caller's own temporary folders.
- Files: in the mount namespace (both ways above) every mount is made read-only but the
  working folder, and the credential stores of the home folder (HIDDEN_IN_HOME: ~/.ssh,
  ~/.aws, ...) are covered by empty read-only folders (or /dev/null for files), so the
  command can write only in its folder and cannot read those. Under its own id, a path it
  needs behind a folder others may not enter (its program under /root/.pyenv, its folder
  under a 0700 temporary folder, the caller's `reads`) is shown through a read-only tmpfs
  laid over that folder (confine.py). Fallback (no namespaces, the seccomp way): the
  command runs with the user's own file access, with HOME pointed at its folder.
- Processes: at most `processes` tasks (PROCESS_LIMIT by default; threads count, as they
  do for RLIMIT_NPROC), held by the kernel where RLIMIT_NPROC counts this run alone: under
  its own id, or in its own user namespace for a user other than root (the kernel exempts
  uid 0 from RLIMIT_NPROC, also as root of a user namespace made by root: 200 of 200 forks
  went through there). Everywhere, the parent also counts the
  processes every POLL_S and kills the tree past the limit: the only limit as root
  without setpriv, or without namespaces. Runners choose their limit: test runners
  RUNNER_PROCESS_LIMIT, a JVM JVM_PROCESS_LIMIT (the measurements are beside them).
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import confine

TIME_LIMIT_S = 60.0
MEMORY_LIMIT_MB = 1024
# Tasks, that is processes and their threads (RLIMIT_NPROC counts threads).
PROCESS_LIMIT = 64
# Test runners: node --test with jsdom and esbuild took 27 tasks with 2 CPUs, 44 with Go
# told of 64 (GOMAXPROCS, esbuild's threads); vitest 2 with --maxWorkers=1 runs at 24.
RUNNER_PROCESS_LIMIT = 128
# A JVM's threads (GC, JIT compilers, ...) grow with the CPUs: javac took 20 tasks with 2
# CPUs and 45 told it had 64 (-XX:ActiveProcessorCount); the JUnit runner's JVM (serial
# GC, C1 only) 15 and 28, before the tests' own threads.
JVM_PROCESS_LIMIT = 256
POLL_S = 0.05
HIDDEN_IN_HOME = confine.HIDDEN_IN_HOME


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
# As root: the same namespaces but the user's, the command then under its own user id.
_AS_ROOT = ["unshare", "--net", "--mount", "--pid", "--fork", "--kill-child", "--mount-proc"]
# setpriv's part in every namespaced run: no capability survives into the command.
_NO_PRIVILEGE = ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]


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


@functools.cache
def _setpriv() -> list[str]:
    found = shutil.which("setpriv")
    return [found, *_NO_PRIVILEGE] if found and _works([found, *_NO_PRIVILEGE]) else []


def _as_user(uid: int) -> list[str]:
    return [*_setpriv(), f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]


@functools.cache
def own_user() -> bool:
    """Whether each run gets a user id of its own (as root, with unshare and setpriv): the
    process limit then holds in the kernel, and root's files are out of reach."""
    if os.geteuid() != 0 or not _setpriv():
        return False
    return _works([*_AS_ROOT, *_as_user(confine.fresh_id())])


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


def kernel_holds_limit() -> bool:
    """Whether RLIMIT_NPROC counts a confined run alone (its own user id as root, or its
    own user namespace for any other user): forks then fail at the limit in the kernel, and
    the parent need not count the run's processes while it runs."""
    return network_isolation() == "unshare" and (os.geteuid() != 0 or own_user())


def _supervise(process: subprocess.Popen[str], timeout: float, processes: int | None) -> Outcome:
    """Wait for the command, killing its tree at the time limit or (when `processes` is
    given: the kernel does not hold the limit) when the parent counts more processes."""
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
        elif processes is not None and len(tree(process.pid)) > processes + 2:  # + unshare, sh
            killed = "process limit"
        elif process.poll() is not None:  # done, but something it started holds the pipes
            _kill_tree(process.pid)
            stdout, stderr = _finish(process)
            return Outcome(process.returncode, stdout, stderr)
        if killed is not None:
            _kill_tree(process.pid)
            stdout, stderr = _finish(process)
            return Outcome(None, stdout, stderr, killed)


def _confined(command: list[str], cwd: Path, uid: int | None, reads: Sequence[Path]) -> list[str]:
    """`command` inside the namespaces with the filesystem of confine.py: under `uid`
    (handed the working folder, shown it and `reads`) or as the namespace's root."""
    work = cwd.resolve()
    cover: list[Path] = []
    show: list[Path] = []
    if uid is not None:
        confine.hand_over(work, uid)
        cover, show = confine.covers(work, reads)
        command = [*_as_user(uid), *command]
    else:
        command = [*_setpriv(), *command]
    lines = ["\n".join(map(str, paths)) for paths in (confine.hidden(work), cover, show)]
    script = ["sh", "-c", confine.SCRIPT, "llmbench-sandbox", str(work), *lines]
    return [*(_AS_ROOT if uid is not None else ISOLATIONS["unshare"]), *script, *command]


def _prepared(
    command: list[str],
    cwd: Path,
    limits: tuple[int, int],
    confined: bool,
    reads: Sequence[Path] = (),
    extra_env: dict[str, str] | None = None,
) -> tuple[list[str], Callable[[], None] | None, dict[str, str]]:
    """The command wrapped in the limits and the isolation this machine allows (and, when
    `confined`, the read-only filesystem outside `cwd`), its preexec function and its env.
    `limits` is (memory in MB, processes)."""
    memory_mb, processes = limits
    isolation = network_isolation()
    uid = confine.fresh_id() if confined and isolation == "unshare" and own_user() else None
    # RLIMIT_NPROC counts per user: only under our own id, or in our own user namespace
    # (not as root: root is exempt), is it the sandbox's count.
    nproc = processes if isolation == "unshare" else None
    program = confine.installation(command[0], os.environ.get("PATH", ""))
    command, preexec = _limited(command, memory_mb, nproc)
    if isolation == "unshare" and confined:
        shown = [p for p in [*([program] if program else []), *reads] if p.exists()]
        command = _confined(command, cwd, uid, shown)
    elif isolation == "unshare":
        command = [*ISOLATIONS[isolation], *_setpriv(), *command]
    elif isolation != "none":
        command = [*ISOLATIONS[isolation], *command]
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(cwd), "LANG": "C.UTF-8"}
    env.update(extra_env or {})
    return command, preexec, env


def start(
    command: list[str],
    cwd: Path,
    *,
    memory_mb: int = MEMORY_LIMIT_MB,
    processes: int = PROCESS_LIMIT,
) -> subprocess.Popen[str]:
    """A long-lived checker (it reads requests on stdin, one answer line each on stdout),
    with the limits and isolation of run() except the time limit, which its caller keeps
    per request, the filesystem confinement and a user id of its own (it reads the files
    its caller writes for it). The memory limit needs prlimit here."""
    command, preexec, env = _prepared(command, cwd, (memory_mb, processes), confined=False)
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
    processes: int = PROCESS_LIMIT,
    env: dict[str, str] | None = None,
    reads: Sequence[Path] = (),
    protect: Sequence[Path] = (),
) -> Outcome:
    """Run `command` in `cwd` under the limits; never raises for the command's failures.
    `protect` names paths inside `cwd` the command may read but not change (the hidden
    tests and the harness: what the answer's code runs beside).
    `processes` counts threads too; `env` adds variables to the minimal environment
    (PATH, HOME=cwd, LANG); `reads` names folders outside `cwd` the command reads (its
    own program's installation is found), shown to it when they lie behind a closed one.
    Under a run's own user id `cwd`, and all in it, becomes that user's: give it a folder
    made for the run (a temporary one), never one of the caller's own."""
    limits = (memory_mb, processes)
    command, preexec, env = _prepared(command, cwd, limits, True, reads, env)
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
        # Counting the tree scans /proc every POLL_S under the GIL: only where it is the limit.
        return _supervise(process, timeout, None if kernel_holds_limit() else processes)
    finally:
        if process.poll() is None:  # an unexpected error in the parent: leave nothing behind
            _kill_tree(process.pid)
            process.kill()
