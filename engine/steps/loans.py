"""The Iron Bank's loans (Mother of Dragons, M-LOAN-01..10; issue Z): each loan's effect, resolved at once when it is
taken (``engine.steps.iron_bank.take_loan`` calls the handler registered with ``loan_effect`` for the card's
``effect``). The card's data (data/mother-of-dragons/iron_bank.json) says what each effect needs.

- **The Faceless Men** (``faceless-men``, M-LOAN-01; ``loan-faceless``): one knight in one area and one footman in a
  different area are destroyed, whoever they belong to (any player, vassal or the taker himself). The taker must name
  a knight whenever some area holds one, and a footman whenever some area other than the knight's holds one: the
  text is mandatory. Picking the knight in the only area with footmen, so that no footman is left to take, is
  allowed (the text only asks for two different areas); the default looks for a pair first. With no knight and no
  footman anywhere nothing is asked (``loan-nothing``). Emptied areas lose their orders (the Consolidate Power step
  is under way), ships in the port of a land its house no longer controls go (B-PORT-10) and a seventh castle wins,
  as for any unit destroyed outside a battle.
- **Customs Officer** (``power``, M-LOAN-02): in ``engine.steps.iron_bank``.
- **Loyal Maester, Savvy Steward, Master-at-Arms, Expert Artificer** (``develop``, M-LOAN-03..06, -10;
  ``loan-areas``): development tokens in ``count`` different areas of the taker's choice: any land of the board
  (Westeros and Essos, controlled or not) for a barrel or a crown; for Master-at-Arms' stronghold tokens, any area
  whose castle is still a castle on the developed board (not a declined one, nor one already made a stronghold).
  With fewer such areas than tokens, every one of them takes a token; with none (Master-at-Arms with no castle left)
  nothing is asked and the rest of the card still applies (``loan-nothing`` when there is no rest). Then Savvy
  Steward moves the taker up one space on the Supply track, never past its top (no reconciliation: a higher level
  never breaks supply; the next Supply card sets the level to the barrels again), and Expert Artificer gives 8 Power
  from the pool, as much as his tokens allow.
- **Pyromancer** (``pyromancer``, M-LOAN-07; ``loan-pyromancer``): any area with a castle (fortification 1 on the
  developed board: a stronghold, printed or made by Master-at-Arms, is no castle) goes into decline, its castle gone
  for good (no mustering, no victory point, no siege), then takes the crown or the barrel token the taker chooses.
  With no castle anywhere nothing is asked (``loan-nothing``).
- **Spymaster** (``spymaster``, M-LOAN-08; ``loan-spy-deck`` then ``loan-spy-arrange``): the taker picks a Westeros
  deck (I-IV, 1-based; a deck always holds ten cards, and one with a single card would show that one), looks at its
  top two cards and puts them back, each on top or at the bottom, in the order he chooses. The cards stay on the deck
  while he looks (nothing else can draw meanwhile) and only his prompt names them: the event says how many went on
  top and how many to the bottom, never which.
- **Full Host, Vanguard Cavalry, Siege Engineers, Sea Raiders** (``units``, M-LOAN-09; ``loan-units``): the printed
  units, as far as the taker's reserve holds them, are placed in areas he controls or holds units in: land units in
  such lands, ships in seas where he has ships or in ports he controls (a port follows its land, at most three ships
  in it). Never where a neutral force, or a garrison of another house, stands (his own areas never hold other
  houses' units). The whole placement must keep him within his supply limits (armies at sea count, B-SUPPLY-02), as
  a muster must. Decided: he may place fewer units than offered; those he leaves out stay in his reserve (the bank
  gives no second chance). With nothing placeable nothing is asked (``loan-nothing``).

Every answer is checked again against the position when it is given.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.bank import loan_card
from engine.board_ops import destroy_units, place_units
from engine.errors import RuleError
from engine.flow import Ask, Frame, Question, expect_choice, expect_dict, register
from engine.prompts import PromptKind
from engine.rulesets import ruleset
from engine.state import GameState, Unit
from engine.steps.iron_bank import decline, develop, loan_effect
from engine.steps.supply import settle

if TYPE_CHECKING:
    from engine.game import Game

KNIGHT, FOOTMAN = "knight", "footman"
PYROMANCER_TOKENS = ("crown", "barrel")
SPY_CARDS = 2


def _nothing(g: Game, house: str, loan: str) -> None:
    g.emit("loan-nothing", house=house, loan=loan)


# ===== The Faceless Men (M-LOAN-01) =====


def areas_with(s: GameState, unit_type: str) -> list[str]:
    """The areas holding a unit of this type, whoever's (board order)."""
    return [a for a in rules.board(s).areas if any(u.type == unit_type for u in s.units.get(a, []))]


