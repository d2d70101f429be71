"""REST routes: interaction callbacks and the interaction webhook (followups, @original)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from . import interactions as ix
from .bodies import RequestBody, read_body
from .context import FakeContext
from .errors import (
    INTERACTION_ALREADY_ACKNOWLEDGED,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    ApiError,
    not_found,
)
from .interactions import FakeInteraction
from .models import FLAG_EPHEMERAL, FLAG_LOADING, StoredMessage
from .payloads import message_payload
from .rest import RouteSpec, json_response, no_content
from .validation import validate_message, validate_modal

COMMAND_REPLY = 20


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true")


def routes(ctx: FakeContext) -> list[RouteSpec]:
    world = ctx.world
    tracker = ctx.interactions

    def new_message(
        it: FakeInteraction, body: RequestBody, data: dict[str, Any], extra_flags: int = 0
    ) -> StoredMessage:
        ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
        message = world.create_message(
            it.channel,
            world.bot,
            body,
            data=data,
            ephemeral_for=it.user.id if ephemeral else None,
            interaction_id=it.id,
            webhook_id=world.application_id,
            message_type=COMMAND_REPLY if it.type == ix.APPLICATION_COMMAND else 0,
            extra_flags=extra_flags,
        )
        ctx.events.message_create(message)
        return message

    def source_message(it: FakeInteraction) -> StoredMessage:
        message = world.messages.get(it.source_message_id or 0)
        if message is None or message.deleted:
            raise ApiError(400, 50035, "Invalid Form Body: this interaction has no message to update")
        return message

    # ---------------------------------------------------------------- callback
    async def callback(request: web.Request) -> web.StreamResponse:
        try:
            it = tracker.by_id.get(int(request.match_info["webhook_id"]))
        except ValueError:
            it = None
        if it is None or it.token != request.match_info["webhook_token"] or it.failed:
            raise not_found(UNKNOWN_INTERACTION, "interaction")
        if it.acked:
            raise ApiError(400, INTERACTION_ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        body = await read_body(request)
        ctype = int(body.payload.get("type") or 0)
        data: dict[str, Any] = body.payload.get("data") or {}
        message: StoredMessage | None = None
        if ctype == ix.PONG:
            if it.type != ix.PING:
                raise ApiError(400, 50035, "Invalid Form Body: PONG only answers PING")
        elif ctype == ix.CHANNEL_MESSAGE:
            validate_message(data, file_count=len(body.files))
            message = new_message(it, body, data)
            it.original_message_id = message.id
            it.response_ready = True
        elif ctype == ix.DEFERRED_CHANNEL_MESSAGE:
            placeholder = {"content": "", "flags": int(data.get("flags") or 0)}
            message = new_message(it, RequestBody(), placeholder, extra_flags=FLAG_LOADING)
            it.original_message_id = message.id
        elif ctype in (ix.DEFERRED_UPDATE_MESSAGE, ix.UPDATE_MESSAGE):
            if it.type not in (ix.MESSAGE_COMPONENT, ix.MODAL_SUBMIT):
                raise ApiError(400, 50035, f"Invalid Form Body: callback type {ctype} needs a component interaction")
            message = source_message(it)
            it.original_message_id = message.id
            if ctype == ix.UPDATE_MESSAGE:
                validate_message(data, file_count=len(body.files), creating=False, existing_flags=message.flags)
                world.edit_message(message, body, data)
                ctx.events.message_update(message)
                it.response_ready = True
        elif ctype == ix.AUTOCOMPLETE_RESULT:
            if it.type != ix.AUTOCOMPLETE:
                raise ApiError(400, 50035, "Invalid Form Body: autocomplete result for a non-autocomplete interaction")
            it.choices = list(data.get("choices") or [])
        elif ctype == ix.MODAL:
            if it.type in (ix.MODAL_SUBMIT, ix.AUTOCOMPLETE):
                raise ApiError(400, 50035, "Invalid Form Body: cannot answer this interaction with a modal")
            validate_modal(data)
            tracker.open_modal(it, data)
        else:
            raise ApiError(400, 50035, f"Invalid Form Body: unsupported callback type {ctype}")
        tracker.acknowledge(it, ctype, arrived_at=ctx.arrivals.of(request.transport))
        if not _truthy(request.query.get("with_response")):
            return no_content()
        info: dict[str, Any] = {
            "id": str(it.id),
            "type": it.type,
            "response_message_loading": ctype == ix.DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool(message is not None and message.ephemeral),
        }
        resource: dict[str, Any] = {"type": ctype}
        if message is not None and ctype != ix.DEFERRED_UPDATE_MESSAGE:
            info["response_message_id"] = str(message.id)
            resource["message"] = message_payload(world, message)
        return json_response({"interaction": info, "resource": resource})

    # ----------------------------------------------------------------- webhook
    def webhook_interaction(request: web.Request) -> FakeInteraction:
        it = tracker.by_token.get(request.match_info["webhook_token"])
        if it is None or request.match_info["webhook_id"] != str(world.application_id) or not it.acked:
            raise not_found(UNKNOWN_WEBHOOK, "Webhook")
        return it

    def target(it: FakeInteraction, request: web.Request) -> StoredMessage:
        raw = request.match_info["message_id"]
        if raw == "@original":
            message = it.response
        else:
            try:
                message_id = int(raw)
            except ValueError:
                raise not_found(UNKNOWN_MESSAGE, "Message") from None
            allowed = message_id == it.original_message_id or message_id in it.followup_ids
            message = world.messages.get(message_id) if allowed else None
        if message is None or message.deleted:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return message

    async def execute(request: web.Request) -> web.StreamResponse:
        it = webhook_interaction(request)
        body = await read_body(request)
        validate_message(body.payload, file_count=len(body.files))
        original = it.response
        if it.callback_type == ix.DEFERRED_CHANNEL_MESSAGE and original is not None and original.loading:
            # Discord fills the "thinking..." placeholder with the first followup (keeping its ephemerality).
            world.edit_message(original, body)
            ctx.events.message_update(original)
            message = original
            it.response_ready = True
        else:
            message = new_message(it, body, body.payload)
        it.followup_ids.append(message.id)
        world.changed()
        if not _truthy(request.query.get("wait")):
            return no_content()
        return json_response(message_payload(world, message))

    async def get_webhook_message(request: web.Request) -> web.StreamResponse:
        it = webhook_interaction(request)
        return json_response(message_payload(world, target(it, request)))

    async def edit_webhook_message(request: web.Request) -> web.StreamResponse:
        it = webhook_interaction(request)
        message = target(it, request)
        body = await read_body(request)
        validate_message(body.payload, file_count=len(body.files), creating=False, existing_flags=message.flags)
        world.edit_message(message, body)
        if message.id == it.original_message_id:
            it.response_ready = True
            world.changed()
        ctx.events.message_update(message)
        return json_response(message_payload(world, message))

    async def delete_webhook_message(request: web.Request) -> web.StreamResponse:
        it = webhook_interaction(request)
        message = target(it, request)
        world.delete_message(message)
        ctx.events.message_delete(message)
        return no_content()

    hook = "/webhooks/{webhook_id}/{webhook_token}"
    return [
        RouteSpec("POST", "/interactions/{webhook_id}/{webhook_token}/callback", callback, auth=False),
        RouteSpec("POST", hook, execute, auth=False),
        RouteSpec("GET", hook + "/messages/{message_id}", get_webhook_message, auth=False),
        RouteSpec("PATCH", hook + "/messages/{message_id}", edit_webhook_message, auth=False),
        RouteSpec("DELETE", hook + "/messages/{message_id}", delete_webhook_message, auth=False),
    ]
