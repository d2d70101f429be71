"""Bad input on Discord gets a clear, localised answer and changes nothing (issue G)."""

from __future__ import annotations

from testing.forms import form_control
from tests.bot.conftest import Table
from tests.bot.test_lobby_and_orders import start_game


async def test_a_stranger_clicking_a_players_button_is_refused(table: Table) -> None:
    """A player whose DMs are closed gets a Decide button in the channel, where anyone can press it."""
    fake = table.fake
    table.players[0].user.dms_closed = True
    game_id = await start_game(table, 3)
    seats = {u: h for h, u in (await table.service.store.seats(game_id)).items()}
    owner = table.players[0]
    ping = await fake.wait_for_message(
        lambda m: f"<@{owner.id}>" in m.content and "DMs are closed" in m.content, channel=table.channel, timeout=10
    )
    before = (await table.service.load(game_id)).to_json()
    ruski = fake.add_member(table.guild, "stranger-ru", locale="ru")
    for stranger, words in (
        (table.players[1], "Only the player seated"),  # seated, but for another house
        (table.players[4], "You do not play a house"),  # not in this game at all
        (ruski, "Вы не играете"),  # the same, in the clicker's own language
    ):
        reply = await (await fake.click(stranger, ping, f"decide:{game_id}:{seats[owner.id]}")).wait_response(
            timeout=10
        )
        assert words in reply.content and reply.flags & 64
        # Typed orders from someone who does not play are refused too.
        if stranger is not table.players[1]:
            typed = await (
                await fake.slash(stranger, table.channel, "orders", text="Winterfell defense")
            ).wait_response()
            assert "do not play" in typed.content or "не играете" in typed.content
    assert (await table.service.load(game_id)).to_json() == before
    # The owner's own click opens the form (ephemeral, in the channel).
    form = await (await fake.click(owner, ping, f"decide:{game_id}:{seats[owner.id]}")).wait_response(timeout=10)
    assert form.flags & 64 and "Orders" in form.text()


async def test_a_click_on_an_out_of_date_form_shows_the_current_decision(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    seats = {u: h for h, u in (await table.service.store.seats(game_id)).items()}
    first = table.players[0]
    house = seats[first.id]
    old_form = await (await fake.slash(first, table.channel, "decide")).wait_response(timeout=10)
    # Everyone answers: the orders step closes, so the old form is stale.
    for p in table.players[:3]:
        form = await (await fake.slash(p, table.channel, "decide")).wait_response(timeout=10)
        await (await fake.click(p, form, form_control(form, game_id, seats[p.id]))).wait_reply()
        await fake.wait_idle()
    game = await table.service.load(game_id)
    before = game.to_json()
    stale = await fake.click(first, old_form, form_control(old_form, game_id, house))
    await stale.wait_reply()
    await fake.wait_idle()
    replies = " ".join(m.text() for m in [stale.response, *stale.followups] if m is not None)
    assert "closed" in replies or "out of date" in replies or "Nothing is asked" in replies
    assert (await table.service.load(game_id)).to_json() == before


async def test_commands_in_a_channel_without_a_game(table: Table) -> None:
    fake = table.fake
    empty = fake.add_text_channel(table.guild, "no-game-here")
    for command in ("game status", "game map", "game log", "mod pause"):
        reply = await (await fake.slash(table.moderator, empty, command)).wait_response(timeout=10)
        assert "no game in this channel" in reply.content, (command, reply.content)
        assert reply.flags & 64


async def test_a_double_click_on_submit_records_one_answer(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    seats = {u: h for h, u in (await table.service.store.seats(game_id)).items()}
    player = table.players[0]
    form = await (await fake.slash(player, table.channel, "decide")).wait_response(timeout=10)
    first = await fake.click(player, form, form_control(form, game_id, seats[player.id]))
    second = await fake.click(player, form, form_control(form, game_id, seats[player.id]))
    await first.wait_ack()
    await second.wait_reply()
    await fake.wait_idle()
    log = [a for a in await table.service.store.answers(game_id) if a.house == seats[player.id]]
    # Orders may be replaced until everyone is in, so a second identical submit may land; never a broken game.
    assert 1 <= len(log) <= 2 and all(a.answer == log[0].answer for a in log)
    assert fake.failed_interactions == []


async def test_an_illegal_typed_order_gets_the_rule_in_the_players_language(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    seats = {u: h for h, u in (await table.service.store.seats(game_id)).items()}
    stark = next(p for p in table.players[:3] if seats[p.id] == "stark")
    stark.user.locale = "ru"  # this player uses Discord in Russian
    before = (await table.service.load(game_id)).to_json()
    text = "Winterfell raid*, White Harbor defense+2, Shivering Sea support+1"  # three stars; Stark has fewer
    submitted = await fake.slash(stark, table.channel, "orders", text=text)
    await submitted.wait_reply()
    await fake.wait_idle()
    replies = " ".join(m.content for m in [submitted.response, *submitted.followups] if m is not None)
    assert "Королевского двора" in replies and "★" in replies
    assert (await table.service.load(game_id)).to_json() == before
