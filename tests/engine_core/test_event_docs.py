"""docs/engine.md documents every event type and its fields (issue 13, R).

The "## Events" section of docs/engine.md holds tables with the columns ``event | when | fields | visibility``.
A row's fields cell is ``none`` or a list of "`name` (type): meaning" separated by "; "; the visibility
starts with ``public`` or ``private`` (a private row lists ``private_to``). A type emitted with different sets of
fields has one row per set. Three checks keep the tables honest:

* the source: every ``emit("type", ...)`` call in engine/ (and the event ``set_seat`` returns) is documented, with a
  row whose fields are exactly the call's keywords, and every row matches such a call;
* whole simulated games (3 to 6 players, heuristic and random agents, with and without Tides of Battle) and a few
  built positions for rare events: every event is documented by a row with exactly its fields, whose values have
  the documented types and whose visibility matches ``private_to``;
* every documented row was seen in those games, so the second check covers the whole table.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine import Game
from engine.agents import AGENTS
from engine.errors import RuleError
from engine.events import EVENT_TYPES
from engine.game import new_game

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "engine.md"
ENGINE = ROOT / "engine"

HEADER = "| event | when | fields | visibility |"
FIELD = re.compile(r"^`([a-z_]+)` \(([^()]*)\): \S")
FIELD_SPLIT = re.compile(r";\s+(?=`[a-z_]+` \()")
PYTHON_TYPES: dict[str, type] = {
    "house": str,
    "area": str,
    "card": str,
    "token": str,
    "unit": str,
    "str": str,
    "int": int,
    "bool": bool,
    "list": list,
    "dict": dict,
}


@dataclass(frozen=True)
class Row:
    type: str
    group: str
    fields: dict[str, str]  # name -> documented type
    private: bool

    @property
    def shape(self) -> tuple[str, frozenset[str]]:
        return self.type, frozenset(self.fields)


def parse_doc(text: str) -> list[Row]:
    start = text.index("\n## Events\n")
    end = text.find("\n## ", start + 1)
    section = text[start : end if end >= 0 else len(text)]
    assert HEADER in section, f"the Events section needs tables headed {HEADER!r}"
    rows: list[Row] = []
    group = ""
    for line in section.splitlines():
        if line.startswith("### "):
            group = line[4:].strip()
            continue
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        assert len(cells) == 4, f"a row needs 4 cells: {line}"
        name, when, fields_cell, visibility = cells
        m = re.fullmatch(r"`([a-z0-9-]+)`", name)
        assert m, f"the event cell must be one backticked type: {name!r}"
        assert when, f"{name}: say when it happens"
        fields: dict[str, str] = {}
        if fields_cell != "none":
            for segment in FIELD_SPLIT.split(fields_cell):
                fm = FIELD.match(segment)
                assert fm, f"{name}: a field must read `name` (type): meaning, not {segment!r}"
                field, typ = fm.groups()
                assert field not in fields, f"{name}: field {field} listed twice"
                assert typ.split()[0] in PYTHON_TYPES, f"{name}.{field}: unknown type {typ!r}"
                fields[field] = typ
        assert visibility.startswith(("public", "private")), f"{name}: visibility must be public or private"
        private = visibility.startswith("private")
        assert private == ("private_to" in fields), f"{name}: a private row lists private_to, a public one does not"
        rows.append(Row(m.group(1), group, fields, private))
    return rows


ROWS = parse_doc(DOC.read_text(encoding="utf-8"))
DOC_TYPES = {r.type for r in ROWS}


# ----- the source -----


@dataclass(frozen=True)
class Emit:
    type: str
    fields: frozenset[str]
    open: bool  # ``**fields`` passed on: the call may add more
    where: str


def source_emits() -> list[Emit]:
    out: list[Emit] = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(ROOT)
        for node in ast.walk(tree):
            where = f"{rel}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit":
                first = node.args[0] if node.args else None
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                    f"{where}: emit() with a type that is not a string literal cannot be checked against the doc"
                )
                kws = frozenset(k.arg for k in node.keywords if k.arg is not None)
                out.append(Emit(first.value, kws, any(k.arg is None for k in node.keywords), where))
            # Events returned directly (``set_seat``): ``return [{"type": "...", ...}]``.
            if isinstance(node, ast.Return) and isinstance(node.value, ast.List):
                for item in node.value.elts:
                    if not isinstance(item, ast.Dict):
                        continue
                    keys = [k.value for k in item.keys if isinstance(k, ast.Constant)]
                    if "type" not in keys:
                        continue
                    value = item.values[keys.index("type")]
                    assert isinstance(value, ast.Constant) and isinstance(value.value, str), where
                    fields = frozenset(str(k) for k in keys if k != "type")
                    out.append(Emit(value.value, fields, len(keys) != len(item.keys), where))
    return out


EMITS = source_emits()


def test_every_emitted_type_is_documented_and_every_documented_type_is_emitted() -> None:
    source = {e.type for e in EMITS}
    assert len(source) > 50  # the scan found the engine's events
    assert sorted(source - DOC_TYPES) == [], "event types the engine emits but docs/engine.md does not document"
    assert sorted(DOC_TYPES - source) == [], "event types docs/engine.md documents but the engine never emits"


def test_the_declared_event_types_are_exactly_those_emitted_and_documented() -> None:
    """``engine.events.EventType`` types ``Game.emit``: mypy refuses an undeclared type, and this keeps the
    declaration to what the engine emits and docs/engine.md documents."""
    assert set(EVENT_TYPES) == {e.type for e in EMITS} == DOC_TYPES


def test_every_emit_call_has_a_row_with_exactly_its_fields() -> None:
    by_type: dict[str, list[Row]] = {}
    for r in ROWS:
        by_type.setdefault(r.type, []).append(r)
    missing = []
    for e in EMITS:
        rows = by_type.get(e.type, [])
        if e.open:
            ok = any(e.fields <= set(r.fields) for r in rows)
        else:
            ok = any(e.fields == set(r.fields) for r in rows)
        if not ok:
            missing.append(f"{e.where}: {e.type} {sorted(e.fields)}")
    assert missing == [], "emit calls whose set of fields no row of docs/engine.md lists"


def test_every_row_matches_an_emit_call() -> None:
    unknown = []
    for r in ROWS:
        calls = [e for e in EMITS if e.type == r.type]
        if not any(e.fields == set(r.fields) or (e.open and e.fields <= set(r.fields)) for e in calls):
            unknown.append(f"{r.group}: {r.type} {sorted(r.fields)}")
    assert unknown == [], "documented rows no emit call produces"


# ----- simulated games -----


class Collector:
    def __init__(self) -> None:
        self.seen: Counter[tuple[str, frozenset[str]]] = Counter()
        self.errors: dict[str, str] = {}  # problem -> where it was first seen

    def error(self, problem: str, where: str) -> None:
        self.errors.setdefault(problem, where)

    def add(self, events: list[dict[str, Any]], where: str) -> None:
        for e in events:
            self.check(e, where)

    def check(self, e: dict[str, Any], where: str) -> None:
        kind = e["type"]
        keys = frozenset(k for k in e if k != "type")
        rows = [r for r in ROWS if r.shape == (kind, keys)]
        if not rows:
            documented = [sorted(r.fields) for r in ROWS if r.type == kind]
            self.error(f"{kind} with fields {sorted(keys)}; documented: {documented}", where)
            return
        self.seen[(kind, keys)] += 1
        problems = [mismatches(e, r) for r in rows]
        if all(problems):
            self.error(f"{kind}: {'; '.join(problems[0])}", where)


def mismatches(e: dict[str, Any], row: Row) -> list[str]:
    """How an event with the row's fields differs from it: visibility, then each value's type."""
    out = []
    if row.private != ("private_to" in e):
        out.append("visibility differs from the doc")
    for field, typ in row.fields.items():
        value = e[field]
        if value is None and "or null" in typ:
            continue
        expected = PYTHON_TYPES[typ.split()[0]]
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            out.append(f"{field} = {value!r} is not {typ}")
    return out


def raven_answer(prompt: Any, turn: int) -> Any:
    """The agents never use the Raven; take turns declining, swapping and peeking."""
    if prompt.kind == "raven-wildling":
        return ["top", "bottom"][turn % 2]
    swaps = prompt.choices["swap"]
    choice = turn % 3
    if choice == 1 and swaps:
        area = sorted(swaps)[0]
        return {"action": "swap", "area": area, "token": swaps[area][0]}
    if choice == 2 and prompt.choices["peek"]:
        return {"action": "peek"}
    return {"action": "none"}


def play_game(players: int, seed: int, agent: str, tides: bool, collector: Collector, vassals: bool = False) -> None:
    """A whole game between agents; seven and eight players play Mother of Dragons (eight with Targaryen), and so do
    games ``vassals`` marks, where the last player on the Iron Throne track leaves in round 3 (M-LEAVE-01)."""
    expansion = {"ruleset": "mother-of-dragons"} if players >= 7 or vassals else {}
    g = new_game(players, seed=seed, options={"tides_of_battle": tides, **expansion})
    where = f"{players}p seed {seed} {agent}{' tides' if tides else ''}{' vassals' if vassals else ''}"
    leaving = vassals and players > 3
    agents = {h: AGENTS[agent](seed * 31 + i) for i, h in enumerate(g.state.players)}
    turns = itertools.count()
    house = g.state.players[0]
    collector.add(g.set_seat(house, "player-1"), where)
    collector.add(g.set_seat(house, None, autopilot=True), where)
    for _ in range(20_000):
        if g.finished:
            return
        if leaving and g.state.round == 3:
            last_player = [h for h in g.state.tracks["iron_throne"] if h not in g.state.vassals][-1]
            collector.add(g.vassalize(last_player), where)
            leaving = False
        prompt = next(p for p in g.prompts() if not p.answered)
        if prompt.kind in ("raven", "raven-wildling"):
            answer = raven_answer(prompt, next(turns))
        else:
            answer = agents[prompt.house].answer(prompt, g.view(prompt.house))
        try:
            events = g.act(prompt.house, answer)
        except RuleError:
            events = g.act(prompt.house, prompt.default)
        collector.add(events, f"{where}, round {g.state.round}")
    raise AssertionError(f"{where}: the game did not end")


GAMES = [
    (players, seed, agent, tides)
    for players in (3, 4, 5, 6, 7)
    for seed in (1, 2)
    for agent, tides in (("heuristic", False), ("heuristic", True), ("random", False), ("random", True))
] + [(7, 15, "heuristic", False)]  # Robert Arryn removes cards in this one
GAMES += [(8, seed, agent, False) for seed in (1, 2) for agent in AGENTS]  # Targaryen's dragons and hand-out
VASSAL_GAMES = [(players, seed, agent, False) for players in (3, 4, 5) for seed in (1, 2) for agent in AGENTS]


# ----- built positions for rare events -----


def drive(g: Game, script: dict[tuple[str, str], Any], collector: Collector, where: str) -> list[str]:
    """Answer every prompt until the game ends: ``script[(house, kind)]`` (a tuple is a queue of answers), else the
    prompt's default. Returns the types of every event seen."""
    script = dict(script)
    kinds: list[str] = []
    for _ in range(2_000):
        if g.finished:
            return kinds
        p = next(p for p in g.prompts() if not p.answered)
        answer = p.default
        value = script.get((p.house, p.kind), p.default)
        if isinstance(value, tuple):
            if value:
                answer, script[(p.house, p.kind)] = value[0], value[1:]
        else:
            answer = value
        events = g.act(p.house, answer)
        collector.add(events, where)
        kinds += [e["type"] for e in events]
    raise AssertionError(f"{where}: the game did not end")


