"""Issue X: a version whose publication an earlier try began is no quiet version, even when a try of it finds nothing
left to send. A quiet version (a secret step) keeps its outbox row until its game's next told version takes it out;
one an earlier try told in the channel and then stopped (a worker killed after the channel part, or cut off from the
publish lease before its end) must take its row out when a try of it ends, or the row waits for the game's next
answer, and with it the drain's look at it at every turn of the lock. The drain is the publishing worker's
(``cogs/pump.py``), run here in the one process against the fake Discord."""

from __future__ import annotations

from testing.forms import form_control
from testing.phone import every_text
from tests.bot.conftest import Table
from tests.bot.test_lobby_and_orders import start_game


async def test_X_a_version_an_earlier_try_told_in_the_channel_leaves_the_outbox_though_this_try_sends_nothing(
    table: Table,
) -> None:
    fake, store = table.fake, table.service.store
    game_id = await start_game(table, 3)
    seats = await store.seats(game_id)
    player = table.players[0]
    house = next(h for h, u in seats.items() if u == player.id)
    dm = await fake.wait_for_dm(player, timeout=30)
    await fake.wait_idle(quiet=0.5, timeout=30)
    publisher = table.bot.play.publisher

    # One house's orders: a secret step, published quietly; its row waits for the game's next told version.
    submitted = await fake.click(player, dm, form_control(dm, game_id, house))
    await fake.world.wait_until(
        lambda: bool(submitted.response and any("Recorded" in t for t in every_text(submitted.response))),
        30,
        "the receipt",
    )
    await publisher.settled()
    row = await store.game(game_id)
    assert row is not None
    quiet = row.version
    assert [sent for g, v, _kind, sent, _at in await store.unpublished() if (g, v) == (game_id, quiet)] == [frozenset()]

    # An earlier try of it had told the channel, then stopped before its end.
    await store.published_part(game_id, quiet, "channel")
    await fake.wait_idle(quiet=0.5, timeout=30)
    requests = len(fake.requests.records)
    await publisher.drain(at_start=False)
    await publisher.settled()

    assert not [v for g, v, *_ in await store.unpublished() if g == game_id and v <= quiet]
    assert len(fake.requests.records) == requests  # nothing sent again: the channel part was out, no DM is opened
    assert fake.failed_interactions == []
