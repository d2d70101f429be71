"""Issue P, as players and moderators try it through the fake Discord: who holds a house after it changed hands or
became a vassal, undo restoring seats, a liege's vacation, a busy image queue, and the undo confirmation's words.

Positions are reached through the service (answers by their deciders); every attempt the test is about goes through
Discord as a member would make it."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from app.background import ImagePool
from app.commands import Answer, Gift, Import, SetSeat, Vassalize
from app.service import Applied, GameService, opened_by
from cogs.forms import FormButton, FormSelect
from engine import Game, new_game, rules
from testing.fake_discord.components import walk
from testing.forms import form_control, form_version
from tests.bot.conftest import Table
from tests.bot.test_fair_play import first_select, snapshot, start_own_game
from tests.bot.test_lobby_and_orders import start_game
from tests.bot.test_mother_of_dragons import vassal_game

pytestmark = pytest.mark.slow


async def answer_defaults_until(service: GameService, game_id: int, done: Any) -> Game:
    """Every open prompt answered by its decider with its default, until ``done(game)``."""
    for _ in range(500):
        game = await service.load(game_id)
        if done(game):
            return game
        prompt = next(p for p in game.prompts() if not p.answered)
        user = await service.seat_of(game_id, prompt.house)
        await service.execute(Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=user))
    raise AssertionError("the game never got there")


def member(table: Table, players: list[Any], user_id: int | None) -> Any:
    return next(p for p in players if p.id == user_id)


async def test_a_member_whose_house_became_a_vassal_sees_and_decides_nothing_of_it(table: Table) -> None:
    """P 1: the leaver's /game map is the public map, /game hand and /game vacation refuse, and /decide owes
    nothing; the vassal's decisions go to its liege."""
    fake = table.fake
    game_id, players = await vassal_game(table)
    seats = await table.service.seats(game_id)
    leaver_house = rules.player_houses((await table.service.load(game_id)).state)[1]
    leaver = member(table, players, seats[leaver_house])
    await table.service.execute(Vassalize(game_id=game_id, house=leaver_house, by=table.moderator.id))
    await answer_defaults_until(table.service, game_id, lambda g: leaver_house in g.state.vassals)
    await fake.wait_idle()

    shown = await (await fake.slash(leaver, table.channel, "game map")).wait_response(timeout=10)
    public = await (await fake.slash(table.moderator, table.channel, "game map")).wait_response(timeout=10)
    assert shown.attachments[0].data.startswith(b"\x89PNG")
    assert shown.attachments[0].data == public.attachments[0].data  # the public map, not the vassal's own
    hand = await (await fake.slash(leaver, table.channel, "game hand")).wait_response()
    assert "You do not play" in hand.content and "Hand:" not in hand.content
    away = await (await fake.slash(leaver, table.channel, "game vacation", days=2)).wait_response()
    assert "You do not play" in away.content
    assert await table.bot.deadlines.table.vacations(game_id) == {}
    owed = await (await fake.slash(leaver, table.channel, "decide")).wait_response(timeout=10)
    assert "owe no decision" in owed.content
    leaver.user.locale = "ru"
    hand_ru = await (await fake.slash(leaver, table.channel, "game hand")).wait_response()
    assert "Вы не играете" in hand_ru.content
    assert fake.failed_interactions == []


async def test_undoing_a_replace_gives_the_house_back_to_its_player(table: Table) -> None:
    """P 3: a moderator replaces a player, then undoes it: the house is the first player's again, his /decide
    works, and the replacement owes nothing."""
    fake = table.fake
    game_id = await start_game(table, 3)
    seats = await table.service.seats(game_id)
    first = table.players[0]
    house = next(h for h, u in seats.items() if u == first.id)
    newcomer = fake.add_member(table.guild, "newcomer")
    replaced = await fake.slash(table.moderator, table.channel, "mod replace", house=house, member=newcomer)
    await replaced.wait_reply(timeout=10)
    assert await table.service.seat_of(game_id, house) == newcomer.id
    version = (await table.service.row(game_id)).version

    ask = await (await fake.slash(table.moderator, table.channel, "mod undo")).wait_response(timeout=10)
    assert "a change of player" in ask.content
    await (await fake.click(table.moderator, ask, f"modundo:{game_id}:{version}")).wait_reply(timeout=10)
    await fake.wait_idle()
    assert await table.service.seat_of(game_id, house) == first.id
    assert (await table.service.seats(game_id))[house] == first.id

    form = await (await fake.slash(first, table.channel, "decide")).wait_response(timeout=10)
    receipt = await (await fake.click(first, form, form_control(form, game_id, house))).wait_reply(timeout=10)
    assert any("Recorded" in m.text() for m in receipt), [m.text() for m in receipt]
    nothing = await (await fake.slash(newcomer, table.channel, "decide")).wait_response(timeout=10)
    assert "owe no decision" in nothing.content
    assert fake.failed_interactions == []


