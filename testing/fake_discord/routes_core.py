"""REST routes: gateway discovery, users, application info, application commands, guilds, members, roles."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from . import lookups
from .bodies import read_body
from .context import FakeContext
from .errors import UNKNOWN_APPLICATION_COMMAND, UNKNOWN_USER, ApiError, not_found
from .models import GUILD_TEXT, PermissionOverwrite
from .payloads import (
    application_payload,
    channel_payload,
    client_user_payload,
    guild_create_payload,
    member_payload,
    role_payload,
    user_payload,
)
from .rest import RouteSpec, json_response, no_content
from .validation import validate_command

COMMAND_FIELDS = (
    "type",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "options",
    "default_member_permissions",
    "dm_permission",
    "contexts",
    "integration_types",
    "nsfw",
)


def routes(ctx: FakeContext) -> list[RouteSpec]:
    world = ctx.world

    # ----------------------------------------------------------- gateway/users
    async def get_gateway(request: web.Request) -> web.StreamResponse:
        return json_response({"url": ctx.gateway_url})

    async def get_gateway_bot(request: web.Request) -> web.StreamResponse:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": ctx.gateway_url, "shards": 1, "session_start_limit": limit})

    async def get_me(request: web.Request) -> web.StreamResponse:
        return json_response(client_user_payload(world.bot))

    async def edit_me(request: web.Request) -> web.StreamResponse:
        body = await read_body(request)
        if body.payload.get("username"):
            world.bot.name = str(body.payload["username"])
        return json_response(client_user_payload(world.bot))

    async def get_user(request: web.Request) -> web.StreamResponse:
        return json_response(user_payload(lookups.user(world, request)))

    async def create_dm(request: web.Request) -> web.StreamResponse:
        body = await read_body(request)
        try:
            recipient = world.users.get(int(body.payload.get("recipient_id", 0)))
        except (TypeError, ValueError):
            recipient = None
        if recipient is None or recipient.bot:
            raise not_found(UNKNOWN_USER, "User")
        return json_response(channel_payload(world, world.dm_channel(recipient)))

    async def my_guilds(request: web.Request) -> web.StreamResponse:
        return json_response(
            [
                {"id": str(g.id), "name": g.name, "icon": None, "owner": False, "permissions": "0", "features": []}
                for g in world.guilds.values()
            ]
        )

    async def app_info(request: web.Request) -> web.StreamResponse:
        return json_response(application_payload(world))

    # ---------------------------------------------------------------- commands
    def _check_app(request: web.Request) -> None:
        if request.match_info.get("application_id") != str(world.application_id):
            raise ApiError(403, 50001, "Missing Access")

    def _command_list(request: web.Request) -> tuple[list[dict[str, Any]], int | None]:
        _check_app(request)
        if "guild_id" in request.match_info:
            guild = lookups.guild(world, request)
            return world.guild_commands.setdefault(guild.id, []), guild.id
        return world.global_commands, None

    def _normalize(raw: dict[str, Any], guild_id: int | None, existing: list[dict[str, Any]]) -> dict[str, Any]:
        validate_command(raw)
        ctype = int(raw.get("type", 1))
        previous = next((c for c in existing if c["name"] == raw.get("name") and c["type"] == ctype), None)
        command: dict[str, Any] = {k: raw[k] for k in COMMAND_FIELDS if k in raw}
        command["type"] = ctype
        command.setdefault("description", "")
        command.setdefault("options", [])
        command.setdefault("default_member_permissions", None)
        command["id"] = previous["id"] if previous else str(world.ids.next())
        command["application_id"] = str(world.application_id)
        command["version"] = str(world.ids.next())
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        return command

    async def list_commands(request: web.Request) -> web.StreamResponse:
        commands, _ = _command_list(request)
        return json_response(commands)

    async def overwrite_commands(request: web.Request) -> web.StreamResponse:
        commands, guild_id = _command_list(request)
        body = await read_body(request)
        raw_list = body.payload.get("__list__")
        if not isinstance(raw_list, list):
            raise ApiError(400, 50035, "Invalid Form Body: expected a list of commands")
        if len({(c.get("name"), c.get("type", 1)) for c in raw_list}) != len(raw_list):
            raise ApiError(400, 50035, "Invalid Form Body: duplicate command names")
        new = [_normalize(c, guild_id, commands) for c in raw_list]
        commands[:] = new
        world.changed()
        return json_response(new)

    async def create_command(request: web.Request) -> web.StreamResponse:
        commands, guild_id = _command_list(request)
        body = await read_body(request)
        command = _normalize(body.payload, guild_id, commands)
        commands[:] = [c for c in commands if c["id"] != command["id"]] + [command]
        world.changed()
        return json_response(command, status=201)

    def _find_command(request: web.Request) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        commands, _ = _command_list(request)
        command_id = request.match_info["command_id"]
        found = next((c for c in commands if c["id"] == command_id), None)
        if found is None:
            raise not_found(UNKNOWN_APPLICATION_COMMAND, "application command")
        return commands, found

    async def get_command(request: web.Request) -> web.StreamResponse:
        return json_response(_find_command(request)[1])

    async def edit_command(request: web.Request) -> web.StreamResponse:
        _, found = _find_command(request)
        body = await read_body(request)
        found.update({k: body.payload[k] for k in COMMAND_FIELDS if k in body.payload})
        found["version"] = str(world.ids.next())
        world.changed()
        return json_response(found)

    async def delete_command(request: web.Request) -> web.StreamResponse:
        commands, found = _find_command(request)
        commands.remove(found)
        world.changed()
        return no_content()

    async def command_permissions(request: web.Request) -> web.StreamResponse:
        _check_app(request)
        return json_response([])

    # ------------------------------------------------------------------ guilds
    async def get_guild(request: web.Request) -> web.StreamResponse:
        guild = lookups.guild(world, request)
        data = guild_create_payload(world, guild)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key, None)
        data["approximate_member_count"] = len(guild.members)
        data["approximate_presence_count"] = 0
        return json_response(data)

    async def guild_channels(request: web.Request) -> web.StreamResponse:
        guild = lookups.guild(world, request)
        channels = [world.channels[c] for c in guild.channel_ids]
        return json_response([channel_payload(world, c) for c in channels if not c.deleted and not c.is_thread])

    async def create_guild_channel(request: web.Request) -> web.StreamResponse:
        guild = lookups.guild(world, request)
        payload = (await read_body(request)).payload
        name = str(payload.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body: name must be 1..100 chars")
        overwrites = [
            PermissionOverwrite(int(o["id"]), int(o.get("type", 0)), int(o.get("allow") or 0), int(o.get("deny") or 0))
            for o in payload.get("permission_overwrites") or []
        ]
        parent = payload.get("parent_id")
        channel = world.add_channel(
            guild,
            name,
            type=int(payload.get("type") or GUILD_TEXT),
            parent_id=int(parent) if parent else None,
            topic=payload.get("topic"),
            overwrites=overwrites,
        )
        ctx.events.channel_create(channel)
        return json_response(channel_payload(world, channel), status=201)

    async def active_threads(request: web.Request) -> web.StreamResponse:
        guild = lookups.guild(world, request)
        threads = [world.channels[c] for c in guild.channel_ids]
        live = [channel_payload(world, t) for t in threads if t.is_thread and not t.deleted and not t.archived]
        return json_response({"threads": live, "members": []})

    async def list_members(request: web.Request) -> web.StreamResponse:
        guild = lookups.guild(world, request)
        limit = min(1000, lookups.query_int(request, "limit", 1))
        after = lookups.query_int(request, "after", 0)
        members = sorted((m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id)
        return json_response([member_payload(m) for m in members[:limit]])

    async def get_member(request: web.Request) -> web.StreamResponse:
        guild = lookups.guild(world, request)
        return json_response(member_payload(lookups.member(world, guild, request, "member_id")))

    async def edit_member(request: web.Request) -> web.StreamResponse:
        guild = lookups.guild(world, request)
        member = lookups.member(world, guild, request)
        payload = (await read_body(request)).payload
        if "nick" in payload:
            member.nick = payload["nick"] or None
        if "roles" in payload:
            wanted = [int(r) for r in payload["roles"] or []]
            missing = [r for r in wanted if r not in guild.roles]
            if missing:
                raise ApiError(400, 50035, f"Invalid Form Body: unknown roles {missing}")
            member.role_ids = wanted
        world.changed()
        ctx.events.member_update(member)
        return json_response(member_payload(member))

    async def add_member_role(request: web.Request) -> web.StreamResponse:
        guild = lookups.guild(world, request)
        member = lookups.member(world, guild, request)
        role = lookups.role(guild, request)
        if role.id not in member.role_ids:
            member.role_ids.append(role.id)
            world.changed()
            ctx.events.member_update(member)
        return no_content()

    async def remove_member_role(request: web.Request) -> web.StreamResponse:
        guild = lookups.guild(world, request)
        member = lookups.member(world, guild, request)
        role = lookups.role(guild, request)
        if role.id in member.role_ids:
            member.role_ids.remove(role.id)
            world.changed()
            ctx.events.member_update(member)
        return no_content()

    async def list_roles(request: web.Request) -> web.StreamResponse:
        guild = lookups.guild(world, request)
        return json_response([role_payload(r) for r in guild.roles.values()])

    async def get_role(request: web.Request) -> web.StreamResponse:
        guild = lookups.guild(world, request)
        return json_response(role_payload(lookups.role(guild, request)))

    async def create_role(request: web.Request) -> web.StreamResponse:
        guild = lookups.guild(world, request)
        payload = (await read_body(request)).payload
        role = world.add_role(
            guild,
            str(payload.get("name") or "new role"),
            permissions=int(payload.get("permissions") or 0),
            color=int(payload.get("color") or 0),
        )
        role.hoist = bool(payload.get("hoist"))
        role.mentionable = bool(payload.get("mentionable"))
        ctx.events.role_create(role)
        return json_response(role_payload(role))

    app = "/applications/{application_id}"
    guild_cmds = app + "/guilds/{guild_id}/commands"
    return [
        RouteSpec("GET", "/gateway", get_gateway, auth=False),
        RouteSpec("GET", "/gateway/bot", get_gateway_bot),
        RouteSpec("GET", "/users/@me", get_me),
        RouteSpec("PATCH", "/users/@me", edit_me),
        RouteSpec("POST", "/users/@me/channels", create_dm),
        RouteSpec("GET", "/users/@me/guilds", my_guilds),
        RouteSpec("GET", "/users/{user_id}", get_user),
        RouteSpec("GET", "/oauth2/applications/@me", app_info),
        RouteSpec("GET", "/applications/@me", app_info),
        RouteSpec("GET", app + "/commands", list_commands),
        RouteSpec("PUT", app + "/commands", overwrite_commands),
        RouteSpec("POST", app + "/commands", create_command),
        RouteSpec("GET", app + "/commands/{command_id}", get_command),
        RouteSpec("PATCH", app + "/commands/{command_id}", edit_command),
        RouteSpec("DELETE", app + "/commands/{command_id}", delete_command),
        RouteSpec("GET", guild_cmds + "/permissions", command_permissions),
        RouteSpec("GET", guild_cmds, list_commands),
        RouteSpec("PUT", guild_cmds, overwrite_commands),
        RouteSpec("POST", guild_cmds, create_command),
        RouteSpec("GET", guild_cmds + "/{command_id}", get_command),
        RouteSpec("PATCH", guild_cmds + "/{command_id}", edit_command),
        RouteSpec("DELETE", guild_cmds + "/{command_id}", delete_command),
        RouteSpec("GET", "/guilds/{guild_id}", get_guild),
        RouteSpec("GET", "/guilds/{guild_id}/channels", guild_channels),
        RouteSpec("POST", "/guilds/{guild_id}/channels", create_guild_channel),
        RouteSpec("GET", "/guilds/{guild_id}/threads/active", active_threads),
        RouteSpec("GET", "/guilds/{guild_id}/members", list_members),
        RouteSpec("GET", "/guilds/{guild_id}/members/{member_id}", get_member),
        RouteSpec("PATCH", "/guilds/{guild_id}/members/{user_id}", edit_member),
        RouteSpec("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", add_member_role),
        RouteSpec("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", remove_member_role),
        RouteSpec("GET", "/guilds/{guild_id}/roles", list_roles),
        RouteSpec("POST", "/guilds/{guild_id}/roles", create_role),
        RouteSpec("GET", "/guilds/{guild_id}/roles/{role_id}", get_role),
    ]
