"""Casualties (checklist section 21, B-CAS-*; B-OPEN-10; Tides of Battle skulls; known edge case: casualties
exceeding the units present)."""

from __future__ import annotations

from typing import Any

from engine import Game

from .helpers import combat_frame, event, fight, make, march, prompt, rejected, result, units

TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}
KEEP = {"the-eyrie": "tyrell footman"}  # Tyrell (last in turn order) keeps the Action phase open
KEEP_ORDER = {"the-eyrie": "march0"}


def action(unit_spec: dict[str, str], orders: dict[str, str], **extra: Any) -> Game:
    extra.setdefault("tracks", TRACKS)
    return make({"units": unit_spec | KEEP, "orders": orders | KEEP_ORDER, "start": "action", **extra})


def destroyed(events: list[dict[str, Any]], reason: str = "casualties") -> list[tuple[str, str, str]]:
    return [
        (e["house"], e["area"], t)
        for e in events
        if e["type"] == "units-destroyed" and e["reason"] == reason
        for t in e["units"]
    ]


def test_B_CAS_01_only_the_loser_loses_units() -> None:
    g = action(
        {"lannisport": "lannister knight knight", "stoney-sept": "stark footman footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
    # Lannister 4 + 3 (Gregor, three swords) = 7 against Stark 2 + 1 + 4 (Eddard, two swords) = 7: Stark wins the
    # tie on Fiefdoms. The loser's three swords do nothing; the winner's two cost Lannister both knights.
    events = fight(g, cards={"lannister": "ser-gregor-clegane", "stark": "eddard-stark"})
    assert result(events)["winner"] == "stark"
    assert destroyed(events) == [("lannister", "lannisport", "knight"), ("lannister", "lannisport", "knight")]
    assert units(g, "stoney-sept") == ["stark footman", "stark footman"]


def test_B_CAS_02_each_uncancelled_sword_costs_one_unit() -> None:
    g = action(
        {"lannisport": "lannister knight knight", "stoney-sept": "stark footman footman footman"},
        {"lannisport": "march1*", "stoney-sept": "consolidate"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
    # Gregor (3 swords) against Ser Rodrick (2 fortifications): one casualty.
    events = fight(
        g, cards={"lannister": "ser-gregor-clegane", "stark": "ser-rodrick-cassel"}, retreat={"stark": "blackwater"}
    )
    assert result(events)["winner"] == "lannister"
    assert destroyed(events) == [("stark", "stoney-sept", "footman")]
    assert units(g, "blackwater") == ["stark routed-footman", "stark routed-footman"]


def test_B_CAS_02_all_swords_cancelled_means_no_loss() -> None:
    g = action(
        {"lannisport": "lannister knight knight", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
    events = fight(
        g, cards={"lannister": "ser-jaime-lannister", "stark": "ser-rodrick-cassel"}, retreat={"stark": "blackwater"}
    )
    assert destroyed(events) == []
    assert units(g, "blackwater") == ["stark routed-footman"]


def test_B_CAS_03_B_CAS_05_the_loser_chooses_and_a_knight_is_one_casualty() -> None:
    g = action(
        {"lannisport": "lannister knight knight knight", "stoney-sept": "stark footman knight knight"},
        {"lannisport": "march0", "stoney-sept": "consolidate"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight", "knight"]})
    g.act("lannister", "ser-jaime-lannister")
    g.act("stark", "greatjon-umber")
    p = prompt(g, "stark")
    assert p.kind == "casualties"
    assert p.choices == {"units": {"footman": 1, "knight": 2}, "count": 1}
    assert p.default == ["footman"]  # the weakest by default
    rejected(g, "stark", ["footman", "knight"], "bad-casualties")
    rejected(g, "stark", ["ship"], "bad-casualties")
    rejected(g, "stark", "knight", "bad-casualties")
    rejected(g, "stark", [["knight"]], "bad-casualties")
    rejected(g, "lannister", ["knight"], "not-your-turn")
    events = g.act("stark", ["knight"])  # a knight, strength 2, is still a single casualty
    assert destroyed(events) == [("stark", "stoney-sept", "knight")]
    events += fight(g, retreat={"stark": "blackwater"})
    assert units(g, "blackwater") == ["stark routed-footman", "stark routed-knight"]


def test_B_CAS_04_supporting_units_are_never_casualties() -> None:
    g = action(
        {"lannisport": "lannister knight knight", "stoney-sept": "stark footman", "harrenhal": "stark footman footman"},
        {"lannisport": "march0", "stoney-sept": "defense1", "harrenhal": "support0"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
    g.act("stark", "defender")
    events = fight(g, cards={"lannister": "ser-gregor-clegane", "stark": "greatjon-umber"})
    # Three swords, one footman in the embattled area: it dies, the supporters do not.
    assert destroyed(events) == [("stark", "stoney-sept", "footman")]
    assert units(g, "harrenhal") == ["stark footman", "stark footman"]


def test_B_CAS_06_routed_units_are_never_chosen() -> None:
    g = action(
        {"lannisport": "lannister knight knight", "stoney-sept": "stark footman routed-knight"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
    events = fight(
        g, cards={"lannister": "ser-jaime-lannister", "stark": "greatjon-umber"}, retreat={"stark": "blackwater"}
    )
    # One sword: the footman, not the routed knight (which is then destroyed for having to retreat again).
    assert destroyed(events) == [("stark", "stoney-sept", "footman")]
    assert destroyed(events, "routed-again") == [("stark", "stoney-sept", "knight")]


def test_B_CAS_07_siege_engines_are_not_casualties_but_die_with_a_lost_battle() -> None:
    g = action(
        {"lannisport": "lannister knight knight knight", "stoney-sept": "stark footman siege-engine"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight", "knight"]})
    events = fight(
        g, cards={"lannister": "ser-jaime-lannister", "stark": "greatjon-umber"}, retreat={"stark": "blackwater"}
    )
    # The single sword takes the footman (no choice offered: the engine is not a candidate)...
    assert destroyed(events) == [("stark", "stoney-sept", "footman")]
    # ...and the engine, which cannot retreat, is destroyed anyway.
    assert ("stark", "stoney-sept", "siege-engine") in [
        (e["house"], e["area"], t) for e in events if e["type"] == "units-destroyed" for t in e["units"]
    ]
    assert "stark" not in {u.house for us in g.s.units.values() for u in us if u.type == "siege-engine"}


def test_B_CAS_08_B_GARR_05_a_defeated_garrison_leaves_even_without_casualties() -> None:
    g = action(
        {"white-harbor": "greyjoy knight knight knight", "winterfell": "stark footman"},
        {"white-harbor": "march0", "winterfell": "consolidate"},
        garrisons={"winterfell": 2},
    )
    march(g, "greyjoy", "white-harbor", {"winterfell": ["knight", "knight", "knight"]})
    events = fight(g, cards={"greyjoy": "dagmar-cleftjaw", "stark": "ser-rodrick-cassel"}, retreat={"stark": "karhold"})
    assert result(events)["winner"] == "greyjoy"
    assert destroyed(events) == []
    assert event(events, "garrison-removed") == {"type": "garrison-removed", "area": "winterfell", "house": "stark"}
    assert "winterfell" not in g.s.garrisons


def test_B_OPEN_10_known_edge_more_swords_than_units() -> None:
    g = action(
        {"lannisport": "lannister knight knight", "stoney-sept": "stark footman", "harrenhal": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1", "harrenhal": "support0"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
    g.act("stark", "defender")
    events = fight(g, cards={"lannister": "ser-gregor-clegane", "stark": "greatjon-umber"})
    # Three swords, one eligible unit: it is destroyed, the rest is ignored (and nothing crashes).
    assert destroyed(events) == [("stark", "stoney-sept", "footman")]
    assert units(g, "harrenhal") == ["stark footman"]
    assert combat_frame(g) is None


def test_B_OPEN_10_losing_attacker_too() -> None:
    g = action(
        {"lannisport": "lannister footman", "stoney-sept": "stark knight knight"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman"]})
    events = fight(g, cards={"lannister": "ser-jaime-lannister", "stark": "eddard-stark"})
    assert destroyed(events) == [("lannister", "lannisport", "footman")]
    assert units(g, "lannisport") == []


def tides_game(**extra: Any) -> Game:
    tracks = dict(TRACKS, fiefdoms=["stark", "tyrell", "martell", "greyjoy", "baratheon", "lannister"])
    return action(
        {"lannisport": "lannister knight footman", "stoney-sept": "stark footman knight"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
        tracks=tracks,
        options={"tides_of_battle": True},
        **extra,
    )


def test_tides_skulls_hit_the_loser_and_fortifications_do_not_cancel_them() -> None:
    g = tides_game()
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "footman"]})
    g.act("lannister", "ser-jaime-lannister")
    g.act("stark", "ser-rodrick-cassel")
    assert prompt(g, "stark").kind == "blade"  # the Tides cards are drawn; set the draw the test needs
    combat_frame(g)["tides"] = {"attacker": "skull", "defender": "zero"}  # type: ignore[index]
    events = g.act("stark", False)
    # Lannister 3 + 2 + 0 = 5 against Stark 3 + 1 + 1 + 0 = 5; Stark (1st on Fiefdoms) wins the tie.
    assert result(events)["winner"] == "stark"
    # Lannister's card had no sword; Stark's card has two fortifications, but nothing cancels the skull:
    # Stark won, so the skull on the LOSER's Tides card costs the winner one unit (B-TIDES-07).
    p = prompt(g, "stark")
    assert p.kind == "casualties" and p.choices == {"units": {"footman": 1, "knight": 1}, "count": 1}
    events = g.act("stark", ["footman"])
    assert destroyed(events) == [("stark", "stoney-sept", "footman")]
    assert units(g, "stoney-sept") == ["stark knight"]
    assert units(g, "lannisport") == ["lannister routed-footman", "lannister routed-knight"]


def test_tides_winner_skull_adds_to_the_losers_casualties() -> None:
    g = tides_game()
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "footman"]})
    g.act("lannister", "ser-jaime-lannister")
    g.act("stark", "ser-rodrick-cassel")
    combat_frame(g)["tides"] = {"attacker": "zero", "defender": "skull"}  # type: ignore[index]
    events = g.act("stark", False)
    assert result(events)["winner"] == "stark"
    # Stark's card has no sword: only the skull on the winner's Tides card counts against the loser.
    p = prompt(g, "lannister")
    assert p.kind == "casualties" and p.choices["count"] == 1
    g.act("lannister", ["footman"])
    assert units(g, "lannisport") == ["lannister routed-knight"]
    assert units(g, "stoney-sept") == ["stark footman", "stark knight"]


def test_B_GARR_07_skulls_never_touch_a_garrison() -> None:
    tracks = dict(TRACKS, fiefdoms=["stark", "tyrell", "martell", "greyjoy", "baratheon", "lannister"])
    g = action(
        {"white-harbor": "greyjoy knight"},
        {"white-harbor": "march0"},
        tracks=tracks,
        garrisons={"winterfell": 2},
        options={"tides_of_battle": True},
    )
    march(g, "greyjoy", "white-harbor", {"winterfell": ["knight"]})
    g.act("greyjoy", "dagmar-cleftjaw")
    g.act("stark", "eddard-stark")
    combat_frame(g)["tides"] = {"attacker": "skull", "defender": "zero"}  # type: ignore[index]
    events = g.act("stark", False)
    assert result(events)["winner"] == "stark"
    # Greyjoy's skull would hit the winner, but Stark fought with its garrison alone: nothing to lose.
    assert g.s.garrisons == {"winterfell": 2}
    assert destroyed(events) == [("greyjoy", "white-harbor", "knight")]  # Eddard's uncancelled sword