async def test_a_lieges_vacation_holds_his_vassals_steps(table: Table) -> None:
    """P 6: while only a vassal's orders are awaited, its liege's /game vacation moves the deadline to the end of
    the vacation, as it does for his own decisions."""
    fake = table.fake
    game_id, players = await vassal_game(table)
    game = await answer_defaults_until(
        table.service, game_id, lambda g: [p.kind for p in g.prompts() if not p.answered] == ["vassal-orders"]
    )
    vassal = next(p.house for p in game.prompts() if not p.answered)
    liege = game.state.vassals[vassal]
    assert liege is not None
    commander = member(table, players, (await table.service.seats(game_id))[liege])
    before = await table.service.deadline(game_id)
    assert before is not None
    taken = await (await fake.slash(commander, table.channel, "game vacation", days=3)).wait_response()
    assert "Enjoy your vacation" in taken.content
    until, _ = (await table.bot.deadlines.table.vacations(game_id))[liege]
    after = await table.service.deadline(game_id)
    assert after is not None and after.due_at == pytest.approx(until, abs=1) and after.due_at > before.due_at
    assert fake.failed_interactions == []


async def test_game_map_says_when_the_image_queue_is_full(table: Table) -> None:
    """P 12: a full image queue is named in the member's language with a suggestion to try again, not "Something
    went wrong"."""
    fake = table.fake
    await start_game(table, 3)
    busy = ImagePool(workers=1, queue=0)  # a queue that takes nothing: every image is refused at once
    lobby = table.bot.get_cog("Lobby")
    drawing = lobby.images  # type: ignore[union-attr]
    lobby.images = busy  # type: ignore[union-attr]
    try:
        player = table.players[0]
        refused = await (await fake.slash(player, table.channel, "game map")).wait_response(timeout=10)
        assert "drawing many maps" in refused.content and "again" in refused.content
        assert "went wrong" not in refused.content and not refused.attachments
        player.user.locale = "ru"
        refused_ru = await (await fake.slash(player, table.channel, "game map")).wait_response(timeout=10)
        assert "рисует много карт" in refused_ru.content
    finally:
        lobby.images = drawing  # type: ignore[union-attr]
        busy.close()
    shown = await (await fake.slash(table.players[1], table.channel, "game map")).wait_response(timeout=10)
    assert shown.attachments[0].data.startswith(b"\x89PNG")
    assert fake.failed_interactions == []


async def test_the_undo_confirmation_names_a_gift_and_a_leaving_player_in_words(table: Table) -> None:
    """P 13: a gift reads "Arryn gave 2 Power to Stark" (in Russian with the plural agreed), a player leaving reads
    as such; never JSON."""
    fake = table.fake
    game_id, _ = await vassal_game(table)
    seats = await table.service.seats(game_id)
    giver, receiver = rules.player_houses((await table.service.load(game_id)).state)[:2]
    await table.service.execute(Gift(game_id=game_id, by=seats[giver], to=receiver, amount=2))
    await fake.wait_idle()
    giver_en, receiver_en = giver.title(), receiver.title()

    ask = await (await fake.slash(table.moderator, table.channel, "mod undo")).wait_response(timeout=10)
    assert f"{giver_en} gave 2 Power to {receiver_en}" in ask.content and "Gift of Power" in ask.content
    assert "{" not in ask.content and '"to"' not in ask.content
    table.moderator.user.locale = "ru"
    ask_ru = await (await fake.slash(table.moderator, table.channel, "mod undo")).wait_response(timeout=10)
    assert "передал дому" in ask_ru.content and "2 жетона власти" in ask_ru.content

    third = rules.player_houses((await table.service.load(game_id)).state)[2]
    await table.service.execute(Vassalize(game_id=game_id, house=third, by=table.moderator.id))
    table.moderator.user.locale = "en-US"
    ask = await (await fake.slash(table.moderator, table.channel, "mod undo")).wait_response(timeout=10)
    assert "leaves the game" in ask.content and "becomes a vassal" in ask.content and "A player leaves" in ask.content
    assert "{}" not in ask.content
    assert fake.failed_interactions == []


