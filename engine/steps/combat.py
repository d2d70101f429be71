"""Combat as declared stages (B-COMBAT-*, B-SUPPORT-*, B-CAS-*, B-RETREAT-*, B-GARR-*, B-NEUTRAL-*).

One ``combat`` frame (``engine.combat.frame.CombatFrame``) walks the stages listed in ``engine.combat.frame.STAGES``;
each stage is a handler in ``STAGE_HANDLERS`` that asks its questions, takes their answers and moves the combat on.
House-card abilities hook into the stages through ``engine.abilities`` and may push frames of their own
(``engine.cards``): ``reveal`` runs the "cancel" then "immediately" abilities, ``victor`` the "if you win / lose"
ones, ``after`` the "after combat" ones (B-HCARD-03..05).

The attacking units stay in the area they marched from until the combat is decided, so an area never
holds two houses' units: a winning attacker moves in at clean-up, a losing one is routed where it stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from engine import abilities, data, rules
from engine.board_ops import destroy_units, enforce_ports, place_units, remove_power_token, take_units
from engine.combat.frame import (
    SIDES,
    CombatFrame,
    Side,
    StageName,
    combat,
    combat_fields,
    house_of,
    other,
    side_of,
    upgrade,
)
from engine.combat.losses import (
    capture_port_ships,
    destroy_fighting,
    discard_played_card,
    eligible_casualties,
    fit_supply,
    port_capture_limit,
    retreat_options,
    take_losses,
)
from engine.combat.strength import (
    base_strength,
    combat_units,
    icons,
    offered_support,
    support_areas,
    support_sides,
    total_strength,
)
from engine.errors import RuleError
from engine.flow import Frame, Step, expect_choice, prompt_id, register, stable_pick
from engine.prompts import Prompt, PromptKind
from engine.state import GameState, PlacedOrder, Unit

if TYPE_CHECKING:
    from engine.game import Game


def start_combat(g: Game, house: str, origin: str, area: str, units: list[str], march_token: str) -> None:
    s = g.s
    if area in s.neutral:
        defender = "neutral"
    else:
        defender = rules.occupant(s, area) or rules.controller(s, area) or "neutral"
    g.emit("combat-started", attacker=house, defender=defender, area=area, origin=origin, units=units)
    g.push(
        "combat",
        **combat_fields(area=area, origin=origin, attacker=house, defender=defender, units=units, march=march_token),
    )


class Stage:
    """One stage of a combat: its questions, their answers, and what happens when nobody is asked anything."""

    name: ClassVar[str]

    def prompts(self, g: Game, f: CombatFrame) -> list[Prompt]:
        return []

    def answer(self, g: Game, f: CombatFrame, house: str, answer: Any) -> None:
        raise RuleError("nothing-to-answer", "This combat step takes no answer.")

    def advance(self, g: Game, f: CombatFrame) -> None:
        raise NotImplementedError(self.name)


STAGE_HANDLERS: dict[str, Stage] = {}


def stage(cls: type[Stage]) -> type[Stage]:
    STAGE_HANDLERS[cls.name] = cls()
    return cls


@register
class Combat(Step):
    type = "combat"

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        cf = combat(f)
        return STAGE_HANDLERS[cf["stage"]].prompts(g, cf)

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        cf = combat(f)
        STAGE_HANDLERS[cf["stage"]].answer(g, cf, house, answer)

    def advance(self, g: Game, f: Frame) -> None:
        cf = combat(f)
        STAGE_HANDLERS[cf["stage"]].advance(g, cf)

    def upgrade(self, f: Frame) -> None:
        upgrade(f)


def keep_attackers_within_supply(g: Game, f: CombatFrame, units: list[Unit]) -> list[Unit]:
    """Attackers that stay in (or come back to) the area they marched from: when the same March order formed armies
    elsewhere, they may break supply there; those that do not fit are destroyed, the strongest kept (B-OPEN-05,
    B-RETREAT-06). Returns those kept."""
    s = g.s
    staying = len(s.units.get(f["origin"], [])) - len(units)
    fit = fit_supply(s, f["attacker"], f["origin"], units, staying=staying)
    destroy_fighting(g, f, "attacker", [u for u in units if all(u is not k for k in fit)], "retreat-supply")
    return fit


def end_combat(g: Game, f: CombatFrame) -> None:
    g.pop(f)
    enforce_ports(g)
    g.check_instant_win()


# ----- support -----


def next_supporter(s: GameState, f: CombatFrame) -> str | None:
    """The next house, in turn order, with a Support order next to the combat that has not declared yet."""
    owners = set(support_areas(s, f["area"]).values())
    for house in rules.turn_order(s):
        if house in owners and house not in f["asked"]:
            return house
    return None


def after_support(g: Game, f: CombatFrame) -> None:
    if f["defender"] == "neutral":
        resolve_neutral(g, f)
        return
    if g.s.options.get("tides_of_battle"):
        abilities.reshuffle_tides(g)  # B-TIDES-09: right before the house cards are chosen
    deal_vassal_hands(g, f)
    f["stage"] = "cards"


VASSAL_HAND = 3


def deal_vassal_hands(g: Game, f: CombatFrame) -> None:
    """M-VASSAL-22: a vassal in combat fights with 3 cards drawn at random from the shuffled vassal deck (two vassals
    fighting each other draw from one shuffle); they go back to the deck when the combat ends."""
    s = g.s
    fighting = [house_of(f, side) for side in SIDES if house_of(f, side) in s.vassals]
    if not fighting:
        return
    deck = sorted(c.id for c in data.house_cards().values() if c.house == data.VASSAL_DECK_HOUSE)
    g.rng.shuffle(deck)
    for house in fighting:
        hand, deck = sorted(deck[:VASSAL_HAND]), deck[VASSAL_HAND:]
        s.houses[house].hand = hand
        s.houses[house].discards = []
        g.emit("vassal-cards-drawn", house=house, cards=hand)  # public, as every hand is (B-HIDDEN-04)


def return_vassal_cards(g: Game, f: CombatFrame) -> None:
    """M-VASSAL-22: after the combat every card a vassal drew goes back to the vassal deck; and the liege of a vassal
    that won takes 1 Power (M-VASSAL-26)."""
    s = g.s
    for side in SIDES:
        house = house_of(f, side)
        if house not in s.vassals:
            continue
        s.houses[house].hand = []
        s.houses[house].discards = []
        g.emit("vassal-cards-returned", house=house)
        liege = s.vassals[house]
        if f["winner"] == side and liege is not None:
            gained = rules.gain_power(s, liege, 1)
            g.emit("power-gained", house=liege, gained=gained, reason="vassal-victory", vassal=house)


def resolve_neutral(g: Game, f: CombatFrame) -> None:
    """B-NEUTRAL-03..08 and B-OPEN-01: compare after supports; a short attack is cancelled."""
    s = g.s
    strength = sum(base_strength(s, f, "attacker").values())
    needed = s.neutral[f["area"]] or 0
    won = strength >= needed
    g.emit("neutral-attack", house=f["attacker"], area=f["area"], strength=strength, needed=needed, won=won)
    if won:
        del s.neutral[f["area"]]
        moved = take_units(s, f["origin"], f["attacker"], f["units"])
        place_units(s, f["area"], moved)
    else:
        # The march's other moves were made (and its supply checked) with these units in the neutral force's area;
        # staying home, those that do not fit are destroyed, the strongest kept, as for a beaten attacker (B-OPEN-05).
        keep_attackers_within_supply(g, f, combat_units(s, f, "attacker"))
    s.orders.pop(f["origin"], None)
    end_combat(g, f)


@stage
class Support(Stage):
    """B-SUPPORT-02: each house with adjacent Support orders declares, in turn order, for all of them at once or
    order by order."""

    name = "support"

    def prompts(self, g: Game, f: CombatFrame) -> list[Prompt]:
        s = g.s
        house = next_supporter(s, f)
        if house is None:
            return []
        areas = [a for a, h in support_areas(s, f["area"]).items() if h == house]
        return [
            Prompt(
                id=prompt_id(f, PromptKind.SUPPORT, house),
                house=house,
                kind=PromptKind.SUPPORT,
                choices=support_sides(s, f, house),
                default="none",
                info={"area": f["area"], "from": areas, "attacker": f["attacker"], "defender": f["defender"]},
            )
        ]

    def answer(self, g: Game, f: CombatFrame, house: str, answer: Any) -> None:
        sides = support_sides(g.s, f, house)
        areas = [a for a, h in support_areas(g.s, f["area"]).items() if h == house]
        if isinstance(answer, dict):
            # Areas left out support nobody.
            unknown = sorted(str(a) for a in answer if a not in areas)
            if unknown:
                raise RuleError(
                    "support-bad-area", f"You have no Support order next to {f['area']} in {', '.join(unknown)}."
                )
            chosen = {a: expect_choice(answer.get(a, "none"), sides, "side to support") for a in areas}
        else:
            side = expect_choice(answer, sides, "side to support")
            chosen = {a: side for a in areas}
        f["asked"].append(house)
        for a, side in chosen.items():
            f["supports"][a] = side
            g.emit("support-declared", house=house, side=side, area=f["area"], origin=a)

    def advance(self, g: Game, f: CombatFrame) -> None:
        f["refusals"] = offered_support(g.s, f)
        f["refused_by"] = {}
        if f["refusals"]:
            f["stage"] = "refusal"
            return
        after_support(g, f)


@stage
class Refusal(Stage):
    """B-SUPPORT-08: a combatant may refuse support another house declared for it, area by area; both combatants
    are asked at once, once every supporter has declared."""

    name = "refusal"

    def prompts(self, g: Game, f: CombatFrame) -> list[Prompt]:
        out = []
        for house, offer in sorted(f["refusals"].items()):
            area = self._next_offer(f, house)
            if area is None:
                continue
            out.append(
                Prompt(
                    id=prompt_id(f, f"support-refusal-{area}", house),
                    house=house,
                    kind=PromptKind.SUPPORT_REFUSAL,
                    choices=["accept", "refuse"],
                    default="accept",
                    info={
                        "area": f["area"],
                        "side": offer["side"],
                        "from": area,
                        "supporter": offer["supporters"][area],
                    },
                )
            )
        return out

    @staticmethod
    def _next_offer(f: CombatFrame, house: str) -> str | None:
        decided = f["refused_by"].get(house, {})
        for area in f["refusals"][house]["areas"]:
            if area not in decided:
                return area
        return None

    def answer(self, g: Game, f: CombatFrame, house: str, answer: Any) -> None:
        offer = f["refusals"][house]
        area = self._next_offer(f, house)
        assert area is not None
        choice = expect_choice(answer, ["accept", "refuse"], "answer to the support offered")
        f["refused_by"].setdefault(house, {})[area] = choice
        if choice == "refuse":
            f["supports"][area] = "none"
            g.emit("support-refused", house=house, area=f["area"], origin=area, supporter=offer["supporters"][area])

    def advance(self, g: Game, f: CombatFrame) -> None:
        after_support(g, f)


# ----- house cards, Tides of Battle, the Blade -----


def house_card_prompt(
    s: GameState,
    f: Mapping[str, Any],
    house: str,
    choices: list[str],
    info: dict[str, Any],
    *,
    answered: bool = False,
    secret: bool = False,
) -> Prompt:
    """The choice of a house card to fight with, by default a stable pick of ``choices``: both combatants' own
    (``Cards``), and the opponent's new card once Tyrion Lannister sent the first back (``engine.cards``)."""
    return Prompt(
        id=prompt_id(f, PromptKind.HOUSE_CARD, house),
        house=house,
        kind=PromptKind.HOUSE_CARD,
        choices=choices,
        default=stable_pick(s.seed, f["id"], house, choices),
        info=info,
        answered=answered,
        secret=secret,
    )


