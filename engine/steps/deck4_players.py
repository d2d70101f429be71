"""Three deck IV texts (Mother of Dragons, issue Y) that reach past Targaryen's loyalty tokens: its dragons, and the
other players (M-D4CARD-01..03 in the Mother of Dragons coverage report). Each registers with ``deck4_text`` and
acts once its banner's tokens are placed (``deck4-card``, M-DECK4-02).

- **Fire Made Flesh** (``fire-made-flesh``): Targaryen chooses one of (a) destroy one of its dragons on the board and
  move one dragon strength token still on the round track onto the dragon track at once (every dragon +1 now; that
  round's space then adds nothing when the round marker reaches it), (b) put one destroyed dragon back into Pentos,
  (c) nothing. Only legal options are offered, each spelled out: (a) needs a dragon on the board *and* a token still
  on the round track (in round 10, or once every token has moved, there is none: a dragon is not destroyed for
  nothing); (b) needs Targaryen to control Pentos, a dragon off the board (every dragon not on the board is a
  destroyed one: all three start on it) and the dragon in Pentos to keep Targaryen within its supply limits (a dragon
  obeys every supply rule, M-TARG-11, and the base game never puts a unit where it breaks supply: a Mustering
  recruit that would is refused). With (c) the only option left, nothing is asked. This is the one card that brings
  a destroyed dragon back (M-TARG-10) and moves a token before its round (M-TARG-13).
- **Playing With Fire** (``playing-with-fire``, then ``loyalty-unit``): for 1 Power Targaryen picks a land of
  Westeros that nobody controls and another player (no vassal: it has no player); a loyalty token goes there and the
  picked player puts one of his own land units there, of the type he chooses among those still in his reserve (a
  footman, a knight, a siege engine; never asked when only one type is left). "Nobody controls" is read strictly:
  no units, no Power token, no printed crest of a house in play, and no neutral force token (King's Landing: its
  force holds it, as the mirror rules), impassable token or garrison either. A player
  without any land unit in his reserve cannot be picked (the text has him place one); with no such player, no such
  land, no token left in the reserve or no Power, the card does nothing. Supply: the land is empty, so the unit stands
  alone, and a lone unit is no army (B-SUPPLY-02): it never breaks supply, so nothing is checked or reconciled. The
  unit may give its house a seventh castle: that wins at once, as any castle taken in the Westeros phase.
- **The Long Plan** (``loyalty-player``, then ``loyalty-areas``): for 1 Power Targaryen picks another player (no
  vassal), who puts one loyalty token in each of two different lands of Westeros of his choice (he must: the text
  gives him no way out). With a single token left in the reserve he places that one; with none, the card does
  nothing. A token he puts where Targaryen rules is collected at once, as every token (M-TARG-05).

Targaryen's Power is checked again when it answers: a gift may have taken it since it was asked (M-GIFT-01).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import rules
from engine.board_ops import destroy_units, place_units
from engine.errors import RuleError
from engine.flow import Ask, Frame, Question, expect_choice, register
from engine.prompts import PromptKind
from engine.rulesets import ruleset
from engine.state import GameState, Unit
from engine.steps.loyalty import deck4_card, deck4_text, place, push_areas, reserve, spend, westeros_lands
from engine.steps.supply import settle

if TYPE_CHECKING:
    from engine.game import Game

TARGARYEN = "targaryen"
DRAGON = "dragon"
FIRE_MADE_FLESH = "fire-made-flesh"
PLAYING_WITH_FIRE = "playing-with-fire"
THE_LONG_PLAN = "the-long-plan"
DESTROY, REVIVE, NOTHING = "destroy", "revive", "nothing"


def _cost(card: str) -> int:
    return int(deck4_card(card)["cost"])


def _can_pay(s: GameState, card: str) -> bool:
    return s.houses[TARGARYEN].power >= _cost(card)


def _check_power(g: Game, card: str) -> None:
    """A gift may have taken Targaryen's Power since it was asked (M-GIFT-01)."""
    power = g.s.houses[TARGARYEN].power
    if power < _cost(card):
        raise RuleError("deck4-power", f"This costs {_cost(card)} Power; you have {power}.", cost=_cost(card))


def other_players(s: GameState) -> list[str]:
    """The players Targaryen may pick, in turn order: every house a player holds but Targaryen (never a vassal)."""
    return [h for h in rules.player_houses(s) if h != TARGARYEN]


# ===== Fire Made Flesh =====


def dragon_home(s: GameState) -> str:
    return rules.home(s, TARGARYEN)


def dragons_by_area(s: GameState) -> dict[str, int]:
    """Targaryen's dragons on the board, by area (board order)."""
    counts = {a: sum(1 for u in rules.units_in(s, a) if u.type == DRAGON) for a in rules.board(s).areas}
    return {a: n for a, n in counts.items() if n}


