"""The subprocess sandbox confines what a child does: writes, reads of credential stores,
process count, and what it leaves running behind it."""

from __future__ import annotations

import sys
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
    assert outcome.stdout.split()[0] == "OSError"  # EROFS: read-only file system
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


def test_a_fork_bomb_is_stopped_and_nothing_stays(work: Path) -> None:
    marker = f"llmbench-fork-{uuid.uuid4().hex[:8]}"
    code = (
        "import os, sys, time\n"
        "made = 0\n"
        "for _ in range(200):\n"
        "    try:\n"
        "        if os.fork() == 0:\n"
        "            time.sleep(30)\n"
        "            os._exit(0)\n"
        "        made += 1\n"
        "    except OSError:\n"
        "        break\n"
        "print('forked', made, flush=True)\n"
        "time.sleep(30)\n"
    )
    start = time.monotonic()
    outcome = sandbox.run([sys.executable, "-c", code, marker], work, timeout=20)
    elapsed = time.monotonic() - start
    # Either fork failed at the limit (RLIMIT_NPROC) or the tree was killed for it.
    assert outcome.killed == "process limit" or (
        outcome.stdout.startswith("forked") and int(outcome.stdout.split()[1]) <= 64
    ), outcome
    assert elapsed < 19  # not the 20 s time limit, let alone 30 s of sleep
    time.sleep(0.5)
    assert _left_running(marker) == []


def test_a_setsid_background_child_neither_survives_nor_holds_the_pipes(work: Path) -> None:
    marker = f"llmbench-bg-{uuid.uuid4().hex[:8]}"
    code = (
        "import subprocess, sys\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)', {marker!r}],"
        " start_new_session=True)\n"
        "print('started', flush=True)\n"
    )
    start = time.monotonic()
    outcome = sandbox.run([sys.executable, "-c", code], work, timeout=8)
    elapsed = time.monotonic() - start
    assert outcome.returncode == 0 and outcome.stdout.strip() == "started", outcome
    assert elapsed < 6  # the command ended at once; its background child was not waited for
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
    start = time.monotonic()
    outcome = sandbox.run([sys.executable, "-c", code, marker], work, timeout=2)
    elapsed = time.monotonic() - start
    assert outcome.timed_out and outcome.returncode is None
    assert elapsed < 5  # near the 2 s limit
    time.sleep(0.5)
    assert _left_running(marker) == []