def faceless_units(s: GameState) -> dict[str, dict[str, Any]]:
    """Every area holding a knight or a footman: its house and how many of each."""
    out: dict[str, dict[str, Any]] = {}
    for area in rules.board(s).areas:
        units = s.units.get(area, [])
        knights = sum(1 for u in units if u.type == KNIGHT)
        footmen = sum(1 for u in units if u.type == FOOTMAN)
        if knights or footmen:
            out[area] = {"house": units[0].house, KNIGHT: knights, FOOTMAN: footmen}
    return out


def faceless_default(s: GameState) -> dict[str, str | None]:
    """A knight with a footman in another area when there is such a pair, else whatever is legal."""
    knights, footmen = areas_with(s, KNIGHT), areas_with(s, FOOTMAN)
    for k in knights:
        other = next((a for a in footmen if a != k), None)
        if other is not None:
            return {KNIGHT: k, FOOTMAN: other}
    if knights:
        return {KNIGHT: knights[0], FOOTMAN: None}
    return {KNIGHT: None, FOOTMAN: footmen[0] if footmen else None}


@loan_effect("faceless-men")
def faceless_men(g: Game, house: str, loan: str) -> None:
    s = g.s
    if not areas_with(s, KNIGHT) and not areas_with(s, FOOTMAN):
        _nothing(g, house, loan)
        return
    g.push("loan-faceless", house=house, loan=loan)


@register
class LoanFaceless(Question):
    """The Faceless Men: answer ``{"knight": area or null, "footman": area or null}``, two different areas among the
    choices; a knight must be named whenever one is on the board, a footman whenever one stands outside the knight's
    area."""

    type = "loan-faceless"
    kind = PromptKind.LOAN_FACELESS

    def ask(self, g: Game, f: Frame) -> Ask:
        s = g.s
        return Ask(
            choices={KNIGHT: areas_with(s, KNIGHT), FOOTMAN: areas_with(s, FOOTMAN)},
            default=faceless_default(s),
            info={"loan": f["loan"], "units": faceless_units(s)},
        )

    def check(self, g: Game, f: Frame, answer: Any) -> Any:
        s = g.s
        a = expect_dict(answer, KNIGHT, FOOTMAN)
        if set(a) != {KNIGHT, FOOTMAN}:
            raise RuleError(
                "bad-answer", "Answer with a knight's area and a footman's area.", expected=[KNIGHT, FOOTMAN]
            )
        knights, footmen = areas_with(s, KNIGHT), areas_with(s, FOOTMAN)
        knight = expect_choice(a[KNIGHT], [*knights, None], "area with a knight")
        footman = expect_choice(a[FOOTMAN], [*footmen, None], "area with a footman")
        if knight is None and knights:
            raise RuleError("faceless-knight", "A knight must be destroyed: name its area.", options=knights)
        if knight is not None and knight == footman:
            raise RuleError("faceless-same-area", "The knight and the footman must be in different areas.", area=knight)
        others = [x for x in footmen if x != knight]
        if footman is None and others:
            raise RuleError("faceless-footman", "A footman must be destroyed: name its area.", options=others)
        return {KNIGHT: knight, FOOTMAN: footman}

    def apply(self, g: Game, f: Frame, chosen: dict[str, str | None]) -> None:
        s = g.s
        g.emit("loan-faceless", house=f["house"], loan=f["loan"], knight=chosen[KNIGHT], footman=chosen[FOOTMAN])
        for unit_type in (KNIGHT, FOOTMAN):
            area = chosen[unit_type]
            if area is None:
                continue
            pool = sorted((u for u in s.units[area] if u.type == unit_type), key=lambda u: not u.routed)
            destroy_units(g, area, pool[:1], "faceless-men")
        settle(g)  # orders of emptied areas, ports of lost lands (B-PORT-10), a seventh castle


