"""REST routes: channels, messages, pins, reactions, typing (threads' own routes: ``routes_threads``)."""

from __future__ import annotations

from urllib.parse import unquote

from aiohttp import web

from . import lookups, threads
from . import permissions as perms
from .bodies import read_body
from .context import FakeContext
from .errors import CANNOT_SEND_TO_USER, ApiError
from .models import FakeChannel, PermissionOverwrite, StoredMessage
from .payloads import channel_payload, message_payload
from .rest import RouteSpec, json_response, no_content
from .snowflakes import now_iso
from .validation import validate_message

MISSING_ACCESS = ApiError(403, 50001, "Missing Access")
MISSING_PERMISSIONS = ApiError(403, 50013, "Missing Permissions")


def check_can_send(ctx: FakeContext, channel: FakeChannel) -> None:
    """Raise what Discord answers when the bot may not post in ``channel``."""
    world = ctx.world
    if channel.is_dm:
        recipient = world.users.get(channel.recipient_id or 0)
        if recipient is None or recipient.dms_closed:
            raise ApiError(403, CANNOT_SEND_TO_USER, "Cannot send messages to this user")
        return
    granted = world.channel_permissions(channel, world.bot)
    if not granted & perms.VIEW_CHANNEL:
        raise MISSING_ACCESS
    if channel.is_thread:
        threads.check_may_post(world, channel, world.bot)
    elif not granted & perms.SEND_MESSAGES:
        raise MISSING_PERMISSIONS


