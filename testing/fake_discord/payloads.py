"""Discord JSON payloads for the fake's model objects (API v10 shapes)."""

from __future__ import annotations

from typing import Any

from . import permissions as perms
from .models import (
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    StoredAttachment,
    StoredMessage,
)
from .snowflakes import snowflake_iso
from .world import World

ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024


def user_payload(user: FakeUser) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": user.global_name,
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }


def client_user_payload(user: FakeUser) -> dict[str, Any]:
    out = user_payload(user)
    out.update({"verified": True, "mfa_enabled": False, "locale": user.locale, "email": None})
    return out


def member_payload(member: FakeMember, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "roles": [str(r) for r in member.role_ids],
        "nick": member.nick,
        "avatar": None,
        "banner": None,
        "joined_at": member.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if with_user:
        out["user"] = user_payload(member.user)
    if permissions is not None:
        out["permissions"] = str(permissions)
    return out


def role_payload(role: FakeRole) -> dict[str, Any]:
    return {
        "id": str(role.id),
        "name": role.name,
        "color": role.color,
        "colors": {"primary_color": role.color, "secondary_color": None, "tertiary_color": None},
        "hoist": role.hoist,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.managed,
        "mentionable": role.mentionable,
        "flags": 0,
    }


def channel_payload(world: World, channel: FakeChannel, *, permissions_for: FakeUser | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": str(channel.id),
        "type": channel.type,
        "last_message_id": str(channel.last_message_id) if channel.last_message_id else None,
        "flags": 0,
    }
    if channel.is_dm:
        recipient = world.users.get(channel.recipient_id or 0)
        out["recipients"] = [user_payload(recipient)] if recipient is not None else []
        return out
    out.update(
        {
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "position": channel.position,
            "parent_id": str(channel.parent_id) if channel.parent_id else None,
            "rate_limit_per_user": channel.rate_limit_per_user,
            "nsfw": False,
        }
    )
    if channel.is_thread:
        out.update(
            {
                "owner_id": str(channel.owner_id or world.bot.id),
                "message_count": channel.message_count,
                "member_count": max(1, len(channel.thread_members)),
                "total_message_sent": channel.message_count,
                "thread_metadata": {
                    "archived": channel.archived,
                    "auto_archive_duration": channel.auto_archive_duration,
                    "archive_timestamp": snowflake_iso(channel.id),
                    "locked": channel.locked,
                    "invitable": channel.invitable,
                    "create_timestamp": snowflake_iso(channel.id),
                },
            }
        )
    else:
        out["topic"] = channel.topic
        out["permission_overwrites"] = [
            {"id": str(o.id), "type": o.type, "allow": str(o.allow), "deny": str(o.deny)} for o in channel.overwrites
        ]
    if permissions_for is not None:
        out["permissions"] = str(world.channel_permissions(channel, permissions_for))
    return out


def guild_create_payload(world: World, guild: FakeGuild, *, all_members: bool = True) -> dict[str, Any]:
    """GUILD_CREATE. Without the GUILD_MEMBERS intent Discord only includes the bot's own member."""
    members = [m for m in guild.members.values() if all_members or m.user.id == world.bot.id]
    channels = [world.channels[c] for c in guild.channel_ids if not world.channels[c].deleted]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "region": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role_payload(r) for r in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "max_members": 500000,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": guild.locale,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": guild.joined_at,
        "large": False,
        "unavailable": False,
        "lazy": True,
        "member_count": len(guild.members),
        "members": [member_payload(m) for m in members],
        "channels": [channel_payload(world, c) for c in channels if not c.is_thread],
        "threads": [channel_payload(world, c) for c in channels if c.is_thread and not c.archived],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment_payload(att: StoredAttachment, *, ephemeral: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": str(att.id),
        "filename": att.filename,
        "size": att.size,
        "url": att.url,
        "proxy_url": att.url,
        "content_type": att.content_type,
    }
    if att.description:
        out["description"] = att.description
    if ephemeral:
        out["ephemeral"] = True
    return out


def message_payload(
    world: World, message: StoredMessage, *, hide_content: bool = False, with_nonce: bool = False
) -> dict[str, Any]:
    """A message as REST and the gateway return it. ``hide_content`` mimics a missing MESSAGE_CONTENT intent.
    ``with_nonce``: the answer to its creation and its MESSAGE_CREATE, the only places Discord gives the sender's nonce
    back (it is not stored with the message: history and a fetched message have none)."""
    out: dict[str, Any] = {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "type": message.message_type,
        "author": user_payload(message.author),
        "content": "" if hide_content else message.content,
        "timestamp": message.created_at,
        "edited_timestamp": message.edited_at,
        "tts": message.tts,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": []
        if hide_content
        else [attachment_payload(a, ephemeral=message.ephemeral) for a in message.attachments],
        "embeds": [] if hide_content else message.embeds,
        "components": [] if hide_content else message.components,
        "pinned": message.pinned,
        "flags": message.flags,
    }
    if message.guild_id is not None:
        out["guild_id"] = str(message.guild_id)
    if message.webhook_id is not None:
        out["webhook_id"] = str(message.webhook_id)
        out["application_id"] = str(world.application_id)
    if message.reference:
        out["message_reference"] = message.reference
    if with_nonce and message.nonce is not None:
        out["nonce"] = message.nonce
    if message.reactions:
        out["reactions"] = [
            {"count": 1, "me": True, "emoji": {"id": None, "name": e}, "count_details": {"burst": 0, "normal": 1}}
            for e in message.reactions
        ]
    return out


def application_payload(world: World) -> dict[str, Any]:
    return {
        "id": str(world.application_id),
        "name": world.bot.name,
        "icon": None,
        "description": "fake application",
        "rpc_origins": [],
        "bot_public": True,
        "bot_require_code_grant": False,
        "bot": user_payload(world.bot),
        "owner": user_payload(world.application_owner),
        "team": None,
        "verify_key": "0" * 64,
        "flags": 0,
        "summary": "",
        "interactions_endpoint_url": None,
        "tags": [],
        "approximate_guild_count": len(world.guilds),
    }


def bot_app_permissions(world: World, channel: FakeChannel) -> int:
    if channel.is_dm:
        return perms.DEFAULT_EVERYONE
    return world.channel_permissions(channel, world.bot)
