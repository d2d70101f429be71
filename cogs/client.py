"""Wire the bot together: store, service, cogs, and (optionally) a different API base for tests."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import logging
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord
import yarl
from apscheduler.schedulers.asyncio import AsyncIOScheduler  # type: ignore[import-untyped]
from discord.ext import commands

from app import metrics
from app.ai import AiPlayers
from app.background import ImagePool
from app.backup import schedule_backups
from app.config import Config
from app.database import POOL_SIZE, PostgresDatabase, is_postgres
from app.deadlines import Deadlines, Reminder
from app.leases import ONE_PROCESS, PUBLISHER, Lease, LeaseHeld, LeaseKeeper, gateway_lease, process_info
from app.queue import CommandQueue, GatewayService, Outcomes, Workers, worker_connections
from app.retention import schedule_retention
from app.service import GameService
from app.store import Store
from cogs.health import HealthServer
from cogs.pump import OutboxPump
from cogs.translator import CatalogTranslator
from cogs.warm import Warmer

log = logging.getLogger("westeros.bot")
BOT_ROOT = Path(__file__).resolve().parent.parent  # where bot.py is: PostgreSQL's backups/ go beside it

HTTP_CONNECTIONS = 64
GC_THRESHOLDS = (20_000, 20, 10)  # the garbage collector's, chosen by measurement (see setup_hook)
AI_AFTER_CLICKS_MAX_S = 5.0  # the AI waits at most this long for a stream of clicks to pause before it goes on


def warm_job() -> Callable[..., None]:
    """What the image workers run to warm up (imported here only when the renderer is installed)."""
    from render.warming import warm_renderer

    return warm_renderer


def nothing_to_warm(boards: tuple[str, ...], story: bool) -> None:
    """The warm-up where no renderer is installed."""


def load_renderer() -> Any:
    """The map renderer if it is installed (``render.render_board(view, lang) -> PNG bytes``), else None."""
    try:
        from render import render_board
    except ImportError:
        return None
    return render_board


class WesterosBot(commands.Bot):
    """``role``: ``all`` (one process does everything), ``gateway`` (holds Discord's gateway, answers interactions,
    queues players' answers) or ``worker`` (no gateway: applies queued answers and, holding the publish lock,
    publishes the outbox). See docs/deploy.md."""

    def __init__(self, config: Config, service: GameService, *, role: str = "all", **options: Any) -> None:
        # Only what the bot uses: guilds and channels. Everything else arrives as interactions, which need no
        # intent. Message intents would send every message the bot itself posts (maps, narration, DMs) back
        # to it over the gateway, to be parsed and thrown away: a third of its work in a burst of answers.
        intents = discord.Intents.none()
        intents.guilds = True
        # A bounded pool of kept-alive connections: a burst of clicks then queues for a connection instead of
        # opening hundreds at once (each a TCP and TLS handshake against Discord).
        connector = aiohttp.TCPConnector(limit=HTTP_CONNECTIONS)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            max_messages=None,
            connector=connector,
            # Nothing the bot posts pings anyone unless that message names whom it pings (a game name or a
            # typed text may hold @everyone or a role mention).
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.config = config
        self.service = service
        self.role = role
        self.scheduler = AsyncIOScheduler()
        self.deadlines: Deadlines | None = None
        # The agent playing AI seats thinks in processes of its own (app/ai.py): the gateway of several processes
        # has none (its work is acknowledging clicks); its workers answer for the agent.
        self.ai: AiPlayers | None = None
        # Images are drawn in worker processes at a lower CPU priority, each warmed up as it starts: the event
        # loop's process never draws (a drawing thread would hold the interpreter lock the loop needs).
        renderer = load_renderer()
        self.renderer = renderer
        self.warm_job = warm_job() if renderer else None
        self.background = ImagePool(
            config.image_workers,
            initializer=self.warm_job,
            # The fork server warms the renderer once, and every worker forked from it starts warm.
            preload=("render.warmed",) if renderer else (),
        )
        self._warming: asyncio.Future[list[int]] | None = None
        self.pump: OutboxPump | None = None
        self.health: HealthServer | None = None
        self._recovering: asyncio.Future[None] | None = None

    async def setup_hook(self) -> None:
        from cogs.forms import DecideButton
        from cogs.gifts import GiftCancel, GiftConfirm, Gifts
        from cogs.lobby import Lobby, LobbyButton
        from cogs.moderation import DeleteConfirm, HandoverConsent, Moderation, UndoConfirm
        from cogs.play import GATEWAY_WORK_SLOTS, WORK_SLOTS, Play
        from cogs.privacy import ForgetConfirm, Privacy
        from cogs.replay import Replay, ReplayButton, ReplayRounds
        from cogs.replies import answer_failure
        from cogs.stats import Stats
        from cogs.talk import Talk

        await self.tree.set_translator(CatalogTranslator())
        self.tree.error(answer_failure)  # every slash command's failure: one localised sentence, and the log
        # Deadlines subscribe first, so a decision's DM already carries its deadline.
        self.scheduler.start()
        if self.role == "all" and self.config.backup_every_hours:  # gateways and workers: a cron job (docs/deploy.md)
            schedule_backups(self.scheduler, self.config, BOT_ROOT)
        schedule_retention(self.scheduler, self.service.store, self.config.keep_ended_days)
        # A gateway has no AI pool: it leaves the deadlines of games the AI answers to the workers (app/deadlines.py).
        self.deadlines = Deadlines(
            self.service, self.scheduler, notify=self._deadline_notice, lease=self.config.deadline_lease_s,
            ai_elsewhere=self.role == "gateway",
        )  # fmt: skip
        if self.role != "gateway":
            self.ai = AiPlayers(self.service, workers=self.config.ai_workers, niceness=self.config.ai_niceness)
            self.deadlines.think = self.ai.autopilot
        # The image workers start and warm up beside the rest of start-up; an image asked for meanwhile waits.
        self._warming = asyncio.ensure_future(asyncio.to_thread(self.background.start))
        slots = GATEWAY_WORK_SLOTS if self.role == "gateway" else WORK_SLOTS
        self.play = Play(self, self.service, self.renderer, publishing=self.role == "all", work_slots=slots)
        if self.ai is not None:  # the AI thinks and answers after a burst of clicks, not in its midst
            order = self.play.order
            self.ai.after_clicks = lambda: order.after_clicks(AI_AFTER_CLICKS_MAX_S)
            order.on_clicks = self.ai.players_clicking
        lobby = Lobby(self, self.service, self.config.moderator_role, renderer=self.renderer, images=self.background)
        await self.add_cog(lobby)
        await self.add_cog(self.play)
        await self.add_cog(Talk(self, self.service, self.play.publisher))  # /game talk joins the Lobby's /game
        await self.add_cog(Moderation(self, self.service, self.config.moderator_role, self.play.dms))
        await self.add_cog(Gifts(self, self.service))
        await self.add_cog(Privacy(self, self.service, self.config))
        await self.add_cog(Replay(self, self.service, renderer=self.renderer, images=self.background))
        await self.add_cog(Stats(self, self.service))  # /stats player, /stats leaderboard (issue W)
        self.add_dynamic_items(
            LobbyButton,
            DecideButton,  # a form's own menus and buttons reach it by their custom ids (Play.on_interaction)
            UndoConfirm,
            DeleteConfirm,
            GiftConfirm,
            GiftCancel,
            HandoverConsent,
            ForgetConfirm,
            ReplayButton,
            ReplayRounds,
        )
        restored = await self.deadlines.restore(sweep_every=self.config.deadline_sweep_s)
        log.info("re-armed %s deadlines", restored)
        if self.role == "all":
            # What commits before a crash implied and never sent goes out now; their steps' deadlines are armed anew.
            for game_id in await self.play.publisher.drain():
                await self.deadlines.arm(game_id)
        # The image workers warmed for the boards of the games running (and, later, of those that start) and for the
        # story of those near their end (cogs/warm.py).
        self.warmer = Warmer(self.background, self.warm_job or nothing_to_warm)
        self.service.subscribe(self.warmer.on_applied)
        await self.warmer.at_start(self.service)
        if self.ai is not None:
            await self.ai.restore()  # the decisions the agent owes that a crash left unanswered
        if self.role == "worker":
            assert self.ai is not None  # the publishing worker's AI sees every version, whoever committed it
            self.play.publisher.followers.append(self.ai.on_applied)
            self.pump = OutboxPump(self.play.publisher, str(self.config.database), ttl=self.config.lease_s)
            self.pump.start()
        elif isinstance(self.service, GatewayService):
            # The players whose answers this gateway queued before it restarted are told, as their outcomes come; and
            # while it runs, those whose outcomes it could not read in time (the database away) once it can.
            self._recovering = asyncio.ensure_future(self._tell_untold(self.service))
        if self.config.health_port is not None:
            await self._serve_health(self.config.health_port)
        # Everything loaded so far (code, board data, catalogs) lives as long as the process: keep it out of the
        # garbage collector's full passes, which otherwise pause the event loop for tens of milliseconds.
        gc.collect()
        gc.freeze()
        # A burst of answers allocates fast: over bench/bot.py's run (set-up, then 300 answers at once) the
        # default thresholds (700, 10, 10) ran about 400 young and 5 full passes, the full ones of 25-50 ms in
        # the middle of acknowledgements; these ran 12 young and 2 full (docs/bot.md, "Under load").
        gc.set_threshold(*GC_THRESHOLDS)

    def publishes(self) -> bool:
        """Whether this worker holds the publish lock now: it leads the claims (``Workers.leads``)."""
        return self.pump is not None and self.pump.holding

    async def _serve_health(self, port: int) -> None:
        """/healthz and /metrics on this loop (cogs/health.py). A port already taken is said in one line and the bot
        runs on without them: its prober then sees it down, and the log says why."""
        server = HealthServer(self, metrics.enable(queue=self.role != "all"), host=self.config.health_host, port=port)
        try:
            await server.start()
        except OSError as err:
            log.error("could not serve health and metrics on %s:%s: %s", self.config.health_host, port, err.strerror)
            await server.stop()
            metrics.disable()
            return
        self.health = server

    async def _tell_untold(self, service: GatewayService) -> None:
        """For as long as the gateway runs: the players it left waiting before a restart, then every UNTOLD_SWEEP_S
        those it told the outcome was unknown, each told once the record says what it was."""
        from cogs.receipts import tell_late

        tell = lambda row, outcome: tell_late(self, service, row, outcome)  # noqa: E731
        await service.outcomes.keep_telling(tell, every=self.config.untold_sweep_s)

    async def _deadline_notice(self, notice: Reminder) -> None:
        await self.play.dms.on_reminder(notice)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s games running)", self.user, await self.service.count_running())

    async def on_shard_ready(self, shard_id: int) -> None:
        # Only a sharded bot sends this: which guilds each shard of this process brought (docs/deploy.md).
        guilds = sum(1 for guild in self.guilds if guild.shard_id == shard_id)
        log.info("shard %s of %s ready (guilds: %s)", shard_id, self.shard_count, guilds)

    async def close(self) -> None:
        if self.health is not None:
            await self.health.stop()
            self.health = None
            metrics.disable()
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        if self.pump is not None:
            await self.pump.stop()
        if self._recovering is not None:
            self._recovering.cancel()
        play = getattr(self, "play", None)
        if play is not None:  # the posts of answers already committed go out first, if they can in time
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(play.publisher.settled(), timeout=5)
            await play.publisher.close()
        self.background.close()
        if self.ai is not None:
            self.ai.close()
        await super().close()
        if self._warming is not None and not self._warming.done():
            self._warming.cancel()


class ShardedWesterosBot(WesterosBot, commands.AutoShardedBot):
    """The same bot holding several of the gateway's shards (``shard_count`` and ``shard_ids`` from SHARD_COUNT and
    SHARD_IDS): one cache and one event loop for all of them, so a guild's events may arrive on any shard it holds."""


