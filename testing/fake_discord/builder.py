"""World setup for tests: guilds, roles, members, channels, threads, DM state.

Mixed into :class:`testing.fake_discord.FakeDiscord`.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import permissions as perms
from .errors import FakeDiscordError
from .events import EventEmitter
from .models import (
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    PermissionOverwrite,
    UserLike,
)
from .world import World


class WorldBuilder:
    world: World
    events: EventEmitter

    @property
    def bot_user(self) -> FakeUser:
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application_id

    def add_user(self, name: str, *, locale: str = "en-US", dms_closed: bool = False) -> FakeUser:
        """A user who is in no guild yet (add them with :meth:`add_member`)."""
        user = self.world.add_user(name, locale=locale)
        user.dms_closed = dms_closed
        return user

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        locale: str = "en-US",
        owner: UserLike | None = None,
        bot_permissions: int | None = None,
    ) -> FakeGuild:
        """A guild the bot is in. Added after the bot connected, it arrives as GUILD_CREATE."""
        guild = self.world.add_guild(
            name,
            owner=owner.user if owner is not None else None,
            locale=locale,
            bot_permissions=perms.DEFAULT_BOT if bot_permissions is None else bot_permissions,
        )
        self.events.guild_create(guild)
        return guild

    def add_role(
        self,
        guild: FakeGuild,
        name: str,
        *,
        permissions: int = 0,
        manage_guild: bool = False,
        administrator: bool = False,
    ) -> FakeRole:
        if manage_guild:
            permissions |= perms.MANAGE_GUILD
        if administrator:
            permissions |= perms.ADMINISTRATOR
        role = self.world.add_role(guild, name, permissions=permissions)
        self.events.role_create(role)
        return role

    def add_member(
        self,
        guild: FakeGuild,
        user: str | UserLike,
        *,
        roles: Iterable[FakeRole | str] = (),
        manage_guild: bool = False,
        administrator: bool = False,
        locale: str | None = None,
        dms_closed: bool | None = None,
    ) -> FakeMember:
        """Add a user (created if given a name) to a guild.

        ``roles`` may be role objects or names (missing names are created without permissions);
        ``manage_guild``/``administrator`` give the member a role with that permission.
        """
        fake_user = self.world.add_user(user, locale=locale or "en-US") if isinstance(user, str) else user.user
        if locale is not None:
            fake_user.locale = locale
        if dms_closed is not None:
            fake_user.dms_closed = dms_closed
        role_ids: list[int] = []
        for role in roles:
            if isinstance(role, str):
                role = guild.role(role) or self.add_role(guild, role)
            role_ids.append(role.id)
        if manage_guild or administrator:
            flag = perms.ADMINISTRATOR if administrator else perms.MANAGE_GUILD
            name = "Administrator" if administrator else "Manager"
            role = guild.role(name) or self.add_role(guild, name, permissions=flag)
            role_ids.append(role.id)
        is_new = fake_user.id not in guild.members
        member = self.world.add_member(guild, fake_user, role_ids=role_ids)
        if is_new:
            self.events.member_add(member)
        else:
            self.events.member_update(member)
        return member

    def add_text_channel(
        self,
        guild: FakeGuild,
        name: str,
        *,
        topic: str | None = None,
        private_to: Iterable[UserLike | FakeRole] | None = None,
    ) -> FakeChannel:
        """A text channel; ``private_to`` hides it from @everyone except those users/roles (and the bot)."""
        overwrites: list[PermissionOverwrite] = []
        if private_to is not None:
            overwrites.append(PermissionOverwrite(guild.id, 0, deny=perms.VIEW_CHANNEL))
            overwrites.append(PermissionOverwrite(self.world.bot.id, 1, allow=perms.VIEW_CHANNEL))
            for who in private_to:
                kind = 0 if isinstance(who, FakeRole) else 1
                overwrites.append(PermissionOverwrite(who.id, kind, allow=perms.VIEW_CHANNEL))
        channel = self.world.add_channel(guild, name, type=GUILD_TEXT, topic=topic, overwrites=overwrites)
        self.events.channel_create(channel)
        return channel

    def add_thread(
        self, parent: FakeChannel, name: str, *, private: bool = False, members: Iterable[UserLike] = ()
    ) -> FakeChannel:
        guild = self.world.guild_of(parent)
        if guild is None:
            raise FakeDiscordError("threads live in guild channels")
        thread = self.world.add_channel(
            guild, name, type=PRIVATE_THREAD if private else PUBLIC_THREAD, parent_id=parent.id, owner_id=None
        )
        thread.thread_members.update(m.id for m in members)
        self.events.channel_create(thread)
        return thread

    def dm_channel(self, user: UserLike) -> FakeChannel:
        """The DM channel between ``user`` and the bot (created on first use)."""
        return self.world.dm_channel(user.user)

    def close_dms(self, user: UserLike) -> None:
        """From now on the bot's messages to this user's DMs fail with 403 / code 50007."""
        user.user.dms_closed = True

    def open_dms(self, user: UserLike) -> None:
        user.user.dms_closed = False
