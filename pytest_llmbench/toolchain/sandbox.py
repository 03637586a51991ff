"""Run a command on model-written files: a subprocess with a time limit, a memory limit,
a process limit, no network and, for the answers' code, a filesystem that is an
allow-list.

- Files (`run`): bubblewrap lays out what the command sees (confine.py): its working
  folder (writable; the `protect`ed paths in it read-only), the toolchain read-only, a
  private /tmp, its own /proc and a minimal /dev, and nothing else of the host. Code of
  an answer runs only so: where bubblewrap cannot run, `run` refuses (`confine.missing()`
  says why, and the hidden tests are reported as not run). A checker that only parses
  (`runs_answer_code=False`: syntax checks, the mutator on our datasets) falls back to
  the network isolation alone there.
- Network: every run gets a network namespace of its own (bubblewrap's; else `unshare
  -rn`, else a seccomp filter refusing socket(), no_network.py). `network_isolation()`
  says which applies to the fallback.
- Who: as root each run gets a user and group id of its own, drawn at random
  (confine.ID_RANGE), and no capability (util-linux `setpriv` after bubblewrap has made
  the namespaces): root's files are out of its reach, its working folder is handed to it
  (chown), and RLIMIT_NPROC counts this run alone. Any other user runs in bubblewrap's own
  user namespace with every capability dropped, where the kernel also counts the run's
  processes apart.
- Environment: PATH, HOME (the working folder), LANG=C.UTF-8 and TZ=UTC, and what the
  caller adds; nothing else of the caller's.
- Memory: RLIMIT_DATA (heap and private mappings), set by `prlimit`. RLIMIT_AS is not
  used because V8 (node) and Go (esbuild) reserve far more address space than they use.
- Processes: at most `processes` tasks (threads count, as they do for RLIMIT_NPROC), held
  by the kernel where the run has its own count (`kernel_holds_limit`); elsewhere the
  parent counts the tree every POLL_S and kills it past the limit. Runners choose their
  limit (RUNNER_PROCESS_LIMIT, JVM_PROCESS_LIMIT); a scenario may raise it.
- Time: at the limit, or when the process limit is crossed, the whole tree is killed:
  every process of the run's PID namespace (and of its session, and their descendants).
  When the command itself ends, whatever it left running is killed too (bubblewrap ends
  the namespace with its first process), so no background child holds the pipes or
  outlives the run.
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
from dataclasses import dataclass, replace
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


@dataclass(frozen=True)
class Outcome:
    returncode: int | None  # None when a limit ended the process
    stdout: str
    stderr: str
    killed: str | None = None  # "time limit" or "process limit"
    seconds: float = 0.0  # wall time of the command in its sandbox

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
    """The fallback's isolation, for checkers that only parse where bubblewrap cannot run:
    'unshare' (a network and PID namespace of their own), 'seccomp' (socket() refused) or
    'none'."""
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


def kill_tree(root: int) -> None:
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
    """Whether RLIMIT_NPROC counts a confined run alone (in bubblewrap: its own user id as
    root, or its own user namespace for any other user): forks then fail at the limit in
    the kernel, and the parent need not count the run's processes while it runs."""
    return confine.bubblewrap() is not None and (os.geteuid() != 0 or bool(_setpriv()))


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
            kill_tree(process.pid)
            stdout, stderr = _finish(process)
            return Outcome(process.returncode, stdout, stderr)
        if killed is not None:
            kill_tree(process.pid)
            stdout, stderr = _finish(process)
            return Outcome(None, stdout, stderr, killed)


def _bubblewrapped(
    command: list[str],
    cwd: Path,
    reads: Sequence[Path],
    protect: Sequence[Path],
    uid: int | None = None,
) -> list[str]:
    """`command` inside bubblewrap's allow-list; as root, under an id of its own (`uid`,
    or a fresh one) that is handed the working folder."""
    work = cwd.resolve()
    as_root = os.geteuid() == 0
    program = confine.installation(command[0], os.environ.get("PATH", ""))
    prefix = confine.command(work, [*program, *reads], protect, as_root)
    if as_root:
        uid = uid or confine.fresh_id()
        confine.hand_over(work, uid)
        return [*prefix, *_as_user(uid), *command]
    return [*prefix, *command]


