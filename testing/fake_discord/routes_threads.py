"""REST routes of threads: starting one (from a message or without), and its members (list, get, add, remove).

The rules Discord applies are in ``threads.py``; editing a thread (archived, locked, invitable) is the channel's
PATCH (``routes_channels``), which asks ``threads.check_may_edit`` first.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from . import lookups
from . import threads as rules
from .bodies import read_body
from .context import FakeContext
from .errors import UNKNOWN_MEMBER, ApiError, not_found
from .models import PRIVATE_THREAD, PUBLIC_THREAD, FakeChannel
from .payloads import channel_payload
from .rest import RouteSpec, json_response, no_content
from .snowflakes import snowflake_iso

THREAD_TYPES_WITHOUT_MESSAGE = (PUBLIC_THREAD, PRIVATE_THREAD)


def member_payload(thread: FakeChannel, user_id: int) -> dict[str, Any]:
    """A thread member object (its join time is the thread's creation: the fake keeps no other)."""
    return {"id": str(thread.id), "user_id": str(user_id), "join_timestamp": snowflake_iso(thread.id), "flags": 0}


def routes(ctx: FakeContext) -> list[RouteSpec]:
    world = ctx.world

    def new_thread(parent: FakeChannel, payload: dict[str, Any], *, from_message: int | None) -> FakeChannel:
        guild = world.guild_of(parent)
        if guild is None or parent.is_thread:
            raise ApiError(400, rules.WRONG_CHANNEL_TYPE, "Cannot execute action on this channel type")
        name = str(payload.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body: thread name must be 1..100 chars")
        thread_type = PUBLIC_THREAD if from_message else int(payload.get("type") or PRIVATE_THREAD)
        if thread_type not in THREAD_TYPES_WITHOUT_MESSAGE:
            raise ApiError(400, 50035, "Invalid Form Body: type must be a public or private thread")
        rules.check_may_start(world, parent, thread_type)
        thread = world.add_channel(
            guild, name, type=thread_type, parent_id=parent.id, owner_id=world.bot.id, channel_id=from_message
        )
        thread.thread_members.add(world.bot.id)
        thread.auto_archive_duration = int(payload.get("auto_archive_duration") or 1440)
        thread.invitable = bool(payload.get("invitable", True)) if thread_type == PRIVATE_THREAD else True
        thread.rate_limit_per_user = int(payload.get("rate_limit_per_user") or 0)
        ctx.events.channel_create(thread)
        return thread

    async def create_thread(request: web.Request) -> web.StreamResponse:
        parent = lookups.channel(world, request)
        payload = (await read_body(request)).payload
        thread = new_thread(parent, payload, from_message=None)
        return json_response(channel_payload(world, thread), status=201)

    async def create_thread_from_message(request: web.Request) -> web.StreamResponse:
        parent = lookups.channel(world, request)
        message = lookups.message(world, parent, request)
        if message.id in world.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        payload = (await read_body(request)).payload
        thread = new_thread(parent, payload, from_message=message.id)
        return json_response(channel_payload(world, thread), status=201)

    async def add_member(request: web.Request) -> web.StreamResponse:
        thread = lookups.channel(world, request)
        user = lookups.user(world, request)
        rules.check_may_add(world, thread)
        guild = world.guild_of(thread)
        if guild is None or guild.member(user) is None:
            raise not_found(UNKNOWN_MEMBER, "Member")
        thread.thread_members.add(user.id)
        world.changed()
        return no_content()

    async def remove_member(request: web.Request) -> web.StreamResponse:
        thread = lookups.channel(world, request)
        user = lookups.user(world, request)
        if user.id != world.bot.id:  # leaving a thread oneself needs no permission
            rules.check_may_remove(world, thread)
        elif thread.archived:
            raise ApiError(400, rules.THREAD_ARCHIVED, "Thread is archived")
        thread.thread_members.discard(user.id)
        world.changed()
        return no_content()

    async def list_members(request: web.Request) -> web.StreamResponse:
        thread = lookups.channel(world, request)
        if not thread.is_thread:
            raise ApiError(400, rules.WRONG_CHANNEL_TYPE, "Cannot execute action on this channel type")
        return json_response([member_payload(thread, user_id) for user_id in sorted(thread.thread_members)])

    async def get_member(request: web.Request) -> web.StreamResponse:
        thread = lookups.channel(world, request)
        user = lookups.user(world, request)
        if user.id not in thread.thread_members:
            raise not_found(UNKNOWN_MEMBER, "Member")
        return json_response(member_payload(thread, user.id))

    c = "/channels/{channel_id}"
    return [
        RouteSpec("POST", c + "/messages/{message_id}/threads", create_thread_from_message),
        RouteSpec("POST", c + "/threads", create_thread),
        RouteSpec("GET", c + "/thread-members", list_members),
        RouteSpec("GET", c + "/thread-members/{user_id}", get_member),
        RouteSpec("PUT", c + "/thread-members/{user_id}", add_member),
        RouteSpec("DELETE", c + "/thread-members/{user_id}", remove_member),
    ]
