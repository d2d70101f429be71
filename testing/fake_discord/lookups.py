"""Route-parameter parsing and "Unknown X" lookups shared by the REST route modules."""

from __future__ import annotations

from aiohttp import web

from .errors import (
    UNKNOWN_CHANNEL,
    UNKNOWN_GUILD,
    UNKNOWN_MEMBER,
    UNKNOWN_MESSAGE,
    UNKNOWN_ROLE,
    UNKNOWN_USER,
    ApiError,
    not_found,
)
from .models import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser, StoredMessage
from .world import World


def param_id(request: web.Request, name: str, code: int, what: str) -> int:
    raw = request.match_info.get(name, "")
    try:
        return int(raw)
    except ValueError:
        raise not_found(code, what) from None


def query_int(request: web.Request, name: str, default: int) -> int:
    raw = request.query.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ApiError(400, 50035, f"Invalid Form Body: {name} must be an integer") from None


def channel(world: World, request: web.Request, name: str = "channel_id") -> FakeChannel:
    channel_id = param_id(request, name, UNKNOWN_CHANNEL, "Channel")
    found = world.channels.get(channel_id)
    if found is None or found.deleted:
        raise not_found(UNKNOWN_CHANNEL, "Channel")
    return found


def message(world: World, chan: FakeChannel, request: web.Request, name: str = "message_id") -> StoredMessage:
    message_id = param_id(request, name, UNKNOWN_MESSAGE, "Message")
    found = world.messages.get(message_id)
    if found is None or found.deleted or found.channel_id != chan.id or found.ephemeral_for is not None:
        raise not_found(UNKNOWN_MESSAGE, "Message")
    return found


def guild(world: World, request: web.Request) -> FakeGuild:
    guild_id = param_id(request, "guild_id", UNKNOWN_GUILD, "Guild")
    found = world.guilds.get(guild_id)
    if found is None:
        raise not_found(UNKNOWN_GUILD, "Guild")
    return found


def user(world: World, request: web.Request, name: str = "user_id") -> FakeUser:
    if request.match_info.get(name) == "@me":
        return world.bot
    user_id = param_id(request, name, UNKNOWN_USER, "User")
    found = world.users.get(user_id)
    if found is None:
        raise not_found(UNKNOWN_USER, "User")
    return found


def member(world: World, g: FakeGuild, request: web.Request, name: str = "user_id") -> FakeMember:
    if request.match_info.get(name) == "@me":
        return g.members[world.bot.id]
    user_id = param_id(request, name, UNKNOWN_MEMBER, "Member")
    found = g.members.get(user_id)
    if found is None:
        raise not_found(UNKNOWN_MEMBER, "Member")
    return found


def role(g: FakeGuild, request: web.Request) -> FakeRole:
    role_id = param_id(request, "role_id", UNKNOWN_ROLE, "Role")
    found = g.roles.get(role_id)
    if found is None:
        raise not_found(UNKNOWN_ROLE, "Role")
    return found
