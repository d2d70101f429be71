"""The language Discord reports at a member's interactions is remembered for the DMs the bot sends him unasked: from a
click on his form (the form's own handler acknowledges it first, then the language is kept) and from a command, but
not from ``/privacy``, which asks what is kept without adding to it."""

from __future__ import annotations

import asyncio
from typing import Any

from testing.forms import form_control
from tests.bot.conftest import Table
from tests.bot.test_lobby_and_orders import start_game


async def remembered(table: Table, user_id: int, locale: str) -> bool:
    """Whether ``locale`` is the member's remembered language within a few seconds (it is kept after the reply)."""
    for _ in range(100):
        if await table.service.store.locale(user_id) == locale:
            return True
        await asyncio.sleep(0.05)
    return False


async def test_the_language_of_a_form_click_and_of_a_command_is_remembered_but_not_of_privacy(table: Table) -> None:
    fake = table.fake
    mark = fake.mark()
    game_id = await start_game(table, 3)
    player: Any = table.players[0]
    house = next(h for h, u in (await table.service.store.seats(game_id)).items() if u == player.id)
    assert await table.service.store.locale(player.id) == "en-US"  # as he joined

    player.user.locale = "ru"  # he switches Discord to Russian, then submits from his DM's form
    dm = await fake.wait_for_dm(player, since=mark)
    receipt = await (await fake.click(player, dm, form_control(dm, game_id, house))).wait_response()
    assert "Принято" in receipt.text()  # told in the language of the click
    assert await remembered(table, player.id, "ru")

    player.user.locale = "en-GB"  # and back, then a command that is not a form's
    await (await fake.slash(player, table.channel, "decide")).wait_reply()
    assert await remembered(table, player.id, "en-GB")

    player.user.locale = "uk"
    await (await fake.slash(player, table.channel, "privacy show")).wait_response()
    await asyncio.sleep(0.3)
    assert await table.service.store.locale(player.id) == "en-GB"  # asking what is kept kept nothing new
    assert fake.failed_interactions == []
