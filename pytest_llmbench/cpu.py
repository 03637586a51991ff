"""CPU work of the run off the event loop: short work (checks, report parsing) in a
bounded thread pool, code metrics in worker processes.

Not the loop's default executor: litellm runs part of every call there
(`run_in_executor(None, ...)` in acompletion), so CPU work queued in it would hold the
calls back and count in their latency. The thread pool has one thread per core (at least
two): more would only make the work contend for the cores and the GIL.

Code metrics (syntax checks, complexity, similarity: seconds per answer, and no call
waits for them unless a feedback chain does) run in worker processes at a lower priority
(`off_process`), never in the run's threads: the similarity ratio (cydifflib, compiled)
keeps the GIL for its whole run, seconds for a large migration, during which the event
loop, and with it every model call, would stop; lizard and the answer parsing would take
the GIL in turns with the loop. bench/throughput.py (`--only catalogue`) measures what
the metrics cost the calls; docs/measurements.md has its figures.
"""

from __future__ import annotations

import asyncio
import atexit
import contextvars
import ctypes
import functools
import multiprocessing
import os
import signal
import sys
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")

# Work that may wait (metrics, hidden tests, their subprocesses) gives the cores to the
# run's own process, whose event loop makes every call: the lowest priority, so that no
# metric ever delays a call's start or the handling of its reply.
NICENESS = 19


def cores_per_worker() -> int:
    """This process's share of the cores: cores // xdist workers (pytest-xdist sets
    PYTEST_XDIST_WORKER_COUNT in each worker), at least 1."""
    try:
        workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    except ValueError:
        workers = 1
    return max(1, (os.cpu_count() or 1) // workers)


_POOL = ThreadPoolExecutor(
    max_workers=max(2, os.cpu_count() or 2), thread_name_prefix="llmbench-cpu"
)


async def off_loop(func: Callable[..., T], /, *args: object) -> T:
    """`func(*args)` in the CPU pool, with the caller's context variables."""
    context = contextvars.copy_context()
    call = functools.partial(context.run, func, *args)
    return await asyncio.get_running_loop().run_in_executor(_POOL, call)


def lower_priority() -> None:
    """The calling thread (and the processes it starts) at the lowest priority."""
    try:
        os.setpriority(os.PRIO_PROCESS, 0, NICENESS)  # 0: this thread (Linux)
    except (AttributeError, OSError):  # not permitted, or not Linux: normal priority
        pass


_PR_SET_PDEATHSIG = 1


def _start_worker(parent: int) -> None:
    """In each worker process: a lower priority, and an end with the run's process even
    when that is killed outright (kill -9 leaves it no time to stop its workers, which
    then wait for work forever): Linux's parent-death signal."""
    lower_priority()
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it ended before the signal was asked for
        os._exit(0)


class _Processes:
    """The worker processes, made on first use: spawned, never forked (the run has
    threads); at least two per process of the run, since much of the metrics' time is
    spent waiting on checker subprocesses."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None
        self._closed: weakref.WeakSet[ProcessPoolExecutor] = weakref.WeakSet()

    def executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = ProcessPoolExecutor(
                    max_workers=max(2, cores_per_worker()),
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(os.getpid(),),
                )
            return self._executor

    def discard(self, broken: ProcessPoolExecutor) -> bool:
        """Forget a broken pool; False when close() stopped it (nobody waits any more)."""
        with self._lock:
            if broken in self._closed:
                return False
            if self._executor is broken:
                self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)
        return True

    def close(self) -> None:
        """Stop the workers now; work under way is dropped (nobody waits for it)."""
        with self._lock:
            executor, self._executor = self._executor, None
            if executor is not None:
                self._closed.add(executor)
        if executor is not None:
            processes = list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()


_PROCESSES = _Processes()
# At exit, before multiprocessing's own handler joins the workers. The pool's own handler
# is one of threading's, and the suite's process was once found hung at exit without it
# having run: multiprocessing's handler was joining the idle workers for ever.
atexit.register(_PROCESSES.close)


async def off_process(func: Callable[..., T], /, *args: object) -> T:
    """`func(*args)` in a worker process. `func` is a module-level function and the
    arguments and result pickle. A worker that dies (killed, out of memory) breaks the
    pool: the call is tried once more in a fresh one, then its error is raised."""
    loop = asyncio.get_running_loop()
    for tries_left in (1, 0):
        executor = _PROCESSES.executor()
        try:
            return await loop.run_in_executor(executor, func, *args)
        except BrokenProcessPool:
            if not _PROCESSES.discard(executor) or not tries_left:
                raise
    raise AssertionError("unreachable")


def close_processes() -> None:
    """At the session's end: stop the worker processes (a later call makes new ones)."""
    _PROCESSES.close()


# The seconds the current item spent waiting for a slot of a shared pool (the hidden-test
# runs'): its own time (--durations, the setup report) leaves them out. The engine gives
# each item's pipeline a list of its own; tasks the pipeline starts share it.
WAITED: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar(
    "llmbench_waited", default=None
)


def note_wait(seconds: float) -> None:
    """Count `seconds` of waiting against the current item (nothing outside an item)."""
    waits = WAITED.get()
    if waits is not None and seconds > 0:
        waits.append(seconds)
