"""The AI thinks off the event loop (issue 42): while it works out an AI seat's orders for seconds, a member of another
game opens his decision, submits it and gets his receipt, and the AI's answers arrive after, by themselves.

Nothing here is timed against a bound: the proof is the order of events. The AI's budget is set high (its work
allowance makes each of its searched decisions take about a second of CPU or more), so that it is still thinking
when the other game's whole answer has gone through; were the AI on the event loop, the member's interaction could
not be acknowledged before the AI's thought ended."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time

from app.store import Source
from tests.bot.conftest import Table
from tests.bot.test_full_game import answer_once

THINKING_BUDGET_MS = 8000  # the AI thinks seconds for each search (its work allowance), not milliseconds
GIVE_UP_S = 180.0  # a bound for a stuck game, not a time the test measures


async def test_a_member_of_another_game_answers_while_the_ai_thinks(table: Table) -> None:
    fake = table.fake
    # The AI's game: one member, two AI seats, a budget that keeps the AI busy for seconds.
    made = await fake.slash(table.moderator, table.channel, "game new", players=3, name="Bots", ai_seats=2)
    lobby = await made.wait_response()
    await (await fake.click(table.players[0], lobby, "lobby:1:join")).wait_reply()
    row = await table.service.row(1)
    await table.service.store.update_settings(1, {**row.settings, "ai_budget_ms": THINKING_BUDGET_MS})
    # The members' game, in a channel of its own, ready before the AI's starts.
    other = fake.add_text_channel(table.guild, "members")
    members = table.players[3:6]
    made = await fake.slash(table.moderator, other, "game new", players=3, name="Members")
    lobby_2 = await made.wait_response()
    for member in members:
        await (await fake.click(member, lobby_2, "lobby:2:join")).wait_reply()
    await (await fake.click(table.moderator, lobby_2, "lobby:2:start")).wait_response()

    assert table.bot.ai is not None
    await (await fake.click(table.moderator, lobby, "lobby:1:start")).wait_response()
    give_up = time.monotonic() + GIVE_UP_S
    while not table.bot.ai.busy:
        assert time.monotonic() < give_up, "the AI never started thinking"
        await asyncio.sleep(0.01)

    # While the AI thinks: a member of the other game opens his decision and submits it, and is told.
    members_table = dataclasses.replace(table, channel=other)
    assert await answer_once(members_table, members[0], random.Random(1), use_defaults=True) == "ok"
    assert table.bot.ai.busy, "the AI finished before the member's answer went through: the test proves nothing"
    assert not [a for a in await table.service.store.answers(1) if a.source == Source.AI]
    assert members[0].id in [a.user_id for a in await table.service.store.answers(2)]

    # The AI's answers then arrive by themselves, one per AI seat's orders.
    while len([a for a in await table.service.store.answers(1) if a.source == Source.AI]) < 2:
        assert time.monotonic() < give_up, "the AI did not answer"
        await asyncio.sleep(0.05)
    await table.bot.ai.settled()
    assert fake.failed_interactions == [] and fake.internal_errors == []
