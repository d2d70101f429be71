"""End to end through the fake Discord: a lobby, decisions by DM, receipts, the reveal in the channel."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

import discord

from testing.fake_discord import StoredMessage
from testing.fake_discord.components import STRING_SELECT, walk
from testing.forms import form_control
from tests.bot.conftest import Table


async def start_game(table: Table, players: int) -> int:
    fake = table.fake
    # The tests written before the AI (issue 42) keep the autopilot they assume: a deadline applies default answers.
    made = await fake.slash(
        table.moderator, table.channel, "game new", players=players, name="Test", autopilot="defaults"
    )
    lobby = await made.wait_response()
    for player in table.players[:players]:
        click = await fake.click(player, lobby, "lobby:1:join")
        await click.wait_response()
    stranger_start = await fake.click(table.players[0], lobby, "lobby:1:start")
    refused = await stranger_start.wait_reply()  # acknowledged first, then refused in an ephemeral followup
    assert any(("creator" in m.content or "moderator" in m.content) and m.flags & 64 for m in refused)
    start = await fake.click(table.moderator, lobby, "lobby:1:start")
    started = await start.wait_response()
    assert "started" in started.content
    return 1


async def test_three_players_give_orders_by_dm_and_see_the_reveal(table: Table) -> None:
    fake = table.fake
    mark = fake.mark()
    game_id = await start_game(table, 3)
    seats = await table.service.store.seats(game_id)
    by_user = {u: h for h, u in seats.items()}
    for player in table.players[:3]:
        dm = await fake.wait_for_dm(player, since=mark)
        assert "Test" in dm.text() and "Orders" in dm.text()
        assert "<t:" in dm.text()  # the deadline as a Discord timestamp, in each reader's time zone
        # The DM carries the form itself: the player answers there, with no click to open it first.
        assert form_control(dm, game_id, by_user[player.id], "s:0")
        submitted = await fake.click(player, dm, form_control(dm, game_id, by_user[player.id]))
        receipt = await submitted.wait_response()
        assert "Recorded" in receipt.text() and receipt.id == dm.id  # the DM became the receipt
        # Orders stay secret and changeable until everyone has given them: the receipt reopens the form.
        assert f"decide:{game_id}:{by_user[player.id]}" in str(receipt.components)
    await fake.wait_until(
        lambda: any("Orders are revealed" in m.content for m in fake.visible_messages(table.moderator))
    )
    assert fake.failed_interactions == []
    assert fake.unsupported_requests == [] and fake.internal_errors == []


async def help_text(table: Table, member: object) -> str:
    """/game help's whole answer: the reply and its followups (the help is longer than one message), all ephemeral."""
    asked = await table.fake.slash(member, table.channel, "game help")
    await asked.wait_response()
    await table.fake.wait_until(lambda: len(asked.followups) >= 1, timeout=5)
    await table.fake.wait_idle()
    messages = [asked.response, *asked.followups]
    assert all(m.flags & 64 for m in messages)
    return "\n".join(m.content for m in messages)


async def test_help_explains_commands_and_deadline_defaults_in_the_users_language(table: Table) -> None:
    fake = table.fake
    text = await help_text(table, table.players[0])
    assert "/decide" in text and "never March or Raid" in text
    # Issue J: every command, the /orders grammar with examples, deadline defaults, absent players, the pinned status
    for command in ("/game map", "/game hand", "/game log", "/game vacation", "/game status", "/orders", "/mod undo"):
        assert command.split()[-1] in text, command
    assert "Winterfell march+1, White Harbor defense" in text and "orders 24 h" in text
    assert "three missed deadlines" in text and "pinned" in text
    asked = await fake.slash(table.players[1], table.channel, "game help")
    await fake.wait_until(lambda: any(m.attachments for m in asked.followups), timeout=10)
    legend = next(a for m in asked.followups for a in m.attachments)
    assert legend.filename == "legend.png" and legend.data.startswith(b"\x89PNG")  # issue K: the legend lives here
    russian = fake.add_member(table.guild, "ru-player", locale="ru")
    text_ru = await help_text(table, russian)
    assert "никогда поход или набег" in text_ru and "Винтерфелл поход +1" in text_ru
    assert "закреплённое" in text_ru.lower()