def test_a_version_implies_the_dms_of_the_decisions_it_opened_and_no_other() -> None:
    """P 5: what a version's publication sends is worked out from the versions before and after, so publishing it
    again after a crash re-sends no DM an earlier version sent: an answer that opens nothing implies no DM, the
    reveal implies the next decision's, a change of player the house's open one, a start every one."""
    start = new_game(3, seed=1)
    assert opened_by(Applied(1, "", "start", start, [])) is None
    houses = [p.house for p in start.prompts()]
    first = start.copy()
    events = first.act(houses[0], first.prompt_for(houses[0]).default)  # type: ignore[union-attr]
    assert opened_by(Applied(1, houses[0], "player", first, events, start)) == set()
    second = first.copy()
    second.act(houses[1], second.prompt_for(houses[1]).default)  # type: ignore[union-attr]
    revealed = second.copy()
    events = revealed.act(houses[2], revealed.prompt_for(houses[2]).default)  # type: ignore[union-attr]
    assert any(e["type"] == "orders-revealed" for e in events)
    assert opened_by(Applied(1, houses[2], "player", revealed, events, second)) == {p.house for p in revealed.prompts()}
    replaced = revealed.copy()
    events = replaced.set_seat(houses[0], "5")
    assert opened_by(Applied(1, houses[0], "moderator", replaced, events, revealed)) == {houses[0]}


async def test_after_an_undo_every_player_who_owes_a_decision_gets_a_fresh_form_and_old_ones_are_void(
    table: Table,
) -> None:
    """P 4: two players give orders, a moderator undoes the second: both players who now owe orders get a fresh
    decision DM, though the prompt has the same id as before; the form from before the undo is refused with the
    current one; the status and the map are posted again, and the line saying what was undone comes last."""
    fake = table.fake
    game_id = await start_game(table, 3)
    seats = await table.service.seats(game_id)
    house_of = {u: h for h, u in seats.items()}
    first, second, third = table.players[:3]
    dms = {p.id: await fake.wait_for_dm(p, timeout=10) for p in (first, second, third)}
    for p in (first, second):
        submit = form_control(dms[p.id], game_id, house_of[p.id])
        receipt = await (await fake.click(p, dms[p.id], submit)).wait_reply(timeout=10)
        assert any("Recorded" in m.text() for m in receipt)
    await fake.wait_idle()
    await table.bot.play.publisher.settled()
    version = (await table.service.row(game_id)).version
    old_prompt = (await table.service.load(game_id)).prompt_for(house_of[third.id])
    counts = {p.id: len(fake.dm_messages(p)) for p in (first, second, third)}
    mark = fake.mark()

    ask = await (await fake.slash(table.moderator, table.channel, "mod undo")).wait_response(timeout=10)
    await (await fake.click(table.moderator, ask, f"modundo:{game_id}:{version}")).wait_reply(timeout=10)
    await fake.wait_idle()
    await table.bot.play.publisher.settled()
    game = await table.service.load(game_id)
    assert game.version == version - 1 and not game.prompt_for(house_of[second.id]).answered  # type: ignore[union-attr]
    assert game.prompt_for(house_of[third.id]).id == old_prompt.id  # type: ignore[union-attr]
    # Everyone who owes orders now has a fresh DM; the one whose answer stands has none.
    assert len(fake.dm_messages(second)) == counts[second.id] + 1
    assert len(fake.dm_messages(third)) == counts[third.id] + 1
    assert len(fake.dm_messages(first)) == counts[first.id]

    # The third player's form from before the undo is void: pressing it shows the current form, records nothing.
    stale = await fake.click(third, dms[third.id], form_control(dms[third.id], game_id, house_of[third.id]))
    await stale.wait_reply(timeout=10)
    await fake.wait_until(lambda: bool(stale.followups), timeout=10)
    assert "out of date" in stale.followups[0].text()
    assert (await table.service.row(game_id)).version == version - 1
    fresh = fake.dm_messages(third)[-1]
    receipt = await (await fake.click(third, fresh, form_control(fresh, game_id, house_of[third.id]))).wait_reply(
        timeout=10
    )
    assert any("Recorded" in m.text() for m in receipt)

    # The channel: the map again, then the line saying what was undone.
    posted = [m for m in fake.visible_messages(table.moderator) if m.channel_id == table.channel.id and m.id > mark]
    images = [i for i, m in enumerate(posted) if m.attachments]
    undone = [i for i, m in enumerate(posted) if "undid the last answer" in m.content]
    assert images and undone and images[0] < undone[0], [m.content for m in posted]
    assert fake.failed_interactions == []


