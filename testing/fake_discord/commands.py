"""Turning ``slash(user, channel, "game new", players=6)`` into Discord's APPLICATION_COMMAND data.

The command tree is whatever the bot registered (bulk overwrite), so the fake knows
which words are subcommand groups/subcommands and what type every option has.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import permissions as perms
from .bodies import guess_content_type
from .errors import FakeDiscordError
from .models import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser
from .payloads import attachment_payload, channel_payload, member_payload, role_payload, user_payload
from .world import World

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11

CONTEXT_GUILD = 0
CONTEXT_BOT_DM = 1


class Resolved:
    """Collects the ``data.resolved`` section for user/channel/role/attachment values."""

    def __init__(self, world: World, guild: FakeGuild | None, invoker: FakeUser) -> None:
        self.world = world
        self.guild = guild
        self.invoker = invoker
        self.data: dict[str, dict[str, Any]] = {}

    def _put(self, section: str, key: int, value: dict[str, Any]) -> None:
        self.data.setdefault(section, {})[str(key)] = value

    def user(self, value: Any) -> str:
        user = _as_user(value)
        self._put("users", user.id, user_payload(user))
        if self.guild is not None and user.id in self.guild.members:
            member = self.guild.members[user.id]
            self._put("members", user.id, member_payload(member, with_user=False, permissions=_guild_perms(member)))
        return str(user.id)

    def role(self, value: Any) -> str:
        if not isinstance(value, FakeRole):
            raise FakeDiscordError(f"expected a FakeRole, got {value!r}")
        self._put("roles", value.id, role_payload(value))
        return str(value.id)

    def channel(self, value: Any, allowed_types: list[int] | None) -> str:
        if not isinstance(value, FakeChannel):
            raise FakeDiscordError(f"expected a FakeChannel, got {value!r}")
        if allowed_types and value.type not in allowed_types:
            raise FakeDiscordError(f"channel {value!r} is not one of the allowed types {allowed_types}")
        self._put("channels", value.id, channel_payload(self.world, value, permissions_for=self.invoker))
        return str(value.id)

    def attachment(self, value: Any) -> str:
        if not (isinstance(value, tuple) and len(value) == 2):
            raise FakeDiscordError(f"attachment options take a (filename, bytes) tuple, got {value!r}")
        filename, data = value
        att = self.world.store_attachment(str(filename), bytes(data), guess_content_type(str(filename)))
        self._put("attachments", att.id, attachment_payload(att, ephemeral=True))
        return str(att.id)


def _as_user(value: Any) -> FakeUser:
    if isinstance(value, FakeMember):
        return value.user
    if isinstance(value, FakeUser):
        return value
    raise FakeDiscordError(f"expected a FakeUser/FakeMember, got {value!r}")


def _guild_perms(member: FakeMember) -> int:
    return perms.base_permissions(member.guild, member)


def registered_commands(world: World, guild: FakeGuild | None) -> list[dict[str, Any]]:
    if guild is None:
        return list(world.global_commands)
    return list(world.guild_commands.get(guild.id, [])) + list(world.global_commands)


def find_command(world: World, name: str, guild: FakeGuild | None, ctype: int = 1) -> dict[str, Any]:
    for command in registered_commands(world, guild):
        if command["name"] == name and int(command.get("type", 1)) == ctype:
            return command
    where = f"guild {guild.name!r}" if guild is not None else "DMs"
    names = sorted({c["name"] for c in registered_commands(world, guild)})
    raise FakeDiscordError(f"no command {name!r} registered for {where} (did the bot sync?); registered: {names}")


def check_can_use(command: Mapping[str, Any], guild: FakeGuild | None, member: FakeMember | None) -> None:
    name = command["name"]
    if guild is None:
        contexts = command.get("contexts")
        if command.get("dm_permission") is False or (contexts is not None and CONTEXT_BOT_DM not in contexts):
            raise FakeDiscordError(f"command {name!r} is not available in DMs")
        return
    contexts = command.get("contexts")
    if contexts is not None and CONTEXT_GUILD not in contexts:
        raise FakeDiscordError(f"command {name!r} is not available in guilds")
    required = command.get("default_member_permissions")
    if required is not None and member is not None:
        needed = int(required)
        if (perms.base_permissions(guild, member) & needed) != needed:
            raise FakeDiscordError(f"{member.name} lacks permissions {needed} to see command {name!r}")


def _option_key(name: str) -> str:
    return name.replace("-", "_")


def convert_options(
    schema: list[Mapping[str, Any]], values: Mapping[str, Any], resolved: Resolved, owner: str
) -> list[dict[str, Any]]:
    by_key = {_option_key(o["name"]): o for o in schema}
    unknown = [k for k in values if _option_key(k) not in by_key]
    if unknown:
        raise FakeDiscordError(f"{owner!r} has no options {unknown}; options: {[o['name'] for o in schema]}")
    out: list[dict[str, Any]] = []
    for option in schema:
        key = _option_key(option["name"])
        present = key in values or option["name"] in values
        if not present:
            if option.get("required"):
                raise FakeDiscordError(f"{owner!r} requires option {option['name']!r}")
            continue
        raw = values[key] if key in values else values[option["name"]]
        out.append({"name": option["name"], "type": option["type"], "value": _convert(option, raw, resolved, owner)})
    return out


def _convert(option: Mapping[str, Any], raw: Any, resolved: Resolved, owner: str) -> Any:
    otype = option["type"]
    name = option["name"]
    if otype == STRING:
        if not isinstance(raw, str):
            raise FakeDiscordError(f"{owner} {name}: expected str, got {raw!r}")
        lo, hi = int(option.get("min_length", 0)), int(option.get("max_length", 6000))
        if not lo <= len(raw) <= hi:
            raise FakeDiscordError(f"{owner} {name}: length must be {lo}..{hi}")
        value: Any = raw
    elif otype in (INTEGER, NUMBER):
        if isinstance(raw, bool) or not isinstance(raw, int | float) or (otype == INTEGER and not isinstance(raw, int)):
            raise FakeDiscordError(f"{owner} {name}: expected {'int' if otype == INTEGER else 'number'}, got {raw!r}")
        if "min_value" in option and raw < option["min_value"]:
            raise FakeDiscordError(f"{owner} {name}: {raw} < min {option['min_value']}")
        if "max_value" in option and raw > option["max_value"]:
            raise FakeDiscordError(f"{owner} {name}: {raw} > max {option['max_value']}")
        value = raw
    elif otype == BOOLEAN:
        if not isinstance(raw, bool):
            raise FakeDiscordError(f"{owner} {name}: expected bool, got {raw!r}")
        value = raw
    elif otype == USER:
        value = resolved.user(raw)
    elif otype == CHANNEL:
        value = resolved.channel(raw, option.get("channel_types"))
    elif otype == ROLE:
        value = resolved.role(raw)
    elif otype == MENTIONABLE:
        value = resolved.role(raw) if isinstance(raw, FakeRole) else resolved.user(raw)
    elif otype == ATTACHMENT:
        value = resolved.attachment(raw)
    else:
        raise FakeDiscordError(f"{owner} {name}: unsupported option type {otype}")
    choices = option.get("choices")
    if choices and otype in (STRING, INTEGER, NUMBER) and value not in [c["value"] for c in choices]:
        raise FakeDiscordError(f"{owner} {name}: {value!r} is not one of {[c['value'] for c in choices]}")
    return value


def build_command_data(
    world: World,
    path: str,
    values: Mapping[str, Any],
    *,
    guild: FakeGuild | None,
    member: FakeMember | None,
    user: FakeUser,
    focused: str | None = None,
) -> dict[str, Any]:
    """``data`` of an APPLICATION_COMMAND (or AUTOCOMPLETE when ``focused`` names the option being typed)."""
    words = path.split()
    if not words:
        raise FakeDiscordError("empty command path")
    command = find_command(world, words[0], guild)
    check_can_use(command, guild, member)
    resolved = Resolved(world, guild, user)
    schema: list[Mapping[str, Any]] = command.get("options") or []
    container: list[dict[str, Any]] = []
    top_options = container
    owner = words[0]
    for word in words[1:]:
        sub = next((o for o in schema if o["name"] == word and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None)
        if sub is None:
            subs = [o["name"] for o in schema if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            raise FakeDiscordError(f"{owner!r} has no subcommand {word!r}; subcommands: {subs}")
        entry: dict[str, Any] = {"name": word, "type": sub["type"], "options": []}
        container.append(entry)
        container = entry["options"]
        schema = sub.get("options") or []
        owner = f"{owner} {word}"
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
        subs = [o["name"] for o in schema]
        raise FakeDiscordError(f"{owner!r} needs a subcommand: {subs}")
    if focused is not None:
        options = _autocomplete_options(schema, values, focused, owner)
    else:
        options = convert_options(schema, values, resolved, owner)
    container.extend(options)
    data: dict[str, Any] = {"id": str(command["id"]), "name": command["name"], "type": 1, "options": top_options}
    if resolved.data:
        data["resolved"] = resolved.data
    if command.get("guild_id"):
        data["guild_id"] = str(command["guild_id"])
    return data


def _autocomplete_options(
    schema: list[Mapping[str, Any]], values: Mapping[str, Any], focused: str, owner: str
) -> list[dict[str, Any]]:
    out = []
    names = {_option_key(o["name"]): o for o in schema}
    if _option_key(focused) not in names:
        raise FakeDiscordError(f"{owner!r} has no option {focused!r}")
    for key, raw in values.items():
        option = names.get(_option_key(key))
        if option is None:
            raise FakeDiscordError(f"{owner!r} has no option {key!r}")
        entry: dict[str, Any] = {"name": option["name"], "type": option["type"], "value": raw}
        if _option_key(key) == _option_key(focused):
            entry["focused"] = True
            entry["value"] = str(raw)
        out.append(entry)
    if not any(e.get("focused") for e in out):
        option = names[_option_key(focused)]
        out.append({"name": option["name"], "type": option["type"], "value": "", "focused": True})
    return out