async def test_typed_orders_are_read_and_problems_explained(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    seats = {u: h for h, u in (await table.service.store.seats(game_id)).items()}
    stark_player = next(p for p in table.players[:3] if seats[p.id] == "stark")
    bad = await (
        await fake.slash(stark_player, table.channel, "orders", text="Winterfell dance, Atlantis raid")
    ).wait_response()
    assert "could not read" in bad.content and "Atlantis" in bad.content
    assert not (await table.service.load(game_id)).prompt_for("stark").answered  # type: ignore[union-attr]
    text = "Winterfell march+1, White Harbor defense, Shivering Sea support"
    submitted = await fake.slash(stark_player, table.channel, "orders", text=text)
    await submitted.wait_reply()
    await fake.wait_idle()
    replies = [m.content for m in [submitted.response, *submitted.followups] if m is not None]
    assert any(
        "Recorded: The Shivering Sea: Support; White Harbor: Defense +1; Winterfell: March +1 ★" in r for r in replies
    )
    game = await table.service.load(game_id)
    assert game.prompt_for("stark").answered  # type: ignore[union-attr]


async def test_map_hand_and_log_commands(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    seats = {u: h for h, u in (await table.service.store.seats(game_id)).items()}
    player = table.players[0]
    own_map = await (await fake.slash(player, table.channel, "game map")).wait_response(timeout=10)
    assert own_map.flags & 64 and own_map.attachments[0].data.startswith(b"\x89PNG")
    spectator_map = await (await fake.slash(table.moderator, table.channel, "game map")).wait_response(timeout=10)
    assert spectator_map.attachments[0].data.startswith(b"\x89PNG")
    hand = await (await fake.slash(player, table.channel, "game hand")).wait_response()
    assert hand.flags & 64 and "Hand:" in hand.content
    empty = await (await fake.slash(player, table.channel, "game log")).wait_response()
    assert "Nothing has happened yet" in empty.content
    for p in table.players[:3]:
        dm = await fake.wait_for_dm(p)
        await (await fake.click(p, dm, form_control(dm, game_id, seats[p.id]))).wait_reply()
    await fake.wait_idle()
    log = await (await fake.slash(player, table.channel, "game log")).wait_response()
    assert "Orders are revealed" in log.content


async def test_one_pinned_status_message_is_edited_in_place(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    message_id = None
    for _ in range(300):  # the status follows the start's post, whose whole map may take seconds to draw under load
        message_id = await table.service.store.status_message(game_id)
        if message_id is not None:
            break
        await asyncio.sleep(0.05)
    assert message_id is not None
    status = fake.world.messages[message_id]
    assert status.pinned and "round 1/10" in status.content and "Waiting for" in status.content
    seats = {u: h for h, u in (await table.service.store.seats(game_id)).items()}
    player = table.players[0]
    dm = await fake.wait_for_dm(player)
    await (await fake.click(player, dm, form_control(dm, game_id, seats[player.id]))).wait_ack()
    await fake.wait_until(lambda: fake.world.messages[message_id].edited_at is not None, timeout=5)
    edited = fake.world.messages[message_id]
    assert edited.edited_at is not None
    assert seats[player.id].title() not in edited.content.split("Waiting for:")[1].split("\n")[0]
    assert await table.service.store.status_message(game_id) == message_id  # the same message, not a new one


@dataclass
class FirstForm:
    game_id: int
    player: Any
    house: str
    dm: StoredMessage
    select: dict[str, Any]  # the form's first menu
    choice: str  # an option of it that is not picked yet


async def first_form(table: Table) -> FirstForm:
    """A three-player game started, and its first player's decision DM with a pick to make on it."""
    mark = table.fake.mark()
    game_id = await start_game(table, 3)
    player = table.players[0]
    house = {u: h for h, u in (await table.service.store.seats(game_id)).items()}[player.id]
    dm = await table.fake.wait_for_dm(player, since=mark)
    select = next(c for c in walk(dm.components) if c.get("type") == STRING_SELECT)
    choice = next(o["value"] for o in select["options"] if not o.get("default"))
    return FirstForm(game_id, player, house, dm, select, choice)


async def test_the_dm_form_keeps_its_notice_through_picks_and_a_receipt_reopens_it(table: Table) -> None:
    fake = table.fake
    form = await first_form(table)
    game_id, player, house, dm = form.game_id, form.player, form.house, form.dm
    select, choice = form.select, form.choice
    picked = await (await fake.select(player, dm, select["custom_id"], [choice])).wait_response()
    # The pick edits the DM itself, which still names the game and its deadline, and shows the pick.
    assert picked.id == dm.id and "Test" in picked.text() and "<t:" in picked.text()
    chosen = next(c for c in walk(picked.components) if c.get("custom_id") == select["custom_id"])
    assert [o["value"] for o in chosen["options"] if o.get("default")] == [choice]
    receipt = await (await fake.click(player, picked, form_control(picked, game_id, house))).wait_response()
    assert "Recorded" in receipt.text()
    recorded = (await table.service.store.answers(game_id))[-1]
    assert choice in json.dumps(recorded.answer)
    # Orders may change until everyone has given them: the receipt's button opens the form again, privately.
    reopened = await (await fake.click(player, receipt, f"decide:{game_id}:{house}")).wait_response()
    assert reopened.flags & 64 and form_control(reopened, game_id, house)
    assert fake.failed_interactions == [] and fake.internal_errors == []


async def test_an_ended_game_keeps_no_form_in_memory_even_for_a_late_dm(table: Table) -> None:
    """The DM forms' drafts leave with the game; a decision DM that goes out after the end carries no form."""
    fake = table.fake
    game_id = await start_game(table, 3)
    player = table.players[0]
    await fake.wait_for_dm(player)
    await fake.wait_idle()
    play = table.bot.play
    assert {k for k in play.forms.drafts if k[0] == game_id}  # each DM's form has its draft
    await (await fake.slash(table.moderator, table.channel, "mod end")).wait_reply(timeout=10)
    await fake.wait_idle()
    assert not {k for k in play.forms.drafts if k[0] == game_id}
    # A late post (its answer came before the end) sends the notices again: Decide buttons, no drafts.
    mark = fake.mark()
    play.dms.notified.pop(game_id, None)
    await play.dms.notify_prompts(game_id, await table.service.load(game_id))
    late = await fake.wait_for_dm(player, since=mark)
    assert f"decide:{game_id}:" in str(late.components) and ":submit" not in str(late.components)
    assert not {k for k in play.forms.drafts if k[0] == game_id}


async def test_a_notice_too_long_to_carry_its_form_sends_a_decide_button_instead(table: Table) -> None:
    """The DM never cuts a form: when the notice and the form together exceed a message, Decide opens the form."""
    fake = table.fake
    game_id = await start_game(table, 3)
    player = table.players[0]
    house = {u: h for h, u in (await table.service.store.seats(game_id)).items()}[player.id]
    await fake.wait_for_dm(player, timeout=15)  # the start draws the whole map first: seconds under load
    await fake.wait_idle()
    game = await table.service.load(game_id)
    prompt = game.prompt_for(house)
    assert prompt is not None
    row = await table.service.row(game_id)
    mark = fake.mark()
    # With the rest of the notice, under a message's 4,000 characters of text (a form is a components-v2 layout, and
    # so is this notice); with the orders form, over them.
    long_name = "N" * 3600
    await table.bot.play.dms.send_decision_notice(game_id, long_name, row.channel_id, player.id, game, prompt)
    dm = await fake.wait_for_dm(player, since=mark)
    assert long_name in dm.text() and len(dm.text()) <= 4000
    assert f"decide:{game_id}:{house}" in str(dm.components) and ":submit" not in str(dm.components)
    opened = await (await fake.click(player, dm, f"decide:{game_id}:{house}")).wait_response()
    assert form_control(opened, game_id, house)


async def test_a_players_dm_channel_is_opened_once_though_discord_py_keeps_only_its_latest_128(table: Table) -> None:
    """With more players than discord.py's 128 remembered DM channels, each decision DM would first open the
    channel again: the bot keeps the channel ids itself, so a DM costs one request."""
    fake = table.fake
    game_id = await start_game(table, 3)
    for player in table.players[:3]:
        await fake.wait_for_dm(player)
    await fake.wait_idle()
    bot, play = table.bot, table.bot.play
    for i in range(130):  # other DM channels push the players' out of discord.py's cache
        await bot.create_dm(discord.Object(fake.add_member(table.guild, f"other{i}").id))
    seated = {p.id for p in table.players[:3]}
    assert not [c for c in bot.private_channels if isinstance(c, discord.DMChannel) and c.recipient
                and c.recipient.id in seated]  # fmt: skip
    opened = fake.requests.count("POST /users/@me/channels")
    mark = fake.mark()
    play.dms.notified.pop(game_id, None)  # the notices go out again, as after a new step
    await play.dms.notify_prompts(game_id, await table.service.load(game_id))
    for player in table.players[:3]:
        again = await fake.wait_for_dm(player, since=mark)
        assert f"dec:{game_id}:" in str(again.components)
    assert fake.requests.count("POST /users/@me/channels") == opened
    assert fake.failed_interactions == [] and fake.unsupported_requests == [] and fake.internal_errors == []


async def test_what_a_click_implies_waits_for_the_acknowledgements_still_on_their_way(table: Table) -> None:
    """cogs/acks.py: a pick on a form and its Submit are acknowledged at once, and everything they imply waits while
    another click's acknowledgement is on its way: the check of who clicked and of the form's draft (which works out
    the house's decision), the form drawn again with the pick, the answer and its receipt. Done as each
    acknowledgement came back, that work delayed the acknowledgements of a burst still waiting for a connection."""
    fake = table.fake
    first = await first_form(table)
    game_id, player, house, select = first.game_id, first.player, first.house, first.select
    await fake.wait_idle()
    order = table.bot.play.order
    order.max_wait = 30.0  # a click's work waits for the acknowledgements (at most this long)
    async with order.acknowledging():  # another click's acknowledgement, on its way
        picked = await fake.select(player, first.dm, select["custom_id"], [first.choice])
        assert picked.acked
        await asyncio.sleep(0.5)
        assert not picked.response_ready, "the form was drawn again before the acknowledgements were done"
    form = await picked.wait_response()
    chosen = next(c for c in walk(form.components) if c.get("custom_id") == select["custom_id"])
    assert [o["value"] for o in chosen["options"] if o.get("default")] == [first.choice]
    answers = len(await table.service.store.answers(game_id))
    async with order.acknowledging():
        submitted = await fake.click(player, form, form_control(form, game_id, house))
        assert submitted.acked
        await asyncio.sleep(0.5)
        assert not submitted.response_ready and len(await table.service.store.answers(game_id)) == answers
    receipt = await submitted.wait_response()
    assert "Recorded" in receipt.text() and len(await table.service.store.answers(game_id)) == answers + 1
    assert fake.failed_interactions == [] and fake.internal_errors == []