async def test_a_gift_confirmation_acts_once_belongs_to_its_house_and_survives_a_restart_of_its_view(
    table: Table,
) -> None:
    """P 2, 8, 10: pressing Give twice gives once; its state is in its custom id (no in-memory view needed), so it
    works after a restart; a confirmation asked for a house its member no longer plays is refused."""
    fake = table.fake
    game_id, players = await vassal_game(table)
    seats = await table.service.seats(game_id)
    giver, receiver = rules.player_houses((await table.service.load(game_id)).state)[:2]
    member_ = member(table, players, seats[giver])
    asked = await fake.slash(member_, table.channel, "gift", house=receiver, amount=2)
    question = (await asked.wait_reply())[-1]
    give = next(c["custom_id"] for row in question.components for c in row["components"] if c.get("style") == 4)
    assert give.startswith(f"gift:{game_id}:{giver}:{receiver}:2:{member_.id}:")
    power = (await table.service.load(game_id)).state.houses[giver].power

    first, second = await fake.click(member_, question, give), await fake.click(member_, question, give)
    await first.wait_ack(timeout=10)
    await second.wait_ack(timeout=10)
    await fake.wait_idle()
    game = await table.service.load(game_id)
    assert game.state.houses[giver].power == power - 2  # given once
    gifts = [a for a in await table.service.store.answers(game_id) if a.prompt_id == "gift"]
    assert len(gifts) == 1
    assert fake.failed_interactions == []

    # A fresh question, then the member's house goes to another member: pressing Give is refused.
    asked = await fake.slash(member_, table.channel, "gift", house=receiver, amount=1)
    question = (await asked.wait_reply())[-1]
    give = next(c["custom_id"] for row in question.components for c in row["components"] if c.get("style") == 4)
    newcomer = fake.add_member(table.guild, "newcomer")
    await table.service.execute(
        SetSeat(game_id=game_id, house=giver, user_id=newcomer.id, by=table.moderator.id, new=True)
    )
    refused = await fake.click(member_, question, give)
    replies = await refused.wait_reply(timeout=10)
    await fake.wait_until(lambda: bool(refused.followups), timeout=10)
    texts = [m.content for m in [*replies, *refused.followups]]
    assert any("do not play" in text or "no longer play" in text for text in texts), texts
    assert (await table.service.load(game_id)).state.houses[giver].power == power - 2
    assert fake.failed_interactions == []


async def test_a_gift_refused_during_a_bid_does_not_tell_the_receivers_hidden_power(table: Table) -> None:
    """P 9 (B-HIDDEN-02/03): while a bid is open every house's Power is hidden; a gift too large for the receiver's
    Power Pool is refused without the pool's size, which would give the receiver's Power away."""
    fake = table.fake
    game_id, players = await vassal_game(table)
    seats = await table.service.seats(game_id)
    giver, receiver = rules.player_houses((await table.service.load(game_id)).state)[:2]
    spec = {"round": 4, "start": {"clash": "iron_throne"}, "power": {giver: 10, receiver: 17}}
    await table.service.execute(Import(game_id=game_id, spec=spec, by=table.moderator.id))
    game = await table.service.load(game_id)
    assert rules.bid_open(game.state) and rules.power_in_pool(game.state, receiver) == 3
    member_ = member(table, players, seats[giver])
    refused = await (await fake.slash(member_, table.channel, "gift", house=receiver, amount=5)).wait_reply()
    texts = [m.content for m in refused]
    assert any("cannot take that many" in text for text in texts), texts
    assert not any("3" in text or "17" in text for text in texts), texts
    member_.user.locale = "ru"
    refused_ru = await (await fake.slash(member_, table.channel, "gift", house=receiver, amount=5)).wait_reply()
    assert any("нельзя передать столько" in m.content for m in refused_ru)
    assert (await table.service.load(game_id)).version == game.version
    assert fake.failed_interactions == []