@stage
class Cards(Stage):
    """B-COMBAT-07: both combatants choose a house card in secret; a house without cards fights without one."""

    name = "cards"

    def prompts(self, g: Game, f: CombatFrame) -> list[Prompt]:
        s = g.s
        out = []
        for side in SIDES:
            house = house_of(f, side)
            hand = s.houses[house].hand
            if not hand:
                continue
            info = {"area": f["area"], "side": side, "opponent": house_of(f, other(side))}
            out.append(house_card_prompt(s, f, house, sorted(hand), info, answered=side in f["chosen"], secret=True))
        if all(p.answered for p in out):
            return []
        return out

    def answer(self, g: Game, f: CombatFrame, house: str, answer: Any) -> None:
        expect_choice(answer, g.s.houses[house].hand, "house card")
        f["chosen"][side_of(f, house)] = answer
        g.emit("house-card-chosen", house=house)

    def advance(self, g: Game, f: CombatFrame) -> None:
        for side in SIDES:
            card = f["chosen"].get(side)
            if card is not None:
                g.s.houses[house_of(f, side)].hand.remove(card)
            f["cards"][side] = card
        g.emit("house-cards-revealed", area=f["area"], attacker=f["cards"]["attacker"], defender=f["cards"]["defender"])
        f["stage"] = "reveal"