def build(spec: dict[str, Any], collector: Collector, where: str) -> Game:
    g = Game.from_scenario(spec)
    # Events of the build itself (Game.from_scenario runs up to the first decision) are real events too.
    collector.add(list(g._events), where)
    return g


TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}


def battle(
    attacker: str,
    defender: str,
    script: dict[tuple[str, str], Any],
    expect: set[str],
    *,
    units: dict[str, str] | None = None,
    orders: dict[str, str] | None = None,
    moving: tuple[str, ...] = ("knight",),
    target: str = "stoney-sept",
    **extra: Any,
) -> tuple[dict[str, Any], dict[tuple[str, str], Any], set[str]]:
    """Round 10, Action phase: ``attacker`` (a knight, March +0) marches from the Searoad Marches into ``target``,
    Stoney Sept held by ``defender`` (a footman, Defense +1) unless told otherwise; the game ends with that Action
    phase."""
    spec: dict[str, Any] = {
        "players": 6,
        "round": 10,
        "start": "march",
        "garrisons": {},
        "neutral": {},
        "tracks": TRACKS,
        "supply": dict.fromkeys(TRACKS["iron_throne"], 6),
        "units": {"searoad-marches": f"{attacker} knight", "stoney-sept": f"{defender} footman", **(units or {})},
        "orders": {"searoad-marches": "march0", "stoney-sept": "defense1", **(orders or {})},
    }
    for key in ("units", "orders"):  # an empty value leaves the area empty
        spec[key] = {area: value for area, value in spec[key].items() if value}
    spec.update(extra)
    march = {"from": "searoad-marches", "moves": [{"to": target, "units": list(moving)}]}
    return spec, {(attacker, "march"): (march,), **script}, expect


