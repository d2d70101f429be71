"""Map features as the action rules use them (checklist section 31, B-BOARD-*; Appendix D facts)."""

from __future__ import annotations

from engine import data
from engine.combat.strength import support_areas
from engine.steps.action import raid_targets

from .helpers import make, march_answer, prompt, rejected


def test_B_BOARD_01_a_river_without_bridge_blocks_every_use() -> None:
    board = data.board()
    for a, b in (
        ("greywater-watch", "winterfell"),
        ("harrenhal", "the-mountains-of-the-moon"),
        ("riverrun", "the-mountains-of-the-moon"),
        ("starfall", "three-towers"),
    ):
        assert not board.adjacent(a, b) and not board.adjacent(b, a)
    g = make(
        {
            "units": {
                "greywater-watch": "greyjoy footman",
                "winterfell": "stark footman",
                "moat-cailin": "stark knight",
            },
            "orders": {"greywater-watch": "support0", "winterfell": "raid*", "moat-cailin": "raid"},
            "start": "action",
        }
    )
    # Raid: Winterfell's raid cannot reach Greywater Watch across the river; Moat Cailin's can.
    assert raid_targets(g.s, "stark", "winterfell") == []
    assert raid_targets(g.s, "stark", "moat-cailin") == ["greywater-watch"]
    # Support: Winterfell's support cannot reach a battle in Greywater Watch; Moat Cailin's can.
    g.s.orders["winterfell"].token = "support0"
    g.s.orders["moat-cailin"].token = "support0"
    assert support_areas(g.s, "greywater-watch") == {"moat-cailin": "stark"}


def test_B_BOARD_01_no_march_across_the_river() -> None:
    g = make(
        {
            "units": {"greywater-watch": "greyjoy footman", "winterfell": "stark footman"},
            "orders": {"greywater-watch": "march0", "winterfell": "defense1"},
            "start": "action",
        }
    )
    assert "winterfell" not in prompt(g, "greyjoy").choices["greywater-watch"]["destinations"]["footman"]
    rejected(g, "greyjoy", march_answer("greywater-watch", {"winterfell": ["footman"]}), "not-adjacent")


def test_B_BOARD_02_a_bridged_crossing_is_an_ordinary_border_for_every_purpose() -> None:
    """The map data lists bridged river crossings as plain adjacency pairs (only the four unbridged crossings are
    left out), and the engine uses that one relation for marching, raiding and support alike."""
    board = data.board()
    assert len(board.rivers) == 4
    for a, ns in board.neighbours.items():
        for n in ns:
            assert a in board.neighbours[n]  # symmetric
    g = make(
        {
            "units": {"seagard": "stark footman", "the-twins": "greyjoy footman", "riverrun": "lannister footman"},
            "orders": {"seagard": "raid", "the-twins": "support0", "riverrun": "support0"},
            "start": "action",
        }
    )
    assert raid_targets(g.s, "stark", "seagard") == ["riverrun", "the-twins"]
    assert support_areas(g.s, "seagard") == {"riverrun": "lannister", "the-twins": "greyjoy"}


def test_B_BOARD_03_islands_are_lands_reached_only_by_sea() -> None:
    board = data.board()
    for island in ("pyke", "the-arbor", "dragonstone"):
        a = board.areas[island]
        assert a.is_land and a.island
        assert not any(board.areas[n].is_land for n in board.neighbours[island])


def test_B_BOARD_05_B_BOARD_06_appendix_d_map_facts() -> None:
    board = data.board()
    a = board.areas
    assert a["lannisport"].fortification == 2 and a["harrenhal"].fortification == 1
    assert a["riverrun"].fortification == 2 and a["stoney-sept"].fortification == 0
    assert a["seagard"].supply == 1 and a["riverrun"].supply == 1
    assert a["dragonstone"].crowns == 1
    assert a["sunspear"].fortification == 2 and a["sunspear"].port == "port-of-sunspear"
    assert a["port-of-sunspear"].port_sea == "east-summer-sea"
    adjacent = [
        ("lannisport", "the-golden-sound"),
        ("lannisport", "stoney-sept"),
        ("lannisport", "searoad-marches"),
        ("riverrun", "the-golden-sound"),
        ("blackwater", "the-reach"),
        ("blackwater", "kings-landing"),
        ("blackwater", "stoney-sept"),
        ("blackwater", "harrenhal"),
        ("kings-landing", "kingswood"),
        ("kingswood", "storms-end"),
        ("the-boneway", "storms-end"),
        ("the-reach", "dornish-marches"),
        ("west-summer-sea", "highgarden"),
        ("redwyne-straights", "west-summer-sea"),
        ("west-summer-sea", "east-summer-sea"),
        ("highgarden", "redwyne-straights"),
        ("sunspear", "east-summer-sea"),
        ("sunspear", "sea-of-dorne"),
        ("yronwood", "sunspear"),
    ]
    for x, y in adjacent:
        assert board.adjacent(x, y), (x, y)
    assert data.setups()["player_counts"]["5"]["neutral_forces"]["sunspear"] == 5
