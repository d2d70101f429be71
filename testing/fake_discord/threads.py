"""Threads as Discord runs them: who may read a private thread, who may post in a thread, and what Discord refuses.

Discord's rules (Channel resource, "Threads" topic and the JSON error codes):

* A private thread (type 12) is read by its members, and by those who hold *Manage Threads* in the parent channel
  (administrators hold every permission); everyone else does not see it at all, even with the parent channel open.
* Starting a thread without a message needs *Create Private Threads* (type 12) or *Create Public Threads* (type 11) in
  the parent; ``invitable`` means something for a private thread only. A server has at most
  ``World.active_thread_limit`` active (unarchived) threads: one more is refused with 160006.
* Adding a member needs the right to send messages in the thread (*Send Messages in Threads*) and an unarchived
  thread (50083); removing one needs *Manage Threads*, or to be the creator of the private thread.
* Posting in a thread needs *Send Messages in Threads*; a locked thread takes posts only from those with *Manage
  Threads* (160005); an archived one that is not locked is unarchived by the post, a locked and archived one refuses
  (50083).
"""

from __future__ import annotations

from . import permissions as perms
from .errors import ApiError
from .models import PRIVATE_THREAD, FakeChannel, UserLike
from .world import World

MAX_ACTIVE_THREADS = 160006
THREAD_LOCKED = 160005
THREAD_ARCHIVED = 50083
WRONG_CHANNEL_TYPE = 50024

MISSING_ACCESS = ApiError(403, 50001, "Missing Access")
MISSING_PERMISSIONS = ApiError(403, 50013, "Missing Permissions")


def parent_permissions(world: World, thread: FakeChannel, user: UserLike) -> int:
    """A member's permissions in a thread: those of its parent channel (threads have no overwrites of their own)."""
    return world.channel_permissions(thread, user)


def manages_threads(world: World, thread: FakeChannel, user: UserLike) -> bool:
    return bool(parent_permissions(world, thread, user) & perms.MANAGE_THREADS)


def can_read_private(world: World, thread: FakeChannel, user: UserLike) -> bool:
    """Whether ``user`` (who can see the parent channel) reads this private thread: a member, the bot that made it,
    or a holder of Manage Threads (administrators included)."""
    return thread.type != PRIVATE_THREAD or world.can_view_channel(user, thread)


def active_threads(world: World, guild_id: int) -> int:
    guild = world.guilds[guild_id]
    return sum(
        1
        for channel_id in guild.channel_ids
        if (c := world.channels[channel_id]).is_thread and not c.deleted and not c.archived
    )


def check_may_start(world: World, parent: FakeChannel, thread_type: int) -> None:
    """What Discord answers the bot that starts a thread of ``thread_type`` under ``parent`` without a message."""
    granted = world.channel_permissions(parent, world.bot)
    if not granted & perms.VIEW_CHANNEL:
        raise MISSING_ACCESS
    needed = perms.CREATE_PRIVATE_THREADS if thread_type == PRIVATE_THREAD else perms.CREATE_PUBLIC_THREADS
    if not granted & needed:
        raise MISSING_PERMISSIONS
    if parent.guild_id is not None and active_threads(world, parent.guild_id) >= world.active_thread_limit:
        raise ApiError(400, MAX_ACTIVE_THREADS, "Maximum number of active threads reached")


def check_may_add(world: World, thread: FakeChannel) -> None:
    """What Discord answers the bot that adds a member to ``thread``."""
    if not thread.is_thread:
        raise ApiError(400, WRONG_CHANNEL_TYPE, "Cannot execute action on this channel type")
    granted = parent_permissions(world, thread, world.bot)
    if not granted & perms.VIEW_CHANNEL:
        raise MISSING_ACCESS
    if not granted & perms.SEND_MESSAGES_IN_THREADS:
        raise MISSING_PERMISSIONS
    if thread.archived:
        raise ApiError(400, THREAD_ARCHIVED, "Thread is archived")


def check_may_remove(world: World, thread: FakeChannel) -> None:
    """What Discord answers the bot that removes a member from ``thread``."""
    if not thread.is_thread:
        raise ApiError(400, WRONG_CHANNEL_TYPE, "Cannot execute action on this channel type")
    creator = thread.type == PRIVATE_THREAD and thread.owner_id == world.bot.id
    if not creator and not manages_threads(world, thread, world.bot):
        raise MISSING_PERMISSIONS
    if thread.archived:
        raise ApiError(400, THREAD_ARCHIVED, "Thread is archived")


def check_may_edit(world: World, thread: FakeChannel, changes: dict[str, object]) -> None:
    """Locking, unlocking or reopening a locked thread takes Manage Threads; ``invitable`` exists on private threads
    only."""
    if "invitable" in changes and thread.type != PRIVATE_THREAD:
        raise ApiError(400, 50035, "Invalid Form Body: invitable is only for private threads")
    touches_lock = "locked" in changes or (thread.locked and changes.get("archived") is False)
    if touches_lock and not manages_threads(world, thread, world.bot):
        raise MISSING_PERMISSIONS


def check_may_post(world: World, thread: FakeChannel, user: UserLike) -> None:
    """What Discord answers ``user`` who posts in ``thread`` (unarchiving it when the post may do so)."""
    granted = parent_permissions(world, thread, user)
    if not granted & perms.VIEW_CHANNEL or not can_read_private(world, thread, user):
        raise MISSING_ACCESS
    if not granted & perms.SEND_MESSAGES_IN_THREADS:
        raise MISSING_PERMISSIONS
    moderator = bool(granted & perms.MANAGE_THREADS)
    if thread.archived:
        if thread.locked and not moderator:
            raise ApiError(400, THREAD_ARCHIVED, "Thread is archived")
        thread.archived = False
    if thread.locked and not moderator:
        raise ApiError(403, THREAD_LOCKED, "Thread is locked")
