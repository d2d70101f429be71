"""Wildling attacks and the nine wildling cards (B-WILD-01..13, B-WEST-05, B-WEST-08).

The threat is kept in strength units, 0..12: one wildling icon moves it one space (+2); a Night's Watch victory
sends it to 0 and a wildling victory moves it back two spaces (-4), never below 0 (B-WILD-06).

Frames:

* ``wildlings``: one attack — bids (a ``bidding`` frame), outcome, the top wildling card, then its effects:
  the highest bidder's reward on a win, else the lowest bidder's penalty and then every other house's in turn
  order. Houses in ``exclude`` take no part (the highest bidder of a Preemptive Raid, for its second attack).
* ``wildling-choice``: one house picks one option (tie for highest/lowest bidder, track, house card...).
* ``wildling-units``: one house picks units to destroy, footmen to upgrade or knights to downgrade.

Units a wildling card removes never leave a Power token behind; ships in a port whose land is lost go too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.board_ops import destroy_units, pick_weakest
from engine.errors import RuleError
from engine.flow import Frame, Step, expect_choice, expect_dict, prompt_id, register
from engine.prompts import Prompt, PromptKind
from engine.state import GameState, Unit
from engine.steps.bidding import push_bidding
from engine.steps.mustering import muster_areas, muster_choices
from engine.steps.supply import default_destroy, destroy_picks, parse_picks, settle, units_by_area

if TYPE_CHECKING:
    from engine.game import Game

THREAT_MAX = 12
THREAT_STEP = 2  # one space of the Wildlings track
PREEMPTIVE_RAID_STRENGTH = 6
# Cards whose outcome is the same whoever is the highest or lowest bidder: a tie needs no decision.
NO_TIE_QUESTION = frozenset({"silence-at-the-wall"})


def advance_threat(g: Game, icons: int) -> bool:
    """Move the threat one space per icon, at most to 12 (B-WEST-04/05); True when it has just reached 12."""
    s = g.s
    if icons <= 0:
        return False
    old = s.wildling_threat
    s.wildling_threat = min(THREAT_MAX, old + THREAT_STEP * icons)
    g.emit("wildling-threat", old=old, new=s.wildling_threat, icons=icons)
    return old < THREAT_MAX and s.wildling_threat == THREAT_MAX


def start_attack(g: Game, reason: str, *, strength: int | None = None, exclude: list[str] | None = None) -> None:
    g.push(
        "wildlings",
        stage="bid",
        strength=g.s.wildling_threat if strength is None else strength,
        exclude=list(exclude or []),
        reason=reason,
    )


# ----- small state changes -----


def move_on_track(g: Game, track: str, house: str, index: int, reason: str) -> None:
    """Put ``house`` at ``index`` (0 = position 1) of a track; the others shift (B-TRACK-01). Dominance tokens
    follow position 1, in their current face-up/face-down state (B-TRACK-02)."""
    old, new = rules.move_on_track(g.s, track, house, index)
    order = list(g.s.tracks[track])
    g.emit("track-moved", track=track, house=house, old=old, new=new, order=order, reason=reason)


def highest_tracks(s: GameState, house: str) -> list[str]:
    best = min(rules.position(s, t, house) for t in data.TRACKS)
    return [t for t in data.TRACKS if rules.position(s, t, house) == best]


def card_strength(card: str) -> int:
    return data.house_cards()[card].strength


def unit_areas(s: GameState, house: str, unit_type: str) -> dict[str, int]:
    """How many of the house's units of one type stand in each area."""
    out: dict[str, int] = {}
    for area, units in sorted(s.units.items()):
        n = sum(1 for u in units if u.house == house and u.type == unit_type)
        if n:
            out[area] = n
    return out


def _replace(s: GameState, area: str, house: str, old_type: str, new_type: str) -> None:
    units = s.units[area]
    old = sorted((u for u in units if u.house == house and u.type == old_type), key=lambda u: u.routed)[0]
    units[units.index(old)] = Unit(house, new_type, old.routed)


# ----- the attack -----


