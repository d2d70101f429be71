"""End to end through the fake Discord: a lobby, decisions by DM, receipts, the reveal in the channel."""

from __future__ import annotations

from tests.bot.conftest import Table


async def start_game(table: Table, players: int) -> int:
    fake = table.fake
    made = await fake.slash(table.moderator, table.channel, "game new", players=players, name="Test")
    lobby = await made.wait_response()
    for player in table.players[:players]:
        click = await fake.click(player, lobby, "lobby:1:join")
        await click.wait_response()
    stranger_start = await fake.click(table.players[0], lobby, "lobby:1:start")
    refused = await stranger_start.wait_response()
    assert "creator" in refused.content or "moderator" in refused.content
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
        assert "Test" in dm.content and "Orders" in dm.content
        assert "<t:" in dm.content  # the deadline as a Discord timestamp, in each reader's time zone
        opened = await fake.click(player, dm, f"decide:{game_id}:{by_user[player.id]}")
        form = await opened.wait_response()
        assert "Orders" in form.content
        submitted = await fake.click(player, form, f"dec:{game_id}:{by_user[player.id]}:submit")
        receipt = await submitted.wait_response()
        assert "Recorded" in receipt.content
    await fake.wait_until(
        lambda: any("Orders are revealed" in m.content for m in fake.visible_messages(table.moderator))
    )
    assert fake.failed_interactions == []
    assert fake.unsupported_requests == [] and fake.internal_errors == []
