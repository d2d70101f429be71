"""A real discord.py bot (tiny_bot.py) driven through the fake: every round trip the game bot relies on."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from testing.fake_discord import FakeDiscord, FakeDiscordError, InteractionFailedError

from .conftest import Table
from .tiny_bot import TinyBot, tiny_png

DM_SEND = "POST /channels/{channel_id}/messages"


async def test_login_ready_and_command_sync(table: Table) -> None:
    fake = table.fake
    bot = TinyBot()
    async with fake.run_bot(bot):
        await fake.wait_for_ready()
        await fake.wait_for_commands("game", "slow", "dm_me")
        assert bot.user is not None and bot.user.id == fake.bot_user.id
        assert bot.application_id == fake.application_id
        guild = bot.get_guild(table.guild.id)
        assert guild is not None and guild.name == "Westeros"
        assert guild.get_channel(table.channel.id) is not None
        assert [m.name for m in guild.members] == ["fake-bot"]  # no GUILD_MEMBERS intent: only the bot
        game = next(c for c in fake.registered_commands() if c["name"] == "game")
        assert {o["name"] for o in game["options"]} == {"new", "admin", "board"}
    assert fake.gateway.compression_seen == ["zlib-stream"]  # discord.py's default transport compression
    assert fake.requests.count("PUT /applications/{application_id}/commands") == 1
    assert fake.unsupported_requests == []


async def test_slash_subcommands_options_and_locales(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()):
        result = await fake.slash(table.bob, table.channel, "game new", players=6, tides=True)
        message = await result.wait_response()
        assert message.content == "new game: players=6 tides=True locale=ru guild_locale=en-GB"
        assert not message.ephemeral and message.interaction_id == result.id

        other = await fake.slash(table.alice, table.channel, "game new", players=3, locale="de")
        assert "players=3 tides=False locale=de" in (await other.wait_response()).content

        seat = await fake.slash(
            table.alice, table.channel, "game admin seat", player=table.bob, channel=table.channel, house="Stark"
        )
        reply = await seat.wait_response()
        assert reply.content == "seated bob as Stark in #game"
        assert reply.ephemeral and reply.ephemeral_for == table.alice.id
        assert fake.visible_messages(table.bob).count(reply) == 0
        assert reply in fake.visible_messages(table.alice)

        with pytest.raises(FakeDiscordError, match="requires option 'players'"):
            await fake.slash(table.alice, table.channel, "game new")
        with pytest.raises(FakeDiscordError, match="no subcommand"):
            await fake.slash(table.alice, table.channel, "game nope")
        with pytest.raises(FakeDiscordError, match="expected int"):
            await fake.slash(table.alice, table.channel, "game new", players="6")
    assert fake.failed_interactions == []


async def test_default_member_permissions(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()):
        result = await fake.slash(table.alice, table.channel, "reset")  # alice has manage_guild=True
        assert (await result.wait_response()).content == "reset by alice"
        with pytest.raises(FakeDiscordError, match="lacks permissions"):
            await fake.slash(table.bob, table.channel, "reset")


async def test_deferred_ephemeral_followup(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()):
        result = await fake.slash(table.alice, table.channel, "slow")
        message = await result.wait_response()
        assert message.content == "slow done"
        assert message.ephemeral and not message.loading
        assert result.callback_type == 5
        assert [m.content for m in await result.wait_followups(1)] == ["slow done"]
        assert [m.content for m in await result.wait_reply()] == ["slow done"]


async def test_acknowledgements_are_timed_from_the_event_leaving_the_fake(table: Table) -> None:
    """As Discord times them: the clock starts when the event's frame is written, and stops when the callback's
    bytes arrive (not when the fake, busy with other players, gets round to handling it)."""
    fake = table.fake
    async with fake.run_bot(TinyBot()):
        result = await fake.slash(table.alice, table.channel, "slow")
        await result.wait_ack()
        assert result.sent_at is not None and result.acked_after is not None
        assert result.created_at <= result.sent_at
        # The bot answered on its own connection after the frame left: a positive time, well under Discord's 3 s.
        assert 0 < result.acked_after < 3


async def test_followups_edit_and_delete(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()):
        since = fake.mark()
        result = await fake.slash(table.alice, table.channel, "chain")
        third = await fake.wait_for_message(lambda m: m.content == "third", visible_to=table.alice, since=since)
        assert third.ephemeral_for == table.alice.id
        await fake.wait_idle()
        assert result.response is not None and result.response.content == "first edited"
        followups = result.followups
        assert [m.content for m in followups] == ["second edited", "third"]
        assert followups[1].deleted and followups[1].ephemeral
        assert [m.content for m in fake.messages_in(table.channel)] == ["first edited", "second edited"]
        assert followups[0].history[0]["content"] == "second"
        assert "fake-bot: 'first edited'" in fake.describe(table.bob)


async def test_button_click_edits_message_and_dynamic_item(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()):
        board = await (await fake.slash(table.alice, table.channel, "game board")).wait_response()
        assert set(board.custom_ids()) >= {"board:refresh", "board:pick", "board:note", "vote:1"}

        click = await fake.click(table.bob, board, "board:refresh")
        updated = await click.wait_response()
        assert updated is board and board.content == "refreshed by bob"
        assert click.callback_type == 7

        vote = await fake.click(table.alice, board, "vote:1")
        assert (await vote.wait_response()).content == "alice voted 1"

        later = await fake.click(table.bob, board, "board:later")
        assert later.callback_type == 6
        assert (await later.wait_response()).content == "updated later by bob"

        with pytest.raises(FakeDiscordError, match="no component"):
            await fake.click(table.alice, board, "board:missing")


async def test_select_menu_values(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()):
        board = await (await fake.slash(table.alice, table.channel, "game board")).wait_response()
        picked = await fake.select(table.bob, board, "board:pick", ["c", "a"])
        reply = await picked.wait_response()
        assert reply.content == "picked c,a" and reply.ephemeral_for == table.bob.id
        with pytest.raises(FakeDiscordError, match="no option 'z'"):
            await fake.select(table.bob, board, "board:pick", ["z"])
        with pytest.raises(FakeDiscordError, match=r"takes 1\.\.2 values"):
            await fake.select(table.bob, board, "board:pick", ["a", "b", "c"])


async def test_modal_submit(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()):
        board = await (await fake.slash(table.alice, table.channel, "game board")).wait_response()
        opened = await fake.click(table.alice, board, "board:note")
        modal = await opened.wait_modal()
        assert modal["custom_id"] == "note_modal" and modal["title"] == "Write a note"
        with pytest.raises(FakeDiscordError, match="no open modal"):
            await fake.submit_modal(table.bob, "note_modal", {"note": "x"})
        submitted = await fake.submit_modal(table.alice, "note_modal", {"note": "march on Winterfell"})
        reply = await submitted.wait_response()
        assert reply.content == "note=march on Winterfell mood=-"
        assert submitted.payload["message"]["id"] == str(board.id)  # modal opened from a component

        from_slash = await fake.slash(table.bob, table.channel, "note")
        assert from_slash.callback_type == 9 and from_slash.response is None
        submitted = await fake.submit_modal(table.bob, "note_modal", {"note": "hold", "mood": "grim"})
        assert (await submitted.wait_response()).content == "note=hold mood=grim"
        assert "message" not in submitted.payload
        with pytest.raises(FakeDiscordError, match="not available in DMs"):
            await fake.slash(table.bob, fake.dm_channel(table.bob), "note")


async def test_dm_with_png_attachment(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()):
        since = fake.mark()
        result = await fake.slash(table.alice, table.channel, "dm_me")
        assert (await result.wait_response()).content == "sent"
        dm = await fake.wait_for_dm(table.alice, since=since)
        assert dm.content == "your board" and dm.channel_id == fake.dm_channel(table.alice).id
        attachment = dm.attachment("board.png")
        assert attachment is not None
        assert attachment.data == tiny_png() and attachment.content_type == "image/png"
        assert dm in fake.visible_messages(table.alice) and dm not in fake.visible_messages(table.bob)
        assert fake.latest_dm(table.alice) is dm
        async with aiohttp.ClientSession() as session, session.get(attachment.url) as response:
            assert await response.read() == tiny_png()


async def test_closed_dms_surface_as_forbidden_50007(table: Table) -> None:
    fake = table.fake
    fake.close_dms(table.bob)
    async with fake.run_bot(TinyBot()) as bot:
        result = await fake.slash(table.bob, table.channel, "dm_me")
        assert (await result.wait_response()).content == "dm failed: status=403 code=50007"
        dm_path = f"POST /channels/{fake.dm_channel(table.bob).id}/messages"
        assert fake.requests.count(dm_path, status=403) == 1  # discord.py does not retry a 403
        user = await bot.fetch_user(table.bob.id)
        with pytest.raises(discord.Forbidden) as caught:
            await user.send("hello?")
        assert caught.value.code == 50007
    assert fake.dm_messages(table.bob) == []


async def test_rate_limit_is_retried_by_discord_py(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()) as bot:
        rule = fake.faults.rate_limit(DM_SEND, times=2, retry_after=0.05)
        channel = bot.get_channel(table.channel.id)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send("after the storm")
        assert sent.content == "after the storm" and rule.hits == 2
        assert fake.requests.count(DM_SEND, status=429) == 2
        assert fake.requests.count(DM_SEND, status=200) == 1
        assert fake.latest_message(table.channel) is not None


async def test_server_error_is_retried(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()) as bot:
        fake.faults.server_error(DM_SEND, times=1)
        channel = bot.get_channel(table.channel.id)
        assert isinstance(channel, discord.TextChannel)
        await channel.send("eventually")  # discord.py sleeps 1s and retries
        assert [r.status for r in fake.requests.matching(DM_SEND)] == [500, 200]


async def test_unacknowledged_interaction_fails() -> None:
    async with FakeDiscord.start(ack_timeout=0.3) as fake:
        guild = fake.add_guild()
        channel = fake.add_text_channel(guild, "game")
        alice = fake.add_member(guild, "alice")
        async with fake.run_bot(TinyBot()):
            result = await fake.slash(alice, channel, "never")
            assert result.failed and not result.acked
            assert "This interaction failed" in (result.failure or "")
            assert fake.failed_interactions == [result]
            with pytest.raises(InteractionFailedError):
                await result.wait_response()


async def test_dm_slash_command(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()):
        dm = fake.dm_channel(table.bob)
        result = await fake.slash(table.bob, dm, "game new", players=4)
        reply = await result.wait_response()
        assert reply.channel_id == dm.id and "locale=ru guild_locale=None" in reply.content
        assert reply in fake.visible_messages(table.bob) and reply not in fake.visible_messages(table.alice)


async def test_pins_threads_and_embeds(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()):
        result = await fake.slash(table.alice, table.channel, "announce", text="winter is coming")
        assert (await result.wait_response()).content == "announced in discussion"
        news = next(m for m in fake.messages_in(table.channel) if m.embeds)
        assert news.pinned and news.embeds[0]["title"] == "News" and "winter is coming" in news.text()
        thread = fake.world.channels[news.id]  # a thread started from a message shares its id
        assert thread.is_thread and thread.parent_id == table.channel.id
        assert [m.content for m in fake.messages_in(thread)] == ["thread opened"]


async def test_restart_reconnects_and_persistent_views_still_route(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()):
        board = await (await fake.slash(table.alice, table.channel, "game board")).wait_response()
    assert fake.gateway.connected_sessions == []
    async with fake.run_bot(TinyBot(sync_on_start=False)):
        click = await fake.click(table.bob, board, "board:refresh")
        assert (await click.wait_response()).content == "refreshed by bob"
        vote = await fake.click(table.alice, board, "vote:1")
        assert (await vote.wait_response()).content == "alice voted 1"
    assert fake.gateway.identify_count == 2


async def test_server_side_disconnect_resumes(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()) as bot:
        await fake.disconnect_bot()
        await fake.world.wait_until(lambda: fake.gateway.resume_count == 1, 10.0, "RESUME")
        result = await fake.slash(table.alice, table.channel, "game new", players=5)
        assert "players=5" in (await result.wait_response()).content
        assert bot.is_ready()
        fake.invalidate_sessions()
        await fake.world.wait_until(lambda: fake.gateway.identify_count == 2, 10.0, "re-IDENTIFY")
        result = await fake.slash(table.alice, table.channel, "game new", players=7)
        assert "players=7" in (await result.wait_response()).content


async def test_user_messages_reach_the_bot(table: Table) -> None:
    fake = table.fake
    intents = discord.Intents.default()
    intents.message_content = True
    intents.members = True  # also exercises member chunking at startup
    async with fake.run_bot(TinyBot(intents=intents)) as bot:
        guild = bot.get_guild(table.guild.id)
        assert guild is not None and {m.name for m in guild.members} == {"fake-bot", "alice", "bob"}
        fake.say(table.alice, table.channel, "hello bot")
        await fake.wait_until(lambda: bot.seen_messages, what="on_message")
        assert bot.seen_messages == ["hello bot"]


async def test_oversized_message_is_rejected_like_discord(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()) as bot:
        channel = bot.get_channel(table.channel.id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.HTTPException) as caught:
            await channel.send("x" * 2001)
        assert caught.value.status == 400 and caught.value.code == 50035
