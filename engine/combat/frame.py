"""The combat frame: every field a combat ever holds, named and given its starting value when the combat starts.

The frame stays a plain JSON-able dict on the game's stack (so a game saves between any two answers); the
``CombatFrame`` type lets mypy check every read and write of it. A side is ``"attacker"`` or ``"defender"``;
``house_of`` names the house on a side (``"neutral"`` for a neutral force).
"""

from __future__ import annotations

from typing import Literal, TypedDict, cast

from engine.flow import Frame

FORMAT = 2  # the declared frame; frames saved before it have no "format"
Side = Literal["attacker", "defender"]
SIDES: tuple[Side, Side] = ("attacker", "defender")

StageName = Literal[
    "support", "refusal", "cards", "reveal", "blade", "resolve", "victor", "casualties", "skulls", "retreat",
    "cleanup", "port", "after",
]  # fmt: skip
# The stages in the order a combat passes through them (a neutral force ends the combat after ``refusal``).
STAGES: tuple[StageName, ...] = (
    "support",  # houses with an adjacent Support order declare, in turn order
    "refusal",  # combatants accept or refuse support other houses declared for them
    "cards",  # both combatants choose a house card in secret
    "reveal",  # the cards are revealed; "cancel", then "immediately" abilities; Tides cards drawn
    "blade",  # the Valyrian Steel Blade's holder decides; Tides cards revealed
    "resolve",  # final strengths compared, the victor named
    "victor",  # "if you win / lose" abilities
    "casualties",  # the loser's casualties
    "skulls",  # the winner's losses to skulls on the loser's Tides card
    "retreat",  # the loser retreats (or is routed where it stands)
    "cleanup",  # a winning attacker moves in
    "port",  # the conqueror of a land decides about enemy ships in its port
    "after",  # cards discarded; "after combat" abilities; the combat ends
)


class SupportOffer(TypedDict):
    """Support other houses declared for one combatant, which it may refuse area by area."""

    side: Side
    areas: list[str]
    supporters: dict[str, str]  # supporting area -> its house


class CasualtyChoice(TypedDict):
    house: str
    side: Side
    units: dict[str, int]  # eligible units by type
    count: int
    default: list[str]


class RetreatChoice(TypedDict):
    house: str  # the loser
    chooser: str  # the loser, or the winner holding Robb Stark
    areas: list[str]


class PortChoice(TypedDict):
    house: str
    port: str
    max: int
    ships: int  # enemy ships in the port


class CombatFrame(TypedDict):
    type: Literal["combat"]
    id: int
    format: int  # FORMAT when written; a frame saved before the stages were declared has none
    stage: StageName
    area: str  # the embattled area
    origin: str  # where the March order lies; attacking units stand there until the combat is decided
    attacker: str
    defender: str  # a house, or "neutral"
    units: list[str]  # types of the attacking units
    march: str  # the March order's token
    # support
    supports: dict[str, str]  # supporting area -> "attacker", "defender" or "none"
    asked: list[str]  # houses that declared their support
    refusals: dict[str, SupportOffer]  # combatant -> support it may refuse
    refused_by: dict[str, dict[str, str]]  # combatant -> supporting area -> "accept" or "refuse"
    # house cards and their abilities
    chosen: dict[str, str]  # side -> card, secret until the reveal
    cards: dict[str, str | None]  # side -> card in play
    cancelled: list[str]  # cards sent back to the hand by Tyrion Lannister
    resolved: list[str]  # "<window>:<card>" of triggered abilities already considered
    attacker_stays: bool  # Arianne Martell: a winning attacker does not move in
    march_follows: bool  # Ser Loras Tyrell: the March order moves into the conquered area
    kept_cards: list[str]  # cards that go back to the hand instead of the discard pile (Lysa Arryn)
    discarded_for_strength: dict[str, str]  # side -> a card discarded from the hand to add its strength (Viserys)
    # Tides of Battle and the Blade
    tides: dict[str, str | None]  # side -> Tides card drawn
    tides_used: list[str]  # every Tides card drawn in this combat, back to the deck at its end
    tides_secret: bool  # drawn but not revealed while the Blade's holder may still buy a redraw
    blade_asked: bool
    blade: str | None  # the house that used the Blade for +1
    # outcome
    winner: Side | None
    strength: dict[str, dict[str, int]] | None  # final strength by source, once resolved
    casualty_choice: CasualtyChoice | None
    retreat_choice: RetreatChoice | None
    port_choice: PortChoice | None
    moved_in: bool  # the winning attacker's units entered the area
    retreated_to: str | None  # where a beaten defender retreated (Jon Connington musters there)


