"""Full positions built from one house's view: the searching agent's determinizations.

The agent never sees the game state. What it can do is write down what its view shows (units, Power, tracks,
hands, tokens, the bank...) as a scenario (docs/scenario-format.md) and let ``engine.scenario`` build a position
the rules accept. What the view hides is left out of the spec and so drawn by the scenario's own seed: the order of
the Westeros, wildling and Tides of Battle decks, and, since the Planning phase starts afresh, every other house's
orders (the rollouts' agents choose them). A different ``seed`` is a different guess at the hidden parts.

Only moments the scenario format can start from are built: the start of a Planning phase (``orders``), and the
Action phase's raid and march steps with the orders on the board (the house to move next is set to the viewer,
see ``at_turn_of``). Anything else returns None and the agent answers without searching.
"""

from __future__ import annotations

from typing import Any

from engine import rules, scenario
from engine.errors import RuleError
from engine.game import Game

BASE = "base"


def spec_from_view(view: dict[str, Any], start: str, seed: int) -> dict[str, Any]:
    """The scenario of ``view``'s public position plus its viewer's own knowledge, starting at ``start``."""
    ruleset = view["options"]["ruleset"]
    vassals: dict[str, str | None] = dict(view.get("vassals") or {})
    houses = [h for h in view["players"] if h not in vassals]
    options: dict[str, Any] = {"tides_of_battle": bool(view["options"].get("tides_of_battle"))}
    if ruleset != BASE:
        options["ruleset"] = ruleset
        if view["options"].get("targaryen_cards"):
            options["targaryen_cards"] = view["options"]["targaryen_cards"]
    units: dict[str, list[str]] = {}
    orders: dict[str, str] = {}
    power_tokens: dict[str, str] = {}
    garrisons: dict[str, int] = {}
    neutral: dict[str, Any] = {}
    for area, info in view["areas"].items():
        if info["units"]:
            owner = info["units"][0]["house"]
            units[area] = [owner] + [("routed-" if u["routed"] else "") + u["type"] for u in info["units"]]
        order = info.get("order")
        if start != "planning" and order is not None and not order.get("hidden"):
            orders[area] = f"{order['house']}:{order['token']}"
        if info.get("power_token"):
            power_tokens[area] = info["power_token"]
        if info.get("garrison"):
            garrisons[area] = int(info["garrison"])
        if info.get("neutral") is not None:
            neutral[area] = info["neutral"]
    power = {h: p for h, p in view["power"].items() if p is not None and h not in vassals}
    spec: dict[str, Any] = {
        "players": houses if ruleset != BASE else len(houses),
        "seed": seed,
        "options": options,
        "units": units,
        "power_tokens": power_tokens,
        "garrisons": garrisons,
        "neutral": neutral,
        "power": power,
        "supply": dict(view["supply"]),
        "tracks": {t: list(hs) for t, hs in view["tracks"].items()},
        "hands": {h: list(v["hand"]) for h, v in view["houses"].items()},
        "discards": {h: list(v["discards"]) for h, v in view["houses"].items()},
        "round": view["round"],
        "wildling_threat": view["wildling_threat"],
        "start": start,
    }
    if start == "planning":
        if view["round"] >= 2 and view.get("restrictions"):
            spec["restrictions"] = list(view["restrictions"])
    else:
        spec["orders"] = orders
        spec["blade_used"] = bool(view["dominance"]["valyrian_steel_blade"]["used"])
        spec["raven_used"] = bool(view["dominance"]["messenger_raven"]["used"])
    lieges = {v: liege for v, liege in vassals.items() if liege is not None}
    if lieges:
        spec["vassals"] = lieges
    targaryen = view.get("targaryen")
    if targaryen:
        spec["dragon_strength"] = targaryen["dragon_strength"]
        spec["loyalty"] = min(6, int(targaryen["loyalty"]))
        spec["loyalty_tokens"] = dict(targaryen.get("loyalty_tokens") or {})
    bank = view.get("bank")
    if bank:
        spec["bank"] = {
            "slots": [slot["loan"] for slot in bank["slots"]],
            "loans": {h: list(ls) for h, ls in bank["loans"].items()},
            "developed": {a: dict(ts) for a, ts in bank["developed"].items()},
            "declined": {a: list(xs) for a, xs in bank["declined"].items()},
        }
    return spec


def determinize(view: dict[str, Any], start: str, seed: int, *, turn_of: str | None = None) -> Game | None:
    """A game at ``view``'s position (``start``: ``planning``, ``raid`` or ``march``), hidden parts drawn by ``seed``;
    at a raid or march step ``turn_of`` moves next. None when the view cannot be written as a scenario."""
    try:
        state, where = scenario.build_state(spec_from_view(view, start, seed))
    except RuleError:
        return None
    game = Game(state)
    scenario.push_start(game, where)
    if turn_of is not None:
        at_turn_of(game, turn_of)
    try:
        game.run()
    except RuleError:
        return None
    return game


def at_turn_of(game: Game, house: str) -> None:
    """Make ``house`` the next to resolve an order at the raid or march step just pushed: the step goes round the
    Iron Throne track from the house after ``last`` (engine/steps/action.py), so ``last`` is the house before it."""
    order = rules.turn_order(game.s)
    top = game.s.stack[-1]
    if top["type"] == "action" and house in order:
        top["last"] = order[order.index(house) - 1] if order.index(house) > 0 else None
