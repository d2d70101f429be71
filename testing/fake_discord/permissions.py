"""Discord permission bits and the permission computation (roles + channel overwrites)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import FakeChannel, FakeGuild, FakeMember

CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
BAN_MEMBERS = 1 << 2
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

ALL_PERMISSIONS = (1 << 53) - 1

DEFAULT_EVERYONE = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)

DEFAULT_BOT = (
    DEFAULT_EVERYONE
    | MANAGE_CHANNELS
    | MANAGE_ROLES
    | MANAGE_MESSAGES
    | MANAGE_THREADS
    | CREATE_PRIVATE_THREADS
    | MENTION_EVERYONE
)

# Overwrite target types.
OVERWRITE_ROLE = 0
OVERWRITE_MEMBER = 1


def base_permissions(guild: FakeGuild, member: FakeMember) -> int:
    """Guild-level permissions: owner and administrators get everything."""
    if member.user.id == guild.owner_id:
        return ALL_PERMISSIONS
    perms = guild.everyone_role.permissions
    for role_id in member.role_ids:
        role = guild.roles.get(role_id)
        if role is not None:
            perms |= role.permissions
    if perms & ADMINISTRATOR:
        return ALL_PERMISSIONS
    return perms


def channel_permissions(guild: FakeGuild, channel: FakeChannel, member: FakeMember) -> int:
    """Permissions in a channel, applying @everyone, role and member overwrites in Discord's order."""
    perms = base_permissions(guild, member)
    if perms & ADMINISTRATOR or perms == ALL_PERMISSIONS:
        return ALL_PERMISSIONS
    overwrites = channel.overwrites
    for ow in overwrites:
        if ow.type == OVERWRITE_ROLE and ow.id == guild.id:
            perms = (perms & ~ow.deny) | ow.allow
    allow = deny = 0
    for ow in overwrites:
        if ow.type == OVERWRITE_ROLE and ow.id != guild.id and ow.id in member.role_ids:
            allow |= ow.allow
            deny |= ow.deny
    perms = (perms & ~deny) | allow
    for ow in overwrites:
        if ow.type == OVERWRITE_MEMBER and ow.id == member.user.id:
            perms = (perms & ~ow.deny) | ow.allow
    return perms