def westeros_bot(config: Config, service: GameService, *, role: str) -> WesterosBot:
    """A plain bot (one gateway connection, or none for a worker), or a sharded one when the configuration gives
    this process shards (``load_config`` gives a worker none)."""
    if config.shard_count is None or role == "worker":
        return WesterosBot(config, service, role=role)
    return ShardedWesterosBot(
        config, service, role=role, shard_count=config.shard_count, shard_ids=list(config.shard_ids or ())
    )


def gateway_name(config: Config) -> str:
    """What a gateway's queued commands say enqueued them, the same after its restart: its shards (two gateways
    never hold the same), or plain ``gateway`` for the only one."""
    if config.shard_ids is None:
        return "gateway"
    return "gateway:" + ",".join(str(shard) for shard in sorted(config.shard_ids))


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Send REST calls to ``api_base`` and connect to ``gateway_url`` (the local fake Discord in tests)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def start(config: Config, *, sync_commands: bool = False, role: str = "all") -> int:
    point_at(config.api_base, config.gateway_url)
    if role != "all" and not is_postgres(config.database):
        log.error("--role %s needs a PostgreSQL database shared by every process (DATABASE_URL=postgresql://...)", role)
        return 2
    connections = worker_connections(config.worker_slots) if role == "worker" else POOL_SIZE[1]
    store = await Store.open(config.database, shared=role != "all", connections=connections)
    try:
        leases = None if sync_commands else await hold_leases(config, role)
    except LeaseHeld as err:
        log.error("%s", err)
        await store.close()
        return 3
    try:
        if role == "worker":
            return await run_worker(config, store, leases)
        return await run_bot_process(config, store, role, leases, sync_commands=sync_commands)
    finally:
        if leases is not None:
            await leases.close()


