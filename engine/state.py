"""The whole game state as plain data.

Everything here round-trips through JSON (``to_dict`` / ``from_dict``). Nothing is derived
and stored twice: control of an area, the victory track and dominance-token holders are
computed from units, power tokens and tracks (see ``engine.rules``), so they can never drift.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(eq=False)  # identity: two footmen of one house are still two units
class Unit:
    house: str
    type: str  # a unit type of the ruleset (Ruleset.unit_types): footman, knight, ship, siege-engine
    routed: bool = False

    def to_dict(self) -> list[Any]:
        return [self.house, self.type, self.routed]

    @staticmethod
    def from_dict(raw: list[Any]) -> Unit:
        return Unit(raw[0], raw[1], bool(raw[2]))


@dataclass
class PlacedOrder:
    house: str
    token: str  # an id from engine.orders.ORDER_TOKENS

    def to_dict(self) -> list[str]:
        return [self.house, self.token]

    @staticmethod
    def from_dict(raw: list[str]) -> PlacedOrder:
        return PlacedOrder(raw[0], raw[1])


@dataclass
class HouseState:
    power: int  # available power (in front of the screen)
    supply: int  # position on the supply track, 0..6
    hand: list[str]
    discards: list[str]
    seat: str | None = None  # who plays the house (an opaque id from the application), None = unseated
    autopilot: bool = False
    raven_peek: str | None = None  # wildling card this house looked at with the Raven (private)

    def to_dict(self) -> dict[str, Any]:
        return {
            "power": self.power,
            "supply": self.supply,
            "hand": list(self.hand),
            "discards": list(self.discards),
            "seat": self.seat,
            "autopilot": self.autopilot,
            "raven_peek": self.raven_peek,
            # Never set by anything (the deadline store counts missed deadlines); kept in the saved format so
            # every state serialises to the same text as before (the recorded games' digests depend on it).
            "missed_deadlines": 0,
        }

    @staticmethod
    def from_dict(raw: dict[str, Any]) -> HouseState:
        return HouseState(
            power=raw["power"],
            supply=raw["supply"],
            hand=list(raw["hand"]),
            discards=list(raw["discards"]),
            seat=raw.get("seat"),
            autopilot=raw.get("autopilot", False),
            raven_peek=raw.get("raven_peek"),
        )


@dataclass
class GameState:
    seed: int
    rng: int
    options: dict[str, Any]
    players: list[str]  # houses in play
    round: int = 1
    phase: str = "planning"
    units: dict[str, list[Unit]] = field(default_factory=dict)
    orders: dict[str, PlacedOrder] = field(default_factory=dict)
    orders_revealed: bool = False
    power_tokens: dict[str, str] = field(default_factory=dict)  # area -> house
    garrisons: dict[str, int] = field(default_factory=dict)  # area -> strength
    neutral: dict[str, int | None] = field(default_factory=dict)  # area -> strength, None = impassable
    tracks: dict[str, list[str]] = field(default_factory=dict)
    blade_used: bool = False
    raven_used: bool = False
    houses: dict[str, HouseState] = field(default_factory=dict)
    wildling_threat: int = 2
    wildling_deck: list[str] = field(default_factory=list)  # index 0 is the top
    westeros_decks: list[list[str]] = field(default_factory=lambda: [[], [], []])
    westeros_drawn: list[str] = field(default_factory=list)
    restrictions: list[str] = field(default_factory=list)
    tides_deck: list[str] = field(default_factory=list)
    stack: list[dict[str, Any]] = field(default_factory=list)
    frame_counter: int = 0
    version: int = 0
    winner: str | None = None
    ended_reason: str | None = None
    # Mother of Dragons: every vassal in play -> the house whose player commands it (None until the first claim).
    vassals: dict[str, str | None] = field(default_factory=dict)
    leaving: list[str] = field(default_factory=list)  # player houses that become vassals as the next round starts
    # Mother of Dragons with Targaryen (engine.steps.targaryen): the dragon strength tokens still on the round track
    # ("dragon_rounds"), the dragons' strength, Targaryen's loyalty points and whether it holds Pentos.
    targaryen: dict[str, Any] = field(default_factory=dict)
    # Mother of Dragons with Targaryen (engine.steps.iron_bank): the Iron Bank's deck and slots, the loans each house
    # holds, the Braavos token's holder, and the development and decline tokens on the board.
    bank: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        raw = self._fields()
        # Only games with vassals carry them, so a game without keeps the form every earlier game was saved in.
        if self.vassals or self.leaving:
            raw["vassals"] = dict(self.vassals)
            raw["leaving"] = list(self.leaving)
        if self.targaryen:
            raw["targaryen"] = _copy_json(self.targaryen)
        if self.bank:
            raw["bank"] = _copy_json(self.bank)
        return raw

    def _fields(self) -> dict[str, Any]:
        return {
            "format": 1,
            "seed": self.seed,
            "rng": self.rng,
            "options": dict(self.options),
            "players": list(self.players),
            "round": self.round,
            "phase": self.phase,
            "units": {a: [u.to_dict() for u in us] for a, us in self.units.items()},
            "orders": {a: o.to_dict() for a, o in self.orders.items()},
            "orders_revealed": self.orders_revealed,
            "power_tokens": dict(self.power_tokens),
            "garrisons": dict(self.garrisons),
            "neutral": dict(self.neutral),
            "tracks": {t: list(hs) for t, hs in self.tracks.items()},
            "blade_used": self.blade_used,
            "raven_used": self.raven_used,
            "houses": {h: s.to_dict() for h, s in self.houses.items()},
            "wildling_threat": self.wildling_threat,
            "wildling_deck": list(self.wildling_deck),
            "westeros_decks": [list(d) for d in self.westeros_decks],
            "westeros_drawn": list(self.westeros_drawn),
            "restrictions": list(self.restrictions),
            "tides_deck": list(self.tides_deck),
            "stack": _copy_json(self.stack),
            "frame_counter": self.frame_counter,
            "version": self.version,
            "winner": self.winner,
            "ended_reason": self.ended_reason,
        }

    @staticmethod
    def from_dict(raw: dict[str, Any]) -> GameState:
        return GameState(
            seed=raw["seed"],
            rng=raw["rng"],
            options=dict(raw["options"]),
            players=list(raw["players"]),
            round=raw["round"],
            phase=raw["phase"],
            units={a: [Unit.from_dict(u) for u in us] for a, us in raw["units"].items()},
            orders={a: PlacedOrder.from_dict(o) for a, o in raw["orders"].items()},
            orders_revealed=raw["orders_revealed"],
            power_tokens=dict(raw["power_tokens"]),
            garrisons=dict(raw["garrisons"]),
            neutral=dict(raw["neutral"]),
            tracks={t: list(hs) for t, hs in raw["tracks"].items()},
            blade_used=raw["blade_used"],
            raven_used=raw["raven_used"],
            houses={h: HouseState.from_dict(s) for h, s in raw["houses"].items()},
            wildling_threat=raw["wildling_threat"],
            wildling_deck=list(raw["wildling_deck"]),
            westeros_decks=[list(d) for d in raw["westeros_decks"]],
            westeros_drawn=list(raw["westeros_drawn"]),
            restrictions=list(raw["restrictions"]),
            tides_deck=list(raw["tides_deck"]),
            stack=_copy_json(raw["stack"]),
            frame_counter=raw["frame_counter"],
            version=raw["version"],
            winner=raw["winner"],
            ended_reason=raw.get("ended_reason"),
            vassals=dict(raw.get("vassals", {})),
            leaving=list(raw.get("leaving", [])),
            targaryen=_copy_json(raw.get("targaryen", {})),
            bank=_copy_json(raw.get("bank", {})),
        )


def copy_state(s: GameState) -> GameState:
    """A copy sharing nothing mutable with ``s``: what ``from_dict(s.to_dict())`` gives, without building the plain
    data in between (an answer works on a copy of the stored position)."""
    return GameState(
        seed=s.seed,
        rng=s.rng,
        options=_copy_json(s.options),
        players=list(s.players),
        round=s.round,
        phase=s.phase,
        units={a: [Unit(u.house, u.type, u.routed) for u in us] for a, us in s.units.items()},
        orders={a: PlacedOrder(o.house, o.token) for a, o in s.orders.items()},
        orders_revealed=s.orders_revealed,
        power_tokens=dict(s.power_tokens),
        garrisons=dict(s.garrisons),
        neutral=dict(s.neutral),
        tracks={t: list(hs) for t, hs in s.tracks.items()},
        blade_used=s.blade_used,
        raven_used=s.raven_used,
        houses={
            h: HouseState(
                hs.power,
                hs.supply,
                list(hs.hand),
                list(hs.discards),
                hs.seat,
                hs.autopilot,
                hs.raven_peek,
            )
            for h, hs in s.houses.items()
        },
        wildling_threat=s.wildling_threat,
        wildling_deck=list(s.wildling_deck),
        westeros_decks=[list(d) for d in s.westeros_decks],
        westeros_drawn=list(s.westeros_drawn),
        restrictions=list(s.restrictions),
        tides_deck=list(s.tides_deck),
        stack=_copy_json(s.stack),
        frame_counter=s.frame_counter,
        version=s.version,
        winner=s.winner,
        ended_reason=s.ended_reason,
        vassals=dict(s.vassals),
        leaving=list(s.leaving),
        targaryen=_copy_json(s.targaryen),
        bank=_copy_json(s.bank),
    )


def _copy_json(value: Any) -> Any:
    """Deep-copy a JSON-shaped value (dicts, lists, scalars) quickly."""
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    return value