@stage
class Reveal(Stage):
    """B-HCARD-03/04: "cancel" abilities, then "immediately" ones, each window in turn order; then, with Tides of
    Battle, each combatant draws a Tides card (B-TIDES-02)."""

    name = "reveal"

    def advance(self, g: Game, f: CombatFrame) -> None:
        s = g.s
        if abilities.next_trigger(g, f, abilities.REVEAL_WINDOWS):
            return
        f["stage"] = "blade"
        if s.options.get("tides_of_battle"):
            holder = rules.holder(s, "fiefdoms")
            secret = not s.blade_used and blade_beneficiary(s, f, holder) is not None
            abilities.draw_tides(g, f, secret=secret)


def blade_holder(s: GameState, f: CombatFrame) -> str | None:
    """The house asked about the Valyrian Steel Blade now: its holder at this step, if it or one of its vassals
    fights and the Blade is unused (B-COMBAT-09, M-VASSAL-25, known edge cases #87 and #1161)."""
    holder = rules.holder(s, "fiefdoms")
    if f["blade_asked"] or s.blade_used or blade_beneficiary(s, f, holder) is None:
        return None
    return holder


def blade_beneficiary(s: GameState, f: CombatFrame, holder: str) -> str | None:
    """The fighting house the Blade's holder may give +1: itself, or a vassal it commands (M-VASSAL-25)."""
    kin = rules.family(s, holder)  # the holder is a player: itself and the vassals it commands
    return next((h for h in (f["attacker"], f["defender"]) if h in kin), None)