async def hold_leases(config: Config, role: str) -> LeaseKeeper | None:
    """The leases a process of ``role`` holds on PostgreSQL, or ``LeaseHeld`` naming the live process that stops it
    from starting: a gateway holds its shards' (``gateway:<shard>``) and cannot start beside the one-process bot; the
    one-process bot holds ``one-process`` and every shard's, and cannot start beside a gateway, a publishing worker or
    another of its kind; a worker holds none at start (the publishing one takes ``publisher``, cogs/pump.py) and cannot
    start beside the one-process bot. SQLite: one process, no lease."""
    if not is_postgres(config.database):
        return None
    shards = [gateway_lease(shard) for shard in config.shard_ids or (0,)]
    names, excluded = {
        "all": ([ONE_PROCESS, *shards], ["gateway:", PUBLISHER]),
        "gateway": (shards, [ONE_PROCESS]),
        "worker": ([], [ONE_PROCESS]),
    }[role]
    keeper = LeaseKeeper(str(config.database), info=process_info(f"bot.py --role {role}"), ttl=config.lease_s)
    try:
        await keeper.acquire(names, wanted=f"bot.py --role {role}", excluded=excluded)
    except BaseException:
        await keeper.close()
        raise
    keeper.start()
    return keeper


async def run_bot_process(
    config: Config, store: Store, role: str, leases: LeaseKeeper | None, *, sync_commands: bool
) -> int:
    """A process holding Discord's gateway: the one-process bot, or a gateway of workers."""
    outcomes: Outcomes | None = None
    if sync_commands:  # a one-off beside the running bot: it must not take the bot's health port
        config = dataclasses.replace(config, health_port=None)
    service: GameService = GameService(store)
    if role == "gateway":
        assert isinstance(store.db, PostgresDatabase)
        outcomes = Outcomes(CommandQueue(store.db), gateway=gateway_name(config), timeout=config.outcome_timeout_s)
        outcomes.start()
        service = GatewayService(store, outcomes)
    bot = westeros_bot(config, service, role=role)
    if leases is not None:  # another process took one of this one's leases: two must not serve one shard

        def lost(_: Lease) -> None:
            background_tasks.add(asyncio.ensure_future(bot.close()))

        leases.on_lost = lost
    try:
        if sync_commands:
            await bot.login(config.token or "")  # login() runs setup_hook(), which adds the cogs
            synced = await bot.tree.sync()
            print(f"registered {len(synced)} slash commands")
            return 0
        # Hosts stop a process with SIGTERM: close cleanly (the database is always consistent anyway). While Discord
        # is away, discord.py sleeps between reconnections, for up to minutes, and closing the client does not wake
        # it: the session's task is cancelled, and the ``finally`` closes the client, so the process ends at once.
        session = asyncio.ensure_future(bot.start(config.token or ""))
        signalled = False

        def stop() -> None:
            nonlocal signalled
            signalled = True
            session.cancel()

        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop)
        try:
            await session
        except asyncio.CancelledError:
            if not signalled:
                raise
        return 0
    except discord.LoginFailure:
        log.error("Discord refused the token (DISCORD_TOKEN): check it in the developer portal")
        return 2
    finally:
        await bot.close()
        if outcomes is not None:
            await outcomes.stop()
        await store.close()


