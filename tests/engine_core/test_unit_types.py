"""Issue T, the seam "unit types as data": footman, knight, ship and siege engine are rows of a table a ruleset
declares (``Ruleset.unit_types``, data/units.json), and the rules read their fields, never their names. Mother of
Dragons adds the dragon, whose strength the ruleset works out from the state (tests/engine_mod/test_targaryen.py);
the tests below also declare a fake type by overriding the ruleset's hooks, to show that any row works."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from engine import Game, RuleError, data, rules, rulesets
from engine.combat.strength import area_support_strength
from engine.rulesets.base import Ruleset
from engine.state import GameState, PlacedOrder, Unit
from engine.steps import mustering

ENGINE = Path(__file__).resolve().parents[2] / "engine"
BASE_TYPES = ("footman", "knight", "ship", "siege-engine")

# Engine modules that may name a unit type in a comparison or a literal table, because a card's printed text names
# it: "destroy a footman" is about footmen whatever the table says. Everything generic asks the table.
CARD_MODULES = {
    # Mace Tyrell destroys a footman, Renly Baratheon upgrades a footman, Ser Kevan Lannister's footmen count 2,
    # Salladhor Saan's and Victarion Greyjoy's ships
    "engine/cards.py",
    # Syrio Forel (vassal deck): the defender's footmen count 0
    "engine/cards_vassal.py",
    # wildling cards: Crow Killers replace knights with footmen, and their Night's Watch reward footmen with knights
    "engine/steps/wildlings.py",
    # Targaryen's cards: Khal Drogo's and Rakharo's knights, Xaro Xhoan Daxos's and Captain Groleo's ships,
    # Daenerys's dragon
    "engine/cards_targaryen.py",
    # the Iron Bank's loans: The Faceless Men's knight and footman, the unit loans' printed units
    "engine/steps/loans.py",
}


# ----- the table gives today's values -----


def test_the_base_table_holds_the_four_units_with_their_printed_values() -> None:
    kinds = data.unit_types()
    assert tuple(kinds) == BASE_TYPES  # the order prompts list them (mustering's "available")
    assert {t: (k.strength, k.strength_attacking_castle) for t, k in kinds.items()} == {
        "footman": (1, 1),
        "knight": (2, 2),
        "ship": (1, 1),
        "siege-engine": (0, 4),
    }
    assert {t: k.cost for t, k in kinds.items()} == {"footman": 1, "knight": 2, "ship": 1, "siege-engine": 2}
    assert all(k.musterable for k in kinds.values())
    assert {t: k.upgrades_from for t, k in kinds.items()} == {
        "footman": None,
        "knight": "footman",
        "ship": None,
        "siege-engine": "footman",
    }
    assert tuple(sorted(kinds, key=lambda t: kinds[t].weakness)) == ("footman", "ship", "siege-engine", "knight")
    assert [t for t, k in kinds.items() if k.at_sea] == ["ship"]
    assert [t for t, k in kinds.items() if not k.casualty] == ["siege-engine"]
    assert [t for t, k in kinds.items() if not k.retreats] == ["siege-engine"]


@pytest.mark.parametrize("name", sorted(rulesets.RULESETS))
def test_every_ruleset_reads_its_units_through_the_hook(name: str) -> None:
    g = Game.from_scenario({"players": 3, "options": {"ruleset": name}})
    s = g.state
    kinds = rulesets.named(name).unit_types()
    assert {t: k for t, k in kinds.items() if t in BASE_TYPES} == data.unit_types()
    # Mother of Dragons adds the dragon (M-TARG-10, -11, -14): a land unit, never mustered, that flies.
    assert [t for t in kinds if t not in BASE_TYPES] == (["dragon"] if name == "mother-of-dragons" else [])
    assert all(kinds[t].flies == (t == "dragon") and kinds[t].musterable == (t != "dragon") for t in kinds)
    assert rules.unit_type(s, "siege-engine").strength_attacking_castle == 4
    assert [rules.weakness(s, t) for t in BASE_TYPES] == [0, 3, 1, 2]
    assert rules.unit_strength(s, Unit("stark", "siege-engine"), attacking_castle=True) == 4
    assert rules.unit_strength(s, Unit("stark", "siege-engine", routed=True), attacking_castle=True) == 0


# ----- no generic rule names a unit type -----


def _names_units(node: ast.AST, names: set[str]) -> set[str]:
    """The unit type names a literal (a string, or a tuple, list or set of strings) spells out."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return {v for e in node.elts for v in _names_units(e, names)}
    return set()