@register
class WildlingAttack(Step):
    type = "wildlings"

    def advance(self, g: Game, f: Frame) -> None:
        s = g.s
        stage = f["stage"]
        if stage == "bid":
            # M-VASSAL-29: vassals neither bid nor suffer nor gain.
            houses = [h for h in rules.player_houses(s) if h not in f["exclude"]]
            g.emit("wildlings-attack", strength=f["strength"], houses=houses, reason=f["reason"])
            f["stage"] = "result"
            push_bidding(g, f, houses, purpose="wildlings", strength=f["strength"])
            return
        if stage == "result":
            self._result(g, f)
            return
        self._effects(g, f)

    def _result(self, g: Game, f: Frame) -> None:
        s = g.s
        bids: dict[str, int] = f["bids"]
        total = sum(bids.values())
        won = total >= f["strength"]  # B-WILD-05
        old = s.wildling_threat
        s.wildling_threat = 0 if won else max(0, old - 2 * THREAT_STEP)  # B-WILD-06
        f["won"] = won
        g.emit(
            "wildlings-result",
            strength=f["strength"],
            nights_watch=total,
            bids=dict(bids),
            winner="nights-watch" if won else "wildlings",
            threat=s.wildling_threat,
        )
        f["stage"] = "effects"
        if not s.wildling_deck:  # pragma: no cover - the deck always holds nine cards
            f["card"] = None
            return
        card = s.wildling_deck.pop(0)  # B-WILD-08
        f["card"] = card
        g.emit("wildling-card", card=card, winner="nights-watch" if won else "wildlings")
        target = max(bids.values()) if won else min(bids.values())
        tied = [h for h in rules.turn_order(s) if h in bids and bids[h] == target]
        role = "highest" if won else "lowest"
        if len(tied) == 1:
            f["role_house"] = tied[0]
            return
        chooser = rules.holder(s, "iron_throne")  # B-WILD-12
        # Default: the Iron Throne holder takes the reward itself, or passes the penalty to the last tied house.
        default = (chooser if chooser in tied else tied[0]) if won else [h for h in tied if h != chooser][-1]
        if card in NO_TIE_QUESTION:
            f["role_house"] = default
            return
        g.push(
            "wildling-choice",
            house=chooser,
            kind=PromptKind.WILDLING_TIE,
            options=tied,
            default=default,
            action="set-role",
            info={"role": role, "bid": target, "card": card},
        )

    def _effects(self, g: Game, f: Frame) -> None:
        s = g.s
        card = f["card"]
        if card is None:
            g.pop(f)
            return
        if "queue" not in f:
            house = f["role_house"]
            if f["won"]:
                f["queue"] = [[house, "highest"]]  # B-WILD-09
            else:  # B-WILD-10
                others = [h for h in rules.player_houses(s) if h != house and h not in f["exclude"]]
                f["queue"] = [[house, "lowest"]] + [[h, "everyone"] for h in others]
            g.emit("wildling-bidder", house=house, role="highest" if f["won"] else "lowest", card=card)
        while f["queue"]:
            house, role = f["queue"].pop(0)
            EFFECTS[card](g, f, house, role)
            if g.finished or s.stack[-1]["id"] != f["id"]:
                return  # the effect asks something first (or ended the game)
        if not f.get("card_returned"):
            s.wildling_deck.append(card)  # B-WILD-11
        g.pop(f)


def _return_card(g: Game, f: Frame) -> None:
    if not f.get("card_returned"):
        g.s.wildling_deck.append(f["card"])
        f["card_returned"] = True


def _choice(
    g: Game,
    house: str,
    kind: PromptKind,
    options: list[Any],
    default: Any,
    action: str,
    card: str,
    **extra: Any,
) -> None:
    g.push(
        "wildling-choice",
        house=house,
        kind=kind,
        options=options,
        default=default,
        action=action,
        info={"card": card},
        **extra,
    )


def _units(g: Game, house: str, card: str, mode: str, count: int | None, **extra: Any) -> None:
    g.push("wildling-units", house=house, card=card, mode=mode, count=count, **extra)


# ----- the nine cards -----


def silence_at_the_wall(g: Game, f: Frame, house: str, role: str) -> None:
    g.emit("wildling-effect", card=f["card"], house=house, role=role, effect="nothing")


def preemptive_raid(g: Game, f: Frame, house: str, role: str) -> None:
    if role == "highest":
        _return_card(g, f)
        g.emit("wildling-effect", card=f["card"], house=house, role=role, effect="second-attack")
        start_attack(g, "preemptive-raid", strength=PREEMPTIVE_RAID_STRENGTH, exclude=[*f["exclude"], house])
    elif role == "lowest":
        _choice(g, house, PromptKind.PREEMPTIVE_RAID, ["units", "influence"], "influence", "preemptive-raid", f["card"])
    else:
        g.emit("wildling-effect", card=f["card"], house=house, role=role, effect="nothing")


def crow_killers(g: Game, f: Frame, house: str, role: str) -> None:
    s = g.s
    if role == "highest":
        footmen = sum(unit_areas(s, house, "footman").values())
        n = min(2, footmen, rules.units_available(s, house, "knight"))
        if n > 0:
            _units(g, house, f["card"], "upgrade", n)
        return
    knights = sum(unit_areas(s, house, "knight").values())
    n = knights if role == "lowest" else min(2, knights)
    if n > 0:
        _units(g, house, f["card"], "downgrade", n)