async def run_worker(config: Config, store: Store, leases: LeaseKeeper | None = None) -> int:
    """A worker: logged in to Discord's HTTP API only (no gateway), it applies queued answers in ``config.worker_slots``
    loops and competes for the publish lock; it stops on SIGTERM."""
    assert isinstance(store.db, PostgresDatabase)
    # What it commits to the outbox wakes the publishing worker by itself (revision 0019's trigger).
    service = GameService(store)
    bot = westeros_bot(config, service, role="worker")

    # The publishing worker applies the answers it keeps up with: it publishes them from the game as it applied them,
    # where another's it rebuilds from the log. The others take what waited HANDOFF_S, and take over if it dies.
    workers = Workers(CommandQueue(store.db), service.answer, slots=config.worker_slots, leads=bot.publishes)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    if leases is not None:
        leases.on_lost = lambda _: stopping.set()
    try:
        await bot.login(config.token or "")  # runs setup_hook: the cogs, the deadlines, the publish lock's pump
        workers.start()
        log.info("worker ready: %s slots", config.worker_slots)
        await stopping.wait()
        return 0
    except discord.LoginFailure:
        log.error("Discord refused the token (DISCORD_TOKEN): check it in the developer portal")
        return 2
    finally:
        await workers.stop()
        await bot.close()
        await store.close()


background_tasks: set[asyncio.Task[None]] = set()


def run_bot(config: Config, *, sync_commands: bool = False, role: str = "all") -> int:
    return asyncio.run(start(config, sync_commands=sync_commands, role=role))
