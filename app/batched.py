"""Group commit: calls that arrive while a statement is under way go together in the next one.

A burst's writes (the gateway's enqueues, a worker's commits of answers applied side by side) each took a statement and
a commit of their own: a round trip, a flush to the disk and a round of notifications to every listening process each,
which one statement of many rows pays once.
A lone call waits for nobody: its statement goes at once, and only the calls that come while it is under way wait,
for the next one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

log = logging.getLogger("westeros.batched")

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class _Waiting(Generic[T, R]):
    item: T
    done: asyncio.Future[R]


class Batched(Generic[T, R]):
    """``await batched(item)``: ``run`` applied to the items gathered while the previous batch was under way (at most
    ``most``), this item's result among its results (one per item, in order).

    Should a batch fail, each of its callers is raised the failure when ``shared(error)`` says it is the batch's (a
    lost connection: each caller handles it as a lone call's, e.g. by looking its own write up); any other failure runs
    each item on its own, so that one bad item fails no other and each caller gets its own outcome."""

    def __init__(
        self,
        run: Callable[[list[T]], Awaitable[list[R]]],
        *,
        most: int,
        shared: Callable[[BaseException], bool],
        what: str,
    ) -> None:
        self.run = run
        self.most = most
        self.shared = shared
        self.what = what  # for the log: "enqueueing commands"
        self.gathered: list[_Waiting[T, R]] = []
        self.task: asyncio.Task[None] | None = None
        self.batches = 0  # statements made (the tests and the benchmark)

    async def __call__(self, item: T) -> R:
        waiting: _Waiting[T, R] = _Waiting(item, asyncio.get_running_loop().create_future())
        self.gathered.append(waiting)
        if self.task is None:
            self.task = asyncio.create_task(self._drain())
        return await waiting.done

    async def _drain(self) -> None:
        try:
            while self.gathered:
                batch, self.gathered = self.gathered[: self.most], self.gathered[self.most :]
                batch = [waiting for waiting in batch if not waiting.done.done()]  # a caller cancelled meanwhile
                if batch:
                    await self._one(batch)
        finally:
            self.task = None
            for waiting in self.gathered:  # only if this task itself was cancelled: nobody waits for nothing
                waiting.done.cancel()
            self.gathered = []

    async def _one(self, batch: list[_Waiting[T, R]]) -> None:
        try:
            results = await self._run(batch)
        except Exception as error:
            if self.shared(error) or len(batch) == 1:
                for waiting in batch:
                    _fail(waiting.done, error)
                return
            log.warning("%s: %d together failed (%s); each on its own", self.what, len(batch), str(error)[:200])
            for waiting in batch:
                try:
                    (result,) = await self._run([waiting])
                except Exception as own:
                    _fail(waiting.done, own)
                else:
                    _resolve(waiting.done, result)
            return
        for waiting, result in zip(batch, results, strict=True):
            _resolve(waiting.done, result)

    async def _run(self, batch: list[_Waiting[T, R]]) -> list[R]:
        self.batches += 1
        return await self.run([waiting.item for waiting in batch])


def _resolve(future: asyncio.Future[R], result: R) -> None:
    if not future.done():  # else its caller was cancelled
        future.set_result(result)


def _fail(future: asyncio.Future[R], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)