STARK_OTHERS = ["eddard-stark", "robb-stark", "roose-bolton", "greatjon-umber", "ser-rodrick-cassel", "catelyn-stark"]
MARTELL_OTHERS = ["the-red-viper", "areo-hotah", "obara-sand", "arianne-martell", "nymeria-sand", "doran-martell"]


def crow_killers(won: bool) -> tuple[dict[str, Any], dict[tuple[str, str], Any], set[str]]:
    """A Wildlings Attack card (deck III) at strength 6, Crow Killers on top of the wildling deck; Stark bids 5 and
    Lannister 1 (the Night's Watch wins), or nobody bids."""
    spec: dict[str, Any] = {
        "players": 3,
        "round": 10,
        "start": "westeros",
        "wildling_threat": 2,  # cards I and II carry one icon each: 6 when the attack comes
        "wildling_deck": ["crow-killers", "rattleshirts-raiders", "mammoth-riders"],
        "westeros_decks": [
            ["last-days-of-summer", "supply", "mustering"],
            ["last-days-of-summer", "game-of-thrones", "clash-of-kings"],
            ["wildlings-attack", "storm-of-swords", "web-of-lies"],
        ],
    }
    bids = {("stark", "bid"): 5, ("lannister", "bid"): 1} if won else {}
    return spec, bids, {"wildling-effect"}