def fire_options(s: GameState) -> list[dict[str, Any]]:
    """Every legal answer to Fire Made Flesh, spelled out: each dragon's area with each round whose token is still on
    the round track, then the revival in Pentos, then nothing."""
    options: list[dict[str, Any]] = []
    rounds: list[int] = sorted(s.targaryen.get("dragon_rounds", []))
    for area in dragons_by_area(s):
        options += [{"option": DESTROY, "area": area, "round": r} for r in rounds]
    if can_revive(s):
        options.append({"option": REVIVE, "area": dragon_home(s)})
    options.append({"option": NOTHING})
    return options


def can_revive(s: GameState) -> bool:
    """A destroyed dragon may come back to Pentos: Targaryen controls it, a dragon is off the board, and one more unit
    there keeps Targaryen within its supply limits (M-TARG-11)."""
    home = dragon_home(s)
    if rules.controller(s, home) != TARGARYEN or rules.units_available(s, TARGARYEN, DRAGON) <= 0:
        return False
    return rules.supply_ok(s, TARGARYEN, {home: len(rules.units_in(s, home)) + 1})


@deck4_text(FIRE_MADE_FLESH)
def fire_made_flesh(g: Game, card: str) -> None:
    if len(fire_options(g.s)) == 1:  # only "nothing" is left: nothing to ask
        g.emit("deck4-nothing", card=card, house=TARGARYEN)
        return
    g.push(FIRE_MADE_FLESH, card=card)


@register
class FireMadeFlesh(Question):
    """Fire Made Flesh: Targaryen's choice. Answer one of the choices: ``{"option": "destroy", "area", "round"}``
    (the dragon in that area is destroyed and that round's token moves onto the dragon track), ``{"option":
    "revive", "area": "pentos"}`` or ``{"option": "nothing"}`` (the default)."""

    type = FIRE_MADE_FLESH
    kind = PromptKind.FIRE_MADE_FLESH

    def asked(self, g: Game, f: Frame) -> str:
        return TARGARYEN

    def ask(self, g: Game, f: Frame) -> Ask:
        s = g.s
        return Ask(
            choices=fire_options(s),
            default={"option": NOTHING},
            info={
                "card": f["card"],
                "dragon_strength": int(s.targaryen.get("dragon_strength", 0)),
                "dragon_rounds": sorted(s.targaryen.get("dragon_rounds", [])),
                "dragons": dragons_by_area(s),
                "dragons_destroyed": rules.units_available(s, TARGARYEN, DRAGON),
                "round": s.round,
            },
        )

    def check(self, g: Game, f: Frame, answer: Any) -> Any:
        if not isinstance(answer, dict):
            raise RuleError("bad-answer", "Answer with one of the options the card offers.")
        return dict(expect_choice(answer, fire_options(g.s), "choice for Fire Made Flesh"))

    def apply(self, g: Game, f: Frame, chosen: Any) -> None:
        s = g.s
        card = f["card"]
        if chosen["option"] == NOTHING:
            g.emit("deck4-declined", card=card, house=TARGARYEN)
        elif chosen["option"] == REVIVE:
            place_units(s, chosen["area"], [Unit(TARGARYEN, DRAGON)])
            g.emit("unit-placed", house=TARGARYEN, area=chosen["area"], unit=DRAGON, card=card)
        else:
            dragon = next(u for u in rules.units_in(s, chosen["area"]) if u.type == DRAGON)
            destroy_units(g, chosen["area"], [dragon], card)
            t = s.targaryen
            t["dragon_rounds"].remove(chosen["round"])
            t["dragon_strength"] += 1
            g.emit(
                "dragon-token-moved", house=TARGARYEN, round=chosen["round"], strength=t["dragon_strength"], card=card
            )
            settle(g)  # a land the dragon held alone may be lost, and with it the ships in its port (B-PORT-10)


# ===== Playing With Fire =====


def unclaimed_lands(s: GameState) -> list[str]:
    """The lands of Westeros that nobody controls: no units, no Power token, no crest of a house in play, and no
    neutral force, impassable token or garrison either (board order)."""
    return [
        a
        for a in westeros_lands(s)
        if rules.controller(s, a) is None and a not in s.neutral and not s.garrisons.get(a) and not s.units.get(a)
    ]


def reserve_land_units(s: GameState, house: str) -> list[str]:
    """The land unit types ``house`` may still put on the board (figures left in its reserve), weakest first; never a
    dragon (only Targaryen has those)."""
    limits = ruleset(s).houses()[house].unit_limits
    kinds = [
        u
        for u in ruleset(s).unit_types().values()
        if not u.at_sea and u.musterable and limits.get(u.id, 0) - rules.units_on_board(s, house, u.id) > 0
    ]
    return [u.id for u in sorted(kinds, key=lambda u: u.weakness)]


def fire_players(s: GameState) -> list[str]:
    """The players Playing With Fire may pick: those with a land unit left to put on the board."""
    return [h for h in other_players(s) if reserve_land_units(s, h)]


@deck4_text(PLAYING_WITH_FIRE)
def playing_with_fire(g: Game, card: str) -> None:
    s = g.s
    if not (_can_pay(s, card) and reserve(s) > 0 and unclaimed_lands(s) and fire_players(s)):
        g.emit("deck4-nothing", card=card, house=TARGARYEN)
        return
    g.push(PLAYING_WITH_FIRE, card=card)


