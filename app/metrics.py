"""What one process of the bot counts for Prometheus (``/metrics``, served by ``cogs/health.py`` when HEALTH_PORT is
set; docs/deploy.md, "Health and metrics").

The rest of the bot calls the hooks below, one line each where the thing happens. While metrics are off (no
HEALTH_PORT: ``enable`` never ran) every hook returns at its first line, so the answer path pays a function call and
nothing else. Each process counts what it does itself (a gateway its receipts, a worker the answers it applies):
Prometheus adds the processes up.

Labels hold codes and names from the code only (an answer's source, a refusal's code, an exception's class), never a
member, a game or a message: the number of series stays small and nothing personal leaves the process.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Awaitable, Sized
from typing import TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from app.database import Session

T = TypeVar("T")

# A receipt is Discord's answer to a click: most take well under a second, a loaded gateway of workers a few.
RECEIPT_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0)
DRAW_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0)
STATUSES = ("lobby", "running", "paused", "ended")  # app/store_games.py GameStatus: each shown, 0 when none


class Metrics:
    """The process's own registry (never the library's global one: nothing else may add to what it shows)."""

    def __init__(self, *, queue: bool) -> None:
        self.registry = CollectorRegistry()
        self.queue = queue  # whether this process shares a command queue (a gateway or a worker)
        r = self.registry
        self.answers = Counter(
            "westeros_answers_applied", "Answers this process applied, by who gave them", ["source"], registry=r
        )
        self.receipts = Histogram(
            "westeros_receipt_latency_seconds",
            "From a Submit click's arrival to the receipt edited into its form",
            buckets=RECEIPT_BUCKETS,
            registry=r,
        )
        self.deadlines = Counter(
            "westeros_deadlines_fired", "Deadlines this process fired that answered for at least one house", registry=r
        )
        self.draws = Histogram(
            "westeros_image_draw_seconds", "Time to draw one step's images in the image pool", buckets=DRAW_BUCKETS,
            registry=r,
        )  # fmt: skip
        self.images = Counter("westeros_images_drawn", "Images drawn for the channels", registry=r)
        self.errors = Counter(
            "westeros_errors",
            "Interactions answered with a failure: kind=refusal (name: its code) or failure (name: the exception)",
            ["kind", "name"],
            registry=r,
        )
        self.outbox_rows = Gauge("westeros_outbox_backlog", "Versions and notices not yet published", registry=r)
        self.outbox_age = Gauge(
            "westeros_outbox_oldest_age_seconds", "Age of the outbox's oldest row (0 when empty)", registry=r
        )
        self.games = Gauge("westeros_games", "Games by status", ["status"], registry=r)
        self.queue_depth = (
            Gauge("westeros_queue_depth", "Queued commands the workers have not finished", registry=r)
            if queue
            else None
        )

    async def refresh(self, db: Session) -> None:
        """The gauges read from the database, at each scrape: three or four cheap queries."""
        count, oldest = await db.fetchone("SELECT COUNT(*), MIN(created_at) FROM outbox") or (0, None)
        self.outbox_rows.set(count or 0)
        self.outbox_age.set(max(0.0, time.time() - float(oldest)) if oldest is not None else 0.0)
        rows = await db.fetchall("SELECT status, COUNT(*) FROM games GROUP BY status")
        by_status = {str(status): n for status, n in rows}
        for status in sorted({*STATUSES, *by_status}):
            self.games.labels(status).set(by_status.get(status, 0))
        if self.queue_depth is not None:
            row = await db.fetchone("SELECT COUNT(*) FROM command_queue WHERE done_at IS NULL")
            self.queue_depth.set(row[0] if row else 0)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


current: Metrics | None = None  # this process's metrics, None while they are off
_click_arrived: contextvars.ContextVar[float | None] = contextvars.ContextVar("click_arrived", default=None)


def enable(*, queue: bool) -> Metrics:
    """Turn metrics on for this process (at start-up, when HEALTH_PORT is set)."""
    global current
    current = Metrics(queue=queue)
    return current


def disable() -> None:
    global current
    current = None


# ----- the hooks: each does nothing while metrics are off -----


def answer_applied(source: str) -> None:
    if current is not None:
        current.answers.labels(source).inc()


def click_arrived() -> None:
    """A click that may submit an answer has arrived: its receipt's latency counts from now (this task's context)."""
    if current is not None:
        _click_arrived.set(time.perf_counter())


def receipt_sent() -> None:
    """The receipt of the click this task serves is edited in: its latency (none measured without ``click_arrived``)."""
    if current is not None and (arrived := _click_arrived.get()) is not None:
        current.receipts.observe(time.perf_counter() - arrived)


def deadline_fired(houses: Sized) -> None:
    if current is not None and len(houses):
        current.deadlines.inc()


async def images_drawn(drawing: Awaitable[T]) -> T:
    """Await ``drawing`` (the image pool's run for a step), timing it and counting its images when metrics are on."""
    if current is None:
        return await drawing
    started = time.perf_counter()
    images = await drawing
    current.draws.observe(time.perf_counter() - started)
    if isinstance(images, Sized):
        current.images.inc(len(images))
    return images


def refused(code: str) -> None:
    if current is not None:
        current.errors.labels("refusal", code).inc()


def failed(error: BaseException) -> None:
    if current is not None:
        current.errors.labels("failure", type(error).__name__).inc()
