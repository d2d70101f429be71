"""Work the bot does once per game version, however many messages show it (counted, not timed)."""

from __future__ import annotations

from typing import Any

import pytest

import app.decisions
import app.queries
from testing.fake_discord.components import walk
from testing.forms import form_control
from tests.bot.conftest import Table
from tests.bot.test_lobby_and_orders import start_game


def counted(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[object]:
    """Count the calls of ``module.name`` (still the real function)."""
    calls: list[object] = []
    real = getattr(module, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


async def test_the_form_a_dm_announced_opens_without_being_built_again(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = table.fake
    mark = fake.mark()
    built = counted(monkeypatch, app.queries, "build_form")
    options = counted(monkeypatch, app.decisions, "orders_options")
    game_id = await start_game(table, 3)
    seats = await table.service.store.seats(game_id)
    player = table.players[0]
    house = next(h for h, u in seats.items() if u == player.id)
    dm = await fake.wait_for_dm(player, since=mark)
    await fake.wait_idle()
    assert len(built) == 3  # one form per house for its decision DM
    built.clear()
    options.clear()
    assert form_control(dm, game_id, house)  # the DM carries the form
    for _ in range(3):  # the player opens the decision three more times at this version
        form = await (await fake.slash(player, table.channel, "decide")).wait_response()
        assert "Orders" in form.text()
    assert built == [] and options == []  # the DM's form, its token options included, served every opening
    select = next(c for c in walk(form.components) if c.get("type") == 3)
    choice = select["options"][-1]["value"]
    picked = await (await fake.select(player, form, select["custom_id"], [choice])).wait_response()
    assert "Orders" in picked.text()
    prompt = (await table.service.load(game_id)).prompt_for(house)
    assert prompt is not None
    assert len(options) == len(prompt.choices["areas"])  # a pick works the options out anew, once per area
    assert fake.failed_interactions == []
