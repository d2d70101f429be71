"""Issue U, faults 1, 4 and 11 (the house card): decision forms a player reads on a phone, through the fake Discord.

A form is a components-v2 layout: every menu sits under the words saying what it is for (a placeholder says it only
while nothing is picked, and forms come pre-filled), the picks show as they are made, Submit is unavailable while the
engine would refuse them (the reason shown in the form), and a house card's DM fits a phone's screen, its cards' full
texts a tap away. What a player sees is read with ``testing.phone.as_phone``.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.commands import Import
from app.labels import area_label, card_label, card_text, house_name, token_label, unit_label
from engine import data, rules
from i18n import t
from testing.fake_discord import FakeDiscordError, StoredMessage
from testing.fake_discord.components import walk
from testing.forms import form_control, form_controls
from testing.phone import as_phone, menus
from tests.bot.conftest import Table
from tests.bot.test_lobby_and_orders import start_game

pytestmark = pytest.mark.slow

PHONE_SCREEN = 900  # characters of text a phone shows in one screen, the DM's one-line header included


def dm_form(table: Table, player: Any, game_id: int, house: str) -> StoredMessage:
    """The player's latest DM carrying ``house``'s form."""
    return next(m for m in reversed(table.fake.dm_messages(player)) if "submit" in form_controls(m, game_id, house))


async def settled(table: Table) -> None:
    await table.fake.wait_idle()
    await table.bot.play.publisher.settled()
    await table.fake.wait_idle()


async def pick(
    table: Table, player: Any, form: StoredMessage, game_id: int, house: str, index: int, *values: str
) -> str:
    """The player picks ``values`` in the form's menu ``index``; the form as the phone then shows it."""
    picked = await table.fake.select(player, form, form_control(form, game_id, house, f"s:{index}"), list(values))
    edited = await picked.wait_response(timeout=10)
    assert edited.id == form.id  # the form is edited in place
    return as_phone(form)


def options_of(form: StoredMessage, game_id: int, house: str, index: int) -> list[dict[str, Any]]:
    custom_id = form_control(form, game_id, house, f"s:{index}")
    select = next(c for c in walk(form.components) if c.get("custom_id") == custom_id)
    return list(select["options"])


def submit_button(form: StoredMessage) -> dict[str, Any]:
    return next(b for b in form.buttons() if str(b.get("custom_id", "")).endswith(":submit"))


async def test_U_01_each_orders_menu_sits_under_its_area_and_shows_the_picks(table: Table) -> None:
    """Fault 1: "a four-area form shows four menus reading 'Оборона +1 / Оборона +1 / …'". A player picks Defense for
    two areas and Support for the third: each menu still sits under its area's name, and the picks show there."""
    fake = table.fake
    mark = fake.mark()
    game_id = await start_game(table, 3)
    house = "stark"  # houses are dealt at random; Stark starts with three areas
    seats = await table.service.store.seats(game_id)
    player = next(p for p in table.players if p.id == seats[house])
    form = await fake.wait_for_dm(player, since=mark, timeout=15)
    prompt = (await table.service.load(game_id)).prompt_for(house)
    assert prompt is not None and prompt.kind == "orders"
    areas = list(prompt.choices["areas"])
    assert len(areas) == 3
    # As it arrives, pre-filled: every menu under its area's name.
    shown = menus(form)
    assert len(shown) == len(areas)
    for area, (label, menu) in zip(areas, shown, strict=True):
        assert label.startswith(f"{area_label(area, 'en')} — ") and menu.startswith("[▼ ") and label not in menu

    await pick(table, player, form, game_id, house, 0, "defense1")
    await pick(table, player, form, game_id, house, 1, "defense1")
    phone = await pick(table, player, form, game_id, house, 2, "support0")
    defense, support = token_label("defense1", "en"), token_label("support0", "en")
    assert menus(form) == [
        (shown[0][0], f"[▼ {defense}]"),
        (shown[1][0], f"[▼ {defense}]"),
        (shown[2][0], f"[▼ {support}]"),
    ]
    # Only what is still legal: both Defense +1 tokens are used, so no area offers a third.
    assert "defense1" not in [o["value"] for o in options_of(form, game_id, house, 2)]
    assert "Tokens left:" in phone and "[Submit]" in phone  # what the picks leave, and Submit available

    receipt = await (await fake.click(player, form, form_control(form, game_id, house))).wait_response(timeout=10)
    assert receipt.id == form.id
    recorded = as_phone(receipt)
    for area, order in zip(areas, (defense, defense, support), strict=True):
        assert f"{area_label(area, 'en')}: {order}" in recorded
    assert fake.failed_interactions == [] and fake.internal_errors == []


