"""One asyncio event loop per process, running in a daemon thread for the process's lifetime.

Using a single loop for every call keeps litellm's cached HTTP clients valid (a loop per
item made litellm warn that the event loop changed) and lets calls of many items overlap.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def background_loop() -> asyncio.AbstractEventLoop:
    """The process's loop, started on first use."""
    global _loop
    with _lock:
        if _loop is None:
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="llmbench-loop", daemon=True)
            thread.start()
            _loop = loop
        return _loop


def submit(coro: Coroutine[Any, Any, T]) -> Future[T]:
    """Schedule `coro` on the background loop; the returned future is safe to wait on."""
    return asyncio.run_coroutine_threadsafe(coro, background_loop())