# ===== development loans (M-LOAN-03..06, -10) =====


def land_areas(s: GameState) -> list[str]:
    """Every land of the board, Westeros and Essos (board order)."""
    return [a for a, area in rules.board(s).areas.items() if area.is_land]


def castle_areas(s: GameState) -> list[str]:
    """The areas whose castle is still a castle on the developed board (board order)."""
    return [a for a, area in rules.board(s).areas.items() if area.is_land and area.fortification == 1]


def develop_areas(s: GameState, where: str) -> list[str]:
    return castle_areas(s) if where == "castle" else land_areas(s)


def develop_count(s: GameState, loan: str) -> int:
    conf = loan_card(loan)["develop"]
    return min(int(conf["areas"]), len(develop_areas(s, conf["where"])))


@loan_effect("develop")
def develop_loan(g: Game, house: str, loan: str) -> None:
    if develop_count(g.s, loan) == 0:  # Master-at-Arms with no castle left: the rest of the card still applies
        conf = loan_card(loan)["develop"]
        if not conf.get("supply") and not conf.get("power"):
            _nothing(g, house, loan)
        develop_rest(g, house, loan)
        return
    g.push("loan-areas", house=house, loan=loan)


def develop_rest(g: Game, house: str, loan: str) -> None:
    """What the card does once its tokens are down: the Supply track (Savvy Steward) or Power (Expert Artificer)."""
    s = g.s
    conf = loan_card(loan)["develop"]
    rise = int(conf.get("supply", 0))
    if rise:
        top = len(data.setups()["supply_limits"]) - 1
        hs = s.houses[house]
        old = hs.supply
        hs.supply = min(top, old + rise)
        g.emit("loan-supply", house=house, loan=loan, old=old, supply=hs.supply)
    power = int(conf.get("power", 0))
    if power:
        gained = rules.gain_power(s, house, power)
        g.emit("loan-power", house=house, loan=loan, gained=gained)


@register
class LoanAreas(Question):
    """A development loan: answer a list of exactly ``min(count, len(areas))`` different areas among the choices'
    ``areas``; each takes the choices' ``token``."""

    type = "loan-areas"
    kind = PromptKind.LOAN_AREAS

    def ask(self, g: Game, f: Frame) -> Ask:
        s, loan = g.s, f["loan"]
        conf = loan_card(loan)["develop"]
        areas = develop_areas(s, conf["where"])
        count = int(conf["areas"])
        return Ask(
            choices={"areas": areas, "count": count, "token": conf["token"]},
            default=areas[: min(count, len(areas))],
            info={"loan": loan, "power": int(conf.get("power", 0)), "supply": int(conf.get("supply", 0))},
        )

    def check(self, g: Game, f: Frame, answer: Any) -> Any:
        s, loan = g.s, f["loan"]
        areas = develop_areas(s, loan_card(loan)["develop"]["where"])
        count = develop_count(s, loan)
        if not isinstance(answer, list):
            raise RuleError("bad-answer", "Answer with a list of areas.")
        for area in answer:
            expect_choice(area, areas, "area for this token")
        if len(set(answer)) != len(answer):
            raise RuleError("loan-areas-distinct", "Each area takes one token: name different areas.")
        if len(answer) != count:
            raise RuleError("loan-areas-count", f"Choose exactly {count} area(s).", count=count)
        return list(answer)

    def apply(self, g: Game, f: Frame, chosen: Any) -> None:
        house, loan = f["house"], f["loan"]
        token = loan_card(loan)["develop"]["token"]
        for area in chosen:
            develop(g, house, area, token)
        develop_rest(g, house, loan)


