"""A liege replaced while his vassal is asked (issue V, item 3): the vassal's decision changes hands with the liege's
house, so its DM reaches the newcomer, who answers it there; the former liege's form answers for nobody."""

from __future__ import annotations

import random

import pytest

from testing.forms import form_control, form_controls
from tests.bot.conftest import Table
from tests.bot.test_full_game import answer_once
from tests.bot.test_mother_of_dragons import vassal_game

pytestmark = pytest.mark.slow


async def test_a_replaced_liege_hands_his_vassals_open_decision_to_the_newcomer_by_dm(table: Table) -> None:
    fake = table.fake
    game_id, players = await vassal_game(table)
    seats = await table.service.seats(game_id)
    by_house = {h: next(p for p in players if p.id == u) for h, u in seats.items()}
    rnd = random.Random(4)

    # Players answer (the claim first) until a vassal's orders are asked of its liege.
    for _ in range(40):
        game = await table.service.load(game_id)
        vassal_prompt = next((p for p in game.prompts() if p.house in game.state.vassals), None)
        if vassal_prompt is not None:
            break
        for player in players:
            await answer_once(table, player, rnd, use_defaults=True)
    assert vassal_prompt is not None
    vassal = vassal_prompt.house
    liege = game.state.vassals[vassal]
    assert liege is not None
    former = by_house[liege]
    await fake.wait_until(
        lambda: any("submit" in form_controls(m, game_id, vassal) for m in fake.dm_messages(former)), timeout=10
    )
    former_dm = next(m for m in reversed(fake.dm_messages(former)) if "submit" in form_controls(m, game_id, vassal))

    newcomer = table.players[5]
    replaced = await fake.slash(table.moderator, table.channel, "mod replace", house=liege, member=newcomer)
    await replaced.wait_response()
    assert await table.service.seat_of(game_id, vassal) == newcomer.id

    # The vassal's decision reaches the newcomer's DM with its form, naming the vassal, and he answers it there.
    def vassal_form() -> object:
        return next(
            (m for m in fake.dm_messages(newcomer) if "submit" in form_controls(m, game_id, vassal)),
            None,
        )

    await fake.wait_until(vassal_form, timeout=10, what="the vassal's decision DM to the new liege")
    dm = next(m for m in fake.dm_messages(newcomer) if "submit" in form_controls(m, game_id, vassal))
    assert "for your vassal" in dm.text()

    # The form the former liege still holds answers for nobody now; the newcomer's does.
    refused = await fake.click(former, former_dm, form_control(former_dm, game_id, vassal))
    assert any("Only the player seated" in m.content for m in await refused.wait_reply(timeout=10))
    recorded = await fake.click(newcomer, dm, form_control(dm, game_id, vassal))
    assert "Recorded" in (await recorded.wait_response(timeout=10)).text()
    assert (await table.service.load(game_id)).prompt_for(vassal) is None
    assert fake.failed_interactions == [] and fake.internal_errors == []
