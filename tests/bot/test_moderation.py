"""Moderator commands end to end: refused to players, audited in the channel, and effective."""

from __future__ import annotations

import asyncio
import json

from app.commands import Undo
from testing.forms import form_control
from tests.bot.conftest import Table
from tests.bot.test_lobby_and_orders import start_game


def channel_lines(table: Table) -> list[str]:
    return [m.content for m in table.fake.visible_messages(table.moderator) if m.channel_id == table.channel.id]


async def test_players_are_refused_and_moderators_audited(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    refused = await (await fake.slash(table.players[0], table.channel, "mod pause")).wait_response()
    assert "Only the game's creator" in refused.content
    assert (await table.service.row(game_id)).status == "running"
    await (await fake.slash(table.moderator, table.channel, "mod pause")).wait_response()
    assert (await table.service.row(game_id)).status == "paused"
    await fake.wait_until(lambda: any("paused the game" in line for line in channel_lines(table)))
    await (await fake.slash(table.moderator, table.channel, "mod resume")).wait_response()
    assert (await table.service.row(game_id)).status == "running"
    await (await fake.slash(table.moderator, table.channel, "mod extend", hours=6)).wait_response()
    await fake.wait_until(
        lambda: any("moved the deadline by +6 h" in line and "<t:" in line for line in channel_lines(table))
    )
    assert fake.failed_interactions == []


async def test_force_then_undo_with_confirmation(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    before = (await table.service.load(game_id)).to_json()
    # The first deadline is armed once the start is announced (the lobby's reply comes first): wait for it.
    deadlines = table.bot.deadlines
    assert deadlines is not None
    for _ in range(500):
        if await deadlines.table.get(game_id) is not None:
            break
        await asyncio.sleep(0.01)
    forced = await fake.slash(table.moderator, table.channel, "mod force")
    await forced.wait_response()
    await fake.wait_until(lambda: any("forced the deadline" in line for line in channel_lines(table)))
    game = await table.service.load(game_id)
    assert game.state.orders_revealed
    version = game.version
    ask = await (await fake.slash(table.moderator, table.channel, "mod undo")).wait_response()
    assert "Confirm" in ask.content
    assert ask.flags & 64  # only the moderator sees the confirmation
    confirmed = await fake.click(table.moderator, ask, f"modundo:{game_id}:{version}")
    await confirmed.wait_response()
    assert (await table.service.load(game_id)).version == version - 1
    # Undo three more times: back to the very start, exactly.
    for _ in range(version - 1):
        await table.service.execute(Undo(game_id=game_id))
    assert (await table.service.load(game_id)).to_json() == before
    assert fake.failed_interactions == []


async def test_replace_gives_the_house_and_its_decision_to_the_new_player(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    newcomer = table.players[5]
    stark_player = (await table.service.store.seats(game_id))["stark"]
    former = next(p for p in table.players if p.id == stark_player)
    former_dm = await fake.wait_for_dm(former)
    mark = fake.mark()
    await (
        await fake.slash(table.moderator, table.channel, "mod replace", house="stark", member=newcomer)
    ).wait_response()
    seats = await table.service.store.seats(game_id)
    assert seats["stark"] == newcomer.id
    dm = await fake.wait_for_dm(newcomer, since=mark)
    assert form_control(dm, game_id, "stark")
    game = await table.service.load(game_id)
    assert game.state.houses["stark"].seat == str(newcomer.id)
    # The form the former player still has in his DM answers for nobody now.
    refused = await fake.click(former, former_dm, form_control(former_dm, game_id, "stark"))
    assert any("Only the player seated" in m.content for m in await refused.wait_reply(timeout=10))
    recorded = await fake.click(newcomer, dm, form_control(dm, game_id, "stark"))
    assert "Recorded" in (await recorded.wait_response(timeout=10)).text()


async def test_export_is_a_json_file_for_the_moderator_only(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    reply = await (await fake.slash(table.moderator, table.channel, "mod export")).wait_response()
    payload = json.loads(reply.attachments[0].data)
    assert payload["game"]["id"] == game_id and payload["state"]["players"]
    assert reply.flags & 64  # ephemeral


async def test_deadlines_are_set_at_creation_and_changed_later(table: Table) -> None:
    fake = table.fake
    made = await fake.slash(
        table.moderator, table.channel, "game new", players=3, name="Timed", orders_hours=2, other_hours=1
    )
    lobby = await made.wait_response()
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    row = await table.service.row(game_id)
    assert row.settings["deadlines"]["orders"] == 7200 and row.settings["deadlines"]["other"] == 3600
    for p in table.players[:3]:
        await (await fake.click(p, lobby, f"lobby:{game_id}:join")).wait_response()
    await (await fake.click(table.moderator, lobby, f"lobby:{game_id}:start")).wait_response()
    await fake.wait_idle()
    deadline = await table.bot.deadlines.table.get(game_id)  # type: ignore[union-attr]
    assert deadline is not None and 7100 < deadline.due_at - deadline.opened_at <= 7200
    await (await fake.slash(table.moderator, table.channel, "mod deadlines", orders_hours=48)).wait_response()
    assert (await table.service.row(game_id)).settings["deadlines"]["orders"] == 48 * 3600
    await fake.wait_until(lambda: any("changed the deadlines: orders 48 h" in line for line in channel_lines(table)))


async def test_daily_deadline_and_vacation_on_discord(table: Table) -> None:
    fake = table.fake
    bad = await (
        await fake.slash(table.moderator, table.channel, "game new", players=3, daily_at="25:99")
    ).wait_response()
    assert "not a time of day" in bad.content
    bad_tz = await (
        await fake.slash(
            table.moderator, table.channel, "game new", players=3, daily_at="20:00", timezone="Mars/Olympus"
        )
    ).wait_response()
    assert "not a time zone" in bad_tz.content
    made = await fake.slash(
        table.moderator, table.channel, "game new", players=3, daily_at="20:00", timezone="Europe/Moscow"
    )
    lobby = await made.wait_response()
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    for p in table.players[:3]:
        await (await fake.click(p, lobby, f"lobby:{game_id}:join")).wait_response()
    await (await fake.click(table.moderator, lobby, f"lobby:{game_id}:start")).wait_response()
    await fake.wait_idle()
    from datetime import datetime
    from zoneinfo import ZoneInfo

    row = await table.bot.deadlines.table.get(game_id)  # type: ignore[union-attr]
    local = datetime.fromtimestamp(row.due_at, tz=ZoneInfo("Europe/Moscow"))  # type: ignore[union-attr]
    assert (local.hour, local.minute) == (20, 0)
    player = table.players[0]
    reply = await (await fake.slash(player, table.channel, "game vacation", days=3)).wait_response()
    assert "Enjoy your vacation" in reply.content
    assert (await table.bot.deadlines.table.get(game_id)).due_at > row.due_at  # type: ignore[union-attr]
    again = await (await fake.slash(player, table.channel, "game vacation", days=7)).wait_response()
    assert "more vacation than this game allows: 4 days left" in again.content  # a plural form (issue J)