def confined_command(
    command: list[str],
    cwd: Path,
    limits: tuple[int, int],
    reads: Sequence[Path],
    protect: Sequence[Path],
    uid: int | None,
) -> tuple[list[str], Callable[[], None] | None]:
    """`command` in bubblewrap's allow-list (which must run here) under the limits, as
    root under `uid` (handed `cwd`)."""
    memory_mb, processes = limits
    return _limited(_bubblewrapped(command, cwd, reads, protect, uid), memory_mb, processes)


def _prepared(
    command: list[str],
    cwd: Path,
    limits: tuple[int, int],
    confined: bool,
    reads: Sequence[Path] = (),
    protect: Sequence[Path] = (),
) -> tuple[list[str], Callable[[], None] | None]:
    """The command wrapped in the limits and the isolation it gets: bubblewrap's
    allow-list when `confined` and bwrap works here, else the network isolation alone.
    `limits` is (memory in MB, processes)."""
    memory_mb, processes = limits
    if confined and confine.bubblewrap() is not None:
        return confined_command(command, cwd, limits, reads, protect, None)
    isolation = network_isolation()
    # RLIMIT_NPROC counts per user: only in our own user namespace is it the run's count.
    nproc = processes if isolation == "unshare" and os.geteuid() != 0 else None
    command, preexec = _limited(command, memory_mb, nproc)
    if isolation == "unshare":
        command = [*ISOLATIONS[isolation], *_setpriv(), *command]
    elif isolation != "none":
        command = [*ISOLATIONS[isolation], *command]
    return command, preexec


def environment(cwd: Path, extra_env: dict[str, str] | None) -> dict[str, str]:
    # TZ: the sandbox shows no /etc/localtime; without TZ the clock reads UTC anyway, but
    # node's ICU searches for a zone first (about 30 ms in each node process's first local
    # time: bench/sandbox_clock.py) and Java names it GMT. With TZ every toolchain says UTC.
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(cwd), "LANG": "C.UTF-8", "TZ": "UTC"}
    env.update(extra_env or {})
    return env


def _popen(
    prepared: tuple[list[str], Callable[[], None] | None],
    cwd: Path,
    env: dict[str, str] | None,
    *,
    stdin: int,
    stderr: int,
) -> subprocess.Popen[str]:
    """The `_prepared` command started in `cwd` with the minimal environment plus `env`,
    in a session of its own (its tree is found and killed by it), stdout a text pipe."""
    command, preexec = prepared
    return subprocess.Popen(
        command,
        cwd=cwd,
        env=environment(cwd, env),
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        errors="replace",
        start_new_session=True,
        preexec_fn=preexec,
    )


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
    prepared = _prepared(command, cwd, (memory_mb, processes), confined=False)
    return _popen(prepared, cwd, None, stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)


def missing() -> str | None:
    """Why the answers' code cannot run on this machine (no usable bubblewrap; as root, no
    setpriv to give it an id of its own), or None."""
    why = confine.missing()
    if why is None and os.geteuid() == 0 and not _setpriv():
        return (
            "util-linux setpriv is missing: as root the answers' code runs under an id of its own"
        )
    return why


def refused(why: str) -> Outcome:
    """The outcome of a run that was not started (nothing of it ran)."""
    return Outcome(None, "", why, killed="no sandbox")


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
    runs_answer_code: bool = True,
) -> Outcome:
    """Run `command` in `cwd` under the limits; never raises for the command's failures.
    `processes` counts threads too; `env` adds variables to the minimal environment
    (PATH, HOME=cwd, LANG, TZ=UTC); `reads` names what the command reads outside `cwd` besides
    the toolchain (its own program's installation is found); `protect` names paths inside
    `cwd` the command may read but not change (the hidden tests and the harness the
    answer's code runs beside). With `runs_answer_code`, nothing runs without bubblewrap.
    As root `cwd`, and all in it, becomes the run's own user's: give it a folder made for
    the run (a temporary one), never one of the caller's own."""
    if runs_answer_code and (why := missing()) is not None:
        return refused(why)
    started = time.monotonic()
    prepared = _prepared(command, cwd, (memory_mb, processes), True, reads, protect)
    process = _popen(prepared, cwd, env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        # Counting the tree scans /proc every POLL_S under the GIL: only where it is the limit.
        done = _supervise(process, timeout, None if kernel_holds_limit() else processes)
        return replace(done, seconds=time.monotonic() - started)
    finally:
        if process.poll() is None:  # an unexpected error in the parent: leave nothing behind
            kill_tree(process.pid)
            process.kill()