SCENARIOS: dict[str, tuple[dict[str, Any], dict[tuple[str, str], Any], set[str]]] = {
    # Mace Tyrell against The Blackfish, whose owner plays the last card of its hand.
    "mace-blackfish": battle(
        "tyrell",
        "stark",
        {("tyrell", "house-card"): "mace-tyrell", ("stark", "house-card"): "the-blackfish"},
        {"ability-prevented", "hand-returned"},
        hands={"stark": ["the-blackfish"]},
        discards={"stark": STARK_OTHERS},
    ),
    # Tyrion cancels the only card of Martell's hand; then Tyrion cancels the Red Viper and Martell plays again.
    "tyrion-no-card": battle(
        "lannister",
        "martell",
        {
            ("lannister", "house-card"): "tyrion-lannister",
            ("martell", "house-card"): "darkstar",
            ("lannister", "tyrion-cancel"): "cancel",
        },
        {"house-card-cancelled", "no-house-card"},
        hands={"martell": ["darkstar"]},
        discards={"martell": MARTELL_OTHERS},
    ),
    "tyrion-rechoose": battle(
        "lannister",
        "martell",
        {
            ("lannister", "house-card"): "tyrion-lannister",
            ("martell", "house-card"): ("the-red-viper", "areo-hotah"),
            ("lannister", "tyrion-cancel"): "cancel",
        },
        {"house-card-cancelled", "house-card-revealed"},
    ),
    # Doran Martell moves Lannister down a track; Tywin wins against Arianne Martell, who holds the attackers out.
    "doran": battle(
        "lannister",
        "martell",
        {("lannister", "house-card"): "the-hound", ("martell", "house-card"): "doran-martell"},
        {"track-moved"},
    ),
    "tywin-arianne": battle(
        "lannister",
        "martell",
        {("lannister", "house-card"): "tywin-lannister", ("martell", "house-card"): "arianne-martell"},
        {"power-gained", "attack-held"},
    ),
    # Cersei wins and declines to remove an order.
    "cersei-declines": battle(
        "lannister",
        "martell",
        {
            ("lannister", "house-card"): "cersei-lannister",
            ("martell", "house-card"): "nymeria-sand",
            ("lannister", "cersei-order"): None,
        },
        {"ability-declined"},
        units={"searoad-marches": "lannister knight knight", "riverrun": "martell footman"},
        orders={"riverrun": "consolidate"},
        moving=("knight", "knight"),
    ),
    # Renly Baratheon upgrades the winning footman.
    "renly": battle(
        "baratheon",
        "lannister",
        {("baratheon", "house-card"): "renly-baratheon", ("lannister", "house-card"): "cersei-lannister"},
        {"unit-upgraded"},
        units={"searoad-marches": "baratheon knight footman"},
        moving=("knight", "footman"),
    ),
    # Ser Loras Tyrell wins: the March order follows into Stoney Sept.
    "loras": battle(
        "tyrell",
        "lannister",
        {("tyrell", "house-card"): "ser-loras-tyrell", ("lannister", "house-card"): "the-hound"},
        {"order-moved"},
    ),
    # The Queen of Thorns removes Lannister's order in Lannisport (the only one next to the battle).
    "queen-of-thorns": battle(
        "tyrell",
        "lannister",
        {("tyrell", "house-card"): "queen-of-thorns", ("lannister", "house-card"): "the-hound"},
        {"order-removed"},
        units={"lannisport": "lannister footman"},
        orders={"lannisport": "consolidate"},
    ),
    # Patchface wins against Roose Bolton: Roose takes the discards back, Patchface has one discarded.
    "patchface-roose": battle(
        "baratheon",
        "stark",
        {("baratheon", "house-card"): "patchface", ("stark", "house-card"): "roose-bolton"},
        {"house-card-discarded", "hand-returned"},
        units={"searoad-marches": "baratheon knight knight footman"},
        moving=("knight", "knight", "footman"),
        hands={"stark": [c for c in STARK_OTHERS if c != "eddard-stark"] + ["the-blackfish"]},
        discards={"stark": ["eddard-stark"]},
    ),
    # Stark's support for Lannister is refused.
    "support-refused": battle(
        "tyrell",
        "lannister",
        {("stark", "support"): "defender", ("lannister", "support-refusal"): "refuse"},
        {"support-declared", "support-refused"},
        units={"lannisport": "stark footman"},
        orders={"lannisport": "support0"},
    ),
    # Greyjoy holds the Blade: with Tides of Battle, Aeron Damphair is swapped, then the Blade buys a new Tides card.
    "aeron-tides-redraw": battle(
        "greyjoy",
        "lannister",
        {
            ("greyjoy", "house-card"): "aeron-damphair",
            ("greyjoy", "aeron-swap"): "euron-crows-eye",
            ("greyjoy", "blade"): "redraw",
            ("lannister", "house-card"): "the-hound",
        },
        {"house-card-swapped", "tides-redrawn", "tides-revealed", "blade-used"},
        options={"tides_of_battle": True},
        power={"greyjoy": 5},
    ),
    # A march into a neutral force.
    "neutral": battle(
        "tyrell",
        "lannister",
        {},
        {"neutral-attack"},
        units={"stoney-sept": ""},
        orders={"stoney-sept": ""},
        neutral={"stoney-sept": 1},
    ),
    # Stark takes Lannisport from its garrison and replaces one of the two ships in its port; their order goes too.
    "port-capture": battle(
        "stark",
        "lannister",
        {
            ("stark", "house-card"): "eddard-stark",
            ("lannister", "house-card"): "the-hound",
            ("stark", "port-capture"): 1,
        },
        {"port-captured", "garrison-removed", "order-removed"},
        units={
            "searoad-marches": "stark knight knight knight",
            "stoney-sept": "",
            "lannisport": "lannister footman",
            "port-of-lannisport": "lannister ship ship",
        },
        orders={"stoney-sept": "", "lannisport": "defense1", "port-of-lannisport": "consolidate"},
        moving=("knight", "knight", "knight"),
        target="lannisport",
        garrisons={"lannisport": 2},
    ),
    # Supply: Stark falls from 6 to its single barrel, and its army of four must shrink.
    "reconcile": (
        {
            "players": 3,
            "round": 10,
            "start": "westeros",
            "supply": {"stark": 6},
            "units": {
                "winterfell": "stark footman footman footman knight",
                "lannisport": "lannister footman",
                "dragonstone": "baratheon footman",
            },
            "westeros_decks": [
                ["supply", "mustering", "a-throne-of-blades"],
                ["last-days-of-summer", "game-of-thrones", "clash-of-kings"],
                ["rains-of-autumn", "storm-of-swords", "web-of-lies"],
            ],
        },
        {},
        {"supply-reconciled"},
    ),
    "bronn-paid": (
        {
            "players": ["stark", "lannister", "baratheon", "greyjoy"],
            "options": {"ruleset": "mother-of-dragons"},
            "seed": 0,  # deals Tyrell Bronn
            "round": 10,
            "start": "march",
            "garrisons": {},
            "units": {"searoad-marches": "lannister knight knight", "the-reach": "tyrell footman"},
            "orders": {"searoad-marches": "march0"},
        },
        {
            ("lannister", "march"): (
                {"from": "searoad-marches", "moves": [{"to": "the-reach", "units": ["knight", "knight"]}]},
            ),
            ("tyrell", "house-card"): "vassal-bronn",
            ("lannister", "bronn-pay"): "pay",
        },
        {"card-strength-zeroed"},
    ),
    "crow-killers-won": crow_killers(True),
    "crow-killers-lost": crow_killers(False),
    # Stark walks into an empty Pentos (Targaryen loses its point), then leaves it (the point and garrison return).
    "pentos": (
        {
            "players": 8,
            "options": {"ruleset": "mother-of-dragons"},
            "round": 10,
            "start": "march",
            "garrisons": {},
            "units": {"norvos": "stark footman", "myr": "targaryen knight"},
            "orders": {"norvos": "march0", "myr": "defense1"},
        },
        {
            ("stark", "march"): ({"from": "norvos", "moves": [{"to": "pentos", "units": ["footman"]}]},),
        },
        {"pentos-lost"},
    ),
    # Daenerys Targaryen (set B) beats Martell by 3: Martell discards 3 of its 5 Power.
    "daenerys-b": (
        {
            "players": 8,
            "options": {"ruleset": "mother-of-dragons", "targaryen_cards": "b"},
            "round": 10,
            "start": "march",
            "garrisons": {},
            "neutral": {},
            "power": {"martell": 5},
            "units": {"myr": "targaryen knight", "the-disputed-lands": "martell footman"},
            "orders": {"myr": "march0"},
        },
        {
            ("targaryen", "march"): ({"from": "myr", "moves": [{"to": "the-disputed-lands", "units": ["knight"]}]},),
            ("targaryen", "house-card"): "daenerys-targaryen-b",
            ("martell", "house-card"): "obara-sand",
        },
        {"power-lost"},
    ),
    # All twenty loyalty tokens are out: Strongholds of Resistance places none and asks nothing.
    "loyalty-reserve-empty": (
        {
            "players": 8,
            "options": {"ruleset": "mother-of-dragons"},
            "round": 2,
            "start": {"westeros": 4, "card": "strongholds-of-resistance"},
            "loyalty_tokens": {"winterfell": 20},
        },
        {},
        {"loyalty-reserve-empty", "deck4-nothing"},
    ),
    # The Faceless Men with no knight or footman anywhere: nothing to destroy, nothing asked.
    "loan-nothing": (
        {
            "players": ["stark", "lannister", "baratheon", "targaryen"],
            "options": {"ruleset": "mother-of-dragons"},
            "round": 10,
            "start": "consolidate",
            "garrisons": {},
            "neutral": {},
            "power": {"stark": 5},
            "units": {"bay-of-ice": "stark ship"},
            "orders": {"bay-of-ice": "sea-iron-bank"},
            "bank": {"slots": ["the-faceless-men", None, None]},
        },
        {("stark", "loan"): "the-faceless-men"},
        {"loan-taken", "loan-nothing"},
    ),
    "pentos-regained": (
        {
            "players": 8,
            "options": {"ruleset": "mother-of-dragons"},
            "round": 10,
            "start": "march",
            "garrisons": {},
            "neutral": {},
            "units": {"pentos": "stark footman", "myr": "targaryen knight"},
            "orders": {"pentos": "march0", "myr": "defense1"},
        },
        {
            ("stark", "march"): ({"from": "pentos", "moves": [{"to": "braavos", "units": ["footman"]}]},),
        },
        {"pentos-regained"},
    ),
}


