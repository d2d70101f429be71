"""Mother of Dragons through Discord (issue M1): a 7-player game from the lobby to its end, and /gift.

Other player counts with the expansion are refused with a clear sentence until vassals exist.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import rules
from tests.bot.conftest import Table
from tests.bot.test_full_game import answer_every_decision
from tests.bot.test_lobby_and_orders import start_game

pytestmark = pytest.mark.slow


async def seven_player_game(table: Table) -> tuple[int, list[Any]]:
    fake = table.fake
    players = [*table.players, fake.add_member(table.guild, "p6")]
    made = await fake.slash(
        table.moderator, table.channel, "game new", players=7, ruleset="mother-of-dragons", name="Dragons"
    )
    lobby = await made.wait_response()
    for player in players:
        click = await fake.click(player, lobby, "lobby:1:join")
        await click.wait_response()
    start = await fake.click(table.moderator, lobby, "lobby:1:start")
    started = await start.wait_response()
    assert "started" in started.content
    return 1, players


async def test_the_expansion_refuses_player_counts_it_cannot_seat_yet(table: Table) -> None:
    fake = table.fake
    asked = await fake.slash(table.moderator, table.channel, "game new", players=6, ruleset="mother-of-dragons")
    replies = await asked.wait_reply()
    assert any("7 players" in m.content and m.flags & 64 for m in replies)
    assert await table.service.game_in(table.channel.id) is None  # nothing was created


async def test_a_seven_player_game_and_a_gift_of_power(table: Table) -> None:
    fake = table.fake
    game_id, players = await seven_player_game(table)
    game = await table.service.load(game_id)
    assert game.state.options["ruleset"] == "mother-of-dragons" and "arryn" in game.state.players
    assert len(rules.board(game.state).areas) == 61
    seats = await table.service.seats(game_id)
    by_house = {h: next(p for p in players if p.id == u) for h, u in seats.items()}

    # Arryn gives 2 Power to Stark, after a confirmation only the giver may press.
    asked = await fake.slash(by_house["arryn"], table.channel, "gift", house="stark", amount=2)
    question = (await asked.wait_reply())[-1]
    assert "Stark" in question.content and question.flags & 64
    confirm = next(c["custom_id"] for row in question.components for c in row["components"] if c.get("style") == 4)
    done = await fake.click(by_house["arryn"], question, confirm)
    await done.wait_ack(timeout=10)
    await fake.wait_until(
        lambda: any(m.content == "Arryn gives 2 Power to Stark." for m in fake.visible_messages(table.moderator)),
        timeout=10,
    )
    game = await table.service.load(game_id)
    assert (game.state.houses["arryn"].power, game.state.houses["stark"].power) == (5, 9)

    # Then the whole game, every decision taken from the forms.
    await answer_every_decision(table, game_id, players, seed=7)
    channel = [m.content for m in fake.visible_messages(table.moderator) if m.channel_id == table.channel.id]
    assert any("The game is over" in line for line in channel)
    final = await table.service.load(game_id)
    assert final.finished and (final.state.round == 10 or final.state.ended_reason == "seven-castles")
    assert final.version > 100  # every decision of the game came through the forms
    assert fake.failed_interactions == [] and fake.internal_errors == []
    maps = [
        a.data
        for m in fake.visible_messages(table.moderator)
        if m.channel_id == table.channel.id
        for a in m.attachments
        if a.filename.endswith(".png")
    ]
    assert maps and all(png.startswith(b"\x89PNG") for png in maps)  # the 7-house board is drawn and posted


async def test_a_gift_in_a_base_game_is_refused_in_the_players_language(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    seats = await table.service.seats(game_id)
    giver = next(p for p in table.players if p.id == seats["stark"])
    before = (await table.service.load(game_id)).to_json()
    asked = await fake.slash(giver, table.channel, "gift", house="lannister", amount=1, locale="ru")
    replies = await asked.wait_reply()  # refused at once: no question to confirm
    assert any("«Мать драконов»" in m.content and not m.components for m in replies)
    assert (await table.service.load(game_id)).to_json() == before
