"""The subprocess sandbox confines what a child does: writes, reads of credential stores
and of root's files, process count (threads included), and what it leaves running behind
it. No wall clock: each test asserts what the child saw or what was left."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from pytest_llmbench.code import sandbox

needs_namespaces = pytest.mark.skipif(
    sandbox.network_isolation() != "unshare", reason="user namespaces are not available here"
)


def _left_running(marker: str) -> list[int]:
    """Processes whose command line holds `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.fixture
def work(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


@needs_namespaces
def test_writes_are_confined_to_the_folder(work: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    code = (
        "import sys\n"
        "open('inside.txt', 'w').write('ok')\n"
        "try:\n"
        f"    open({str(outside)!r}, 'w').write('escaped')\n"
        "    print('wrote outside')\n"
        "except OSError as exc:\n"
        "    print(type(exc).__name__, exc.errno)\n"
    )
    outcome = sandbox.run([sys.executable, "-c", code], work)
    assert outcome.returncode == 0, outcome.stderr
    # EROFS (a read-only mount), or EACCES too under the run's own user id
    assert outcome.stdout.split()[0] in {"OSError", "PermissionError"}
    assert not outside.exists()
    assert (work / "inside.txt").read_text() == "ok"


@needs_namespaces
def test_credential_stores_of_the_home_folder_cannot_be_read(
    work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    key = home / ".ssh" / "id_ed25519"
    key.write_text("CANARY-PRIVATE-KEY")
    (home / ".netrc").write_text("machine x login y password CANARY-NETRC")
    monkeypatch.setenv("HOME", str(home))
    code = (
        "import sys\n"
        "for path in sys.argv[1:]:\n"
        "    try:\n"
        "        print(open(path).read())\n"
        "    except OSError as exc:\n"
        "        print(type(exc).__name__)\n"
    )
    outcome = sandbox.run([sys.executable, "-c", code, str(key), str(home / ".netrc")], work)
    assert outcome.returncode == 0, outcome.stderr
    assert "CANARY" not in outcome.stdout
    assert key.read_text() == "CANARY-PRIVATE-KEY"  # hidden from the child only


# The kernel holds the process limit where RLIMIT_NPROC counts this run alone: under the
# run's own user id (as root), or in its own user namespace (any other user).
kernel_limit = pytest.mark.skipif(
    sandbox.network_isolation() != "unshare" or (os.geteuid() == 0 and not sandbox.own_user()),
    reason="here the process limit is the parent's count (see sandbox.py)",
)
needs_own_user = pytest.mark.skipif(
    not sandbox.own_user(), reason="runs get their own user id only as root"
)

_FORK_BOMB = """
import errno, os, sys, time
made, failed = 0, []
for _ in range(int(sys.argv[1])):
    try:
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        made += 1
    except OSError as exc:
        failed.append(exc.errno)
tasks = sum(len(os.listdir(f"/proc/{p}/task")) for p in os.listdir("/proc") if p.isdigit())
print(made, tasks, len(failed), set(failed) == {errno.EAGAIN}, flush=True)
"""


@kernel_limit
def test_a_fork_bomb_stops_at_the_limit_and_nothing_stays(work: Path) -> None:
    marker = f"llmbench-fork-{uuid.uuid4().hex[:8]}"
    limit = 16
    outcome = sandbox.run(
        [sys.executable, "-c", _FORK_BOMB, "200", marker], work, timeout=60, processes=limit
    )
    assert outcome.returncode == 0, outcome
    made, tasks, failures, all_eagain = outcome.stdout.split()
    # The bomb is one task (and in a user namespace of ours, `unshare` another) and made
    # the rest; each further fork failed (EAGAIN); its PID namespace never held more.
    room = limit - 1 if sandbox.own_user() else limit - 2
    assert (int(made), int(failures), all_eagain) == (room, 200 - room, "True")
    assert int(tasks) <= limit
    time.sleep(0.5)
    assert _left_running(marker) == []


def test_a_fork_bomb_is_stopped_somehow_and_nothing_stays(work: Path) -> None:
    # Everywhere, namespaces or not: fork fails at the limit, or the tree is killed for it.
    marker = f"llmbench-fork-{uuid.uuid4().hex[:8]}"
    code = _FORK_BOMB + "time.sleep(30)\n"
    outcome = sandbox.run([sys.executable, "-c", code, "200", marker], work, timeout=5)
    assert outcome.killed == "process limit" or (
        outcome.killed == "time limit" and int(outcome.stdout.split()[0]) < sandbox.PROCESS_LIMIT
    ), outcome
    time.sleep(0.5)
    assert _left_running(marker) == []


@kernel_limit
def test_threads_count_against_the_limit(work: Path) -> None:
    code = (
        "import threading, time\n"
        "started = 0\n"
        "try:\n"
        "    for _ in range(100):\n"
        "        threading.Thread(target=time.sleep, args=(5,), daemon=True).start()\n"
        "        started += 1\n"
        "except RuntimeError:\n"
        "    pass\n"
        "print(started, flush=True)\n"
        "import os; os._exit(0)\n"
    )
    outcome = sandbox.run([sys.executable, "-c", code], work, processes=24)
    assert outcome.stdout.strip() == "23", outcome  # the main thread is the 24th task


@needs_own_user
def test_root_only_files_cannot_be_read(work: Path, tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="llmbench-test-"))  # under /tmp: others may enter
    try:
        folder.chmod(0o755)
        secret = folder / "secret.txt"
        secret.write_text("CANARY-ROOT-ONLY")
        secret.chmod(0o600)
        code = (
            "import sys\n"
            "for path in sys.argv[1:]:\n"
            "    try:\n"
            "        print(open(path).read())\n"
            "    except OSError as exc:\n"
            "        print(type(exc).__name__)\n"
        )
        paths = [str(secret), *(p for p in ["/etc/shadow"] if Path(p).exists())]
        outcome = sandbox.run([sys.executable, "-c", code, *paths], work)
        assert outcome.returncode == 0, outcome
        assert outcome.stdout.split() == ["PermissionError"] * len(paths)
    finally:
        shutil.rmtree(folder)


@needs_own_user
def test_the_working_folder_is_the_runs_and_the_caller_reads_what_it_wrote(work: Path) -> None:
    (work / "given.txt").write_text("from the caller")
    code = "print(open('given.txt').read()); open('made.txt', 'w').write('from the run')"
    outcome = sandbox.run([sys.executable, "-c", code], work)
    assert outcome.stdout.strip() == "from the caller", outcome
    assert (work / "made.txt").read_text() == "from the run"
    assert (work / "made.txt").stat().st_uid != 0


@needs_own_user
def test_a_folder_behind_a_closed_one_is_shown_only_when_named(work: Path) -> None:
    closed = Path(tempfile.mkdtemp(prefix="llmbench-test-"))  # 0700, root's
    try:
        (closed / "tools").mkdir(mode=0o755)
        (closed / "tools" / "tool.txt").write_text("the tool")
        (closed / "private.txt").write_text("CANARY-SIBLING")
        code = (
            "import os, sys\n"
            "print(open(sys.argv[1]).read())\n"
            "print(sorted(os.listdir(sys.argv[2])))\n"
        )
        command = [sys.executable, "-c", code, str(closed / "tools" / "tool.txt"), str(closed)]
        shown = sandbox.run(command, work, reads=[closed / "tools"])
        assert shown.stdout.splitlines() == ["the tool", "['tools']"], shown
        unnamed = sandbox.run(command, work)
        assert "PermissionError" in unnamed.stderr and "the tool" not in unnamed.stdout
        assert (closed / "private.txt").read_text() == "CANARY-SIBLING"
    finally:
        shutil.rmtree(closed)


@needs_namespaces
def test_the_read_only_mounts_cannot_be_lifted(work: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    script = (
        f"mount -o remount,bind,rw {tmp_path} 2>/dev/null; mount -o remount,rw / 2>/dev/null;"
        f"echo escaped > {outside} 2>/dev/null; echo done"
    )
    outcome = sandbox.run(["sh", "-c", script], work)
    assert outcome.stdout.strip() == "done", outcome
    assert not outside.exists()


def test_a_setsid_background_child_neither_survives_nor_holds_the_pipes(work: Path) -> None:
    marker = f"llmbench-bg-{uuid.uuid4().hex[:8]}"
    code = (
        "import subprocess, sys\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)', {marker!r}],"
        " start_new_session=True)\n"
        "print('started', flush=True)\n"
    )
    outcome = sandbox.run([sys.executable, "-c", code], work, timeout=20)
    # Not waited for until the time limit: the command's own end is the run's end.
    assert outcome.killed is None, outcome
    assert outcome.returncode == 0 and outcome.stdout.strip() == "started", outcome
    time.sleep(0.5)
    assert _left_running(marker) == []


def test_a_hung_tree_is_killed_at_the_time_limit(work: Path) -> None:
    marker = f"llmbench-hang-{uuid.uuid4().hex[:8]}"
    code = (
        "import subprocess, sys, time\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)', {marker!r}],"
        " start_new_session=True)\n"
        "time.sleep(30)\n"
    )
    outcome = sandbox.run([sys.executable, "-c", code, marker], work, timeout=2)
    assert outcome.timed_out and outcome.returncode is None
    time.sleep(0.5)
    assert _left_running(marker) == []