def routes(ctx: FakeContext) -> list[RouteSpec]:
    world = ctx.world

    def own_message(channel: FakeChannel, request: web.Request) -> StoredMessage:
        message = lookups.message(world, channel, request)
        if message.author.id != world.bot.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        return message

    # --------------------------------------------------------------- channels
    async def get_channel(request: web.Request) -> web.StreamResponse:
        return json_response(channel_payload(world, lookups.channel(world, request)))

    async def edit_channel(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        payload = (await read_body(request)).payload
        if channel.is_thread:
            threads.check_may_edit(world, channel, payload)
        for key in ("name", "topic"):
            if key in payload:
                setattr(channel, key, payload[key])
        for key in ("archived", "locked", "invitable"):
            if key in payload:
                setattr(channel, key, bool(payload[key]))
        if "permission_overwrites" in payload:
            channel.overwrites = [
                PermissionOverwrite(
                    int(o["id"]), int(o.get("type", 0)), int(o.get("allow") or 0), int(o.get("deny") or 0)
                )
                for o in payload["permission_overwrites"] or []
            ]
        world.changed()
        ctx.events.channel_update(channel)
        return json_response(channel_payload(world, channel))

    async def delete_channel(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        if channel.is_dm:
            return json_response(channel_payload(world, channel))
        channel.deleted = True
        world.changed()
        ctx.events.channel_delete(channel)
        return json_response(channel_payload(world, channel))

    async def typing(request: web.Request) -> web.StreamResponse:
        lookups.channel(world, request)
        return no_content()

    # --------------------------------------------------------------- messages
    async def history(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        limit = max(1, min(100, lookups.query_int(request, "limit", 50)))
        before = lookups.query_int(request, "before", 0)
        after = lookups.query_int(request, "after", 0)
        messages = world.messages_in(channel)
        if before:
            messages = [m for m in messages if m.id < before]
        if after:
            messages = [m for m in messages if m.id > after][:limit]
        else:
            messages = messages[-limit:]
        return json_response([message_payload(world, m) for m in reversed(messages)])

    async def send_message(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        body = await read_body(request)
        check_can_send(ctx, channel)
        validate_message(body.payload, file_count=len(body.files))
        nonce = body.payload.get("nonce")
        if nonce is not None and body.payload.get("enforce_nonce"):
            earlier = world.nonced_message(channel, world.bot, str(nonce))
            if earlier is not None:  # the same send again: Discord answers with the first, and creates nothing
                return json_response(message_payload(world, earlier, with_nonce=True))
        message_type = 19 if body.payload.get("message_reference") else 0
        message = world.create_message(channel, world.bot, body, message_type=message_type)
        ctx.events.message_create(message)
        return json_response(message_payload(world, message, with_nonce=True))

    async def get_message(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        return json_response(message_payload(world, lookups.message(world, channel, request)))

    async def edit_message(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        message = own_message(channel, request)
        body = await read_body(request)
        validate_message(body.payload, file_count=len(body.files), creating=False, existing_flags=message.flags)
        world.edit_message(message, body)
        ctx.events.message_update(message)
        return json_response(message_payload(world, message))

    async def delete_message(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        message = lookups.message(world, channel, request)
        if message.author.id != world.bot.id and not (
            world.channel_permissions(channel, world.bot) & perms.MANAGE_MESSAGES and not channel.is_dm
        ):
            raise MISSING_PERMISSIONS
        world.delete_message(message)
        ctx.events.message_delete(message)
        return no_content()

    async def bulk_delete(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        payload = (await read_body(request)).payload
        ids = [int(i) for i in payload.get("messages") or []]
        if not 2 <= len(ids) <= 100:
            raise ApiError(400, 50016, "You must provide at least 2 and fewer than 100 messages to delete.")
        for message_id in ids:
            message = world.messages.get(message_id)
            if message is not None and message.channel_id == channel.id and not message.deleted:
                world.delete_message(message)
                ctx.events.message_delete(message)
        return no_content()

    # ------------------------------------------------------------------- pins
    async def pin(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        message = lookups.message(world, channel, request)
        if not message.pinned:
            if sum(1 for m in world.messages_in(channel) if m.pinned) >= 250:
                raise ApiError(400, 30003, "Maximum number of pins reached (250)")
            message.pinned = True
            world.changed()
            ctx.events.message_update(message)
        return no_content()

    async def unpin(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        message = lookups.message(world, channel, request)
        if message.pinned:
            message.pinned = False
            world.changed()
            ctx.events.message_update(message)
        return no_content()

    def _pinned(channel: FakeChannel) -> list[StoredMessage]:
        return [m for m in reversed(world.messages_in(channel)) if m.pinned]

    async def list_pins(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        limit = max(1, min(50, lookups.query_int(request, "limit", 50)))
        items = [{"pinned_at": now_iso(), "message": message_payload(world, m)} for m in _pinned(channel)]
        return json_response({"items": items[:limit], "has_more": len(items) > limit})

    async def list_pins_legacy(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        return json_response([message_payload(world, m) for m in _pinned(channel)])

    # -------------------------------------------------------------- reactions
    async def add_reaction(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        message = lookups.message(world, channel, request)
        emoji = unquote(request.match_info["emoji"])
        if emoji not in message.reactions:
            message.reactions.append(emoji)
            world.changed()
        return no_content()

    async def remove_reaction(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        message = lookups.message(world, channel, request)
        emoji = unquote(request.match_info["emoji"])
        if emoji in message.reactions:
            message.reactions.remove(emoji)
            world.changed()
        return no_content()

    async def clear_reactions(request: web.Request) -> web.StreamResponse:
        channel = lookups.channel(world, request)
        message = lookups.message(world, channel, request)
        message.reactions.clear()
        world.changed()
        return no_content()

    c = "/channels/{channel_id}"
    m = c + "/messages/{message_id}"
    return [
        RouteSpec("GET", c, get_channel),
        RouteSpec("PATCH", c, edit_channel),
        RouteSpec("DELETE", c, delete_channel),
        RouteSpec("POST", c + "/typing", typing),
        RouteSpec("GET", c + "/messages/pins", list_pins),
        RouteSpec("PUT", c + "/messages/pins/{message_id}", pin),
        RouteSpec("DELETE", c + "/messages/pins/{message_id}", unpin),
        RouteSpec("GET", c + "/pins", list_pins_legacy),
        RouteSpec("PUT", c + "/pins/{message_id}", pin),
        RouteSpec("DELETE", c + "/pins/{message_id}", unpin),
        RouteSpec("POST", c + "/messages/bulk-delete", bulk_delete),
        RouteSpec("GET", c + "/messages", history),
        RouteSpec("POST", c + "/messages", send_message),
        RouteSpec("GET", m, get_message),
        RouteSpec("PATCH", m, edit_message),
        RouteSpec("DELETE", m, delete_message),
        RouteSpec("PUT", m + "/reactions/{emoji}/@me", add_reaction),
        RouteSpec("DELETE", m + "/reactions/{emoji}/@me", remove_reaction),
        RouteSpec("DELETE", m + "/reactions", clear_reactions),
    ]