async def test_a_seated_moderator_hands_over_another_house_only_with_its_players_agreement(table: Table) -> None:
    """P 7: the creator, who plays, cannot /mod replace another house on his own: nothing changes, and the house's
    player is asked in a DM; his Agree makes the change, audited in the channel. After two missed deadlines in a row
    no agreement is needed."""
    fake = table.fake
    game_id = await start_own_game(table)
    seats = await table.service.seats(game_id)
    creator = table.players[0]
    house = next(h for h, u in seats.items() if u == table.players[1].id)
    player = table.players[1]
    newcomer = fake.add_member(table.guild, "newcomer")
    version = (await table.service.row(game_id)).version
    await table.bot.play.publisher.settled()  # the start's decision DMs are out (a loaded machine sent one later)
    mark = fake.mark()

    asked = await (await fake.slash(creator, table.channel, "mod replace", house=house, member=newcomer)).wait_reply()
    assert any("agreement" in m.content for m in asked), [m.content for m in asked]
    assert await table.service.seat_of(game_id, house) == player.id
    assert (await table.service.row(game_id)).version == version
    request = await fake.wait_for_dm(player, since=mark, timeout=10)
    assert "Agree" in str(request.components) and house.title() in request.content
    agree = next(c["custom_id"] for row in request.components for c in row["components"])
    await (await fake.click(player, request, agree)).wait_reply(timeout=10)
    await fake.wait_idle()
    assert await table.service.seat_of(game_id, house) == newcomer.id
    # The audit line is a notice in the outbox, posted after the version's own posts.
    await fake.wait_until(
        lambda: any("agreement of the house" in m.content for m in fake.visible_messages(table.moderator)), timeout=10
    )

    # Another house, whose player missed two deadlines in a row: the creator may replace it at once.
    other = next(h for h, u in seats.items() if u == table.players[2].id)
    for _ in range(2):
        await table.bot.deadlines.table.record_missed(game_id, other)
    second = fake.add_member(table.guild, "second")
    done = await (await fake.slash(creator, table.channel, "mod replace", house=other, member=second)).wait_reply()
    assert not any("agreement" in m.content for m in done)
    assert await table.service.seat_of(game_id, other) == second.id
    creator.user.locale = "ru"
    refused = await (await fake.slash(creator, table.channel, "mod replace", house=house, member=second)).wait_reply()
    assert any("согласия" in m.content for m in refused), [m.content for m in refused]
    assert fake.failed_interactions == []


async def bids_open(
    table: Table, *, giver_power: int, receiver_power: int
) -> tuple[int, list[Any], dict[str, Any], str, str]:
    """A vassal game repaired into a Clash of Kings with every bid open; the first two players' houses, the one to
    give and the one to receive, hold the Power given. Its posts and DMs are out."""
    game_id, players = await vassal_game(table)
    seats = await table.service.seats(game_id)
    giver, receiver = rules.player_houses((await table.service.load(game_id)).state)[:2]
    spec = {"round": 4, "start": {"clash": "iron_throne"}, "power": {giver: giver_power, receiver: receiver_power}}
    await table.service.execute(Import(game_id=game_id, spec=spec, by=table.moderator.id))
    await table.fake.wait_idle()
    await table.bot.play.publisher.settled()
    return game_id, players, seats, giver, receiver


async def test_an_open_bid_form_is_drawn_again_when_a_gift_changes_its_range(table: Table) -> None:
    """P 11: during a bid, a gift changes what the giver and the receiver may bid: both players' open DM forms are
    edited to offer the new range and say the new total, marked as updated."""
    fake = table.fake
    game_id, players, seats, giver, receiver = await bids_open(table, giver_power=6, receiver_power=3)
    giving, receiving = member(table, players, seats[giver]), member(table, players, seats[receiver])

    def bid_form(player: Any) -> Any:
        return next(m for m in reversed(fake.dm_messages(player)) if f"dec:{game_id}:" in str(m.components))

    def top_option(message: Any) -> int:
        select = next(c for c in walk(message.components) if c.get("type") == 3)
        return max(int(o["value"]) for o in select["options"])

    assert top_option(bid_form(receiving)) == 3 and top_option(bid_form(giving)) == 6
    drawn_at = form_version(bid_form(receiving), game_id, receiver)
    await table.service.execute(Gift(game_id=game_id, by=giving.id, to=receiver, amount=2))
    await fake.wait_idle()
    await table.bot.play.publisher.settled()
    receiving_form, giving_form = bid_form(receiving), bid_form(giving)
    assert top_option(receiving_form) == 5 and "5 power tokens available" in receiving_form.text()
    assert "Updated" in receiving_form.text()
    # The redrawn form carries the gift's version, the one it was drawn again from.
    gift_version = (await table.service.row(game_id)).version
    assert drawn_at < gift_version == form_version(receiving_form, game_id, receiver)
    assert top_option(giving_form) == 4 and "4 power tokens available" in giving_form.text()
    # The redrawn form still answers: the receiver bids his new total.
    select = next(c for c in walk(receiving_form.components) if c.get("type") == 3)
    picked = await fake.select(receiving, receiving_form, select["custom_id"], ["5"])
    form = await picked.wait_response(timeout=10)
    receipt = await (await fake.click(receiving, form, form_control(form, game_id, receiver))).wait_reply(timeout=10)
    assert any("Recorded" in m.text() for m in receipt), [m.text() for m in receipt]
    assert fake.failed_interactions == []