# ===== Pyromancer (M-LOAN-07) =====


@loan_effect("pyromancer")
def pyromancer(g: Game, house: str, loan: str) -> None:
    if not castle_areas(g.s):
        _nothing(g, house, loan)
        return
    g.push("loan-pyromancer", house=house, loan=loan)


@register
class LoanPyromancer(Question):
    """Pyromancer: answer ``{"area": a castle's area, "token": "crown" or "barrel"}``; the castle goes into decline
    and the token takes its place."""

    type = "loan-pyromancer"
    kind = PromptKind.LOAN_PYROMANCER

    def ask(self, g: Game, f: Frame) -> Ask:
        areas = castle_areas(g.s)
        return Ask(
            choices={"areas": areas, "tokens": list(PYROMANCER_TOKENS)},
            default={"area": areas[0], "token": PYROMANCER_TOKENS[0]},
            info={"loan": f["loan"]},
        )

    def check(self, g: Game, f: Frame, answer: Any) -> Any:
        a = expect_dict(answer, "area", "token")
        if set(a) != {"area", "token"}:
            raise RuleError("bad-answer", "Answer with an area and a token.", expected=["area", "token"])
        expect_choice(a["area"], castle_areas(g.s), "area with a castle")
        expect_choice(a["token"], list(PYROMANCER_TOKENS), "development token")
        return {"area": a["area"], "token": a["token"]}

    def apply(self, g: Game, f: Frame, chosen: Any) -> None:
        house, area, token = f["house"], chosen["area"], chosen["token"]
        decline(g, house, area, "castle")
        develop(g, house, area, token)


# ===== Spymaster (M-LOAN-08) =====


def spy_decks(s: GameState) -> list[int]:
    """The Westeros decks (1-based) holding at least one card."""
    return [i + 1 for i, deck in enumerate(s.westeros_decks) if deck]


@loan_effect("spymaster")
def spymaster(g: Game, house: str, loan: str) -> None:
    if not spy_decks(g.s):  # pragma: no cover - every deck always holds ten cards
        _nothing(g, house, loan)
        return
    g.push("loan-spy-deck", house=house, loan=loan)


@register
class LoanSpyDeck(Question):
    """Spymaster, first: answer the number (1-based) of a Westeros deck among the choices."""

    type = "loan-spy-deck"
    kind = PromptKind.LOAN_SPY_DECK

    def ask(self, g: Game, f: Frame) -> Ask:
        s = g.s
        decks = spy_decks(s)
        return Ask(
            choices=decks,
            default=decks[0],
            info={"loan": f["loan"], "sizes": {str(i + 1): len(d) for i, d in enumerate(s.westeros_decks)}},
        )

    def check(self, g: Game, f: Frame, answer: Any) -> Any:
        if not isinstance(answer, int) or isinstance(answer, bool):
            raise RuleError("bad-answer", "Answer with a deck's number.")
        return expect_choice(answer, spy_decks(g.s), "Westeros deck")

    def apply(self, g: Game, f: Frame, chosen: Any) -> None:
        deck = int(chosen)
        count = min(SPY_CARDS, len(g.s.westeros_decks[deck - 1]))
        # Only how many cards are looked at is kept: they stay on the deck, and only the taker's prompt names them.
        # The look is a private event, so nobody seated can undo past it (as past the Raven's peek).
        cards = list(g.s.westeros_decks[deck - 1][:count])
        g.emit("loan-spy-look", house=f["house"], loan=f["loan"], deck=deck, cards=cards, private_to=f["house"])
        g.push("loan-spy-arrange", house=f["house"], loan=f["loan"], deck=deck, count=count)