@register
class PlayingWithFire(Question):
    """Playing With Fire: Targaryen may pay 1 Power to pick a land nobody controls and another player. Answer
    ``{"area": land, "house": player}`` from the choices' ``areas`` and ``houses``, or ``null`` to decline (the
    default; nothing is paid)."""

    type = PLAYING_WITH_FIRE
    kind = PromptKind.PLAYING_WITH_FIRE

    def asked(self, g: Game, f: Frame) -> str:
        return TARGARYEN

    def ask(self, g: Game, f: Frame) -> Ask:
        s = g.s
        houses = fire_players(s)
        return Ask(
            choices={"areas": unclaimed_lands(s), "houses": houses, "cost": _cost(f["card"])},
            default=None,
            info={
                "card": f["card"],
                "power": s.houses[TARGARYEN].power,
                "reserve": reserve(s),
                "units": {h: reserve_land_units(s, h) for h in houses},
            },
        )

    def check(self, g: Game, f: Frame, answer: Any) -> Any:
        if answer is None:
            return None
            return
        if not isinstance(answer, dict) or set(answer) != {"area", "house"}:
            raise RuleError("bad-answer", "Answer with an area and a house, or null.", expected=["area", "house"])
        expect_choice(answer["area"], unclaimed_lands(g.s), "land nobody controls")
        expect_choice(answer["house"], fire_players(g.s), "player with a land unit in reserve")
        _check_power(g, f["card"])
        return {"area": answer["area"], "house": answer["house"]}

    def apply(self, g: Game, f: Frame, chosen: Any) -> None:
        card = f["card"]
        chosen = chosen
        if chosen is None:
            g.emit("deck4-declined", card=card, house=TARGARYEN)
            return
        spend(g, TARGARYEN, _cost(card), card)
        place(g, chosen["area"], card)
        g.emit("deck4-player-picked", card=card, house=TARGARYEN, player=chosen["house"])
        types = reserve_land_units(g.s, chosen["house"])
        if len(types) == 1:  # no choice to make
            put_unit(g, card, chosen["house"], chosen["area"], types[0])
            return
        g.push("loyalty-unit", card=card, house=chosen["house"], area=chosen["area"])


def put_unit(g: Game, card: str, house: str, area: str, unit: str) -> None:
    place_units(g.s, area, [Unit(house, unit)])
    g.emit("unit-placed", house=house, area=area, unit=unit, card=card)
    g.check_instant_win()  # the land may be his seventh castle


@register
class LoyaltyUnit(Question):
    """The player Playing With Fire picked chooses the unit he puts into the land. Answer one of the choices: a land
    unit type still in his reserve, weakest first; the default is the first."""

    type = "loyalty-unit"
    kind = PromptKind.LOYALTY_UNIT

    def ask(self, g: Game, f: Frame) -> Ask:
        types = reserve_land_units(g.s, f["house"])
        return Ask(
            choices=types,
            default=types[0],
            info={"card": f["card"], "area": f["area"], "by": TARGARYEN},
        )

    def check(self, g: Game, f: Frame, answer: Any) -> Any:
        return expect_choice(answer, reserve_land_units(g.s, f["house"]), "unit type in your reserve")

    def apply(self, g: Game, f: Frame, chosen: Any) -> None:
        put_unit(g, f["card"], f["house"], f["area"], chosen)


# ===== The Long Plan =====


@deck4_text(THE_LONG_PLAN)
def the_long_plan(g: Game, card: str) -> None:
    s = g.s
    if not (_can_pay(s, card) and reserve(s) > 0 and other_players(s)):
        g.emit("deck4-nothing", card=card, house=TARGARYEN)
        return
    g.push("loyalty-player", card=card)


@register
class LoyaltyPlayer(Question):
    """The Long Plan: Targaryen may pay 1 Power to pick another player, who then places two loyalty tokens. Answer a
    house among the choices, or ``null`` (the last choice, the default) to decline; nothing is paid then."""

    type = "loyalty-player"
    kind = PromptKind.LOYALTY_PLAYER

    def asked(self, g: Game, f: Frame) -> str:
        return TARGARYEN

    def ask(self, g: Game, f: Frame) -> Ask:
        s = g.s
        return Ask(
            choices=[*other_players(s), None],
            default=None,
            info={
                "card": f["card"],
                "cost": _cost(f["card"]),
                "power": s.houses[TARGARYEN].power,
                "tokens": min(2, reserve(s)),
            },
        )

    def check(self, g: Game, f: Frame, answer: Any) -> Any:
        expect_choice(answer, [*other_players(g.s), None], "player")
        if answer is not None:
            _check_power(g, f["card"])
        return answer

    def apply(self, g: Game, f: Frame, chosen: Any) -> None:
        card = f["card"]
        player = chosen
        if player is None:
            g.emit("deck4-declined", card=card, house=TARGARYEN)
            return
        spend(g, TARGARYEN, _cost(card), card)
        g.emit("deck4-player-picked", card=card, house=TARGARYEN, player=player)
        push_areas(g, card, house=player, areas=westeros_lands(g.s), count=2, exact=True, optional=False)