def can_redraw(f: CombatFrame) -> bool:
    """B-TIDES-03: the Tides cards are drawn but not yet revealed, so the Blade may buy a redraw."""
    return f["tides_secret"] and all(f["tides"][side] for side in SIDES)


@stage
class Blade(Stage):
    """B-COMBAT-09, B-TIDES-03/04: the Blade gives +1, or in a Tides game a redraw, decided before the Tides reveal."""

    name = "blade"

    def prompts(self, g: Game, f: CombatFrame) -> list[Prompt]:
        s = g.s
        holder = blade_holder(s, f)
        if holder is None:
            return []
        info: dict[str, Any] = {
            "strength": {side: total_strength(s, f, side, hide_tides=True)["total"] for side in SIDES}
        }
        beneficiary = blade_beneficiary(s, f, holder)
        if beneficiary != holder:
            info["for"] = beneficiary  # the liege's vassal (M-VASSAL-25)
        choices: list[Any] = [True, False]
        if can_redraw(f):
            choices.append("redraw")
            info["tides"] = f["tides"][side_of(f, beneficiary or holder)]
        return [
            Prompt(
                id=prompt_id(f, PromptKind.BLADE, holder),
                house=holder,
                kind=PromptKind.BLADE,
                choices=choices,
                default=False,
                info=info,
            )
        ]

    def answer(self, g: Game, f: CombatFrame, house: str, answer: Any) -> None:
        s = g.s
        if answer == "redraw" and can_redraw(f):
            f["blade_asked"] = True
            s.blade_used = True
            g.emit("blade-used", house=house, use="redraw")
            abilities.redraw_tides(g, f, side_of(f, blade_beneficiary(s, f, house) or house))
            return
        if not isinstance(answer, bool):
            raise RuleError("bad-answer", "Answer true to use the Valyrian Steel Blade, false to keep it.")
        f["blade_asked"] = True
        if answer:
            f["blade"] = blade_beneficiary(s, f, house)
            s.blade_used = True
            g.emit("blade-used", house=house)

    def advance(self, g: Game, f: CombatFrame) -> None:
        abilities.reveal_tides(g, f)  # B-TIDES-05
        f["stage"] = "resolve"


# ----- the outcome -----


@stage
class Resolve(Stage):
    """B-COMBAT-10/11: the higher final strength wins; a tie goes to the house higher on the Fiefdoms track."""

    name = "resolve"

    def advance(self, g: Game, f: CombatFrame) -> None:
        s = g.s
        totals: dict[str, dict[str, int]] = {side: total_strength(s, f, side) for side in SIDES}
        a, d = totals["attacker"]["total"], totals["defender"]["total"]
        winner: Side
        if a != d:
            winner = "attacker" if a > d else "defender"
        else:
            fief = s.tracks["fiefdoms"]
            winner = "attacker" if fief.index(f["attacker"]) < fief.index(f["defender"]) else "defender"
        f["winner"] = winner
        f["strength"] = totals
        g.emit(
            "combat-result",
            area=f["area"],
            attacker=f["attacker"],
            defender=f["defender"],
            strength=totals,
            winner=house_of(f, winner),
            tie_broken_by_fiefdoms=a == d,
        )
        f["stage"] = "victor"