def rattleshirts_raiders(g: Game, f: Frame, house: str, role: str) -> None:
    hs = g.s.houses[house]
    old = hs.supply
    delta = {"highest": 1, "lowest": -2, "everyone": -1}[role]
    hs.supply = max(0, min(6, old + delta))
    g.emit("supply-adjusted", house=house, old=old, new=hs.supply, reason=f["card"])
    if hs.supply < old:
        g.push("reconcile", houses=[house], reason=f["card"])


def massing_on_the_milkwater(g: Game, f: Frame, house: str, role: str) -> None:
    hs = g.s.houses[house]
    if role == "highest":
        back = list(hs.discards)
        hs.hand.extend(back)
        hs.discards = []
        g.emit("wildling-effect", card=f["card"], house=house, role=role, effect="cards-returned", cards=back)
        return
    if len(hs.hand) <= 1:
        g.emit("wildling-effect", card=f["card"], house=house, role=role, effect="nothing")
        return
    if role == "lowest":
        top = max(card_strength(c) for c in hs.hand)
        drop = sorted(c for c in hs.hand if card_strength(c) == top)
        if len(drop) == len(hs.hand):
            drop = []  # every card shares the highest strength: none is "the highest" (documented decision)
        for c in drop:
            hs.hand.remove(c)
            hs.discards.append(c)
        g.emit("wildling-effect", card=f["card"], house=house, role=role, effect="cards-discarded", cards=drop)
        return
    options = sorted(hs.hand)
    weakest = min(options, key=lambda c: (card_strength(c), c))
    _choice(g, house, PromptKind.DISCARD_HOUSE_CARD, options, weakest, "discard-card", f["card"])


def a_king_beyond_the_wall(g: Game, f: Frame, house: str, role: str) -> None:
    s = g.s
    if role == "highest":
        _choice(g, house, PromptKind.TRACK, list(data.TRACKS), "iron_throne", "track-top", f["card"])
    elif role == "lowest":
        for track in data.TRACKS:
            move_on_track(g, track, house, len(s.players) - 1, f["card"])
    else:
        options = ["fiefdoms", "kings_court"]
        # Default: the track where the house already stands lower, so the move costs least.
        default = max(options, key=lambda t: (rules.position(s, t, house), t == "fiefdoms"))
        _choice(g, house, PromptKind.TRACK, options, default, "track-bottom", f["card"])


def mammoth_riders(g: Game, f: Frame, house: str, role: str) -> None:
    hs = g.s.houses[house]
    if role == "highest":
        if not hs.discards:
            g.emit("wildling-effect", card=f["card"], house=house, role=role, effect="nothing")
            return
        options: list[Any] = sorted(hs.discards)
        best = max(options, key=lambda c: (card_strength(c), c))
        _choice(g, house, PromptKind.RETURN_HOUSE_CARD, [*options, None], best, "return-card", f["card"])
        return
    _units(g, house, f["card"], "destroy", 3 if role == "lowest" else 2)


def the_horde_descends(g: Game, f: Frame, house: str, role: str) -> None:
    s = g.s
    if role == "highest":
        if muster_choices(s, house)["areas"]:
            g.push("muster", houses=[house], max_areas=1, reason=f["card"])
        return
    if role == "everyone":
        _units(g, house, f["card"], "destroy", 1)
        return
    eligible = [a for a in muster_areas(s, house) if len(s.units.get(a, [])) >= 2]
    if eligible:
        _units(g, house, f["card"], "destroy", 2, one_area=True, areas=eligible)
    else:
        _units(g, house, f["card"], "destroy", 2)


def skinchanger_scout(g: Game, f: Frame, house: str, role: str) -> None:
    s = g.s
    if role == "highest":
        back = rules.gain_power(s, house, f["bids"][house])
        g.emit("wildling-effect", card=f["card"], house=house, role=role, effect="bid-returned", power=back)
        return
    lost = rules.lose_power(s, house, s.houses[house].power if role == "lowest" else 2)
    g.emit("wildling-effect", card=f["card"], house=house, role=role, effect="power-lost", power=lost)


EFFECTS = {
    "silence-at-the-wall": silence_at_the_wall,
    "preemptive-raid": preemptive_raid,
    "crow-killers": crow_killers,
    "rattleshirts-raiders": rattleshirts_raiders,
    "massing-on-the-milkwater": massing_on_the_milkwater,
    "a-king-beyond-the-wall": a_king_beyond_the_wall,
    "mammoth-riders": mammoth_riders,
    "the-horde-descends": the_horde_descends,
    "skinchanger-scout": skinchanger_scout,
}


