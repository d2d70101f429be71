"""The fake's state: users, guilds, channels, the message transcript, registered commands.

Everything that changes state calls :meth:`World.changed`, which wakes
:meth:`World.wait_until` waiters (the basis of all "wait for the bot" helpers).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from . import permissions as perms
from .bodies import RequestBody
from .errors import FakeTimeoutError, invalid_form
from .mentions import pings
from .models import (
    DM,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    GUILD_TEXT,
    PRIVATE_THREAD,
    SETTABLE_FLAGS,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    PermissionOverwrite,
    StoredAttachment,
    StoredMessage,
    UserLike,
)
from .snowflakes import SnowflakeFactory, now_iso, snowflake_iso

T = TypeVar("T")


class _Waiter(Generic[T]):
    """One ``wait_until`` call: its probe, and the future that its first truthy result resolves."""

    def __init__(self, probe: Callable[[], T | None], future: asyncio.Future[T]) -> None:
        self.probe = probe
        self.future = future

    def check(self) -> None:
        if self.future.done():
            return
        try:
            result = self.probe()
        except Exception as exc:  # a broken probe fails its own wait, not the fake
            self.future.set_exception(exc)
            return
        if result:
            self.future.set_result(result)

    def expire(self, message: str) -> None:
        self.check()  # a last look, as the old loop did before giving up
        if not self.future.done():
            self.future.set_exception(FakeTimeoutError(message))

    def poll(self, loop: asyncio.AbstractEventLoop, every: float, timers: list[asyncio.TimerHandle]) -> None:
        self.check()
        if not self.future.done():
            timers.append(loop.call_later(every, self.poll, loop, every, timers))


class World:
    def __init__(self, *, bot_name: str, application_id: int | None = None) -> None:
        self.ids = SnowflakeFactory()
        self.base_url = ""  # set by the server once it listens
        self.bot = FakeUser(self.ids.next(), bot_name, bot=True)
        self.application_id = application_id or self.bot.id
        self.application_owner = FakeUser(self.ids.next(), "app-owner")
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.transcript: list[StoredMessage] = []
        self.attachments: dict[int, StoredAttachment] = {}
        self.dm_by_user: dict[int, int] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self._waiters: set[_Waiter[Any]] = set()
        self._check_scheduled = False
        self.version = 0
        # Discord's enforce_nonce: a message sent again with the nonce of one the same author sent in the same channel
        # within this many seconds ("the past few minutes") is that message, and no new one is created.
        self.nonce_window = 300.0
        self.active_thread_limit = 1000  # active (unarchived) threads one server may hold, as on Discord

    # ----------------------------------------------------------------- waiting
    def changed(self) -> None:
        """Note a change; waiters' probes are re-checked once, after the current callback.

        Changes within one loop step share one check pass, and only waiters whose probe is now true are
        woken: with hundreds of scripted players waiting, waking every one on every change made the fake,
        not the bot, the slowest part of the load benchmark.
        """
        self.version += 1
        if self._waiters and not self._check_scheduled:
            self._check_scheduled = True
            asyncio.get_running_loop().call_soon(self._check_waiters)

    def _check_waiters(self) -> None:
        self._check_scheduled = False
        for waiter in list(self._waiters):
            waiter.check()

    async def wait_until(
        self, probe: Callable[[], T | None], timeout: float, what: str, *, poll: float | None = None
    ) -> T:
        """Return the first truthy ``probe()`` result, re-checking after each change.

        ``poll`` also re-checks every ``poll`` seconds, for probes that look at state
        outside the world (e.g. the bot's own attributes).
        """
        result = probe()
        if result:
            return result
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        waiter = _Waiter(probe, future)
        self._waiters.add(waiter)
        timers = [loop.call_later(timeout, waiter.expire, f"timed out after {timeout:g}s waiting for {what}")]
        if poll is not None:
            timers.append(loop.call_later(poll, waiter.poll, loop, poll, timers))
        try:
            return await waiter.future
        finally:
            self._waiters.discard(waiter)
            for timer in timers:
                timer.cancel()

    # ------------------------------------------------------------ construction
    def add_user(self, name: str, *, locale: str = "en-US", global_name: str | None = None) -> FakeUser:
        user = FakeUser(self.ids.next(), name, global_name=global_name, locale=locale)
        self.users[user.id] = user
        self.changed()
        return user

    def add_guild(self, name: str, *, owner: FakeUser | None, locale: str, bot_permissions: int) -> FakeGuild:
        gid = self.ids.next()
        owner_id = owner.id if owner is not None else self.application_owner.id
        guild = FakeGuild(gid, name, owner_id, locale=locale, joined_at=now_iso())
        guild.roles[gid] = FakeRole(gid, gid, "@everyone", permissions=perms.DEFAULT_EVERYONE)
        bot_role = self.add_role(guild, self.bot.name, permissions=bot_permissions, managed=True)
        self.guilds[gid] = guild
        self.add_member(guild, self.bot, role_ids=[bot_role.id])
        if owner is not None:
            self.add_member(guild, owner)
        self.changed()
        return guild

    def add_role(
        self, guild: FakeGuild, name: str, *, permissions: int = 0, managed: bool = False, color: int = 0
    ) -> FakeRole:
        role = FakeRole(self.ids.next(), guild.id, name, permissions=permissions, managed=managed, color=color)
        role.position = len(guild.roles)
        guild.roles[role.id] = role
        self.changed()
        return role

    def add_member(self, guild: FakeGuild, user: FakeUser, *, role_ids: Iterable[int] = ()) -> FakeMember:
        existing = guild.members.get(user.id)
        if existing is not None:
            for rid in role_ids:
                if rid not in existing.role_ids:
                    existing.role_ids.append(rid)
            return existing
        member = FakeMember(guild, user, role_ids=list(role_ids), joined_at=now_iso())
        guild.members[user.id] = member
        self.users[user.id] = user
        self.changed()
        return member

    def add_channel(
        self,
        guild: FakeGuild,
        name: str,
        *,
        type: int = GUILD_TEXT,
        parent_id: int | None = None,
        topic: str | None = None,
        overwrites: Iterable[PermissionOverwrite] = (),
        owner_id: int | None = None,
        channel_id: int | None = None,
    ) -> FakeChannel:
        channel = FakeChannel(
            channel_id or self.ids.next(),
            type,
            name,
            guild_id=guild.id,
            parent_id=parent_id,
            topic=topic,
            overwrites=list(overwrites),
            owner_id=owner_id,
            position=len(guild.channel_ids),
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        self.changed()
        return channel

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        channel_id = self.dm_by_user.get(user.id)
        if channel_id is not None:
            return self.channels[channel_id]
        channel = FakeChannel(self.ids.next(), DM, None, recipient_id=user.id)
        self.channels[channel.id] = channel
        self.dm_by_user[user.id] = channel.id
        self.changed()
        return channel

    # ----------------------------------------------------------------- lookups
    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id is not None else None

    def member_of(self, guild: FakeGuild, user: UserLike) -> FakeMember | None:
        return guild.members.get(user.id)

    def channel_permissions(self, channel: FakeChannel, user: UserLike) -> int:
        """Effective permissions of a user in a channel (0 if not a member)."""
        guild = self.guild_of(channel)
        if guild is None:
            return perms.DEFAULT_EVERYONE if channel.recipient_id == user.id else 0
        member = guild.members.get(user.id)
        if member is None:
            return 0
        target = self.channels.get(channel.parent_id) if channel.is_thread and channel.parent_id else channel
        return perms.channel_permissions(guild, target or channel, member)

    def can_view_channel(self, user: UserLike, channel: FakeChannel) -> bool:
        if channel.deleted:
            return False
        if channel.is_dm:
            return channel.recipient_id == user.id or user.id == self.bot.id
        allowed = bool(self.channel_permissions(channel, user) & perms.VIEW_CHANNEL)
        if allowed and channel.type == PRIVATE_THREAD:  # its members, and those who manage threads (admins too)
            manages = bool(self.channel_permissions(channel, user) & perms.MANAGE_THREADS)
            member = user.id in channel.thread_members or user.id == channel.owner_id or user.id == self.bot.id
            return member or manages
        return allowed

    def can_see(self, user: UserLike, message: StoredMessage) -> bool:
        if message.deleted:
            return False
        if message.ephemeral_for is not None:
            return message.ephemeral_for == user.id
        channel = self.channels.get(message.channel_id)
        return channel is not None and self.can_view_channel(user, channel)

    # ---------------------------------------------------------------- messages
    def _attachments_from(self, body: RequestBody, data: dict[str, Any], keep: list[StoredAttachment]) -> list[Any]:
        """New attachment list: kept existing ones plus uploaded files, in payload order."""
        if "attachments" not in data:
            uploaded = [self.store_attachment(f.filename, f.data, f.content_type) for f in body.files]
            return keep + uploaded
        out: list[StoredAttachment] = []
        by_id = {a.id: a for a in keep}
        used: set[int] = set()
        for entry in data.get("attachments") or []:
            raw_id = int(entry.get("id", -1))
            upload = body.file(raw_id)
            if upload is not None and raw_id not in by_id:
                used.add(raw_id)
                out.append(
                    self.store_attachment(
                        entry.get("filename") or upload.filename,
                        upload.data,
                        upload.content_type,
                        entry.get("description"),
                    )
                )
            elif raw_id in by_id:
                out.append(by_id[raw_id])
            else:
                raise invalid_form({"attachments": {"_errors": [{"message": f"Unknown attachment id {raw_id}"}]}})
        out.extend(self.store_attachment(f.filename, f.data, f.content_type) for f in body.files if f.index not in used)
        return out

    def store_attachment(
        self, filename: str, data: bytes, content_type: str, description: str | None = None
    ) -> StoredAttachment:
        att_id = self.ids.next()
        url = f"{self.base_url}/attachments/{att_id}/{filename}"
        att = StoredAttachment(att_id, filename, content_type, data, url, description)
        self.attachments[att_id] = att
        return att

    def create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        body: RequestBody,
        *,
        data: dict[str, Any] | None = None,
        ephemeral_for: int | None = None,
        interaction_id: int | None = None,
        webhook_id: int | None = None,
        message_type: int = 0,
        extra_flags: int = 0,
    ) -> StoredMessage:
        data = body.payload if data is None else data
        flags = (int(data.get("flags") or 0) & SETTABLE_FLAGS) | extra_flags
        if ephemeral_for is None:
            flags &= ~FLAG_EPHEMERAL
        else:
            flags |= FLAG_EPHEMERAL
        msg_id = self.ids.next()
        message = StoredMessage(
            id=msg_id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=str(data.get("content") or ""),
            embeds=[_normalize_embed(e) for e in data.get("embeds") or []],
            components=list(data.get("components") or []),
            attachments=self._attachments_from(body, data, []),
            flags=flags,
            ephemeral_for=ephemeral_for,
            interaction_id=interaction_id,
            webhook_id=webhook_id,
            message_type=message_type,
            created_at=snowflake_iso(msg_id),
            tts=bool(data.get("tts")),
            reference=data.get("message_reference"),
            pings=pings(str(data.get("content") or ""), data.get("allowed_mentions")),
            nonce=str(data["nonce"]) if data.get("nonce") is not None else None,
            sent_at=time.time(),
        )
        self.messages[msg_id] = message
        self.transcript.append(message)
        if ephemeral_for is None:
            channel.last_message_id = msg_id
            channel.message_count += 1
        self.changed()
        return message

    def edit_message(self, message: StoredMessage, body: RequestBody, data: dict[str, Any] | None = None) -> None:
        data = body.payload if data is None else data
        message.history.append(message.snapshot())
        if "content" in data:
            message.content = str(data.get("content") or "")
        if "embeds" in data:
            message.embeds = [_normalize_embed(e) for e in data.get("embeds") or []]
        if "components" in data:
            message.components = list(data.get("components") or [])
        if "attachments" in data or body.files:
            message.attachments = self._attachments_from(body, data, message.attachments)
        if data.get("flags") is not None:
            # IS_COMPONENTS_V2 cannot be taken off a message once it is set (Discord's "Using Message Components").
            keep = message.flags & (FLAG_EPHEMERAL | FLAG_LOADING | FLAG_COMPONENTS_V2)
            message.flags = (int(data["flags"]) & SETTABLE_FLAGS & ~FLAG_EPHEMERAL) | keep
        message.flags &= ~FLAG_LOADING
        message.edited_at = now_iso()
        self.changed()

    def delete_message(self, message: StoredMessage) -> None:
        message.deleted = True
        message.pinned = False
        self.changed()

    def nonced_message(self, channel: FakeChannel, author: FakeUser, nonce: str) -> StoredMessage | None:
        """The message ``author`` sent in ``channel`` with ``nonce`` within the nonce window, if any (Discord's
        enforce_nonce: a send repeated with its nonce returns it instead of creating another)."""
        since = time.time() - self.nonce_window
        for message in reversed(self.transcript):
            if message.sent_at < since:
                break
            if message.nonce == nonce and message.channel_id == channel.id and message.author.id == author.id:
                return message
        return None

    # ----------------------------------------------------------------- queries
    def messages_in(
        self, channel: FakeChannel, *, include_ephemeral_for: UserLike | None = None
    ) -> list[StoredMessage]:
        out = []
        for m in self.transcript:
            if m.channel_id != channel.id or m.deleted:
                continue
            if m.ephemeral_for is not None and (
                include_ephemeral_for is None or m.ephemeral_for != include_ephemeral_for.id
            ):
                continue
            out.append(m)
        return out

    def visible_messages(self, user: UserLike) -> list[StoredMessage]:
        return [m for m in self.transcript if self.can_see(user, m)]


def _normalize_embed(embed: dict[str, Any]) -> dict[str, Any]:
    out = dict(embed)
    out.setdefault("type", "rich")
    return out