def winner_side(f: CombatFrame) -> Side:
    assert f["winner"] is not None, "the victor is not known yet"
    return f["winner"]


@stage
class Victor(Stage):
    """B-HCARD-04: "if you win / lose" abilities, in turn order, once the victor is known."""

    name = "victor"

    def advance(self, g: Game, f: CombatFrame) -> None:
        if abilities.next_trigger(g, f, (abilities.VICTOR,)):
            return
        f["stage"] = "casualties"


class Losses(Stage):
    """A side loses units; its owner chooses which when they differ (B-CAS-03)."""

    next_stage: ClassVar[StageName]

    def prompts(self, g: Game, f: CombatFrame) -> list[Prompt]:
        pending = f["casualty_choice"]
        if pending is None:
            return []
        return [
            Prompt(
                id=prompt_id(f, PromptKind.CASUALTIES, pending["house"]),
                house=pending["house"],
                kind=PromptKind.CASUALTIES,
                choices={"units": pending["units"], "count": pending["count"]},
                default=pending["default"],
                info={"area": f["area"], **self.why(g.s, f)},
            )
        ]

    def why(self, s: GameState, f: CombatFrame) -> dict[str, Any]:
        """What the count comes from, for the player who chooses (the cards are revealed by now)."""
        return {}

    def answer(self, g: Game, f: CombatFrame, house: str, answer: Any) -> None:
        pending = f["casualty_choice"]
        assert pending is not None
        count = pending["count"]
        if not isinstance(answer, list) or not all(isinstance(t, str) for t in answer) or len(answer) != count:
            raise RuleError("bad-casualties", f"Choose exactly {count} units.", count=count)
        for t in set(answer):
            if answer.count(t) > pending["units"].get(t, 0):
                raise RuleError("bad-casualties", f"You have only {pending['units'].get(t, 0)} {t} there.", unit=t)
        eligible = eligible_casualties(g.s, f, pending["side"])
        victims: list[Unit] = []
        for t in answer:
            victims.append(next(u for u in eligible if u.type == t and all(u is not v for v in victims)))
        destroy_fighting(g, f, pending["side"], victims)
        f["casualty_choice"] = None
        f["stage"] = self.next_stage

    def lose(self, g: Game, f: CombatFrame, side: Side, count: int) -> None:
        f["casualty_choice"] = take_losses(g, f, side, count)
        if f["casualty_choice"] is None:
            f["stage"] = self.next_stage


@stage
class Casualties(Losses):
    """B-CAS-01..06: the loser loses one unit per sword on the winner's cards beyond the fortifications on its own,
    plus the skulls on the winner's Tides card (B-TIDES-07)."""

    name = "casualties"
    next_stage = "skulls"

    def advance(self, g: Game, f: CombatFrame) -> None:
        s = g.s
        winner = winner_side(f)
        loser = other(winner)
        swords, _, skulls = icons(s, f, winner)
        _, forts, _ = icons(s, f, loser)
        count = abilities.casualty_count(s, f, loser, max(0, swords - forts))
        count += abilities.skull_count(s, f, loser, skulls)
        self.lose(g, f, loser, count)

    def why(self, s: GameState, f: CombatFrame) -> dict[str, Any]:
        winner = winner_side(f)
        swords, _, skulls = icons(s, f, winner)
        _, forts, _ = icons(s, f, other(winner))
        return {
            "reason": "lost",
            "winner": house_of(f, winner),
            "swords": swords,
            "fortifications": forts,
            "skulls": skulls,
        }


@stage
class Skulls(Losses):
    """B-TIDES-07: skulls on the loser's Tides card cost the winner units too, after the loser's casualties."""

    name = "skulls"
    next_stage = "retreat"

    def advance(self, g: Game, f: CombatFrame) -> None:
        winner = winner_side(f)
        _, _, skulls = icons(g.s, f, other(winner))
        self.lose(g, f, winner, abilities.skull_count(g.s, f, winner, skulls))

    def why(self, s: GameState, f: CombatFrame) -> dict[str, Any]:
        loser = house_of(f, other(winner_side(f)))
        return {"reason": "skulls", "loser": loser, "skulls": icons(s, f, other(winner_side(f)))[2]}