@pytest.fixture(scope="module")
def collected() -> Collector:
    collector = Collector()
    for case in GAMES:
        play_game(*case, collector=collector)
    for case in VASSAL_GAMES:
        play_game(*case, collector=collector, vassals=True)
    for name, (spec, script, expect) in SCENARIOS.items():
        g = build(spec, collector, name)
        kinds = set(drive(g, script, collector, name))
        assert expect <= kinds, f"{name}: the position no longer produces {sorted(expect - kinds)}"
    expansion = new_game(7, seed=1, options={"ruleset": "mother-of-dragons"})
    collector.add(expansion.gift("arryn", "stark", 2), "a gift of Power")
    leaving = build(
        {
            "players": ["stark", "lannister", "baratheon", "targaryen"],
            "options": {"ruleset": "mother-of-dragons"},
            "round": 5,
            "start": "consolidate",
            "power": {"stark": 5},
            "units": {"bay-of-ice": "stark ship", "dragonstone": "baratheon footman"},
            "orders": {"bay-of-ice": "sea-iron-bank"},
            "bank": {"slots": ["customs-officer", None, None], "loans": {"baratheon": ["spymaster"]}},
        },
        collector,
        "a player leaves holding a loan",
    )
    collector.add(leaving.vassalize("baratheon"), "a player leaves holding a loan")
    collector.add(leaving.act("stark", None), "a player leaves holding a loan")
    return collector


def test_events_of_whole_games_are_documented(collected: Collector) -> None:
    assert [f"{problem} (first in {where})" for problem, where in collected.errors.items()] == []


def test_every_documented_row_is_seen(collected: Collector) -> None:
    unseen = sorted({f"{r.type} {sorted(r.fields)}" for r in ROWS if r.shape not in collected.seen})
    assert unseen == [], "rows no simulated game or built position produced"
