"""The project's own data files: totals, adjacency, ports and the facts the rulebook examples assert."""

from __future__ import annotations

import json
from collections import Counter

from engine import data

BOARD_FILE = data.DATA_DIR / "board.json"


def test_B_DATA_01_area_totals() -> None:
    """B-DATA-01, B-TERM-02: 58 areas (38 land, 12 sea, 8 ports), 10 castles, 10 strongholds, 24 barrels, 19 crowns."""
    areas = data.board().areas.values()
    kinds = Counter(a.kind for a in areas)
    assert kinds == {"land": 38, "sea": 12, "port": 8}
    assert sum(1 for a in areas if a.fortification == 1) == 10
    assert sum(1 for a in areas if a.fortification == 2) == 10
    assert sum(a.supply for a in areas) == 24
    assert sum(a.crowns for a in areas) == 19


def test_B_BOARD_06_adjacency_is_symmetric_and_known() -> None:
    """B-BOARD-06: 143 unique adjacency pairs between existing areas; the neighbour relation is symmetric."""
    raw = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    pairs = [tuple(p) for p in raw["adjacency"]]
    assert len(pairs) == 143 == len(set(pairs))
    board = data.board()
    for a, b in pairs:
        assert a != b and a in board.areas and b in board.areas
    for a, ns in board.neighbours.items():
        for n in ns:
            assert a in board.neighbours[n], (a, n)


def test_B_PORT_01_every_port_wired_to_one_land_and_one_sea() -> None:
    """B-PORT-01: a port connects exactly one land (which owns it) and exactly one sea."""
    board = data.board()
    ports = [a for a in board.areas.values() if a.is_port]
    assert {p.port_of for p in ports} == {
        "winterfell", "white-harbor", "pyke", "lannisport", "dragonstone", "storms-end", "oldtown", "sunspear",
    }  # fmt: skip
    for p in ports:
        assert p.port_of is not None and p.port_sea is not None
        neighbours = board.neighbours[p.id]
        assert neighbours == {p.port_of, p.port_sea}
        assert board.areas[p.port_of].is_land and board.areas[p.port_sea].is_sea
        assert board.areas[p.port_of].port == p.id


def test_B_BOARD_01_rivers_block_adjacency() -> None:
    """B-BOARD-01: pairs separated by a river without a bridge are not adjacent."""
    board = data.board()
    assert len(board.rivers) == 4
    for pair in board.rivers:
        a, b = sorted(pair)
        assert not board.adjacent(a, b)
    assert not board.adjacent("winterfell", "greywater-watch")


def test_B_BOARD_03_islands_have_no_land_neighbours() -> None:
    """B-BOARD-03, B-TRANSPORT-09: Pyke, The Arbor and Dragonstone touch no land area."""
    board = data.board()
    islands = {a.id for a in board.areas.values() if a.island}
    assert islands == {"pyke", "the-arbor", "dragonstone"}
    for island in islands:
        assert not any(board.areas[n].is_land for n in board.neighbours[island])


def test_rulebook_example_facts_hold_on_the_map() -> None:
    """Appendix D of the checklist: every map fact asserted by a rulebook example."""
    board = data.board()
    A = board.areas
    assert A["lannisport"].fortification == 2
    assert {"the-golden-sound", "stoney-sept", "searoad-marches"} <= board.neighbours["lannisport"]
    assert A["harrenhal"].fortification == 1 and A["riverrun"].fortification == 2
    assert "the-golden-sound" in board.neighbours["riverrun"]
    assert A["stoney-sept"].fortification == 0
    assert A["seagard"].supply == 1 and A["riverrun"].supply == 1
    assert A["dragonstone"].crowns == 1
    assert {"the-reach", "kings-landing", "stoney-sept", "harrenhal"} <= board.neighbours["blackwater"]
    assert "kingswood" in board.neighbours["kings-landing"] and "storms-end" in board.neighbours["kingswood"]
    assert "storms-end" in board.neighbours["the-boneway"]
    assert "dornish-marches" in board.neighbours["the-reach"]
    assert "highgarden" in board.neighbours["west-summer-sea"]
    assert "west-summer-sea" in board.neighbours["redwyne-straights"]
    assert "east-summer-sea" in board.neighbours["west-summer-sea"]
    assert "redwyne-straights" in board.neighbours["highgarden"]
    assert A["sunspear"].fortification == 2 and A["port-of-sunspear"].port_sea == "east-summer-sea"
    assert {"sea-of-dorne", "east-summer-sea", "yronwood"} <= board.neighbours["sunspear"]


