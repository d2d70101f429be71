"""CPU-heavy work that nobody waits for at once (drawing maps), run beside the event loop at a lower
CPU priority, so that acknowledging clicks and recording answers never queue behind it.

The bot draws in :class:`ImagePool` (worker processes); :class:`Background` (threads) remains for light work."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import select
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool as BrokenExecutor
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


class PoolBusy(RuntimeError):
    """The image pool's queue is full: the work is refused rather than queued without bound."""


def _leave_with(owner: int) -> None:
    """End this worker when the bot process that owns the pool ends, even when it is killed (SIGKILL, an out-of-
    memory kill): the worker would otherwise wait for work forever (every worker holds its task queue's writing
    end too), and the fork server with it, as it waits for its workers. Linux only (a process descriptor)."""
    try:
        watched = os.pidfd_open(owner)
    except ProcessLookupError:
        os._exit(0)  # already gone
    except (AttributeError, OSError):
        return  # no process descriptors here: only the pool's shutdown ends the worker

    def wait_then_leave() -> None:
        select.select([watched], [], [])  # readable once the owner has ended
        os._exit(0)

    threading.Thread(target=wait_then_leave, name="owner-watch", daemon=True).start()


def _lower_this_processs_priority(
    initializer: Callable[[], object] | None, owner: int | None = None, niceness: int = NICENESS
) -> None:
    if owner is not None:
        _leave_with(owner)
    with contextlib.suppress(AttributeError, OSError):
        os.nice(niceness)
    if initializer is not None:
        initializer()  # the renderer's warm-up: its static layers are built once per worker, before any request


def _pid() -> int:
    return os.getpid()


class ImagePool:
    """Images drawn in worker *processes* (never on the event loop's threads: a thread drawing in Python holds
    the interpreter lock the loop needs), at a lower CPU priority, with a bounded queue of its own.

    ``run(work, *args)`` awaits the result of ``work(*args)`` in a worker (``work`` and its arguments are
    pickled: module-level functions and plain data). At most ``workers`` run at once; up to ``queue`` more wait;
    beyond that ``run`` raises :class:`PoolBusy` at once. ``start()`` spawns and warms every worker (each runs
    ``initializer`` once); each worker is replaced after ``tasks_per_worker`` jobs, so its memory stays bounded.
    Its workers run ``niceness`` lower than the bot (Linux's nice levels).
    """

    def __init__(
        self,
        workers: int = 2,
        *,
        queue: int = 256,
        initializer: Callable[[], object] | None = None,
        tasks_per_worker: int = 500,
        preload: tuple[str, ...] = (),
        niceness: int = NICENESS,
    ) -> None:
        # Never fork the bot itself (its event loop, threads and sockets): workers come from a clean server
        # process, which imports ``preload`` once for all of them.
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        context = multiprocessing.get_context(method)
        if preload and method == "forkserver":
            context.set_forkserver_preload(list(preload))
        self.workers = workers
        self.queue_limit = queue
        self.executor = ProcessPoolExecutor(
            workers,
            mp_context=context,
            initializer=_lower_this_processs_priority,
            initargs=(initializer, os.getpid(), niceness),
            max_tasks_per_child=tasks_per_worker,
        )
        self._running: asyncio.Semaphore | None = None
        self.waiting = 0  # jobs queued here, not yet handed to a worker
        self.done = 0  # jobs finished (for tests and the benchmark)

    def start(self) -> list[int]:
        """Spawn every worker now and let each warm up (blocking: call it off the event loop at start-up).
        Returns the workers' process ids (none if the pool was closed meanwhile)."""
        try:
            futures = [self.executor.submit(_pid) for _ in range(self.workers)]
            return sorted({f.result() for f in futures})
        except (RuntimeError, CancelledError, BrokenExecutor):
            return []

    async def run(self, work: Callable[..., T], *args: object) -> T:
        if self._running is None:
            self._running = asyncio.Semaphore(self.workers)
        if self.waiting >= self.queue_limit:
            raise PoolBusy(f"{self.waiting} images are already waiting to be drawn")
        self.waiting += 1
        try:
            await self._running.acquire()
        finally:
            self.waiting -= 1
        try:
            result: T = await asyncio.get_running_loop().run_in_executor(self.executor, work, *args)
        finally:
            self._running.release()
        self.done += 1
        return result

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
