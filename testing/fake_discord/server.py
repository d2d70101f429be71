"""FakeDiscord: the HTTP + websocket server on 127.0.0.1 and its lifecycle."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Generator
from types import TracebackType
from typing import Any, Self

from aiohttp import web

from . import routes_channels, routes_core, routes_interactions, routes_threads
from .bodies import MAX_BODY_BYTES
from .builder import WorldBuilder
from .context import FakeContext, InternalError
from .events import EventEmitter
from .faults import FaultPlan, RequestLog
from .gateway import Gateway
from .interactions import InteractionTracker
from .observe import Observer
from .rest import RestRouter
from .scripted import ScriptedPlayers
from .world import World


class FakeDiscord(WorldBuilder, ScriptedPlayers, Observer):
    """A local fake of Discord's REST API v10 and gateway for the real discord.py client.

    Use ``fake = await FakeDiscord.start()`` (then ``await fake.stop()``) or
    ``async with FakeDiscord.start() as fake: ...``.
    """

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "fake-bot",
        ack_timeout: float = 3.0,
        heartbeat_interval_ms: int = 41_250,
        point_discord_py: bool = True,
    ) -> None:
        self.token = token or "fake-token." + secrets.token_urlsafe(24)
        self.world = World(bot_name=bot_name)
        self.faults = FaultPlan()
        self.requests = RequestLog()
        self.interactions = InteractionTracker(self.world, ack_timeout=ack_timeout)
        self.gateway = Gateway(
            self.world, token=self.token, heartbeat_interval_ms=heartbeat_interval_ms, url=lambda: self.gateway_url
        )
        self.gateway.on_dispatch_sent = self.interactions.frame_sent
        self.events = EventEmitter(self.world, self.gateway)
        self.ctx = FakeContext(
            world=self.world,
            gateway=self.gateway,
            events=self.events,
            interactions=self.interactions,
            faults=self.faults,
            requests=self.requests,
            token=self.token,
        )
        self.base_url = ""
        self.gateway_url = ""
        self._point_discord_py = point_discord_py
        self._restore_discord_py: Callable[[], None] | None = None
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.base_events.Server | None = None

    # -------------------------------------------------------------- lifecycle
    @classmethod
    def start(cls, **options: Any) -> _Starting:
        """Start a fake on a free loopback port. Await it, or use it as ``async with``."""
        return _Starting(cls(**options))

    async def _start(self) -> Self:
        app = web.Application(client_max_size=MAX_BODY_BYTES)
        specs = [
            *routes_core.routes(self.ctx),
            *routes_channels.routes(self.ctx),
            *routes_threads.routes(self.ctx),
            *routes_interactions.routes(self.ctx),
        ]
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._attachment)
        RestRouter(self.ctx).install(app, specs)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        handler_factory = runner.server
        assert handler_factory is not None
        # Listen through the arrival stamp (see arrivals.py) rather than a TCPSite.
        self._listener = await asyncio.get_running_loop().create_server(
            lambda: self.ctx.arrivals.wrap(handler_factory()), "127.0.0.1", 0
        )
        self._runner = runner
        port = self._listener.sockets[0].getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}"
        self.gateway_url = f"ws://127.0.0.1:{port}/gateway/"
        self.world.base_url = self.base_url
        self.ctx.gateway_url = self.gateway_url
        if self._point_discord_py:
            from .discord_py import point_discord_py_at

            self._restore_discord_py = point_discord_py_at(self.base_url, self.gateway_url)
        return self

    async def stop(self) -> None:
        """Close gateway connections, stop the server, undo the discord.py redirection. Idempotent."""
        self.interactions.close()
        await self.gateway.close()
        if self._listener is not None:
            listener, self._listener = self._listener, None
            listener.close()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
        if self._restore_discord_py is not None:
            restore, self._restore_discord_py = self._restore_discord_py, None
            restore()

    async def __aenter__(self) -> Self:
        if self._runner is None:
            await self._start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    # ------------------------------------------------------------ diagnostics
    @property
    def unsupported_requests(self) -> list[str]:
        """Endpoints the bot called that the fake does not implement (answered 404)."""
        return self.ctx.unsupported

    @property
    def internal_errors(self) -> list[InternalError]:
        """Bugs inside the fake's handlers (answered 400 so discord.py does not retry)."""
        return self.ctx.internal_errors

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        try:
            att = self.world.attachments.get(int(request.match_info["attachment_id"]))
        except ValueError:
            att = None
        if att is None:
            raise web.HTTPNotFound()
        return web.Response(body=att.data, content_type=att.content_type)


class _Starting:
    """``await FakeDiscord.start()`` or ``async with FakeDiscord.start() as fake``."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._fake = fake

    def __await__(self) -> Generator[Any, None, FakeDiscord]:
        return self._fake._start().__await__()

    async def __aenter__(self) -> FakeDiscord:
        return await self._fake._start()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self._fake.stop()
