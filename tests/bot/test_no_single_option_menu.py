"""Issue V, item 4, through the fake Discord: a march form shows no menu of one option. Its only origin and "no" to
leaving a Power token while a unit stays behind are lines; once every unit marches off, the Power token is a menu of
no and yes, and the march with the token left submits."""

from __future__ import annotations

import pytest

from app.commands import Import
from app.labels import area_label
from i18n import t
from testing.fake_discord import StoredMessage
from testing.fake_discord.components import SELECT_TYPES, walk
from testing.forms import form_control
from testing.phone import as_phone, menus
from tests.bot.conftest import Table
from tests.bot.test_form_layout import dm_form, pick, settled
from tests.bot.test_lobby_and_orders import start_game

pytestmark = pytest.mark.slow


def menu_sizes(form: StoredMessage) -> list[int]:
    """How many options each menu of the message offers."""
    return [len(c.get("options", [])) for c in walk(form.components) if c.get("type") in SELECT_TYPES]


async def test_a_march_leaving_a_unit_behind_shows_no_menu_of_one_option(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    seats = await table.service.seats(game_id)
    player = next(p for p in table.players if p.id == seats["lannister"])
    spec = {
        "players": 3,
        "units": {
            "riverrun": "lannister knight footman",
            "winterfell": "stark footman",
            "dragonstone": "baratheon footman",
        },
        "orders": {"riverrun": "march0"},
        "start": "march",
    }
    await table.service.execute(Import(game_id=game_id, spec=spec, by=table.moderator.id))
    await settled(table)
    form = dm_form(table, player, game_id, "lannister")
    phone = as_phone(form)
    riverrun = area_label("riverrun", "en")

    # One origin and no Power token while the units stay: lines saying so, and menus only for the units.
    assert f"{t('decision.march.from', 'en')}: {riverrun}" in phone
    question = t("decision.march.leave_power", "en")
    assert f"{question} {t('decision.march.leave_power.stays', 'en')}" in phone
    assert [label for label, _ in menus(form)] == [
        t("decision.march.unit", "en", unit=unit, n=1, area=riverrun) for unit in ("Footman", "Knight")
    ]
    assert menu_sizes(form) and min(menu_sizes(form)) >= 2
    assert "[Submit]" in phone

    # Both units march off: leaving a Power token is a choice now, a menu of no and yes.
    await pick(table, player, form, game_id, "lannister", 1, "stoney-sept")
    phone = await pick(table, player, form, game_id, "lannister", 2, "stoney-sept")
    assert (question, f"[▼ {t('no', 'en')}]") in menus(form)
    assert t("decision.march.leave_power.stays", "en") not in phone
    assert min(menu_sizes(form)) >= 2
    phone = await pick(table, player, form, game_id, "lannister", 3, "yes")
    assert "[Submit]" in phone
    receipt = await (await fake.click(player, form, form_control(form, game_id, "lannister"))).wait_response(timeout=10)
    assert "Recorded" in as_phone(receipt)
    game = await table.service.load(game_id)
    assert game.state.power_tokens.get("riverrun") == "lannister"
    assert fake.failed_interactions == [] and fake.internal_errors == []