@register
class LoanSpyArrange(Question):
    """Spymaster, then: answer ``{"top": [ids], "bottom": [ids]}`` using each looked-at card once: ``top``'s first
    card becomes the deck's top card, ``bottom``'s last its very bottom. The default puts them back as they were."""

    type = "loan-spy-arrange"
    kind = PromptKind.LOAN_SPY_ARRANGE

    def _cards(self, g: Game, f: Frame) -> list[str]:
        return list(g.s.westeros_decks[f["deck"] - 1][: f["count"]])

    def ask(self, g: Game, f: Frame) -> Ask:
        cards = self._cards(g, f)
        return Ask(
            choices={"deck": f["deck"], "cards": cards},
            default={"top": list(cards), "bottom": []},
            info={"loan": f["loan"], "deck": f["deck"], "cards": list(cards)},
        )

    def check(self, g: Game, f: Frame, answer: Any) -> Any:
        a = expect_dict(answer, "top", "bottom")
        if set(a) != {"top", "bottom"}:
            raise RuleError(
                "bad-answer", "Answer with the cards for the top and for the bottom.", expected=["top", "bottom"]
            )
        top, bottom = a["top"], a["bottom"]
        if not (isinstance(top, list) and isinstance(bottom, list) and all(isinstance(c, str) for c in top + bottom)):
            raise RuleError("bad-answer", "top and bottom are lists of card ids.")
        if Counter(top + bottom) != Counter(self._cards(g, f)):
            raise RuleError("spy-cards", "Put back each card you looked at exactly once.")
        return {"top": list(top), "bottom": list(bottom)}

    def apply(self, g: Game, f: Frame, chosen: Any) -> None:
        deck = g.s.westeros_decks[f["deck"] - 1]
        top, bottom = chosen["top"], chosen["bottom"]
        deck[:] = [*top, *deck[f["count"] :], *bottom]
        g.emit("loan-spymaster", house=f["house"], loan=f["loan"], deck=f["deck"], top=len(top), bottom=len(bottom))
        g.emit(
            "loan-spy-placed",
            house=f["house"],
            loan=f["loan"],
            deck=f["deck"],
            top=list(top),
            bottom=list(bottom),
            private_to=f["house"],
        )


# ===== unit loans (M-LOAN-09) =====


def placeable(s: GameState, house: str, loan: str) -> dict[str, int]:
    """The card's units, as many of each as the house's reserve still holds (only types with one left)."""
    out: dict[str, int] = {}
    for t, n in loan_card(loan)["units"].items():
        left = min(int(n), rules.units_available(s, house, t))
        if left > 0:
            out[t] = left
    return out


def _port_room(s: GameState, area: str, adding: int = 1) -> bool:
    capacity: int = data.setups()["port_capacity"]
    return len(s.units.get(area, [])) + adding <= capacity


def unit_places(s: GameState, house: str, unit_type: str) -> list[str]:
    """Where a unit of this type may go, supply aside: lands the house controls (land units), seas holding its ships
    and ports it controls with room left (ships); never where a neutral force or another house's garrison or units
    stand (board order)."""
    board = rules.board(s)
    at_sea = ruleset(s).unit_types()[unit_type].at_sea
    out: list[str] = []
    for a, area in board.areas.items():
        if rules.occupant(s, a) not in (None, house) or a in s.neutral:
            continue
        if a in s.garrisons and area.home_of != house:
            continue
        if not at_sea:
            ok = area.is_land and rules.controller(s, a) == house
        elif area.is_sea:
            ok = rules.occupant(s, a) == house
        else:
            ok = area.is_port and rules.controller(s, a) == house and _port_room(s, a)
        if ok:
            out.append(a)
    return out


def unit_areas(s: GameState, house: str, unit_type: str) -> list[str]:
    """Where one more unit of this type may go now: ``unit_places`` that keep the house within its supply limits."""
    return [
        a for a in unit_places(s, house, unit_type) if rules.supply_ok(s, house, {a: len(rules.units_in(s, a)) + 1})
    ]