def test_B_COMP_01_unit_limits_per_house() -> None:
    """B-COMP-01: 10 footmen, 5 knights, 6 ships, 2 siege engines per house."""
    for house in data.houses().values():
        assert house.unit_limits == {"footman": 10, "knight": 5, "ship": 6, "siege-engine": 2}


def test_B_COMP_03_shared_card_counts() -> None:
    """B-COMP-03, B-DATA-06..08: 42 house cards (7 per house), 30 Westeros cards (10 per deck, 3/3/5 icons),
    9 wildling cards, 24 Tides of Battle cards."""
    cards = [c for c in data.house_cards().values() if c.house in data.houses()]  # the expansion's are apart
    assert len(cards) == 42
    assert Counter(c.house for c in cards) == {h: 7 for h in data.houses()}
    per_deck = Counter()
    icons = Counter()
    for card in data.westeros_cards().values():
        per_deck[card["deck"]] += card["copies"]
        icons[card["deck"]] += card["copies"] * card["icons"]
    assert per_deck == {1: 10, 2: 10, 3: 10}
    assert icons == {1: 3, 2: 3, 3: 5}
    assert len(data.wildling_cards()) == 9
    assert sum(c["count"] for c in data.tides_cards().values()) == 24


def test_B_COMP_05_fifteen_order_tokens() -> None:
    """B-COMP-05: each house's 15 orders: 3 raids, 3 marches (-1, +0, +1*), 3 defenses, 3 supports, 3 consolidates."""
    from engine.orders import ORDER_TOKENS

    by_type = Counter()
    stars = 0
    for t in ORDER_TOKENS.values():
        by_type[t.type] += t.copies
        stars += t.copies if t.star else 0
    assert by_type == {"march": 3, "defense": 3, "support": 3, "raid": 3, "consolidate": 3}
    assert stars == 5
    assert sorted(t.bonus for t in ORDER_TOKENS.values() if t.type == "march") == [-1, 0, 1]


def test_B_DATA_03_supply_table() -> None:
    """B-DATA-03, B-SUPPLY-03: supply 3 allows one army of 3 and three of 2; supply 2 one of 3 and two of 2."""
    assert data.supply_limits(3) == [3, 2, 2, 2]
    assert data.supply_limits(2) == [3, 2, 2]
    assert len(data.setups()["supply_limits"]) == 7


def test_B_DATA_04_kings_court_stars() -> None:
    """B-DATA-04, B-INFL-14, B-PLAYERS-07: 5-6 players 3,3,2,1,0,0; the 3-4 player overlay 3,2,1,0."""
    assert [data.stars_allowed(i, 6) for i in range(6)] == [3, 3, 2, 1, 0, 0]
    assert [data.stars_allowed(i, 4) for i in range(4)] == [3, 2, 1, 0]


def test_B_DATA_09_garrisons_are_strength_two() -> None:
    """B-DATA-09, B-GARR-03: every garrison has strength 2."""
    assert {h.garrison for h in data.houses().values()} == {2}


def test_area_names_have_english_and_russian() -> None:
    """Area names in English everywhere, Russian where known, for the bot and the renderer."""
    areas = data.board().areas.values()
    assert all(a.names["en"] for a in areas)
    assert sum(1 for a in areas if "ru" in a.names) >= 35
    assert data.board().areas["winterfell"].name("xx") == "Winterfell"


def test_card_texts_hold_no_note_to_the_implementer() -> None:
    """Issue U, fault 9: a card text showed "(interpretation: ...)", a note from the reference for whoever implements
    the rule; players read the card texts, so no data file may hold such a label."""
    folder = data.DATA_DIR
    notes = [p.name for p in sorted(folder.rglob("*.json")) if "(interpretation:" in p.read_text(encoding="utf-8")]
    assert notes == []