async def test_pressing_start_or_undo_twice_acts_once(table: Table) -> None:
    """P 2: two presses of Start start one game (one start message, one set of decision DMs); two presses of the
    same Undo confirmation take back one entry."""
    fake = table.fake
    lobby = await (
        await fake.slash(table.moderator, table.channel, "game new", players=3, name="Twice")
    ).wait_response()
    for player in table.players[:3]:
        await (await fake.click(player, lobby, "lobby:1:join")).wait_response()
    first = await fake.click(table.moderator, lobby, "lobby:1:start", wait=False)
    second = await fake.click(table.moderator, lobby, "lobby:1:start", wait=False)
    await first.wait_reply(timeout=10)
    await second.wait_reply(timeout=10)
    await fake.wait_idle()
    await table.bot.play.publisher.settled()
    started = [m for m in fake.visible_messages(table.moderator) if "The game has started" in m.content]
    assert len(started) == 1, [m.content for m in started]  # the second press is told it already started
    for player in table.players[:3]:
        assert sum("dec:1:" in str(m.components) for m in fake.dm_messages(player)) == 1

    seats = await table.service.seats(1)
    for player in table.players[:2]:
        house = next(h for h, u in seats.items() if u == player.id)
        default = (await table.service.load(1)).prompt_for(house).default  # type: ignore[union-attr]
        await table.service.execute(Answer(game_id=1, house=house, answer=default, by=player.id))
    version = (await table.service.row(1)).version
    ask = await (await fake.slash(table.moderator, table.channel, "mod undo")).wait_response(timeout=10)
    presses = [await fake.click(table.moderator, ask, f"modundo:1:{version}", wait=False) for _ in range(2)]
    for press in presses:
        await press.wait_reply(timeout=10)
    await fake.wait_idle()
    assert (await table.service.row(1)).version == version - 1
    assert fake.failed_interactions == []


async def test_after_an_import_every_player_who_owes_a_decision_gets_a_fresh_form_and_old_ones_are_void(
    table: Table,
) -> None:
    """P 4: a moderator imports a position in which the same decisions are open (the same prompt ids): every
    player gets a fresh decision DM, and the form from before the import is refused with the current one."""
    fake = table.fake
    game_id = await start_game(table, 3)
    seats = await table.service.seats(game_id)
    house_of = {u: h for h, u in seats.items()}
    dms = {p.id: await fake.wait_for_dm(p, timeout=10) for p in table.players[:3]}
    await fake.wait_idle()
    await table.bot.play.publisher.settled()
    counts = {p.id: len(fake.dm_messages(p)) for p in table.players[:3]}
    first = table.players[0]
    old_id = (await table.service.load(game_id)).prompt_for(house_of[first.id]).id  # type: ignore[union-attr]

    scenario = json.dumps({"power": {house_of[first.id]: 9}}).encode()
    imported = await fake.slash(table.moderator, table.channel, "mod import", scenario=("s.json", scenario))
    await imported.wait_reply(timeout=10)
    await fake.wait_idle()
    await table.bot.play.publisher.settled()
    game = await table.service.load(game_id)
    assert game.state.houses[house_of[first.id]].power == 9
    for player in table.players[:3]:
        assert len(fake.dm_messages(player)) == counts[player.id] + 1
    stale = await fake.click(first, dms[first.id], form_control(dms[first.id], game_id, house_of[first.id]))
    await stale.wait_reply(timeout=10)
    await fake.wait_until(lambda: bool(stale.followups), timeout=10)
    assert "out of date" in stale.followups[0].text()
    assert (await table.service.row(game_id)).version == game.version
    assert game.prompt_for(house_of[first.id]).id == old_id  # type: ignore[union-attr]  # the same id, yet void
    assert fake.failed_interactions == []