async def battle_for_riverrun(table: Table) -> tuple[int, dict[str, Any]]:
    """A three-player game repaired into Lannister's march from Lannisport (a knight and two footmen), with Stark in
    Riverrun and Stoney Sept; each house's player by house."""
    game_id = await start_game(table, 3)
    seats = await table.service.seats(game_id)
    by_house = {h: next(p for p in table.players if p.id == u) for h, u in seats.items()}
    spec = {
        "players": 3,
        "units": {
            "lannisport": "lannister knight footman footman",
            "riverrun": "stark footman",
            "stoney-sept": "stark footman",
            "winterfell": "stark footman",
            "dragonstone": "baratheon footman",
        },
        "orders": {"lannisport": "march0", "riverrun": "defense1", "stoney-sept": "defense1"},
        "start": "march",
    }
    await table.service.execute(Import(game_id=game_id, spec=spec, by=table.moderator.id))
    await settled(table)
    return game_id, by_house


async def test_U_01_a_march_form_names_each_unit_above_its_menu_and_refuses_two_battles_before_submit(
    table: Table,
) -> None:
    """Fault 1: "the march form's unit menus both read 'остаться: Драконий Камень'". Each unit's menu sits under the
    unit's name. Fault 4: a march the engine refuses (two battles from one March order) is refused in the form itself,
    Submit unavailable and the rule said, before anything is sent; a legal march then submits."""
    fake = table.fake
    game_id, by_house = await battle_for_riverrun(table)
    player = by_house["lannister"]
    form = dm_form(table, player, game_id, "lannister")
    lannisport = area_label("lannisport", "en")
    # Its one origin is a line, not a menu of one option (issue V, item 4).
    assert f"{t('decision.march.from', 'en')}: {lannisport}" in as_phone(form).split("\n")
    assert menus(form) == [
        (t("decision.march.unit", "en", unit=unit_label(u, "en").capitalize(), n=n, area=lannisport),
         f"[▼ {t('decision.march.stay', 'en', area=lannisport)}]")
        for u, n in (("footman", 1), ("footman", 2), ("knight", 1))
    ]  # fmt: skip
    assert "[Submit]" in as_phone(form)

    before = (await table.service.row(game_id)).version
    await pick(table, player, form, game_id, "lannister", 1, "riverrun")
    phone = await pick(table, player, form, game_id, "lannister", 3, "stoney-sept")
    reason = t("error.two-combats.plain", "en")
    assert reason in phone and "[Submit (disabled)]" in phone
    assert submit_button(form)["disabled"] is True
    with pytest.raises(FakeDiscordError, match="disabled"):
        await fake.click(player, form, form_control(form, game_id, "lannister"))
    assert (await table.service.row(game_id)).version == before  # nothing was sent, nothing refused after the fact

    phone = await pick(table, player, form, game_id, "lannister", 3, "riverrun")
    assert reason not in phone and "[Submit]" in phone
    receipt = await (await fake.click(player, form, form_control(form, game_id, "lannister"))).wait_response(timeout=10)
    assert "Recorded" in as_phone(receipt)
    assert fake.failed_interactions == [] and fake.internal_errors == []


async def test_U_11_a_house_card_dm_fits_a_phone_screen_and_shows_the_full_texts_on_request(table: Table) -> None:
    """Fault 11: "house-card DMs run 1,200–1,550 characters (two phone screens)". The DM names the battle, each side's
    strength, your cards and theirs by name and strength, in one screen; each option's description is its card's
    text cut at a word; a button shows every card's full text, and hides it again."""
    fake = table.fake
    game_id, by_house = await battle_for_riverrun(table)
    player = by_house["lannister"]
    form = dm_form(table, player, game_id, "lannister")
    await pick(table, player, form, game_id, "lannister", 1, "riverrun")
    await (await fake.click(player, form, form_control(form, game_id, "lannister"))).wait_response(timeout=10)
    await settled(table)
    game = await table.service.load(game_id)
    prompt = game.prompt_for("lannister")
    assert prompt is not None and prompt.kind == "house-card"

    card = dm_form(table, player, game_id, "lannister")
    phone = as_phone(card)
    assert len(card.text()) <= PHONE_SCREEN, phone
    assert area_label("riverrun", "en") in phone and house_name("stark", "en") in phone
    assert phone.count("=") >= 2  # each side's strength by source
    cards = list(prompt.choices)
    assert t("cards.yours", "en", cards=", ".join(card_label(c, "en") for c in cards)) in phone
    assert not [c for c in cards if card_text(c, "en") in phone and data.house_cards()[c].ability]
    assert menus(card)[0][0] == t("decision.house-card.title", "en")
    for option in options_of(card, game_id, "lannister", 0):
        full = card_text(option["value"], "en")
        description = str(option.get("description") or "")
        assert len(description) <= 100
        if description != full:  # cut at a word, marked
            kept = description.removesuffix("…")
            assert description.endswith("…") and full.startswith(kept) and full[len(kept)] in " ,;:.", description

    shown = await (await fake.click(player, card, form_control(card, game_id, "lannister", "details"))).wait_response(
        timeout=10
    )
    texts = as_phone(shown)
    for c in cards:
        assert card_text(c, "en") in texts
    assert f"[{t('cards.texts.hide', 'en')}]" in texts
    hidden = await (await fake.click(player, card, form_control(card, game_id, "lannister", "details"))).wait_response(
        timeout=10
    )
    assert as_phone(hidden) == phone  # as it came
    receipt = await (await fake.click(player, card, form_control(card, game_id, "lannister"))).wait_response(timeout=10)
    assert "Recorded" in as_phone(receipt)
    assert fake.failed_interactions == [] and fake.internal_errors == []


