"""The Planning phase: assign orders, reveal them, use the Messenger Raven (B-PLAN-*, B-RAVEN-*)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine import rules
from engine.errors import RuleError
from engine.flow import Frame, Step, expect_choice, expect_dict, prompt_id, register
from engine.orders import VASSAL_ORDERS_MAX, VASSAL_TOKENS, forbidden_tokens, token
from engine.prompts import Prompt, PromptKind
from engine.rulesets import ruleset
from engine.state import GameState, PlacedOrder

if TYPE_CHECKING:
    from engine.game import Game

# The documented default assignment: Defense first, then Support, then Consolidate Power; never March or
# Raid unless the realm is larger than those tokens can cover (B-PLAN-06 still requires an order everywhere).
DEFAULT_PREFERENCE = (
    "defense1",
    "defense2*",
    "support0",
    "support1*",
    "consolidate",
    "consolidate*",
    "raid",
    "raid*",
    "march-1",
    "march0",
    "march1*",
)


def order_areas(s: GameState, house: str) -> list[str]:
    """Areas that must receive an order: every area holding the house's units (B-PLAN-02, B-PLAN-10)."""
    return sorted(a for a, us in s.units.items() if us and us[0].house == house)


def houses_with_units(s: GameState) -> set[str]:
    """The houses with an area to give an order to, in one pass over the board (``order_areas`` is one per house)."""
    return {us[0].house for us in s.units.values() if us}


def usable_tokens(s: GameState, house: str) -> Counter[str]:
    forbidden = forbidden_tokens(s.restrictions)
    return Counter({t.id: t.copies for t in ruleset(s).order_tokens(s).values() if t.id not in forbidden})


def max_placeable(s: GameState, house: str) -> int:
    usable = usable_tokens(s, house)
    normal = sum(n for t, n in usable.items() if not token(t).star)
    stars = sum(n for t, n in usable.items() if token(t).star)
    return normal + min(stars, rules.stars_allowed(s, house))


def vassal_tokens(s: GameState) -> list[str]:
    """The faces of a vassal order set this Planning phase's restrictions leave usable (M-VASSAL-37)."""
    forbidden = forbidden_tokens(s.restrictions)
    return [t for t in VASSAL_TOKENS if t not in forbidden]


def validate_vassal_orders(s: GameState, vassal: str, orders: Any) -> dict[str, str]:
    """M-VASSAL-09, -10: at most two tokens of the set, each once, each in an area holding the vassal's units."""
    if not isinstance(orders, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in orders.items()):
        raise RuleError("bad-answer", "Orders must map area ids to order token ids.")
    extra = sorted(set(orders) - set(order_areas(s, vassal)))
    if extra:
        raise RuleError("order-area-empty", f"{vassal} has no units in {', '.join(extra)}.", areas=extra)
    for area, t in orders.items():
        if t not in VASSAL_TOKENS:
            raise RuleError("unknown-order", f"{t!r} is not a vassal order token.", token=t, area=area)
    banned = sorted({t for t in orders.values() if t in forbidden_tokens(s.restrictions)})
    if banned:
        raise RuleError("order-forbidden", "This round's Westeros card forbids these orders.", tokens=banned)
    if len(set(orders.values())) != len(orders):
        raise RuleError("order-overused", "Each vassal order token can be placed once.")
    if len(orders) > VASSAL_ORDERS_MAX:
        raise RuleError(
            "too-many-vassal-orders", f"A vassal takes at most {VASSAL_ORDERS_MAX} orders.", allowed=VASSAL_ORDERS_MAX
        )
    return dict(orders)


def default_orders(s: GameState, house: str, areas: list[str]) -> dict[str, str]:
    """The deadline's answer: an order in as many areas as the usable tokens cover (all of them when they can),
    the preferred tokens first, then whatever the ruleset adds (sea orders, 003:141), so that it is always legal."""
    left = usable_tokens(s, house)
    stars_left = rules.stars_allowed(s, house)
    preference = [*DEFAULT_PREFERENCE, *(t for t in left if t not in DEFAULT_PREFERENCE)]
    out: dict[str, str] = {}
    for area in areas:
        for t in preference:
            if left[t] > 0 and (not token(t).star or stars_left > 0):
                out[area] = t
                left[t] -= 1
                stars_left -= token(t).star
                break
    return out


