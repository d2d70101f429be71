"""Issue J: a Russian player's whole game shows no English sentence — through the fake Discord.

Three players whose Discord is in Russian play a Russian game from the lobby to the winner, only by /decide,
select menus and Submit. Everything each of them sees — decision DMs, forms (text, menu labels, options,
buttons), receipts, reminders and deadline notices, channel posts — is checked for Latin words, once links,
mentions and Discord timestamps are set aside.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from app.deadlines import Reminder
from app.notices import AbsentPlayer, DeadlinePassed
from i18n import t
from testing.fake_discord.components import STRING_SELECT, walk
from tests.bot.conftest import Table

pytestmark = pytest.mark.slow

ASIDE = re.compile(r"https?://\S+|<[@#]!?\d+>|<t:\d+(?::[a-zA-Z])?>|`[^`]*`")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
MAX_POLLS = 3000


def english_in(text: str) -> list[str]:
    return LATIN_WORD.findall(ASIDE.sub(" ", text))


def component_texts(components: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []

    def walk(items: list[dict[str, Any]]) -> None:
        for c in items:
            for key in ("label", "placeholder"):
                if c.get(key):
                    out.append(str(c[key]))
            for option in c.get("options", []):
                out.extend([str(option.get("label", "")), str(option.get("description") or "")])
            walk(c.get("components", []))

    walk(components)
    return out


def seen_text(message: Any) -> list[str]:
    return [message.text(), *component_texts(message.components)]  # text(): the content and every text display


def assert_russian(texts: list[str], where: str) -> None:
    for text in texts:
        assert not english_in(text), f"English in {where}: {text!r}"


def selects(message: Any) -> list[dict[str, Any]]:
    """The message's menus in the order shown (a form is a components-v2 layout: text displays among the rows)."""
    return [dict(c) for c in walk(message.components) if c.get("type") == STRING_SELECT]


def submit_button(message: Any) -> dict[str, Any] | None:
    return next((dict(c) for c in walk(message.components) if str(c.get("custom_id", "")).endswith(":submit")), None)


async def answer_once(table: Table, player: Any, rnd: random.Random, *, use_defaults: bool) -> str:
    fake = table.fake
    opened = await fake.slash(player, table.channel, "decide")
    form = await opened.wait_response(timeout=10)
    if form.text() == t("decision.none_open", "ru"):
        return "none"
    assert_russian(seen_text(form), "a form")
    index = 0
    while not use_defaults and index < len(selects(form)):
        select = selects(form)[index]
        index += 1
        options = [o["value"] for o in select["options"]]
        low, high = select.get("min_values", 1), select.get("max_values", 1)
        chosen = rnd.sample(options, k=rnd.randint(low, max(low, min(high, len(options)))))
        updated = await fake.select(player, form, select["custom_id"], chosen)
        form = await updated.wait_response(timeout=10)
        assert_russian(seen_text(form), "a form after a pick")
    button = submit_button(form)
    assert button is not None, form.text()
    if button.get("disabled"):  # the form says why the picks would be refused, before anything is sent
        return "refused"
    submitted = await fake.click(player, form, str(button["custom_id"]))
    await submitted.wait_ack(timeout=10)
    recorded = t("decision.recorded", "ru", summary="")

    def replies() -> list[Any]:
        return [m for m in [submitted.response, *submitted.followups] if m is not None]

    await fake.wait_until(lambda: bool(submitted.followups) or any(recorded in m.text() for m in replies()), timeout=20)
    for m in replies():
        assert_russian(seen_text(m), "a receipt or refusal")
    return "ok" if any(recorded in m.text() for m in replies()) else "refused"


async def test_a_russian_players_whole_game_shows_no_english(table: Table) -> None:
    fake = table.fake
    host = fake.add_member(table.guild, "хозяин", locale="ru", manage_guild=True)
    players = [fake.add_member(table.guild, f"игрок{i}", locale="ru") for i in range(3)]
    made = await fake.slash(host, table.channel, "game new", players=3, language="ru", name="Тест")
    lobby = await made.wait_response()
    for player in players:
        await (await fake.click(player, lobby, "lobby:1:join")).wait_response()
    await (await fake.click(host, lobby, "lobby:1:start")).wait_response()
    game_id = 1
    await fake.wait_idle(timeout=10)

    # Reminders and deadline notices, as the scheduler would send them mid-game.
    play = table.bot.play
    game = await table.service.load(game_id)
    awaited = [p.house for p in game.prompts() if not p.answered]
    await play.dms.on_reminder(Reminder(game_id, awaited, time.time() + 3600, "half"))
    await table.service.notice(
        game_id, [AbsentPlayer(game_id, awaited[0], 3), DeadlinePassed(game_id, awaited[:1], "defaults")]
    )

    rnd = random.Random(7)
    for _ in range(MAX_POLLS):
        if (await table.service.row(game_id)).status == "ended":
            break
        progressed = False
        for player in players:
            result = await answer_once(table, player, rnd, use_defaults=False)
            if result == "refused":
                result = await answer_once(table, player, rnd, use_defaults=True)
                assert result != "refused", "the preselected answer was refused"
            progressed |= result == "ok"
        assert progressed, "nobody owed a decision, but the game has not ended"
    else:  # pragma: no cover
        raise AssertionError("the game did not end")
    await table.bot.play.publisher.settled()  # the last channel posts go out after the last receipt
    await fake.wait_idle(timeout=10)

    for player in players:
        seen = fake.visible_messages(player)
        dms = [m for m in seen if m.channel_id != table.channel.id and not m.ephemeral]
        # Decision DMs: one header line, the game's name a link to its channel (issue U, fault 11: no raw URL line).
        assert any("**[Тест](https://discord.com/channels/" in m.text() and "⏰" in m.text() for m in dms)
        assert not any("\nhttps://" in m.text() or "Канал игры" in m.text() for m in dms)
        assert any(m.text().startswith("⏳") for m in dms) or player.id not in await _seated(table, awaited)
        for message in seen:
            assert_russian(seen_text(message), f"a message seen by {player!r}")
    channel = [m.content for m in fake.visible_messages(host) if m.channel_id == table.channel.id]
    assert any("Игра окончена" in line for line in channel)
    assert any("**— Раунд 1 · " in line for line in channel)  # phase headers
    assert fake.failed_interactions == []
    assert fake.unsupported_requests == [] and fake.internal_errors == []


async def _seated(table: Table, houses: list[str]) -> set[int]:
    seats = await table.service.seats(1)
    return {u for h, u in seats.items() if h in houses and u is not None}