async def test_U_04_a_tie_break_after_everyone_bid_nothing_submits_as_it_opens_and_a_repeat_is_caught_in_the_form(
    table: Table,
) -> None:
    """Fault 4: "after a Clash of Kings where everyone bid 0, the tie-break form submitted as it opens is refused
    ('Each tied house must get exactly one place.')". The form as it opens is an answer the engine takes; a house put
    in two places turns Submit off with that sentence in the form, and putting it right turns Submit on."""
    fake = table.fake
    game_id = await start_game(table, 3)
    seats = await table.service.seats(game_id)
    spec = {
        "players": 3,
        "round": 2,
        "power": {h: 0 for h in seats},
        "start": {"clash": "iron_throne"},
    }
    await table.service.execute(Import(game_id=game_id, spec=spec, by=table.moderator.id))
    await settled(table)
    game = await table.service.load(game_id)
    prompt = next(p for p in game.prompts() if not p.answered)
    assert prompt.kind == "tie-order" and len(prompt.choices["tied"][0]) == 3
    house = prompt.house
    player = next(p for p in table.players if p.id == seats[house])
    form = dm_form(table, player, game_id, house)
    phone = as_phone(form)
    assert "[Submit]" in phone and "⚠" not in phone
    places = [label for label, _ in menus(form)]
    assert places == [t("decision.tie-order.place", "en", place=n, bid=0) for n in (1, 2, 3)]

    first = prompt.default[0]
    phone = await pick(table, player, form, game_id, house, 1, first)  # the first house in second place too
    repeat = t("error.tie-order-repeat", "en")
    assert repeat in phone and "[Submit (disabled)]" in phone
    phone = await pick(table, player, form, game_id, house, 1, prompt.default[1])
    assert repeat not in phone and "[Submit]" in phone
    receipt = await (await fake.click(player, form, form_control(form, game_id, house))).wait_response(timeout=10)
    assert "Recorded" in as_phone(receipt)
    assert fake.failed_interactions == [] and fake.internal_errors == []


async def test_U_01_vassal_orders_and_the_claim_in_russian_say_what_each_menu_is_for(table: Table) -> None:
    """Fault 1: "vassal orders show six menus of 'без приказа'". In a Russian game of four players and three vassals,
    the claim's menu sits under its question's title, and each vassal's area menu under that area's name."""
    fake = table.fake
    players = [fake.add_member(table.guild, f"ru{i}", locale="ru") for i in range(4)]
    made = await fake.slash(
        table.moderator,
        table.channel,
        "game new",
        players=4,
        ruleset="mother-of-dragons",
        language="ru",
        name="Вассалы",
    )
    lobby = await made.wait_response()
    for player in players:
        await (await fake.click(player, lobby, "lobby:1:join")).wait_response()
    await (await fake.click(table.moderator, lobby, "lobby:1:start")).wait_response(timeout=15)
    game_id = 1
    await settled(table)
    seats = await table.service.seats(game_id)
    by_house = {h: next(p for p in players if p.id == u) for h, u in seats.items()}

    claimed = 0
    vassal_forms: list[tuple[str, StoredMessage]] = []
    for _ in range(20):
        game = await table.service.load(game_id)
        prompt = next((p for p in game.prompts() if not p.answered), None)
        assert prompt is not None
        if prompt.kind == "vassal-orders":
            break
        player = by_house[rules.commander(game.state, prompt.house) or prompt.house]
        form = dm_form(table, player, game_id, prompt.house)
        if prompt.kind == "vassal-claim":
            claimed += 1
            assert menus(form)[0][0] == t("decision.vassal-claim.title", "ru")
            assert "[Отправить]" in as_phone(form)
        await (await fake.click(player, form, form_control(form, game_id, prompt.house))).wait_response(timeout=10)
        await settled(table)
    assert claimed >= 1
    game = await table.service.load(game_id)
    for prompt in (p for p in game.prompts() if p.kind == "vassal-orders"):
        liege = game.state.vassals[prompt.house]
        assert liege is not None
        form = dm_form(table, by_house[liege], game_id, prompt.house)
        vassal_forms.append((prompt.house, form))
        shown = menus(form)
        no_order = t("decision.orders.no_order", "ru")
        assert [label.split(" — ")[0] for label, _ in shown] == [area_label(a, "ru") for a in prompt.choices["areas"]]
        assert all(menu == f"[▼ {no_order}]" for _, menu in shown)
    assert vassal_forms
    assert fake.failed_interactions == [] and fake.internal_errors == []
