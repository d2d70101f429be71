"""Views: what each house and the public may see (B-HIDDEN-*, B-PLAN-04, B-DIPLO-02/04)."""

from __future__ import annotations

import json

from engine import Game, new_game
from engine.steps.planning import default_orders, order_areas


def assign_all(g: Game) -> None:
    for p in list(g.prompts()):
        if p.kind == "orders" and not p.answered:
            g.act(p.house, p.default)


def test_B_HIDDEN_05_orders_hidden_until_reveal() -> None:
    """B-HIDDEN-05, B-PLAN-04, B-DIPLO-02: before the reveal only the owner sees an order; others see it face down."""
    g = new_game(3, seed=4)
    stark = g.prompt_for("stark")
    assert stark is not None
    g.act("stark", stark.default)
    own = g.view("stark")["areas"]["winterfell"]["order"]
    assert own["house"] == "stark" and "type" in own
    for viewer in (None, "lannister", "baratheon"):
        order = g.view(viewer)["areas"]["winterfell"]["order"]
        assert order == {"house": "stark", "hidden": True}
        assert "defense" not in json.dumps(g.view(viewer)["areas"]["winterfell"])


def test_B_PLAN_11_all_orders_revealed_together() -> None:
    """B-PLAN-11: once the last house submits, every order is face-up in every view."""
    g = new_game(3, seed=4)
    houses = [p.house for p in g.prompts()]
    for h in houses[:-1]:
        g.act(h, g.prompt_for(h).default)  # type: ignore[union-attr]
        assert not g.state.orders_revealed
    g.act(houses[-1], g.prompt_for(houses[-1]).default)  # type: ignore[union-attr]
    public = g.view(None)["areas"]
    for area in order_areas(g.state, "stark"):
        assert public[area]["order"]["type"] in {"defense", "support", "consolidate", "raid", "march"}


def test_awaiting_names_houses_never_answers() -> None:
    """The public view says whose answer is awaited, never what was answered."""
    g = new_game(4, seed=9)
    first = g.prompts()[0].house
    g.act(first, g.prompt_for(first).default)  # type: ignore[union-attr]
    v = g.view(None)
    assert first not in v["awaiting"] and len(v["awaiting"]) == 3
    assert "prompt" not in v


def test_private_view_carries_only_own_prompt() -> None:
    g = new_game(4, seed=9)
    for house in g.state.players:
        v = g.view(house)
        assert v["viewer"] == house
        assert v["prompt"]["house"] == house
        assert set(v["prompt"]["default"]["orders"]) == set(order_areas(g.state, house))


def test_B_HIDDEN_06_raven_card_only_in_holders_view() -> None:
    """B-HIDDEN-06, B-RAVEN-02: the wildling card seen with the Raven is in the holder's view only."""
    g = new_game(3, seed=5)
    assign_all(g)
    holder = g.state.tracks["kings_court"][0]
    g.act(holder, {"action": "peek"})
    card = g.state.wildling_deck[0]
    assert g.view(holder)["houses"][holder]["raven_peek"] == card
    assert g.prompt_for(holder).info["card"] == card  # type: ignore[union-attr]
    for viewer in [None, *[h for h in g.state.players if h != holder]]:
        assert card not in json.dumps(g.view(viewer)["houses"])


def test_default_orders_cover_every_area_without_march_or_raid() -> None:
    """The documented default: Defense, then Support, then Consolidate; never March or Raid when avoidable."""
    g = new_game(6, seed=1)
    for house in g.state.players:
        areas = order_areas(g.state, house)
        orders = default_orders(g.state, house, areas)
        assert set(orders) == set(areas)
        assert not any(t.startswith(("march", "raid")) for t in orders.values())
