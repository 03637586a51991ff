"""Where the run's CPU work goes: code metrics in worker processes at a lower priority,
never in the process whose event loop makes the model calls."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from pytest_llmbench.cpu import NICENESS, close_processes, off_process


def test_metrics_work_runs_in_another_process_at_a_lower_priority() -> None:
    async def scenario() -> tuple[int, int]:
        return await off_process(os.getpid), await off_process(os.nice, 0)

    try:
        pid, niceness = asyncio.run(scenario())
    finally:
        close_processes()
    assert pid != os.getpid()
    assert niceness == min(19, os.nice(0) + NICENESS)


def test_a_dying_worker_is_replaced_and_its_call_tried_once_more() -> None:
    async def scenario() -> int:
        with pytest.raises(BrokenProcessPool):
            await off_process(os._exit, 3)  # dies in the first pool and in the fresh one
        return await off_process(os.getpid)  # the next call gets a working pool

    try:
        assert asyncio.run(scenario()) != os.getpid()
    finally:
        close_processes()


def test_closing_stops_work_under_way_without_trying_it_again() -> None:
    async def scenario() -> None:
        await off_process(os.getpid)  # the pool is up
        sleeping = asyncio.ensure_future(off_process(time.sleep, 120))
        await asyncio.sleep(0.5)  # handed to a worker
        close_processes()
        with pytest.raises(BrokenProcessPool):
            # Tried again, it would sleep its 120 s in a fresh pool.
            await asyncio.wait_for(sleeping, 60)

    try:
        asyncio.run(scenario())
    finally:
        close_processes()


KILLED_PARENT = """
import asyncio, os, signal
from pytest_llmbench.cpu import off_process
print(asyncio.run(off_process(os.getpid)), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_workers_end_with_a_parent_killed_outright() -> None:
    out = subprocess.run(
        [sys.executable, "-c", KILLED_PARENT], capture_output=True, text=True, timeout=60
    )
    worker = int(out.stdout.split()[0])
    for _ in range(100):  # the kernel signals it at once; allow a loaded machine 10 s
        if not Path(f"/proc/{worker}").exists():
            break
        time.sleep(0.1)
    assert not Path(f"/proc/{worker}").exists()


# The pool's own exit handler is one of threading's. The suite's own process was once found
# hung at exit with it not run (concurrent.futures' shutdown flag still down, threading's
# list of handlers empty) and multiprocessing's handler joining the idle workers for ever;
# a process where threading's shutdown does nothing stands for that state.
EXIT_WITHOUT_THREADING_SHUTDOWN = """
import asyncio, os, threading
from pytest_llmbench.cpu import off_process
print(asyncio.run(off_process(os.getpid)), flush=True)
threading._shutdown = lambda: None
"""


def test_the_process_ends_with_its_pool_up_when_threadings_shutdown_does_not_run() -> None:
    out = subprocess.run(
        [sys.executable, "-c", EXIT_WITHOUT_THREADING_SHUTDOWN],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert not Path(f"/proc/{int(out.stdout.split()[0])}").exists()
