"""Issue V, item 5: a vassal's orders DM fits a phone, at most 700 characters of text in English and in Russian.

Seeded four-player Mother of Dragons games (three vassals, five or six areas each) are played through the fake Discord
for their first rounds, every decision answered through the service by a seeded random player, and each vassal orders
DM its liege receives is measured as Discord stores it (links, timestamps and markdown included)."""

from __future__ import annotations

import random

import pytest

from app.commands import Answer
from engine import RuleError
from engine.agents import RandomAgent
from testing.fake_discord import StoredMessage
from testing.forms import form_controls
from tests.bot.conftest import Table

pytestmark = pytest.mark.slow

PHONE_DM = 700
LOCALES = {"en": "en-US", "ru": "ru"}


async def settle(table: Table) -> None:
    await table.bot.play.publisher.settled()
    await table.fake.wait_idle(quiet=0.05, timeout=30)


@pytest.mark.parametrize(("lang", "seed"), [("en", 4), ("ru", 4)])
async def test_vassal_orders_dms_are_at_most_700_characters(table: Table, lang: str, seed: int) -> None:
    fake = table.fake
    members = [fake.add_member(table.guild, f"{lang}{i}", locale=LOCALES[lang]) for i in range(4)]
    made = await fake.slash(
        table.moderator,
        table.channel,
        "game new",
        players=4,
        ruleset="mother-of-dragons",
        language=lang,
        name="Vassals",
    )
    lobby = await made.wait_response()
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    for member in members:
        await (await fake.click(member, lobby, f"lobby:{game_id}:join")).wait_response()
    row = await table.service.row(game_id)
    await table.service.store.update_settings(game_id, {**row.settings, "seed": seed})
    await (await fake.click(table.moderator, lobby, f"lobby:{game_id}:start")).wait_response()
    await settle(table)

    rnd, agent = random.Random(seed), RandomAgent(seed)
    measured: list[tuple[int, int, str]] = []  # (characters, areas, text)
    seen: set[int] = set()
    for n in range(400):
        game = await table.service.load(game_id)
        if game.round > 3 or game.finished:
            break
        prompt = next(p for p in game.prompts() if not p.answered)
        user = await table.service.seat_of(game_id, prompt.house)
        member = next(m for m in members if m.id == user)
        if prompt.kind == "vassal-orders":
            dms: list[StoredMessage] = [
                m
                for m in fake.dm_messages(member)
                if m.id not in seen and "submit" in form_controls(m, game_id, prompt.house)
            ]
            assert dms, "the liege was sent no DM for his vassal's orders"
            seen.add(dms[-1].id)
            measured.append((len(dms[-1].text()), len(prompt.choices["areas"]), dms[-1].text()))
        answer = agent.answer(prompt, game.view(prompt.house)) if rnd.random() < 0.9 else prompt.default
        for given in (answer, prompt.default):
            try:
                command = Answer(game_id=game_id, by=user, key=f"fit:{n}:{given is answer}", house=prompt.house,
                                 answer=given, prompt_id=prompt.id)  # fmt: skip
                await table.service.answer(command)
                break
            except RuleError:
                continue
        await settle(table)

    assert len(measured) >= 6 and max(areas for _, areas, _ in measured) >= 6  # the longest forms were met
    longest = max(measured)
    assert longest[0] <= PHONE_DM, longest[2]
    assert fake.failed_interactions == [] and fake.internal_errors == []