# ----- one house picks an option -----


@register
class WildlingChoice(Step):
    type = "wildling-choice"

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        if "chosen" in f:
            return []
        return [
            Prompt(
                id=prompt_id(f, f["kind"], f["house"]),
                house=f["house"],
                kind=f["kind"],
                choices=list(f["options"]),
                default=f["default"],
                info=dict(f.get("info", {})),
            )
        ]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        f["chosen"] = expect_choice(answer, f["options"], f["kind"])

    def advance(self, g: Game, f: Frame) -> None:
        s = g.s
        g.pop(f)
        chosen = f["chosen"]
        house = f["house"]
        action = f["action"]
        card = f.get("info", {}).get("card", "")
        if action == "set-role":
            parent = s.stack[-1]
            parent["role_house"] = chosen
            g.emit("tie-broken", house=house, chosen=chosen, role=f["info"]["role"], among=list(f["options"]))
        elif action == "preemptive-raid":
            g.emit("wildling-effect", card=card, house=house, role="lowest", effect=chosen)
            if chosen == "units":
                _units(g, house, card, "destroy", 2)
            else:
                tracks = highest_tracks(s, house)
                if len(tracks) > 1:
                    chooser = rules.holder(s, "iron_throne")
                    _choice(g, chooser, PromptKind.TRACK, tracks, tracks[0], "track-down-2", card, target=house)
                else:
                    self._down_two(g, house, tracks[0], card)
        elif action == "track-down-2":
            self._down_two(g, f["target"], chosen, card)
        elif action == "track-top":
            move_on_track(g, chosen, house, 0, card)
        elif action == "track-bottom":
            move_on_track(g, chosen, house, len(s.players) - 1, card)
        elif action == "discard-card":
            hs = s.houses[house]
            hs.hand.remove(chosen)
            hs.discards.append(chosen)
            g.emit("wildling-effect", card=card, house=house, role="everyone", effect="cards-discarded", cards=[chosen])
        elif action == "return-card":
            hs = s.houses[house]
            if chosen is not None:
                hs.discards.remove(chosen)
                hs.hand.append(chosen)
            g.emit("wildling-effect", card=card, house=house, role="highest", effect="card-returned", cards=[chosen])
        else:  # pragma: no cover - corrupted state
            raise RuntimeError(f"unknown wildling choice {action!r}")

    def _down_two(self, g: Game, house: str, track: str, card: str) -> None:
        move_on_track(g, track, house, rules.position(g.s, track, house) + 2, card)


# ----- one house picks units -----