def validate_orders(s: GameState, house: str, orders: Any, *, required: list[str], short: bool) -> dict[str, str]:
    if not isinstance(orders, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in orders.items()):
        raise RuleError("bad-answer", "Orders must map area ids to order token ids.")
    extra = sorted(set(orders) - set(required))
    if extra:
        raise RuleError("order-area-empty", f"You have no units in {', '.join(extra)}.", areas=extra)
    for area, t in orders.items():
        if t not in ruleset(s).order_tokens(s):
            raise RuleError("unknown-order", f"{t!r} is not an order token.", token=t, area=area)
    forbidden = forbidden_tokens(s.restrictions)
    banned = sorted({t for t in orders.values() if t in forbidden})
    if banned:
        raise RuleError("order-forbidden", "This round's Westeros card forbids these orders.", tokens=banned)
    used = Counter(orders.values())
    for t, n in used.items():
        if n > token(t).copies:
            raise RuleError("order-overused", f"You have only {token(t).copies} of {t}.", token=t)
    stars = sum(n for t, n in used.items() if token(t).star)
    allowed = rules.stars_allowed(s, house)
    if stars > allowed:
        raise RuleError(
            "too-many-stars", f"Your King's Court position allows {allowed} special orders.", allowed=allowed
        )
    if short:
        if len(orders) < min(len(required), max_placeable(s, house)):
            raise RuleError("orders-missing", "You must place every order token you can use.")
    else:
        missing = sorted(set(required) - set(orders))
        if missing:
            raise RuleError(
                "orders-missing", f"Every area with units needs an order: {', '.join(missing)}.", areas=missing
            )
    return dict(orders)


@register
class Planning(Step):
    """Simultaneous secret assignment; sequential in turn order when some house is short of tokens (B-PLAN-07)."""

    type = "planning"

    def _init(self, g: Game, f: Frame) -> None:
        if "answers" in f:
            return
        s = g.s
        f["answers"] = {}
        f["sequential"] = any(len(order_areas(s, h)) > max_placeable(s, h) for h in rules.player_houses(s))
        f["done"] = []
        s.orders_revealed = False

    def _waiting_on(self, g: Game, f: Frame) -> list[str]:
        holders = houses_with_units(g.s)
        houses = [h for h in rules.player_houses(g.s) if h in holders]
        if f["sequential"]:
            pending = [h for h in houses if h not in f["done"]]
            return pending[:1]
        return houses

    def _vassals_waiting(self, g: Game, f: Frame) -> list[str]:
        """M-VASSAL-09: once the players' own orders are placed, each liege in turn order gives his vassals' orders,
        one vassal after another."""
        s = g.s
        holders = houses_with_units(s)
        out = []
        for liege in rules.player_houses(s):
            out += [v for v in rules.vassals_of(s, liege) if v in holders and v not in f["answers"]]
        return out

    def _asked(self, g: Game, f: Frame) -> list[str]:
        """The houses with an orders prompt: the players (all at once, or one by one when short of tokens), then
        one vassal at a time."""
        self._init(g, f)
        waiting = self._waiting_on(g, f)
        if f["sequential"] and waiting:
            return waiting
        if not f["sequential"] and not all(h in f["answers"] for h in waiting):
            return waiting
        return self._vassals_waiting(g, f)[:1]

    @staticmethod
    def _prompt_id(g: Game, f: Frame, house: str) -> str:
        """A house's orders prompt's id: a vassal's orders are a kind of their own."""
        return prompt_id(f, PromptKind.VASSAL_ORDERS if house in g.s.vassals else PromptKind.ORDERS, house)

    def _prompt(self, g: Game, f: Frame, house: str) -> Prompt:
        s = g.s
        areas = order_areas(s, house)
        if house in s.vassals:
            return Prompt(
                id=self._prompt_id(g, f, house),
                house=house,
                kind=PromptKind.VASSAL_ORDERS,
                choices={"areas": areas, "tokens": vassal_tokens(s), "max": VASSAL_ORDERS_MAX},
                default={"orders": {}},
                info={"restrictions": list(s.restrictions), "round": s.round, "liege": s.vassals[house]},
                secret=True,
            )
        return Prompt(
            id=self._prompt_id(g, f, house),
            house=house,
            kind=PromptKind.ORDERS,
            choices={
                "areas": areas,
                "tokens": dict(usable_tokens(s, house)),
                "stars": rules.stars_allowed(s, house),
                "must_cover_all": not f["sequential"] or len(areas) <= max_placeable(s, house),
            },
            default={"orders": default_orders(s, house, areas)},
            info={"restrictions": list(s.restrictions), "round": s.round},
            answered=house in f["answers"],
            secret=True,
        )

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        return [self._prompt(g, f, house) for house in self._asked(g, f)]

    def prompt_for(self, g: Game, f: Frame, house: str) -> Prompt | None:
        return self._prompt(g, f, house) if house in self._asked(g, f) else None

    def asks(self, g: Game, f: Frame) -> bool:
        return bool(self._asked(g, f))

    def awaiting(self, g: Game, f: Frame) -> list[str]:
        return [h for h in self._asked(g, f) if h not in f["answers"]]

    def prompt_ids(self, g: Game, f: Frame) -> list[str]:
        return [self._prompt_id(g, f, house) for house in self._asked(g, f)]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        self._init(g, f)
        s = g.s
        a = expect_dict(answer, "orders")
        if house in s.vassals:
            f["answers"][house] = validate_vassal_orders(s, house, a["orders"])
            g.emit("orders-submitted", house=house)
            return
        areas = order_areas(s, house)
        orders = validate_orders(s, house, a["orders"], required=areas, short=len(areas) > max_placeable(s, house))
        f["answers"][house] = orders
        if f["sequential"]:
            f["done"].append(house)
        g.emit("orders-submitted", house=house)

    def advance(self, g: Game, f: Frame) -> None:
        s = g.s
        s.orders = {}
        for house, orders in f["answers"].items():
            for area, t in orders.items():
                s.orders[area] = PlacedOrder(house, t)
        s.orders_revealed = True
        g.emit("orders-revealed", orders={a: o.to_dict() for a, o in sorted(s.orders.items())})
        g.pop(f)
        # The restrictions bind only this planning phase, the Raven's swap included (B-WCARD-17).
        restrictions, s.restrictions = s.restrictions, []
        g.push("raven", stage="choose", restrictions=restrictions)