async def test_a_form_that_cannot_be_drawn_again_is_void_after_a_gift_changes_its_choices(table: Table) -> None:
    """P 11 ("never applied to the new position"): an ephemeral /decide bid form cannot be edited by the bot; after a
    gift changes the bid's range, pressing it brings the current form instead of submitting picks made for the old
    range. Opening /decide also voids the DM form it replaces (one form is live)."""
    fake = table.fake
    game_id, players, seats, giver, receiver = await bids_open(table, giver_power=6, receiver_power=3)
    receiving = member(table, players, seats[receiver])
    dm_form = next(m for m in reversed(fake.dm_messages(receiving)) if f"dec:{game_id}:" in str(m.components))
    opened = await (await fake.slash(receiving, table.channel, "decide")).wait_response(timeout=10)
    version = (await table.service.row(game_id)).version

    await table.service.execute(Gift(game_id=game_id, by=seats[giver], to=receiver, amount=2))
    await fake.wait_idle()
    await table.bot.play.publisher.settled()
    stale = await fake.click(receiving, opened, form_control(opened, game_id, receiver))
    await stale.wait_reply(timeout=10)
    await fake.wait_until(lambda: bool(stale.followups), timeout=10)
    assert "out of date" in stale.followups[0].text() and "5 power tokens available" in stale.followups[0].text()
    assert (await table.service.row(game_id)).version == version + 1  # the gift only: no bid was recorded

    # The DM form was replaced by the one /decide opened: pressing it brings the current form, records nothing.
    replaced = await fake.click(receiving, dm_form, form_control(dm_form, game_id, receiver))
    await replaced.wait_reply(timeout=10)
    await fake.wait_until(lambda: bool(replaced.followups), timeout=10)
    assert "out of date" in replaced.followups[0].text()
    assert (await table.service.row(game_id)).version == version + 1
    assert fake.failed_interactions == []


# ----- a form carries the version it was built from -----


async def test_a_dm_form_kept_across_an_undo_and_another_answer_is_refused_and_applies_nothing(table: Table) -> None:
    """P ("a form carries the game version it was built from"), the attempt: a player keeps the DM form of his orders
    while another player's answer is undone and given otherwise. His Submit on the kept form is refused with a fresh
    form saying it is out of date, and nothing is recorded. An undo brings the version number back (his fresh DM
    carries the number the kept one does), so the forms the undo made void are refused for that too."""
    fake = table.fake
    game_id = await start_game(table, 3)
    house_of = {u: h for h, u in (await table.service.seats(game_id)).items()}
    first, _second, keeper = table.players[:3]
    dms = {p.id: await fake.wait_for_dm(p, timeout=10) for p in (first, keeper)}
    kept, mine = dms[keeper.id], house_of[keeper.id]
    built_at = form_version(kept, game_id, mine)
    await fake.wait_idle()

    # The first player answers; a moderator undoes it; the first player answers otherwise.
    answered = await fake.click(first, dms[first.id], form_control(dms[first.id], game_id, house_of[first.id]))
    assert any("Recorded" in m.text() for m in await answered.wait_reply(timeout=10))
    await fake.wait_idle()
    await table.bot.play.publisher.settled()
    version = (await table.service.row(game_id)).version
    mark = fake.mark()
    ask = await (await fake.slash(table.moderator, table.channel, "mod undo")).wait_response(timeout=10)
    await (await fake.click(table.moderator, ask, f"modundo:{game_id}:{version}")).wait_reply(timeout=10)
    await fake.wait_idle()
    await table.bot.play.publisher.settled()
    again = await fake.wait_for_dm(first, since=mark, timeout=10)
    fresh = await fake.wait_for_dm(keeper, since=mark, timeout=10)
    assert form_version(fresh, game_id, mine) == built_at  # the number came back with the position
    select_id, _chosen, other = first_select(again)
    picked = await (await fake.select(first, again, select_id, [other])).wait_response(timeout=10)
    answered = await fake.click(first, picked, form_control(picked, game_id, house_of[first.id]))
    assert any("Recorded" in m.text() for m in await answered.wait_reply(timeout=10))
    await fake.wait_idle()
    await table.bot.play.publisher.settled()
    before = await snapshot(table, game_id)
    assert before[1] == version  # a different position at the number of the undone one

    stale = await fake.click(keeper, kept, form_control(kept, game_id, mine))
    await stale.wait_reply(timeout=10)
    await fake.wait_until(lambda: bool(stale.followups), timeout=10)
    assert "out of date" in stale.followups[0].text()
    assert form_control(stale.followups[0], game_id, mine)  # the current form, to answer from
    await fake.wait_idle()
    assert await snapshot(table, game_id) == before  # nothing recorded, the version unchanged
    assert not (await table.service.load(game_id)).prompt_for(mine).answered  # type: ignore[union-attr]
    assert fake.failed_interactions == []


