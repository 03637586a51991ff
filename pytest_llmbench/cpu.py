"""CPU work of the run (checks, syntax-check subprocesses, code metrics, report parsing)
in its own bounded thread pool, off the event loop.

Not the loop's default executor: litellm runs part of every call there
(`run_in_executor(None, ...)` in acompletion), so CPU work queued in it would hold the
calls back and count in their latency. The pool has one thread per core (at least two):
more would only make the work contend for the cores and the GIL.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

_POOL = ThreadPoolExecutor(
    max_workers=max(2, os.cpu_count() or 2), thread_name_prefix="llmbench-cpu"
)


async def off_loop(func: Callable[..., T], /, *args: object) -> T:
    """`func(*args)` in the CPU pool, with the caller's context variables."""
    context = contextvars.copy_context()
    call = functools.partial(context.run, func, *args)
    return await asyncio.get_running_loop().run_in_executor(_POOL, call)