@stage
class Retreat(Stage):
    """B-RETREAT-01..15, B-GARR-05: the loser's garrison is removed; its siege engines and routed units that cannot
    retreat are destroyed; the rest retreat routed (a beaten attacker back where it marched from)."""

    name = "retreat"

    def prompts(self, g: Game, f: CombatFrame) -> list[Prompt]:
        pending = f["retreat_choice"]
        if pending is None:
            return []
        return [
            Prompt(
                id=prompt_id(f, PromptKind.RETREAT, pending["chooser"]),
                house=pending["chooser"],
                kind=PromptKind.RETREAT,
                choices=pending["areas"],
                default=pending["areas"][0],
                info={"area": f["area"], "loser": pending["house"], **self._what_it_costs(g.s, f, pending["house"])},
            )
        ]

    @staticmethod
    def _what_it_costs(s: GameState, f: CombatFrame, loser: str) -> dict[str, Any]:
        """The retreating units, and how many of them each legal area would cost (those that break supply there)."""
        units = [u for u in combat_units(s, f, "defender") if not u.routed]
        pending = f["retreat_choice"]
        assert pending is not None
        losses = {a: len(units) - len(fit_supply(s, loser, a, units, origin=f["area"])) for a in pending["areas"]}
        return {"units": [u.type for u in units], "losses": losses}

    def answer(self, g: Game, f: CombatFrame, house: str, answer: Any) -> None:
        pending = f["retreat_choice"]
        assert pending is not None
        expect_choice(answer, pending["areas"], "retreat area")
        f["retreat_choice"] = None
        self._retreat_to(g, f, pending["house"], answer)

    def advance(self, g: Game, f: CombatFrame) -> None:
        s = g.s
        loser_side = other(winner_side(f))
        loser = house_of(f, loser_side)
        if loser_side == "defender" and f["area"] in s.garrisons:
            del s.garrisons[f["area"]]  # B-GARR-05
            g.emit("garrison-removed", area=f["area"], house=loser)
        units = combat_units(s, f, loser_side)
        sieges = [u for u in units if not rules.unit_type(s, u.type).retreats]
        if sieges:  # B-CAS-07, B-RETREAT-11: siege engines
            destroy_fighting(g, f, loser_side, sieges, "siege-cannot-retreat")
            units = [u for u in units if rules.unit_type(s, u.type).retreats]
        if loser_side == "attacker":
            self._attacker_returns(g, f, loser, units)
            return
        routed = [u for u in units if u.routed]
        if routed:  # B-RETREAT-15
            destroy_units(g, f["area"], routed, "routed-again")
            units = [u for u in units if not u.routed]
        if not units:
            f["stage"] = "cleanup"
            return
        options = retreat_options(s, f, loser, units)
        if not options:
            destroy_units(g, f["area"], units, "no-retreat")  # B-RETREAT-07
            f["stage"] = "cleanup"
            return
        if len(options) == 1:
            self._retreat_to(g, f, loser, options[0])
            return
        f["retreat_choice"] = {"house": loser, "chooser": abilities.retreat_chooser(s, f, loser), "areas": options}

    @staticmethod
    def _attacker_returns(g: Game, f: CombatFrame, loser: str, units: list[Unit]) -> None:
        """B-RETREAT-02, B-OPEN-05, B-RETREAT-06: back to the area they marched from, routed. When the same March
        order also formed armies elsewhere, coming back may break supply: the units that do not fit are destroyed,
        the strongest kept."""
        fit = keep_attackers_within_supply(g, f, units)
        for u in fit:
            u.routed = True
        if fit:
            g.emit("retreat", house=loser, area=f["area"], to=f["origin"], units=[u.type for u in fit])
        f["stage"] = "cleanup"

    @staticmethod
    def _retreat_to(g: Game, f: CombatFrame, loser: str, dest: str) -> None:
        """The defender's standing units retreat routed; those that would break supply there are destroyed."""
        s = g.s
        units = [u for u in combat_units(s, f, "defender") if not u.routed]
        moved = take_units(s, f["area"], loser, [u.type for u in units])
        fit = fit_supply(s, loser, dest, moved)
        if len(fit) < len(moved):
            lost = [u for u in moved if all(u is not k for k in fit)]
            g.emit(
                "units-destroyed", area=f["area"], house=loser, units=[u.type for u in lost], reason="retreat-supply"
            )
        for u in fit:
            u.routed = True
        place_units(s, dest, fit)
        f["retreated_to"] = dest
        g.emit("retreat", house=loser, area=f["area"], to=dest, units=[u.type for u in fit])
        f["stage"] = "cleanup"