def unit_literals(tree: ast.Module, names: set[str]) -> list[tuple[int, str]]:
    """Comparisons with a unit type's name (``u.type == "ship"``, ``t in ("knight", "siege-engine")``) and literal
    tables of unit types (``("footman", "ship", ...)``, ``{"footman": 1, "knight": 2}``): a generic property written
    out by name instead of read from the table."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            spelled = set().union(*(_names_units(n, names) for n in (node.left, *node.comparators)))
            if spelled:
                found.append((node.lineno, f"compares with {sorted(spelled)}"))
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            spelled = _names_units(node, names)
            if len(spelled) >= 2:
                found.append((node.lineno, f"lists {sorted(spelled)}"))
        elif isinstance(node, ast.Dict):
            spelled = set().union(*(_names_units(k, names) for k in node.keys if k is not None))
            if len(spelled) >= 2:
                found.append((node.lineno, f"maps {sorted(spelled)}"))
    return sorted(found)


def test_the_scan_sees_written_out_unit_types() -> None:
    names = set(BASE_TYPES)
    source = """
if u.type == "siege-engine": pass
if "ship" != kind: pass
if t in ("knight", "siege-engine"): pass
WEAKEST_FIRST = ("footman", "ship", "siege-engine", "knight")
COST = {"footman": 1, "knight": 2}
place(Unit(house, "ship"))
if mode == "upgrade": pass
"""
    assert [line for line, _ in unit_literals(ast.parse(source), names)] == [2, 3, 4, 4, 5, 6]


def test_no_engine_module_but_the_cards_names_a_unit_type_for_a_generic_rule() -> None:
    names = set(data.unit_types())
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        rel = path.relative_to(ENGINE.parent).as_posix()
        if rel in CARD_MODULES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        offenders += [f"{rel}:{line}: {what}" for line, what in unit_literals(tree, names)]
    assert offenders == []


def test_the_allowed_card_modules_exist() -> None:
    assert all((ENGINE.parent / rel).is_file() for rel in CARD_MODULES)


# ----- a unit type a ruleset adds -----

DRAGON = data.UnitType(
    id="dragon",
    stands="land",
    strength=0,  # worked out from the state instead, below
    strength_attacking_castle=0,
    cost=None,  # never mustered
    upgrades_from="footman",  # even with an upgrade path, it is never offered: it has no cost
    weakness=4,
    casualty=True,
    retreats=True,
)
GALLEY = dataclasses.replace(DRAGON, id="galley", stands="sea", strength=1, strength_attacking_castle=1, weakness=5)


@pytest.fixture
def dragons(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ruleset declares a dragon whose strength is half the round, rounded down, and a galley that sails like a
    ship (neither can be mustered)."""
    base_strength = Ruleset.unit_strength

    def unit_types(self: Ruleset) -> dict[str, data.UnitType]:
        return {**data.unit_types(), "dragon": DRAGON, "galley": GALLEY}

    def unit_strength(self: Ruleset, s: GameState, unit: Unit, *, attacking_castle: bool) -> int:
        if unit.type == "dragon":
            return s.round // 2
        return base_strength(self, s, unit, attacking_castle=attacking_castle)

    monkeypatch.setattr(Ruleset, "unit_types", unit_types)
    monkeypatch.setattr(Ruleset, "unit_strength", unit_strength)


SPEC: dict[str, Any] = {
    "players": 3,
    "units": {
        "lannisport": "lannister dragon footman",
        "stoney-sept": "lannister footman",
        "the-golden-sound": "lannister ship galley",
    },
    "start": "planning",
}


