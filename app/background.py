"""CPU-heavy work that nobody waits for at once (drawing maps), run beside the event loop at a lower
CPU priority, so that acknowledging clicks and recording answers never queue behind it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

NICENESS = 10  # how much lower than the bot's own priority (Linux sets it per thread)


def _lower_this_threads_priority() -> None:
    # Not Linux, or not allowed: the work still runs, at normal priority.
    with contextlib.suppress(AttributeError, OSError):
        own = os.getpriority(os.PRIO_PROCESS, 0)
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), own + NICENESS)


class Background:
    def __init__(self, workers: int = 2) -> None:
        # Pillow releases the GIL while it draws and encodes, so these threads use another core.
        self.executor = ThreadPoolExecutor(
            workers, thread_name_prefix="background", initializer=_lower_this_threads_priority
        )

    async def run(self, work: Callable[..., T], *args: object) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor, work, *args)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