async def test_a_pick_on_a_form_older_than_the_live_one_is_refused_by_its_version(table: Table) -> None:
    """P: a player opens his orders with /decide, another player answers, and he opens them again. A pick on the
    first form is refused with a fresh form (out of date), and the first form is not drawn again with the live
    draft's picks. The void list is memory the bot bounds (a game may leave it): here it is forgotten, so the
    version in the pick's custom id is all that refuses it."""
    fake = table.fake
    game_id = await start_game(table, 3)
    house_of = {u: h for h, u in (await table.service.seats(game_id)).items()}
    player, other = table.players[:2]
    mine = house_of[player.id]
    other_dm = await fake.wait_for_dm(other, timeout=10)
    await fake.wait_idle()
    older = await (await fake.slash(player, table.channel, "decide")).wait_response(timeout=10)
    answered = await fake.click(other, other_dm, form_control(other_dm, game_id, house_of[other.id]))
    assert any("Recorded" in m.text() for m in await answered.wait_reply(timeout=10))
    await fake.wait_idle()
    await table.bot.play.publisher.settled()
    newer = await (await fake.slash(player, table.channel, "decide")).wait_response(timeout=10)
    version = (await table.service.row(game_id)).version
    assert form_version(older, game_id, mine) < form_version(newer, game_id, mine) == version
    shown_before = older.custom_ids(), json.dumps(older.components)
    table.bot.play.forms.void_forms.clear()

    select_id, _chosen, value = first_select(older)
    picked = await fake.select(player, older, select_id, [value])
    await picked.wait_reply(timeout=10)
    await fake.wait_until(lambda: bool(picked.followups), timeout=10)
    assert "out of date" in picked.followups[0].text()
    assert form_version(picked.followups[0], game_id, mine) == version
    assert (older.custom_ids(), json.dumps(older.components)) == shown_before  # not redrawn with the live draft
    assert (await table.service.row(game_id)).version == version
    assert fake.failed_interactions == []


async def test_a_form_posted_before_forms_carried_their_version_gets_the_current_one(table: Table) -> None:
    """P: a form sent before its custom ids carried a version (``dec:<game>:<house>:submit``) still reaches the bot
    after the upgrade, and is out of date: its Submit brings a fresh form, never submits the live draft's picks, and
    no interaction fails."""
    fake = table.fake
    game_id = await start_game(table, 3)
    player = table.players[0]
    mine = {u: h for h, u in (await table.service.seats(game_id)).items()}[player.id]
    await fake.wait_for_dm(player, timeout=10)  # the live form, with its draft
    await fake.wait_idle()
    await table.bot.play.publisher.settled()
    legacy = discord.ui.View(timeout=None)
    legacy.add_item(FormSelect(game_id, mine, None, 0))
    legacy.add_item(FormButton(game_id, mine, None, "submit", "Submit"))
    mark = fake.mark()
    await table.bot.play.dms.direct_message(player.id, "Orders (a form from before the upgrade)", legacy)
    old = await fake.wait_for_dm(player, since=mark, timeout=10)
    assert old.custom_ids() == [f"dec:{game_id}:{mine}:s:0", f"dec:{game_id}:{mine}:submit"]
    before = await snapshot(table, game_id)

    stale = await fake.click(player, old, f"dec:{game_id}:{mine}:submit")
    await stale.wait_reply(timeout=10)
    await fake.wait_until(lambda: bool(stale.followups), timeout=10)
    assert "out of date" in stale.followups[0].text()
    assert form_version(stale.followups[0], game_id, mine) == before[1]
    await fake.wait_idle()
    assert await snapshot(table, game_id) == before
    assert fake.failed_interactions == [] and fake.internal_errors == []