@register
class Raven(Step):
    """B-RAVEN-01..05: swap one order for an unused one, or look at the top wildling card."""

    type = "raven"

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        s = g.s
        house = rules.holder(s, "kings_court")
        if (s.raven_used and f["stage"] != "peek") or f["stage"] == "done":
            return []
        if f["stage"] == "choose":
            swaps = self._swaps(s, house, f.get("restrictions", []))
            return [
                Prompt(
                    id=prompt_id(f, PromptKind.RAVEN, house),
                    house=house,
                    kind=PromptKind.RAVEN,
                    choices={"swap": swaps, "peek": bool(s.wildling_deck)},
                    default={"action": "none"},
                )
            ]
        return [
            Prompt(
                id=prompt_id(f, PromptKind.RAVEN_WILDLING, house),
                house=house,
                kind=PromptKind.RAVEN_WILDLING,
                choices=["top", "bottom"],
                default="top",
                info={"card": s.wildling_deck[0]},
            )
        ]

    def _swaps(self, s: GameState, house: str, restrictions: list[str]) -> dict[str, list[str]]:
        placed = {a: o.token for a, o in s.orders.items() if o.house == house}
        used = Counter(placed.values())
        forbidden = forbidden_tokens(restrictions)
        stars = sum(1 for t in placed.values() if token(t).star)
        allowed = rules.stars_allowed(s, house)
        out: dict[str, list[str]] = {}
        for area, current in sorted(placed.items()):
            options = []
            for t in ruleset(s).order_tokens(s).values():
                if t.id == current or used[t.id] >= t.copies or t.id in forbidden:
                    continue
                if t.star and stars - token(current).star + 1 > allowed:
                    continue
                options.append(t.id)
            if options:
                out[area] = options
        return out

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        s = g.s
        if f["stage"] == "peek":
            where = expect_choice(answer, ["top", "bottom"], "place for the wildling card")
            if where == "bottom":
                s.wildling_deck.append(s.wildling_deck.pop(0))
            g.emit("raven-wildling-placed", house=house, private_to=house, card=s.houses[house].raven_peek, where=where)
            f["stage"] = "done"
            return
        a = expect_dict(answer, "action")
        action = expect_choice(a["action"], ["none", "swap", "peek"], "Raven action")
        if action == "none":
            g.emit("raven-declined", house=house)
            f["stage"] = "done"
        elif action == "swap":
            a = expect_dict(answer, "action", "area", "token")
            swaps = self._swaps(s, house, f.get("restrictions", []))
            if not isinstance(a["area"], str) or a["area"] not in swaps:
                raise RuleError("raven-bad-area", "You have no order there that can be swapped.", area=a["area"])
            expect_choice(a["token"], swaps[a["area"]], "replacement order")
            old = s.orders[a["area"]].token
            s.orders[a["area"]] = PlacedOrder(house, a["token"])
            s.raven_used = True
            g.emit("raven-swapped", house=house, area=a["area"], old=old, new=a["token"])
            f["stage"] = "done"
        else:
            if not s.wildling_deck:
                raise RuleError("raven-no-deck", "There is no wildling card to look at.")
            s.raven_used = True
            s.houses[house].raven_peek = s.wildling_deck[0]
            g.emit("raven-peeked", house=house)
            g.emit("raven-card", house=house, private_to=house, card=s.wildling_deck[0])
            f["stage"] = "peek"

    def advance(self, g: Game, f: Frame) -> None:
        g.pop(f)
        ruleset(g.s).orders_settled(g)
