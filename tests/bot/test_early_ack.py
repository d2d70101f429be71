"""Decide and Submit clicks are acknowledged as their gateway events are read (app/early_ack.py), and when
that early acknowledgement fails, the click is acknowledged the usual way: never twice, never not at all."""

from __future__ import annotations

import asyncio
from typing import Any

from app.early_ack import CallbackPool
from tests.bot.conftest import Table
from tests.bot.test_lobby_and_orders import start_game

CALLBACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"


async def decide_and_submit(table: Table, game_id: int, house: str, player: Any) -> str:
    fake = table.fake
    dm = await fake.wait_for_dm(player, timeout=10)  # the decision's DM
    opened = await fake.click(player, dm, f"decide:{game_id}:{house}")
    form = await opened.wait_response(timeout=10)
    submitted = await fake.click(player, form, f"dec:{game_id}:{house}:submit")
    receipt = await submitted.wait_response(timeout=10)
    await fake.wait_idle(timeout=10)
    return receipt.content


async def seated(table: Table, game_id: int) -> tuple[str, Any]:
    seats = await table.service.store.seats(game_id)
    house, user = next(iter(seats.items()))
    return house, next(p for p in table.players if p.id == user)


async def test_decide_and_submit_are_acknowledged_once_from_the_gateway(table: Table) -> None:
    game_id = await start_game(table, 3)
    house, player = await seated(table, game_id)
    early = table.bot.early_acks
    assert early.pool is not None  # the hook is installed on the real discord.py
    sent_before, callbacks_before = early.sent, table.fake.requests.count(CALLBACK)
    receipt = await decide_and_submit(table, game_id, house, player)
    assert "Recorded" in receipt
    assert early.sent - sent_before == 2 and early.fell_back == 0
    # One callback per click: the handler saw the early acknowledgement and did not defer again.
    assert table.fake.requests.count(CALLBACK) - callbacks_before == 2
    assert table.fake.failed_interactions == []
    assert [a.house for a in await table.service.store.answers(game_id) if a.source == "player"] == [house]


async def test_a_failed_early_acknowledgement_falls_back_to_deferring(table: Table) -> None:
    game_id = await start_game(table, 3)
    house, player = await seated(table, game_id)
    early = table.bot.early_acks
    rule = table.fake.faults.server_error(CALLBACK, times=1, status=503)  # the early POST of Decide fails
    receipt = await decide_and_submit(table, game_id, house, player)
    assert rule.hits == 1 and early.fell_back == 1
    assert "Recorded" in receipt
    assert table.fake.failed_interactions == []
    assert [a.house for a in await table.service.store.answers(game_id) if a.source == "player"] == [house]


class LosesResponses(CallbackPool):
    """The acknowledgement reaches Discord, but its response is lost on the way back."""

    def post(self, path: str, body: bytes) -> asyncio.Future[int]:
        delivered = super().post(path, body)
        lost: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        delivered.add_done_callback(lambda _: lost.set_exception(ConnectionError("response lost")))
        return lost


async def test_an_acknowledgement_whose_response_was_lost_is_not_sent_twice(table: Table) -> None:
    game_id = await start_game(table, 3)
    house, player = await seated(table, game_id)
    early = table.bot.early_acks
    assert early.pool is not None
    pool = early.pool
    early.pool = LosesResponses(f"http://{pool.host}:{pool.port}{pool.prefix}", user_agent=pool.user_agent)
    receipt = await decide_and_submit(table, game_id, house, player)
    # Both fallbacks tried to defer, Discord said "already acknowledged" (40060), and that was enough.
    assert early.fell_back == 2
    assert "Recorded" in receipt
    assert table.fake.failed_interactions == []
    early.pool.close()