@stage
class Cleanup(Stage):
    """B-COMBAT-13/14: a winning attacker takes the area: the loser's order and power token there are removed and
    the attacking units move in (Arianne Martell keeps them out; with none left, none move)."""

    name = "cleanup"

    def advance(self, g: Game, f: CombatFrame) -> None:
        s = g.s
        area = f["area"]
        attacker = f["attacker"]
        if f["winner"] == "attacker" and not f["attacker_stays"]:
            # 2538-2542: the winning attacker removes the loser's order and power token, also with no unit left.
            order = s.orders.get(area)
            if order is not None and order.house == f["defender"]:
                del s.orders[area]
            if s.power_tokens.get(area) not in (None, attacker):
                remove_power_token(g, area, "taken")
        if f["winner"] == "attacker" and not f["attacker_stays"] and f["units"]:
            moved = take_units(s, f["origin"], attacker, f["units"])
            place_units(s, area, moved)
            f["moved_in"] = bool(moved)
            most = port_capture_limit(s, attacker, area)
            if most is not None:
                if most > 0:
                    port = rules.board(s).areas[area].port
                    assert port is not None
                    f["port_choice"] = {"house": attacker, "port": port, "max": most, "ships": len(s.units[port])}
                    f["stage"] = "port"
                    return
                capture_port_ships(g, attacker, area, 0)
        discard(g, f)


@stage
class Port(Stage):
    """B-PORT-11: the conqueror of a land chooses how many enemy ships in its port to replace with its own."""

    name = "port"

    def prompts(self, g: Game, f: CombatFrame) -> list[Prompt]:
        choice = f["port_choice"]
        assert choice is not None
        return [
            Prompt(
                id=prompt_id(f, PromptKind.PORT_CAPTURE, choice["house"]),
                house=choice["house"],
                kind=PromptKind.PORT_CAPTURE,
                choices=list(range(choice["max"] + 1)),
                default=choice["max"],
                info={"area": f["area"], "port": choice["port"], "enemy_ships": choice["ships"]},
            )
        ]

    def answer(self, g: Game, f: CombatFrame, house: str, answer: Any) -> None:
        choice = f["port_choice"]
        assert choice is not None
        if isinstance(answer, bool) or not isinstance(answer, int):
            raise RuleError("bad-answer", "Answer with the number of enemy ships to replace with your own.")
        expect_choice(answer, list(range(choice["max"] + 1)), "number of ships to replace")
        capture_port_ships(g, f["attacker"], f["area"], answer)
        discard(g, f)


def discard(g: Game, f: CombatFrame) -> None:
    """The March order is spent (Ser Loras moves it instead), both cards are discarded (B-HCARD-06/07)."""
    s = g.s
    area = f["area"]
    s.orders.pop(f["origin"], None)
    if f["march_follows"] and f["moved_in"]:
        s.orders[area] = PlacedOrder(f["attacker"], f["march"])
        g.emit("order-moved", house=f["attacker"], token=f["march"], origin=f["origin"], area=area)
    for side in SIDES:
        card = f["cards"][side]
        if card is None:
            continue
        if card in f["kept_cards"]:
            s.houses[house_of(f, side)].hand.append(card)
            g.emit("hand-returned", house=house_of(f, side), cards=[card], reason=card)
        elif house_of(f, side) in s.vassals:
            continue  # a vassal card is never discarded: it goes back to the vassal deck (M-VASSAL-22)
        else:
            discard_played_card(g, house_of(f, side), card)
    if s.options.get("tides_of_battle"):
        abilities.return_tides(g, f)
    f["stage"] = "after"


@stage
class After(Stage):
    """ "After combat" abilities (Patchface, Roose Bolton), once both cards are in the discard piles; then the end."""

    name = "after"

    def advance(self, g: Game, f: CombatFrame) -> None:
        if abilities.next_trigger(g, f, (abilities.AFTER,)):
            return
        g.emit("combat-ended", area=f["area"], winner=house_of(f, winner_side(f)))
        return_vassal_cards(g, f)
        end_combat(g, f)
