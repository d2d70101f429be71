"""Issue V, item 1, as the player lives it: in the Consolidate Power step a house holding both a Consolidate Power and
an Iron Bank order chooses which it resolves first (B-CP-01, 002:1836-1846; M-SEAORD-03, M-BANK-01, 003:505). The
question reaches its player's DM in his language, saying where each order lies, with a menu of the two; choosing the
Iron Bank takes the only loan before the next house can."""

from __future__ import annotations

import pytest

from app.commands import Import, PickHouse
from testing.fake_discord.components import walk
from testing.forms import form_control
from testing.phone import as_phone
from tests.bot.conftest import Table
from tests.bot.test_form_layout import dm_form, settled

pytestmark = pytest.mark.slow

VASSALS = ["greyjoy", "tyrell", "martell", "arryn"]
LOAN_RACE = {  # tests/engine_mod/test_iron_bank.py's loan_race, as a moderator imports it
    "players": ["stark", "lannister", "baratheon", "targaryen"],
    "options": {"ruleset": "mother-of-dragons"},
    "garrisons": {},
    "neutral": {},
    "round": 9,
    "start": "consolidate",
    "power": {"lannister": 3, "stark": 3, "baratheon": 3},
    "orders": {
        "dragonstone": "consolidate",
        "lannisport": "consolidate",
        "the-golden-sound": "sea-iron-bank",
        "bay-of-ice": "sea-iron-bank",
    },
    "units": {
        "winterfell": "stark footman",
        "bay-of-ice": "stark ship",
        "dragonstone": "baratheon footman",
        "lannisport": "lannister footman",
        "the-golden-sound": "lannister ship",
    },
    "bank": {"slots": ["customs-officer", None, None]},
    "tracks": {
        "iron_throne": ["baratheon", "lannister", "stark", *VASSALS, "targaryen"],
        "fiefdoms": ["lannister", "baratheon", "stark", *VASSALS, "targaryen"],
        "kings_court": ["baratheon", "stark", "lannister", *VASSALS, "targaryen"],
    },
}


@pytest.mark.parametrize("locale", ["en-US", "ru"])
async def test_B_CP_01_M_SEAORD_03_a_player_chooses_the_iron_bank_first_from_his_dm(table: Table, locale: str) -> None:
    fake, service = table.fake, table.service
    players = [fake.add_member(table.guild, f"cp{i}", locale=locale) for i in range(4)]
    made = await fake.slash(table.moderator, table.channel, "game new", players=4, ruleset="mother-of-dragons")
    lobby = await made.wait_response()
    for player in players:
        await (await fake.click(player, lobby, "lobby:1:join")).wait_response()
    game_id = 1
    for player, house in zip(players, LOAN_RACE["players"], strict=True):
        await service.execute(PickHouse(game_id=game_id, by=player.id, house=house))
    await (await fake.click(table.moderator, lobby, "lobby:1:start")).wait_response(timeout=15)
    await service.execute(Import(game_id=game_id, by=table.moderator.id, spec=LOAN_RACE))
    await settled(table)

    lannister = players[1]
    form = dm_form(table, lannister, game_id, "lannister")
    shown = as_phone(form)
    words = {
        "en-US": ("Lannisport", "The Golden Sound", "Iron Bank"),
        "ru": ("Ланниспорт", "Золотой пролив", "Железный банк"),
    }[locale]
    for word in words:
        assert word in shown, shown
    for raw in ("iron-bank", "consolidate-order", "the-golden-sound", "lannisport"):
        assert raw not in shown, shown  # no id reaches a player
    menu = next(c for c in walk(form.components) if str(c.get("custom_id", "")).endswith(":s:0"))
    assert len(menu["options"]) == 2
    iron_bank = next(o["value"] for o in menu["options"] if words[2].lower() in o["label"].lower())
    picked = await fake.select(lannister, form, menu["custom_id"], [iron_bank])
    await picked.wait_response(timeout=10)
    submitted = await fake.click(lannister, form, form_control(form, game_id, "lannister"))
    await submitted.wait_response(timeout=10)
    await settled(table)

    game = await service.load(game_id)
    loan = game.prompt_for("lannister")
    assert loan is not None and loan.kind == "loan", "the Iron Bank order is resolved first: the loan is asked"
    loan_form = dm_form(table, lannister, game_id, "lannister")
    assert loan_form.id != form.id
