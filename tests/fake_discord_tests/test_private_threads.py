"""Private threads through the fake as discord.py drives them: who reads, who posts, membership, archiving and locking,
and what Discord refuses (permissions, an archived thread, the server's active-thread limit)."""

from __future__ import annotations

import discord
import pytest

from testing.fake_discord import FakeDiscord, FakeDiscordError
from testing.fake_discord import permissions as perms

from .conftest import Table
from .tiny_bot import TinyBot


async def text_channel(bot: discord.Client, table: Table) -> discord.TextChannel:
    channel = bot.get_channel(table.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_a_private_thread_is_read_by_its_members_and_those_who_manage_threads(table: Table) -> None:
    fake = table.fake
    carol = fake.add_member(table.guild, "carol")
    warden = fake.add_member(
        table.guild, "warden", roles=[fake.add_role(table.guild, "Wardens", permissions=perms.MANAGE_THREADS)]
    )
    admin = fake.add_member(table.guild, "admin", administrator=True)
    async with fake.run_bot(TinyBot()) as bot:
        parent = await text_channel(bot, table)
        thread = await parent.create_thread(
            name="Lannister ↔ Stark", type=discord.ChannelType.private_thread, invitable=False
        )
        await thread.add_user(discord.Object(table.alice.id))
        await thread.add_user(discord.Object(table.bob.id))
        stored = fake.world.channels[thread.id]
        assert stored.type == 12 and stored.invitable is False and stored.parent_id == table.channel.id
        fake.say(table.alice, stored, "Support me in the Reach?")
        fake.say(table.bob, stored, "Only if you stay out of Winterfell.")
        for reader in (table.alice, table.bob, warden, admin):
            assert [m.content for m in fake.messages_in(stored) if fake.world.can_see(reader.user, m)] == [
                "Support me in the Reach?",
                "Only if you stay out of Winterfell.",
            ], reader
        assert not fake.world.can_view_channel(carol.user, stored)
        assert not any(m.channel_id == stored.id for m in fake.visible_messages(carol))
        with pytest.raises(FakeDiscordError, match="cannot see"):
            fake.say(carol, stored, "let me in")
        members = await thread.fetch_members()
        assert {m.id for m in members} == {bot.user.id, table.alice.id, table.bob.id}  # type: ignore[union-attr]

        await thread.remove_user(discord.Object(table.bob.id))
        assert not fake.world.can_view_channel(table.bob.user, stored)
        await thread.add_user(discord.Object(carol.id))
        assert fake.world.can_view_channel(carol.user, stored)  # the newcomer reads the history
        assert len([m for m in fake.messages_in(stored) if fake.world.can_see(carol.user, m)]) == 2


async def test_archiving_and_locking(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()) as bot:
        parent = await text_channel(bot, table)
        thread = await parent.create_thread(name="talk", type=discord.ChannelType.private_thread, invitable=False)
        await thread.add_user(discord.Object(table.bob.id))
        stored = fake.world.channels[thread.id]
        await thread.edit(archived=True)
        with pytest.raises(discord.HTTPException) as archived:
            await thread.add_user(discord.Object(table.alice.id))
        assert archived.value.code == 50083
        fake.say(table.bob, stored, "back again")  # a post unarchives a thread that is not locked
        assert stored.archived is False
        await thread.edit(locked=True)
        with pytest.raises(FakeDiscordError, match="Thread is locked"):
            fake.say(table.bob, stored, "anyone?")
        assert fake.world.can_view_channel(table.bob.user, stored)  # read-only, still readable
        await thread.edit(archived=True, locked=True)
        with pytest.raises(FakeDiscordError, match="Thread is archived"):
            fake.say(table.bob, stored, "anyone?")
        await thread.send("the bot manages threads: it may still post")
        assert stored.archived is False


async def test_refusals_discord_would_give(fake: FakeDiscord) -> None:
    bare = perms.DEFAULT_EVERYONE & ~perms.SEND_MESSAGES_IN_THREADS
    guild = fake.add_guild("Westeros", bot_permissions=bare)
    channel = fake.add_text_channel(guild, "game")
    guild.everyone_role.permissions = bare  # nobody's role gives the bot what it lacks
    alice = fake.add_member(guild, "alice")
    async with fake.run_bot(TinyBot()) as bot:
        parent = bot.get_channel(channel.id)
        assert isinstance(parent, discord.TextChannel)
        with pytest.raises(discord.Forbidden) as no_private:  # Create Private Threads missing
            await parent.create_thread(name="talk", type=discord.ChannelType.private_thread)
        assert no_private.value.code == 50013
        bot_role = next(r for r in guild.roles.values() if r.managed)
        bot_role.permissions |= perms.CREATE_PRIVATE_THREADS
        thread = await parent.create_thread(name="talk", type=discord.ChannelType.private_thread)
        with pytest.raises(discord.Forbidden) as no_send:  # Send Messages in Threads missing: no one can be added
            await thread.add_user(discord.Object(alice.id))
        assert no_send.value.code == 50013
        bot_role.permissions |= perms.SEND_MESSAGES_IN_THREADS
        await thread.add_user(discord.Object(alice.id))
        fake.world.active_thread_limit = 1
        with pytest.raises(discord.HTTPException) as full:
            await parent.create_thread(name="another", type=discord.ChannelType.private_thread)
        assert full.value.code == 160006
        await thread.edit(archived=True)  # an archived thread is not active: room again
        await parent.create_thread(name="another", type=discord.ChannelType.private_thread)
    assert fake.unsupported_requests == []