@register
class WildlingUnits(Step):
    """Modes: ``destroy`` (exactly n units, optionally all from one of ``areas``), ``upgrade`` (up to n footmen
    become knights), ``downgrade`` (n knights become footmen; once footmen run out the rest are destroyed)."""

    type = "wildling-units"

    def _setup(self, s: GameState, f: Frame) -> dict[str, Any]:
        """The question: prompt kind, count ``n``, choices, default, and whether the outcome is ``forced`` (then
        nobody is asked and ``advance`` applies the default)."""
        house, mode = f["house"], f["mode"]
        if mode == "destroy":
            pool = units_by_area(s, house, f.get("areas"))
            total = sum(len(ts) for ts in pool.values())
            if f.get("one_area"):
                sizes = {a: len(ts) for a, ts in pool.items()}
                n = min(f["count"], max(sizes.values(), default=0))
                best = min(pool, key=lambda a: (-sizes[a], a)) if pool else None
                default = {best: [u.type for u in _weakest(s, best, house, n)]} if best is not None else {}
                forced = best is None or (len(pool) == 1 and (n == sizes[best] or len(set(pool[best])) == 1))
            else:
                n = min(f["count"], total)
                default = default_destroy(s, house, n, f.get("areas"))
                kinds = {(a, t) for a, ts in pool.items() for t in ts}
                forced = n == total or len(kinds) <= 1
            return {
                "kind": PromptKind.WILDLING_DESTROY,
                "n": n,
                "choices": {"units": pool, "count": n, "one_area": bool(f.get("one_area"))},
                "default": {"destroy": default},
                "forced": forced or n == 0,
            }
        if mode == "upgrade":
            areas = unit_areas(s, house, "footman")
            n = min(f["count"], sum(areas.values()), rules.units_available(s, house, "knight"))
            picks = [a for a, k in areas.items() for _ in range(k)][:n]
            return {
                "kind": PromptKind.WILDLING_UPGRADE,
                "n": n,
                "choices": {"footmen": areas, "max": n},
                "default": {"areas": picks},
                "forced": n == 0,
            }
        areas = unit_areas(s, house, "knight")
        n = min(f["count"], sum(areas.values()))
        spare = rules.units_available(s, house, "footman")
        ranked = sorted(areas, key=lambda a: (len(s.units[a]), a))
        picks = [a for a in ranked for _ in range(areas[a])][:n]
        # The choice matters only if some knights are spared (n < all) or footmen run out part-way.
        forced = n == 0 or len(areas) == 1 or (n == sum(areas.values()) and (spare >= n or spare == 0))
        return {
            "kind": PromptKind.WILDLING_DOWNGRADE,
            "n": n,
            "choices": {"knights": areas, "count": n, "footmen_available": spare},
            "default": {"areas": picks},
            "forced": forced,
        }

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        if "answer" in f:
            return []
        q = self._setup(g.s, f)
        if q["forced"]:
            return []
        return [
            Prompt(
                id=prompt_id(f, q["kind"], f["house"]),
                house=f["house"],
                kind=q["kind"],
                choices=q["choices"],
                default=q["default"],
                info={"card": f["card"]},
            )
        ]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        q = self._setup(g.s, f)
        self._validate(g.s, f, q, answer)
        f["answer"] = answer

    def _validate(self, s: GameState, f: Frame, q: dict[str, Any], answer: Any) -> None:
        house, n = f["house"], q["n"]
        if f["mode"] == "destroy":
            a = expect_dict(answer, "destroy")
            picks = parse_picks(s, house, a["destroy"])
            count = sum(len(ts) for ts in picks.values())
            if count != n:
                raise RuleError("wrong-count", f"Choose exactly {n} unit(s).", count=n)
            allowed = f.get("areas")
            if allowed is not None and any(area not in allowed for area in picks):
                raise RuleError("bad-area", "Those units cannot be chosen here.", areas=sorted(allowed))
            if f.get("one_area") and len(picks) > 1:
                raise RuleError("one-area", "All the units must come from one area.")
            return
        a = expect_dict(answer, "areas")
        areas = a["areas"]
        if not isinstance(areas, list) or not all(isinstance(x, str) for x in areas):
            raise RuleError("bad-answer", "areas must be a list of area ids.")
        have = unit_areas(s, house, "footman") if f["mode"] == "upgrade" else unit_areas(s, house, "knight")
        what = "footman" if f["mode"] == "upgrade" else "knight"
        for area in set(areas):
            if areas.count(area) > have.get(area, 0):
                raise RuleError("units-missing", f"You have only {have.get(area, 0)} {what} in {area}.", area=area)
        if f["mode"] == "upgrade" and len(areas) > n:
            raise RuleError("wrong-count", f"You may upgrade at most {n} footmen.", count=n)
        if f["mode"] == "downgrade" and len(areas) != n:
            raise RuleError("wrong-count", f"Choose exactly {n} knight(s).", count=n)

    def advance(self, g: Game, f: Frame) -> None:
        s = g.s
        q = self._setup(s, f)
        answer = f.get("answer", q["default"])
        g.pop(f)
        house, card = f["house"], f["card"]
        if f["mode"] == "destroy":
            picks = parse_picks(s, house, answer["destroy"])
            g.emit("wildling-effect", card=card, house=house, effect="units-destroyed", units=picks)
            destroy_picks(g, house, picks, f"wildlings:{card}")
            return
        if f["mode"] == "upgrade":
            for area in answer["areas"]:
                _replace(s, area, house, "footman", "knight")
            g.emit("wildling-effect", card=card, house=house, effect="footmen-upgraded", areas=list(answer["areas"]))
            return
        replaced: list[str] = []
        destroyed: list[str] = []
        for area in answer["areas"]:
            if rules.units_available(s, house, "footman") > 0:
                _replace(s, area, house, "knight", "footman")
                replaced.append(area)
            else:
                victim = sorted((u for u in s.units[area] if u.type == "knight"), key=lambda u: not u.routed)[0]
                destroy_units(g, area, [victim], f"wildlings:{card}")
                if area not in s.units:
                    s.orders.pop(area, None)
                destroyed.append(area)
        g.emit("wildling-effect", card=card, house=house, effect="knights-downgraded", areas=replaced, lost=destroyed)
        settle(g)


def _weakest(s: GameState, area: str, house: str, n: int) -> list[Unit]:
    return pick_weakest(s, [u for u in s.units.get(area, []) if u.house == house], n)