@pytest.mark.usefixtures("dragons")
def test_a_dragons_strength_comes_from_the_ruleset_and_the_state() -> None:
    s = Game.from_scenario(SPEC).state
    dragon = s.units["lannisport"][0]
    assert dragon.type == "dragon"
    s.round = 5
    assert rules.unit_strength(s, dragon, attacking_castle=False) == 2
    s.round = 8
    assert rules.unit_strength(s, dragon, attacking_castle=True) == 4
    assert rules.unit_strength(s, Unit("lannister", "dragon", routed=True), attacking_castle=False) == 0
    assert rules.unit_strength(s, Unit("lannister", "knight"), attacking_castle=False) == 2
    # Combat reads it too: Lannisport's support to an attack on Stoney Sept is its dragon and its footman.
    s.orders["lannisport"] = PlacedOrder("lannister", "support0")
    assert area_support_strength(s, "lannisport", "stoney-sept") == 4 + 1
    assert rules.weakness(s, "dragon") == 4
    assert rules.move_destinations(s, "lannister", "lannisport", "dragon") == rules.move_destinations(
        s, "lannister", "lannisport", "footman"
    )
    at_sea = rules.move_destinations(s, "lannister", "the-golden-sound", "galley")
    assert at_sea == rules.move_destinations(s, "lannister", "the-golden-sound", "ship")
    assert at_sea and all(not rules.board(s).areas[a].is_land for a in at_sea)


@pytest.mark.usefixtures("dragons")
def test_mustering_never_offers_a_dragon() -> None:
    g = Game.from_scenario(SPEC)
    s = g.state
    choices = mustering.muster_choices(s, "lannister")
    assert choices["available"] == {"footman": 8, "knight": 5, "ship": 5, "siege-engine": 2}
    lannisport = choices["areas"]["lannisport"]
    assert lannisport["recruit"] == ["footman", "knight", "siege-engine", "ship"]
    assert lannisport["upgrade"] == ["knight", "siege-engine"]
    allowed = mustering.muster_areas(s, "lannister")
    for action in ({"recruit": "dragon"}, {"recruit": "galley", "to": "the-golden-sound"}, {"upgrade": "dragon"}):
        with pytest.raises(RuleError) as info:
            mustering.apply_plan(g, "lannister", {"lannisport": [action]}, allowed, None)
        assert info.value.code == "bad-unit"
    with pytest.raises(RuleError, match="A dragon is never mustered"):
        mustering.apply_plan(g, "lannister", {"lannisport": [{"recruit": "dragon"}]}, allowed, None)
    assert [u.type for u in s.units["lannisport"]] == ["dragon", "footman"]


@pytest.mark.usefixtures("dragons")
def test_the_scenario_accepts_a_dragon_on_land_only() -> None:
    g = Game.from_scenario(SPEC)
    assert [u.type for u in g.state.units["lannisport"]] == ["dragon", "footman"]
    assert [u.type for u in g.state.units["the-golden-sound"]] == ["ship", "galley"]
    with pytest.raises(RuleError) as info:
        Game.from_scenario({**SPEC, "units": {**SPEC["units"], "the-golden-sound": "lannister dragon"}})
    assert "a dragon stands only in land areas" in info.value.message
    with pytest.raises(RuleError) as info:
        Game.from_scenario({**SPEC, "units": {**SPEC["units"], "lannisport": "lannister galley"}})
    assert "a galley stands only in seas and ports" in info.value.message
    with pytest.raises(RuleError) as info:
        Game.from_scenario({**SPEC, "units": {**SPEC["units"], "lannisport": "lannister wyvern"}})
    assert "known: footman, knight, ship, siege-engine, dragon, galley" in info.value.message


def test_without_the_hook_there_is_no_dragon() -> None:
    with pytest.raises(RuleError) as info:
        Game.from_scenario(SPEC)
    assert "unknown unit 'dragon'" in info.value.message
    assert dataclasses.replace(DRAGON, cost=1).musterable and not DRAGON.musterable