def combat_fields(*, area: str, origin: str, attacker: str, defender: str, units: list[str], march: str) -> Frame:
    """Every field of a new combat frame but its ``type`` and ``id`` (given when it is pushed)."""
    return {
        "format": FORMAT,
        "stage": "support",
        "area": area,
        "origin": origin,
        "attacker": attacker,
        "defender": defender,
        "units": list(units),
        "march": march,
        "supports": {},
        "asked": [],
        "refusals": {},
        "refused_by": {},
        "chosen": {},
        "cards": {"attacker": None, "defender": None},
        "cancelled": [],
        "resolved": [],
        "attacker_stays": False,
        "march_follows": False,
        "kept_cards": [],
        "discarded_for_strength": {},
        "tides": {"attacker": None, "defender": None},
        "tides_used": [],
        "tides_secret": False,
        "blade_asked": False,
        "blade": None,
        "winner": None,
        "strength": None,
        "casualty_choice": None,
        "retreat_choice": None,
        "port_choice": None,
        "moved_in": False,
        "retreated_to": None,
    }


def combat(f: Frame) -> CombatFrame:
    """The combat frame behind a stack entry (the stack holds plain dicts)."""
    assert f["type"] == "combat", f["type"]
    return cast(CombatFrame, f)


def as_frame(f: CombatFrame) -> Frame:
    return cast(Frame, f)


def other(side: str) -> Side:
    return "defender" if side == "attacker" else "attacker"


def house_of(f: CombatFrame, side: str) -> str:
    return f["attacker"] if side == "attacker" else f["defender"]


def side_of(f: CombatFrame, house: str) -> Side:
    return "attacker" if house == f["attacker"] else "defender"


def won(f: CombatFrame, side: str) -> bool:
    """Whether ``side`` won the combat (False while it is undecided)."""
    return f["winner"] == side


def upgrade(f: Frame) -> None:
    """Bring a combat frame saved before the stages were declared up to the declared form, in place.

    Until then optional fields were added as the combat went, and three stages were folded into others:
    declaring and refusing support shared ``support``, the winner's skull losses ran inside ``casualties``,
    and ``tides`` only passed on to ``blade``.
    """
    if f.get("format") == FORMAT:
        # Fields declared since the frame was saved start from their initial value.
        fresh = combat_fields(
            area=f["area"], origin=f["origin"], attacker=f["attacker"], defender=f["defender"], units=[], march=""
        )
        for key, value in fresh.items():
            f.setdefault(key, value)
        return
    legacy = dict(f)
    fresh = combat_fields(
        area=legacy["area"],
        origin=legacy["origin"],
        attacker=legacy["attacker"],
        defender=legacy["defender"],
        units=legacy["units"],
        march=legacy["march"],
    )
    values: Frame = {"type": "combat", "id": legacy["id"]}
    values.update({k: legacy[k] if legacy.get(k) is not None else v for k, v in fresh.items()})
    stage = legacy["stage"]
    if stage == "support" and "refusals" in legacy:
        stage = "refusal"
    elif stage == "tides":
        stage = "blade"
    elif stage == "casualties" and legacy.get("casualties_done"):
        stage = "skulls" if not legacy.get("winner_skulls_done") or legacy.get("casualty_choice") else "retreat"
    values["stage"] = stage
    values["tides_secret"] = bool(legacy.get("tides_secret"))
    if legacy.get("port_choice"):
        values["port_choice"] = {k: v for k, v in legacy["port_choice"].items() if k != "replace"}
    f.clear()
    f.update(values)