def units_choices(s: GameState, house: str, loan: str) -> dict[str, Any]:
    units = placeable(s, house, loan)
    return {"units": units, "areas": {t: unit_areas(s, house, t) for t in units}}


def default_units(s: GameState, house: str, loan: str) -> dict[str, list[str]]:
    """One unit after the other, each where it adds least to an army (an empty area first), while supply allows."""
    counts = {a: len(us) for a, us in s.units.items()}
    plan: dict[str, list[str]] = {}
    for t, n in placeable(s, house, loan).items():
        places = unit_places(s, house, t)
        at_sea = ruleset(s).unit_types()[t].at_sea
        for _ in range(n):
            fits = [
                a
                for a in places
                if rules.supply_ok(s, house, {**{x: counts.get(x, 0) for x in plan}, a: counts.get(a, 0) + 1})
                and not (
                    at_sea and rules.board(s).areas[a].is_port and counts.get(a, 0) + 1 > data.setups()["port_capacity"]
                )
            ]
            if not fits:
                break
            area = min(fits, key=lambda a: counts.get(a, 0))
            counts[area] = counts.get(area, 0) + 1
            plan.setdefault(area, []).append(t)
    return plan


@loan_effect("units")
def units_loan(g: Game, house: str, loan: str) -> None:
    choices = units_choices(g.s, house, loan)
    if not any(choices["areas"].values()):
        _nothing(g, house, loan)
        return
    g.push("loan-units", house=house, loan=loan)


@register
class LoanUnits(Question):
    """A unit loan: answer ``{area: [unit types]}``, each type at most as many times as the choices' ``units`` and
    each area among the choices' ``areas`` for its type, the whole within the house's supply limits. Fewer units than
    offered may be placed (``{}`` places none); the rest stay in the reserve."""

    type = "loan-units"
    kind = PromptKind.LOAN_UNITS

    def ask(self, g: Game, f: Frame) -> Ask:
        s, house, loan = g.s, f["house"], f["loan"]
        return Ask(
            choices=units_choices(s, house, loan),
            default=default_units(s, house, loan),
            info={"loan": loan, "printed": dict(loan_card(loan)["units"])},
        )

    def check(self, g: Game, f: Frame, answer: Any) -> Any:
        s, house, loan = g.s, f["house"], f["loan"]
        if not isinstance(answer, dict) or not all(
            isinstance(a, str) and isinstance(ts, list) and all(isinstance(t, str) for t in ts)
            for a, ts in answer.items()
        ):
            raise RuleError("bad-answer", "Answer with a map of areas to lists of unit types.")
        units = placeable(s, house, loan)
        total: Counter[str] = Counter()
        overrides: dict[str, int] = {}
        for area, types in answer.items():
            if not types:
                continue
            for t in types:
                expect_choice(t, list(units), "unit of this loan")
                if area not in unit_places(s, house, t):
                    raise RuleError("loan-units-area", f"A {t} cannot be placed in {area}.", area=area, unit=t)
            total.update(types)
            overrides[area] = len(rules.units_in(s, area)) + len(types)
            if rules.board(s).areas[area].is_port and overrides[area] > data.setups()["port_capacity"]:
                raise RuleError("port-full", f"{area} holds at most {data.setups()['port_capacity']} ships.", area=area)
        for t, n in total.items():
            if n > units[t]:
                raise RuleError("loan-units-count", f"You may place at most {units[t]} {t}.", unit=t, max=units[t])
        if not rules.supply_ok(s, house, overrides):
            raise RuleError("supply-exceeded", "That placement would break your supply limits.")
        return {a: list(ts) for a, ts in answer.items() if ts}

    def apply(self, g: Game, f: Frame, chosen: Any) -> None:
        house = f["house"]
        for area, types in chosen.items():
            place_units(g.s, area, [Unit(house, t) for t in types])
        g.emit("loan-units-placed", house=house, loan=f["loan"], placed=chosen)
