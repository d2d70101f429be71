"""Issue U, fault 9: a Russian game's channel declines the names in its lines, through the fake Discord. A seeded
three-player game in Russian is played by the engine's agents until a battle has been fought and lost units; the
channel then reads «Битва за Каменную Септу» and «Ланнистер теряет 1 рыцаря в Каменной Септе», never the nominative
where the sentence needs another case («Битва за Каменная Септа», «теряет 1 рыцарь»)."""

from __future__ import annotations

from typing import Any

import pytest

from app.labels import house_name
from engine.agents import HeuristicAgent
from i18n import area_forms, unit_forms
from tests.bot.conftest import Table
from tests.bot.test_images import GAME_SEED, answer_one

pytestmark = pytest.mark.slow


def fought(events: dict[int, list[dict[str, Any]]]) -> bool:
    kinds = [e for evs in events.values() for e in evs]
    return any(e["type"] == "combat-result" for e in kinds) and any(
        e["type"] == "units-destroyed" and e.get("units") for e in kinds
    )


async def play_until_a_battle_has_losses(table: Table, game_id: int) -> dict[int, list[dict[str, Any]]]:
    """Every decision answered through the service by the heuristic agents (the default when refused), until the
    log holds a battle and a loss of units."""
    service = table.service
    agents: dict[str, HeuristicAgent] = {}
    for step in range(3000):
        if step % 10 == 0:
            events = await service.store.events_by_version(game_id)
            if fought(events):
                return events
        game = await service.load(game_id)
        assert not game.finished and await answer_one(service, game_id, game, agents, 5), (
            "the game ended without a battle that cost units"
        )
    raise AssertionError("no battle in 3000 answers")


async def test_a_russian_channel_declines_areas_and_units_in_battle_and_loss_lines(table: Table) -> None:
    fake = table.fake
    made = await fake.slash(table.moderator, table.channel, "game new", players=3, language="ru", name="Склонения")
    lobby = await made.wait_response()
    for player in table.players[:3]:
        await (await fake.click(player, lobby, "lobby:1:join")).wait_response()
    row = await table.service.row(1)
    await table.service.store.update_settings(1, {**row.settings, "seed": GAME_SEED})
    await (await fake.click(table.moderator, lobby, "lobby:1:start")).wait_response()
    events = await play_until_a_battle_has_losses(table, 1)
    await table.bot.play.publisher.settled()
    await fake.wait_idle(quiet=0.5, timeout=60)

    # What a member reads: the channel and any thread of it (the moderator plays no house, so no DM is his).
    text = "\n".join(m.content for m in fake.visible_messages(table.moderator) if not m.ephemeral)
    logged = [e for evs in events.values() for e in evs]
    battles = [e for e in logged if e["type"] == "combat-result"]
    losses = [e for e in logged if e["type"] == "units-destroyed" and e.get("units")]
    assert battles and losses
    for battle in battles:
        forms = area_forms(battle["area"], "ru")
        assert f"Битва за {forms['acc']}:" in text, forms["acc"]
        if forms["acc"] != forms["nom"]:
            assert f"Битва за {forms['nom']}" not in text
    for loss in losses:
        forms = area_forms(loss["area"], "ru")
        units: dict[str, int] = {}
        for unit in loss["units"]:
            units[unit] = units.get(unit, 0) + 1
        counted = ", ".join(unit_forms(u, "ru", n)["acc"] for u, n in units.items())
        line = f"{house_name(loss['house'], 'ru')} теряет {counted} {forms['in']}"
        assert line in text, line
    # No line leaves a name in the nominative after the old workaround's «в области …».
    assert "в области " not in text and "теряет в" not in text
