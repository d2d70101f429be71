"""``/healthz`` and ``/metrics`` of one process (HEALTH_PORT; docs/deploy.md, "Health and metrics"): a small aiohttp
server on the bot's own event loop, started in ``setup_hook`` and stopped on close.

``/healthz`` answers 200 when the process's three parts are well, 503 otherwise, one line per part either way:
its Discord connection (a gateway or the one-process bot: the gateway session connected and ready; a worker: logged
in to the HTTP API), its database (``SELECT 1`` within ``DATABASE_TIMEOUT_S``) and its publisher (the one-process
bot's, set up with its image queue accepting work; a worker's outbox pump, holding the publish lease or waiting for
it; a gateway has none, its workers publish). The lines name parts and states only: no address, no token, no member.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from app.metrics import Metrics

if TYPE_CHECKING:
    from cogs.client import WesterosBot

log = logging.getLogger("westeros.health")

DATABASE_TIMEOUT_S = 2.0  # a health check must answer before a prober gives up (theirs: often 5 s)
SCRAPE_TIMEOUT_S = 5.0  # the gauges' queries at a scrape; past it the scrape shows the values they had


def discord_state(bot: WesterosBot) -> str | None:
    """What is wrong with the process's Discord connection (None: nothing)."""
    if bot.is_closed():
        return "closed"
    if bot.role == "worker":  # no gateway: the HTTP API is all it uses, and login() proved the token
        return None if bot.user is not None else "not logged in to the HTTP API"
    if not bot.is_ready():
        return "the gateway session is not ready"
    if isinstance(bot, discord.AutoShardedClient):
        closed = sorted(shard_id for shard_id, shard in bot.shards.items() if shard.is_closed())
        return f"shards {', '.join(map(str, closed))} disconnected" if closed else None
    return None if bot.ws is not None and bot.ws.open else "the gateway session is disconnected"


async def database_state(bot: WesterosBot) -> str | None:
    try:
        await asyncio.wait_for(bot.service.store.db.fetchone("SELECT 1"), timeout=DATABASE_TIMEOUT_S)
    except TimeoutError:
        return f"no answer within {DATABASE_TIMEOUT_S:g} s"
    except Exception as error:  # only its class: a driver's message may name the host and the user
        return f"failed ({type(error).__name__})"
    return None


def publisher_state(bot: WesterosBot) -> tuple[str | None, str]:
    """What is wrong with the process's publisher (None: nothing), and what it does when well."""
    if bot.role == "gateway":
        return None, "none here (the workers publish)"
    if bot.role == "worker":
        pump = bot.pump
        if pump is None or pump.task is None or pump.task.done():
            return "the outbox pump is not running", ""
        return None, "holding the publish lease" if pump.holding else "waiting for the publish lease"
    if getattr(bot, "play", None) is None:
        return "not set up", ""
    pool = bot.background
    if pool.waiting >= pool.queue_limit:
        return "the image queue is full", ""
    return None, "running"


class HealthServer:
    def __init__(self, bot: WesterosBot, metrics: Metrics, *, host: str, port: int) -> None:
        self.bot = bot
        self.metrics = metrics
        self.host = host
        self.port = port
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.scrape)
        self.runner = web.AppRunner(app, access_log=None)  # probes every few seconds would flood the log

    async def start(self) -> None:
        await self.runner.setup()
        await web.TCPSite(self.runner, self.host, self.port).start()
        log.info("health and metrics on http://%s:%s (/healthz, /metrics)", self.host, self.port)

    async def stop(self) -> None:
        await self.runner.cleanup()

    async def healthz(self, _: web.Request) -> web.Response:
        problems: list[str] = []
        lines = []
        discord_problem = discord_state(self.bot)
        database_problem = await database_state(self.bot)
        publisher_problem, publishing = publisher_state(self.bot)
        for part, problem, well in (
            ("discord", discord_problem, "logged in to the HTTP API" if self.bot.role == "worker" else "connected"),
            ("database", database_problem, "answers"),
            ("publisher", publisher_problem, publishing),
        ):
            lines.append(f"{part}: {problem or well}")
            if problem:
                problems.append(part)
        status = 503 if problems else 200
        head = f"unhealthy: {', '.join(problems)}" if problems else "ok"
        return web.Response(status=status, text="\n".join([head, *lines]) + "\n")

    async def scrape(self, _: web.Request) -> web.Response:
        try:
            await asyncio.wait_for(self.metrics.refresh(self.bot.service.store.db), timeout=SCRAPE_TIMEOUT_S)
        except Exception as error:  # the counters are still worth reading without the database's gauges
            log.warning("metrics: the database's gauges were not refreshed (%s)", type(error).__name__)
        return web.Response(body=self.metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST})
