"""Inspecting the transcript, waiting for the bot, and controlling bot connections.

Mixed into :class:`testing.fake_discord.FakeDiscord`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Protocol, TypeVar

from . import commands
from .errors import FakeDiscordError, FakeTimeoutError
from .faults import RequestLog
from .gateway import Gateway
from .interactions import FakeInteraction, InteractionTracker
from .models import FakeChannel, FakeGuild, StoredMessage, UserLike
from .world import World

T = TypeVar("T")


class BotLike(Protocol):
    """What :meth:`Observer.run_bot` needs from a discord.py ``Client``/``Bot``."""

    async def start(self, token: str, *, reconnect: bool = True) -> None: ...
    async def close(self) -> None: ...
    def is_ready(self) -> bool: ...


B = TypeVar("B", bound=BotLike)


class Observer:
    world: World
    gateway: Gateway
    interactions: InteractionTracker
    requests: RequestLog
    token: str

    # ---------------------------------------------------------------- queries
    @property
    def transcript(self) -> list[StoredMessage]:
        """Every message ever created (including deleted and ephemeral ones), oldest first."""
        return self.world.transcript

    @property
    def failed_interactions(self) -> list[FakeInteraction]:
        """Interactions the bot did not acknowledge in time ("This interaction failed")."""
        return self.interactions.failures

    def messages_in(self, channel: FakeChannel, *, for_user: UserLike | None = None) -> list[StoredMessage]:
        """Live messages in a channel, oldest first; ephemerals only those for ``for_user``."""
        return self.world.messages_in(channel, include_ephemeral_for=for_user)

    def latest_message(self, channel: FakeChannel, *, for_user: UserLike | None = None) -> StoredMessage | None:
        messages = self.messages_in(channel, for_user=for_user)
        return messages[-1] if messages else None

    def dm_messages(self, user: UserLike) -> list[StoredMessage]:
        return self.messages_in(self.world.dm_channel(user.user), for_user=user)

    def latest_dm(self, user: UserLike) -> StoredMessage | None:
        messages = self.dm_messages(user)
        return messages[-1] if messages else None

    def visible_messages(self, user: UserLike) -> list[StoredMessage]:
        """Everything ``user`` can see: guild channels they can view, their DMs, their ephemerals."""
        return self.world.visible_messages(user.user)

    def mark(self) -> int:
        """A position in the transcript; pass it as ``since`` to only consider newer messages."""
        return len(self.world.transcript)

    def registered_commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        return commands.registered_commands(self.world, guild)

    # ---------------------------------------------------------------- waiting
    async def wait_for_message(
        self,
        predicate: Callable[[StoredMessage], bool] | None = None,
        *,
        channel: FakeChannel | None = None,
        visible_to: UserLike | None = None,
        since: int = 0,
        timeout: float = 5.0,
    ) -> StoredMessage:
        """The first live message (from transcript position ``since``) matching all the filters."""

        def probe() -> StoredMessage | None:
            for message in self.world.transcript[since:]:
                if message.deleted or (channel is not None and message.channel_id != channel.id):
                    continue
                if visible_to is not None and not self.world.can_see(visible_to.user, message):
                    continue
                if visible_to is None and message.ephemeral_for is not None and channel is not None:
                    continue
                if predicate is None or predicate(message):
                    return message
            return None

        return await self.world.wait_until(probe, timeout, "a matching message")

    async def wait_until(
        self, predicate: Callable[[], T | None], *, timeout: float = 5.0, what: str = "a condition"
    ) -> T:
        """Wait for any condition, e.g. on the bot's own state; re-checked on every change and every 10 ms."""
        return await self.world.wait_until(predicate, timeout, what, poll=0.01)

    async def wait_for_dm(self, user: UserLike, *, since: int = 0, timeout: float = 5.0) -> StoredMessage:
        channel = self.world.dm_channel(user.user)
        return await self.wait_for_message(channel=channel, visible_to=user, since=since, timeout=timeout)

    async def wait_idle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until the bot made no REST request for ``quiet`` seconds and none is in flight."""
        deadline = time.monotonic() + timeout
        log = self.requests
        while time.monotonic() < deadline:
            idle_for = time.monotonic() - log.last_activity
            if log.in_flight == 0 and idle_for >= quiet:
                return
            await asyncio.sleep(max(0.005, min(quiet - idle_for, deadline - time.monotonic(), quiet)))
        raise FakeTimeoutError(f"bot still busy after {timeout:g}s ({log.in_flight} requests in flight)")

    async def wait_for_ready(self, timeout: float = 10.0) -> None:
        """Wait until some bot client has identified on the gateway."""
        await self.world.wait_until(lambda: bool(self.gateway.connected_sessions), timeout, "a bot to IDENTIFY")

    async def wait_for_commands(self, *names: str, guild: FakeGuild | None = None, timeout: float = 10.0) -> None:
        """Wait until the bot registered (synced) all ``names`` (global, or for ``guild``)."""

        def probe() -> bool:
            have = {c["name"] for c in commands.registered_commands(self.world, guild)}
            return set(names) <= have

        await self.world.wait_until(probe, timeout, f"commands {names} to be synced")

    # -------------------------------------------------------------- bot control
    @asynccontextmanager
    async def run_bot(self, bot: B, *, timeout: float = 15.0) -> AsyncIterator[B]:
        """Start a discord.py client against this fake, wait until it is ready, close it afterwards."""
        task = asyncio.create_task(bot.start(self.token), name="fake-discord-bot")
        try:
            deadline = time.monotonic() + timeout
            while not bot.is_ready():
                if task.done():
                    task.result()  # re-raise the startup error
                    raise FakeDiscordError("bot.start() returned before the bot became ready")
                if time.monotonic() > deadline:
                    raise FakeTimeoutError(f"bot not ready after {timeout:g}s")
                await asyncio.wait({task}, timeout=0.01)
            yield bot
        finally:
            await bot.close()
            try:
                await asyncio.wait_for(task, timeout=5.0)
            except (TimeoutError, asyncio.CancelledError):
                task.cancel()
            except Exception:
                pass

    async def disconnect_bot(self, code: int = 4000) -> None:
        """Close the bot's gateway connection(s) from the server side; discord.py reconnects and RESUMEs."""
        await self.gateway.disconnect_all(code)

    def request_reconnect(self) -> None:
        """Send gateway op 7 RECONNECT."""
        self.gateway.request_reconnect()

    def invalidate_sessions(self) -> None:
        """Send op 9 INVALID_SESSION: the bot must IDENTIFY again."""
        self.gateway.invalidate_sessions()

    def describe(self, user: UserLike | None = None) -> str:
        """A readable dump of the transcript (or of what ``user`` sees), for failing-test output."""
        messages = self.visible_messages(user) if user is not None else [m for m in self.transcript if not m.deleted]
        lines = []
        for m in messages:
            where = self.world.channels.get(m.channel_id)
            name = where.name if where is not None and where.name else f"dm:{where.recipient_id if where else '?'}"
            extra = f" [ephemeral for {m.ephemeral_for}]" if m.ephemeral_for else ""
            lines.append(f"#{name} {m.author.name}{extra}: {m.text()!r} {m.custom_ids() or ''}")
        return "\n".join(lines)
