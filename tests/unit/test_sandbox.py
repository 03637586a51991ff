"""The sandbox shows a run only its working folder and the toolchain, and confines what it
does: writes, reads of anything else of the host (the checkout, the home folder, the host's
/tmp and /etc), host unix sockets, process count (threads included), and what it leaves
running behind it. Each test is an escape a hostile answer would try, asserting that it
failed; no wall clock: each asserts what the child saw or what was left."""

from __future__ import annotations

import os
import shutil
import socket
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_llmbench.toolchain import confine, sandbox
from pytest_llmbench.toolchain.node_packages import node_program
from tests.conftest import REPO

needs_bubblewrap = pytest.mark.skipif(sandbox.missing() is not None, reason=str(sandbox.missing()))
pytestmark = needs_bubblewrap

_READ_EACH = (
    "import os, sys\n"
    "for path in sys.argv[1:]:\n"
    "    try:\n"
    "        if os.path.isdir(path):\n"
    "            print(path, 'LISTED', len(os.listdir(path)), *sorted(os.listdir(path)))\n"
    "        else:\n"
    "            print(path, 'READ', open(path, 'rb').read(40))\n"
    "    except OSError as exc:\n"
    "        print(path, type(exc).__name__)\n"
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


def _seen(outcome: sandbox.Outcome) -> dict[str, str]:
    return {line.split(" ", 1)[0]: line.split(" ", 2)[1] for line in outcome.stdout.splitlines()}


def test_writes_are_confined_to_the_folder(work: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    code = (
        "open('inside.txt', 'w').write('ok')\n"
        "try:\n"
        f"    open({str(outside)!r}, 'w').write('escaped')\n"
        "    print('wrote outside')\n"
        "except OSError as exc:\n"
        "    print(type(exc).__name__)\n"
    )
    outcome = sandbox.run([sys.executable, "-c", code], work)
    assert outcome.returncode == 0, outcome.stderr
    assert outcome.stdout.split()[0] in {"OSError", "PermissionError", "FileNotFoundError"}
    assert not outside.exists()
    assert (work / "inside.txt").read_text() == "ok"


def test_nothing_of_the_host_but_the_toolchain_can_be_read(work: Path, tmp_path: Path) -> None:
    """The checkout (hidden tests, references, datasets), the home folder, the host's /tmp,
    /etc and /run are not there at all; the toolchain is."""
    beside = tmp_path / "beside.txt"  # the run's parent folder, under the host's /tmp
    beside.write_text("CANARY-BESIDE")
    probes = [
        REPO / "scenarios", REPO / "datasets", REPO / "tests" / "conftest.py",
        Path("/etc/passwd"), Path("/etc/hostname"), Path("/run"), beside,
        tmp_path, Path.home(), Path("/usr/bin"),
    ]  # fmt: skip
    outcome = sandbox.run([sys.executable, "-c", _READ_EACH, *map(str, probes)], work)
    assert outcome.returncode == 0, outcome.stderr
    seen = _seen(outcome)
    for probe in probes[:-3]:
        assert seen[str(probe)] in {"FileNotFoundError", "PermissionError"}, outcome.stdout
    assert "CANARY" not in outcome.stdout
    # made for the path to the working folder only
    assert f"{tmp_path} LISTED 1 work" in outcome.stdout
    # the home folder holds at most the way to a toolchain installed there (pyenv's Python)
    home = Path.home()
    toolchain = {
        str(home / p.relative_to(home).parts[0]) for p in _installed() if p.is_relative_to(home)
    }
    listed = outcome.stdout.split(f"{home} ", 1)[1].splitlines()[0].split()
    if listed[0] == "LISTED":
        assert {str(home / name) for name in listed[2:]} <= toolchain, listed
    assert seen["/usr/bin"] == "LISTED"


def _installed() -> list[Path]:
    return confine.installation(sys.executable, os.environ.get("PATH", ""))


def test_a_folder_named_in_reads_is_shown_read_only(work: Path, tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "tool.txt").write_text("the tool")
    code = (
        "import sys\n"
        "print(open(sys.argv[1]).read())\n"
        "try:\n"
        "    open(sys.argv[1], 'w').write('changed')\n"
        "except OSError as exc:\n"
        "    print(type(exc).__name__)\n"
    )
    command = [sys.executable, "-c", code, str(tools / "tool.txt")]
    shown = sandbox.run(command, work, reads=[tools])
    assert shown.stdout.split() == ["the", "tool", "OSError"], shown
    assert (tools / "tool.txt").read_text() == "the tool"
    unnamed = sandbox.run(command, work)
    assert "FileNotFoundError" in unnamed.stderr and "the tool" not in unnamed.stdout


def test_protected_paths_in_the_folder_cannot_be_changed(work: Path) -> None:
    hidden = work / ".hidden"
    hidden.mkdir()
    (hidden / "results.jsonl").write_text("honest\n")
    code = (
        "import os, shutil\n"
        "for attempt in (\n"
        "    lambda: open('.hidden/results.jsonl', 'w').write('forged'),\n"
        "    lambda: open('.hidden/new.txt', 'w').write('x'),\n"
        "    lambda: os.remove('.hidden/results.jsonl'),\n"
        "    lambda: os.rename('.hidden', 'moved'),\n"
        "    lambda: shutil.rmtree('.hidden'),\n"
        "):\n"
        "    try:\n"
        "        attempt(); print('changed')\n"
        "    except OSError as exc:\n"
        "        print(type(exc).__name__)\n"
        "open('mine.txt', 'w').write('ok')\n"
    )
    outcome = sandbox.run([sys.executable, "-c", code], work, protect=[hidden])
    assert outcome.returncode == 0, outcome.stderr
    assert "changed" not in outcome.stdout.split(), outcome.stdout
    assert (hidden / "results.jsonl").read_text() == "honest\n"
    assert sorted(p.name for p in hidden.iterdir()) == ["results.jsonl"]
    assert (work / "mine.txt").read_text() == "ok"


@pytest.fixture
def host_socket(tmp_path: Path) -> Iterator[tuple[str, list[bytes]]]:
    """A world-writable unix socket on the host (as a careless daemon leaves one), and an
    abstract one; what reaches either is recorded."""
    received: list[bytes] = []
    path = tmp_path / "daemon.sock"
    servers = []
    for address in (str(path), f"@llmbench-test-{uuid.uuid4().hex[:8]}"):
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(address.replace("@", "\0", 1) if address.startswith("@") else address)
        server.listen(4)
        server.settimeout(0.2)
        servers.append((address, server))
    path.chmod(0o777)
    tmp_path.chmod(0o755)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            for _, server in servers:
                try:
                    connection, _ = server.accept()
                except OSError:
                    continue
                received.append(connection.recv(100))
                connection.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield "\n".join(address for address, _ in servers), received
    stop.set()
    thread.join()
    for _, server in servers:
        server.close()


def test_a_host_unix_socket_cannot_be_reached(
    work: Path, host_socket: tuple[str, list[bytes]]
) -> None:
    addresses, received = host_socket
    code = (
        "import socket, sys\n"
        "for address in sys.argv[1].split('\\n'):\n"
        "    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
        "    try:\n"
        "        if address.startswith('@'):\n"
        "            address = '\\0' + address[1:]\n"
        "        s.connect(address); s.sendall(b'escaped'); print('connected')\n"
        "    except OSError as exc:\n"
        "        print(type(exc).__name__)\n"
        "try:\n"
        "    socket.create_connection(('127.0.0.1', 1), timeout=2)\n"
        "except OSError as exc:\n"
        "    print(type(exc).__name__)\n"
    )
    outcome = sandbox.run([sys.executable, "-c", code, addresses], work)
    assert outcome.returncode == 0, outcome.stderr
    assert "connected" not in outcome.stdout, outcome.stdout
    assert len(outcome.stdout.split()) == 3
    # the handshake itself would have been accepted: nothing arrived
    assert received == []


def test_the_run_has_an_unprivileged_id_and_no_capability(work: Path) -> None:
    code = (
        "import os\n"
        "print(os.getuid(), os.geteuid())\n"
        "print(open('/proc/self/status').read().split('CapEff:')[1].split()[0])\n"
    )
    outcome = sandbox.run([sys.executable, "-c", code], work)
    assert outcome.returncode == 0, outcome.stderr
    ids, caps = outcome.stdout.splitlines()
    if os.geteuid() == 0:
        uid, euid = map(int, ids.split())
        assert uid == euid and confine.ID_RANGE[0] <= uid < confine.ID_RANGE[1]
    assert int(caps, 16) == 0


_ZONE_JAVA = """\
public class Zone {
  public static void main(String[] args) {
    System.out.println(java.util.TimeZone.getDefault().getID());
  }
}
"""
_ZONE_NODE = "console.log(process.env.TZ, Intl.DateTimeFormat().resolvedOptions().timeZone)"


def test_every_toolchain_names_the_runs_zone_utc(work: Path) -> None:
    """The sandbox shows no /etc/localtime: each run's clock is UTC by TZ, and every
    toolchain names it so (Java took GMT without it; node searched for a zone first)."""
    code = "import os, time; print(os.environ.get('TZ'), time.tzname[0])"
    outcome = sandbox.run([sys.executable, "-c", code], work)
    assert outcome.stdout.split() == ["UTC", "UTC"], outcome.stderr
    if shutil.which(node_program()):
        outcome = sandbox.run([node_program(), "-e", _ZONE_NODE], work)
        assert outcome.stdout.split() == ["UTC", "UTC"], outcome.stderr
    if shutil.which("java"):
        (work / "Zone.java").write_text(_ZONE_JAVA, encoding="utf-8")
        outcome = sandbox.run(["java", "Zone.java"], work, processes=sandbox.JVM_PROCESS_LIMIT)
        assert outcome.stdout.split() == ["UTC"], outcome.stderr


def test_the_mounts_cannot_be_lifted(work: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    script = (
        "mount -o remount,rw / 2>/dev/null; mount -o remount,rw /usr 2>/dev/null;"
        f"mount --bind / /tmp 2>/dev/null; echo escaped > {outside} 2>/dev/null;"
        "echo done"
    )
    outcome = sandbox.run(["sh", "-c", script], work)
    assert outcome.stdout.split() == ["done"], outcome
    assert not outside.exists()


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
print(made, len(failed), set(failed) == {errno.EAGAIN}, flush=True)
"""
kernel_limit = pytest.mark.skipif(
    not sandbox.kernel_holds_limit(), reason="here the process limit is the parent's count"
)


@kernel_limit
def test_a_fork_bomb_stops_at_the_limit_and_nothing_stays(work: Path) -> None:
    marker = f"llmbench-fork-{uuid.uuid4().hex[:8]}"
    limit = 16
    outcome = sandbox.run(
        [sys.executable, "-c", _FORK_BOMB, "200", marker], work, timeout=60, processes=limit
    )
    assert outcome.returncode == 0, outcome
    made, failures, all_eagain = outcome.stdout.split()
    # The bomb is one task of the run's own count and made the rest; each further fork
    # failed (EAGAIN).
    room = limit - 1
    assert (int(made), int(failures), all_eagain) == (room, 200 - room, "True")
    time.sleep(0.5)
    assert _left_running(marker) == []


def test_a_fork_bomb_is_stopped_and_nothing_stays(work: Path) -> None:
    marker = f"llmbench-fork-{uuid.uuid4().hex[:8]}"
    code = _FORK_BOMB + "time.sleep(30)\n"
    outcome = sandbox.run([sys.executable, "-c", code, "200", marker], work, timeout=5)
    assert outcome.killed == "process limit" or (
        outcome.killed == "time limit" and int(outcome.stdout.split()[0]) < sandbox.PROCESS_LIMIT
    ), outcome
    time.sleep(0.5)
    assert _left_running(marker) == []


@kernel_limit
def test_threads_count_against_the_limit_and_a_scenario_may_raise_it(work: Path) -> None:
    code = (
        "import threading, time, sys\n"
        "threading.stack_size(256 * 1024)\n"  # 1,000 default stacks pass the memory limit
        "started = 0\n"
        "try:\n"
        "    for _ in range(int(sys.argv[1])):\n"
        "        threading.Thread(target=time.sleep, args=(5,), daemon=True).start()\n"
        "        started += 1\n"
        "except RuntimeError:\n"
        "    pass\n"
        "print(started, flush=True)\n"
        "import os; os._exit(0)\n"
    )
    outcome = sandbox.run([sys.executable, "-c", code, "100"], work, processes=24)
    assert outcome.stdout.strip() == "23", outcome  # the main thread is the 24th task
    raised = sandbox.run([sys.executable, "-c", code, "1000"], work, processes=1100)
    assert raised.stdout.strip() == "1000", raised


def test_a_background_child_neither_survives_nor_holds_the_pipes(work: Path) -> None:
    marker = f"llmbench-bg-{uuid.uuid4().hex[:8]}"
    code = (
        "import os, subprocess, sys\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)', {marker!r}],"
        " start_new_session=True)\n"
        "if os.fork() == 0:\n"  # a double fork: the grandchild is nobody's child
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(30)', {marker!r}])\n"
        "    os._exit(0)\n"
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


def test_without_bubblewrap_answers_code_is_refused_and_a_parser_still_runs(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(confine, "bubblewrap", lambda: None)
    refused = sandbox.run([sys.executable, "-c", "open('ran', 'w')"], work)
    assert refused.returncode is None and refused.killed == "no sandbox"
    assert "bubblewrap" in refused.stderr and not (work / "ran").exists()
    parsed = sandbox.run([sys.executable, "-c", "print('parsed')"], work, runs_answer_code=False)
    assert parsed.stdout.strip() == "parsed", parsed
