"""Whole games through Discord only: /decide, select menus and Submit, from the lobby to the winner.

The scripted players pick random options in each form and fall back to the form's preselected values
when the bot refuses an answer, exactly as a person would retry. The channel transcript is checked to
hide every order until its reveal.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import data
from i18n import catalog
from testing.fake_discord.components import STRING_SELECT, walk
from tests.bot.conftest import Table
from tests.bot.test_lobby_and_orders import start_game

pytestmark = pytest.mark.slow

MAX_ROUNDS_OF_POLLING = 3000
CARD_NAMES = [c["names"]["en"] for c in [*data.wildling_cards().values(), *data.westeros_cards().values()]]
ORDER_LABELS = [str(m.string) for m in catalog("en") if m.id and str(m.id).startswith("order.")]


def selects(message: Any) -> list[dict[str, Any]]:
    """The message's menus in the order shown (a form is a components-v2 layout: text displays among the rows)."""
    return [dict(c) for c in walk(message.components) if c.get("type") == STRING_SELECT]


def submit_button(message: Any) -> dict[str, Any] | None:
    return next((dict(c) for c in walk(message.components) if str(c.get("custom_id", "")).endswith(":submit")), None)


def submit_id(message: Any) -> str | None:
    button = submit_button(message)
    return None if button is None else str(button["custom_id"])


def decide_buttons(message: Any) -> list[str]:
    return [str(c["custom_id"]) for c in walk(message.components) if str(c.get("custom_id", "")).startswith("decide:")]


async def answer_once(table: Table, player: Any, rnd: random.Random, *, use_defaults: bool) -> str:
    """Open the player's decision with /decide and submit it. Returns 'none', 'ok' or 'refused'."""
    fake = table.fake
    # What earlier answers imply is out first (the next decisions' DMs draw their forms, which a /decide racing them
    # would see made void): the game's course then does not depend on how fast the machine publishes.
    await table.bot.play.publisher.settled()
    opened = await fake.slash(player, table.channel, "decide")
    form = await opened.wait_response(timeout=10)
    if "owe no decision" in form.text():
        return "none"
    listed = decide_buttons(form)
    if listed:  # several decisions owed (a liege's own and his vassal's): open the first
        clicked = await fake.click(player, form, listed[0])
        form = await clicked.wait_response(timeout=10)
    index = 0
    while not use_defaults and index < len(selects(form)):
        select = selects(form)[index]  # re-read: picking a march's origin rebuilds the selects below it
        index += 1
        options = [o["value"] for o in select["options"]]
        low, high = select.get("min_values", 1), select.get("max_values", 1)
        chosen = rnd.sample(options, k=rnd.randint(low, max(low, min(high, len(options)))))
        updated = await fake.select(player, form, select["custom_id"], chosen)
        form = await updated.wait_response(timeout=10)
    button = submit_button(form)
    assert button is not None, form.text()
    if button.get("disabled"):  # the form says why the picks would be refused, before anything is sent
        return "refused"
    submitted = await fake.click(player, form, str(button["custom_id"]))
    await submitted.wait_ack(timeout=10)

    # The receipt edits the form (the response to a component is the message it sits on), or an error follows.
    def replies() -> list[Any]:
        return [m for m in [submitted.response, *submitted.followups] if m is not None]

    await fake.wait_until(
        lambda: bool(submitted.followups) or any("Recorded" in m.text() for m in replies()), timeout=20
    )
    recorded = any("Recorded" in m.text() for m in replies())
    return "ok" if recorded else "refused"


async def play_to_the_end(table: Table, players: int, seed: int) -> None:
    fake = table.fake
    game_id = await start_game(table, players)
    await answer_every_decision(table, game_id, table.players[:players], seed)
    channel = [m.content for m in fake.visible_messages(table.moderator) if m.channel_id == table.channel.id]
    assert any("The game is over" in line for line in channel)
    assert_orders_hidden_until_revealed(channel)
    assert fake.failed_interactions == []
    assert fake.unsupported_requests == [] and fake.internal_errors == []


async def answer_every_decision(table: Table, game_id: int, seated: list[Any], seed: int) -> None:
    """Each seated player in turn opens and submits what it owes, until the game ends."""
    rnd = random.Random(seed)
    for _ in range(MAX_ROUNDS_OF_POLLING):
        if (await table.service.row(game_id)).status == "ended":
            break
        progressed = False
        for player in seated:
            result = await answer_once(table, player, rnd, use_defaults=False)
            if result == "refused":
                result = await answer_once(table, player, rnd, use_defaults=True)
                assert result != "refused", "the preselected answer was refused"
            progressed |= result == "ok"
        assert progressed, "nobody owed a decision, but the game has not ended"
    else:  # pragma: no cover
        raise AssertionError("the game did not end")
    await table.bot.play.publisher.settled()  # the channel posts of the last answers go out after their receipts


def assert_orders_hidden_until_revealed(channel: list[str]) -> None:
    revealed = False
    # Line by line: a message may open with a phase header (issue J) before "Orders are revealed".
    for line in [line for message in channel for line in message.split("\n")]:
        for card in CARD_NAMES:  # a card's name is no order ("Preemptive Raid")
            line = line.replace(card, "")
        if line.startswith("Round ") and line.endswith("begins."):
            revealed = False
        if line.startswith("Orders are revealed"):
            revealed = True
        if not revealed:
            leaked = [label for label in ORDER_LABELS if label in line]
            assert not leaked, f"order shown before the reveal: {line!r}"


async def test_a_three_player_game_to_the_end(table: Table) -> None:
    await play_to_the_end(table, 3, seed=3)


async def test_a_six_player_game_to_the_end(table: Table) -> None:
    await play_to_the_end(table, 6, seed=6)
