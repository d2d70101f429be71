"""The application's side of AI seats (issue 42), without Discord: the deal seats them, the labels and the narration
show them as "🤖 AI" in both languages, the agent's key, and a game stored with the old autopilot name."""

from __future__ import annotations

from typing import Any

import pytest

from app.ai import ai_seat, decision_key, played_by_agent
from app.ai_think import think
from app.commands import RemoveAi
from app.labels import awaited_text
from app.narration import narrate
from app.service import GameService, GameSettings, ServiceError
from app.store import Store
from engine import rules
from i18n import t


def test_a_game_stored_with_the_old_agent_setting_reads_as_the_simple_agent() -> None:
    assert GameSettings.from_dict({"players": 3, "autopilot": "agent"}).autopilot == "simple"
    assert GameSettings(players=3).ai_seats == 0 and GameSettings(players=3).ai_budget_ms == 2000


def test_the_deal_seats_the_members_first_and_gives_the_ai_seats_the_houses_left() -> None:
    settings = GameSettings(players=3, ai_seats=2, assignment="join-order")
    game, seats = GameService._deal(settings, [7], {7: "lannister"}, seed=5)
    assert seats["lannister"] == 7
    ai_houses = sorted(h for h, u in seats.items() if u is None)
    assert ai_houses == ["baratheon", "stark"]
    for house in ai_houses:
        assert ai_seat(game.state, house) and played_by_agent(game.state, house)
    assert not played_by_agent(game.state, "lannister") and game.state.houses["lannister"].seat == "7"


def test_an_ai_seat_is_marked_where_the_awaited_houses_are_listed_and_narrated() -> None:
    game, _ = GameService._deal(GameSettings(players=3, ai_seats=2), [7], {7: "stark"}, seed=1)
    view = game.view(None)
    assert "(🤖 AI)" in awaited_text(view, "en") and "(🤖 ИИ)" in awaited_text(view, "ru")
    assert awaited_text(view, "en").count("🤖") == 2
    event = {"type": "seat-changed", "house": "stark", "seat": None, "autopilot": True}
    assert "🤖 AI" in (narrate(event, "en") or "") and "🤖 ИИ" in (narrate(event, "ru") or "")
    member = {"type": "seat-changed", "house": "stark", "seat": "7", "autopilot": False}
    assert "🤖" not in (narrate(member, "en") or "")


def test_the_agents_key_names_the_decision_and_after_a_repair_the_repair() -> None:
    assert decision_key("2:orders:stark", None) == "ai:2:orders:stark"
    assert decision_key("2:orders:stark", 41) == "ai:r41:2:orders:stark"


def test_the_agent_answers_from_its_houses_view_and_the_prompt_only() -> None:
    game, _ = GameService._deal(GameSettings(players=3, ai_seats=2), [7], {}, seed=3)
    assert sorted(p.house for p in game.prompts()) == sorted(rules.player_houses(game.state))
    for prompt in game.prompts():
        for kind in ("ai", "simple"):
            answer = think(kind, prompt, game.view(prompt.house), 1, 5)
            copy = game.copy()
            copy.act(prompt.house, answer, prompt_id=prompt.id)  # legal: the engine takes it (a refusal raises)


async def test_remove_ai_frees_a_seat_the_ai_held_and_refuses_when_it_holds_none(database: Any) -> None:
    """The lobby's Remove AI on the one path: each command frees one of the AI's seats; with none left it is refused
    (a click on a lobby drawn before another moderator's) and nothing changes."""
    store = await Store.open(database)
    service = GameService(store)
    try:
        game_id = await service.create(
            guild_id=1, channel_id=10, creator=1, name="g", settings=GameSettings(players=3, ai_seats=1)
        )
        await service.execute(RemoveAi(game_id=game_id, by=1, key="first"))
        assert (await service.row(game_id)).settings["ai_seats"] == 0
        with pytest.raises(ServiceError) as refused:
            await service.execute(RemoveAi(game_id=game_id, by=1, key="second"))
        assert refused.value.code == "no-ai-seat"
        assert t("error.no-ai-seat", "ru") != t("error.no-ai-seat", "en")
        assert (await service.row(game_id)).settings["ai_seats"] == 0
    finally:
        await store.close()
