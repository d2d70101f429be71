"""Ports (checklist section 29, B-PORT-*; known edge cases: ships in a port taken or destroyed when the castle falls
or is left empty, a port usable only if its castle is controlled)."""

from __future__ import annotations

from typing import Any

from engine import Game, rules

from .helpers import event, fight, make, march, march_answer, prompt, raid, rejected, result, units

TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}
KEEP = {"the-eyrie": "tyrell footman"}
KEEP_ORDER = {"the-eyrie": "march-1"}  # never carried out with moves; Tyrell's March +0 stays free


def action(unit_spec: dict[str, str], orders: dict[str, str], **extra: Any) -> Game:
    extra.setdefault("tracks", TRACKS)
    return make({"units": unit_spec | KEEP, "orders": orders | KEEP_ORDER, "start": "action", **extra})


def test_B_PORT_01_a_port_belongs_to_whoever_controls_its_land() -> None:
    g = action({"lannisport": "lannister footman", "port-of-lannisport": "lannister ship"}, {"lannisport": "defense1"})
    assert rules.controller(g.s, "port-of-lannisport") == "lannister"
    g = action({"oldtown": "greyjoy footman"}, {"oldtown": "defense1"})
    assert rules.controller(g.s, "port-of-oldtown") == "greyjoy"
    g = action({}, {}, power_tokens={"oldtown": "stark"})
    assert rules.controller(g.s, "port-of-oldtown") == "stark"


def test_B_PORT_02_ships_in_a_port_are_an_army_for_supply() -> None:
    g = action(
        {
            "lannisport": "lannister footman footman",
            "port-of-lannisport": "lannister ship",
            "the-golden-sound": "lannister ship",
            "stoney-sept": "lannister footman footman",
        },
        {
            "lannisport": "defense1",
            "port-of-lannisport": "defense2*",
            "the-golden-sound": "march0",
            "stoney-sept": "defense1",
        },
        supply={"lannister": 0},  # two armies of two: Lannisport and Stoney Sept already
    )
    rejected(g, "lannister", march_answer("the-golden-sound", {"port-of-lannisport": ["ship"]}), "supply-exceeded")
    march(g, "lannister", "the-golden-sound", {"sunset-sea": ["ship"]})


def test_B_PORT_04_B_PLAN_08_ships_in_a_port_take_orders() -> None:
    g = make(
        {"units": {"lannisport": "lannister footman", "port-of-lannisport": "lannister ship"}, "start": "planning"}
    )
    assert prompt(g, "lannister").choices["areas"] == ["lannisport", "port-of-lannisport"]
    g.act("lannister", {"orders": {"lannisport": "raid", "port-of-lannisport": "defense2*"}})
    assert g.s.orders["port-of-lannisport"].token == "defense2*"


def test_B_PORT_05_from_port_to_its_sea_and_back_into_a_friendly_port_only() -> None:
    g = action(
        {"lannisport": "lannister footman", "port-of-lannisport": "lannister ship ship"},
        {"lannisport": "defense1", "port-of-lannisport": "march0"},
    )
    assert prompt(g, "lannister").choices["port-of-lannisport"]["destinations"]["ship"] == ["the-golden-sound"]
    rejected(g, "lannister", march_answer("port-of-lannisport", {"lannisport": ["ship"]}), "not-adjacent")
    rejected(g, "lannister", march_answer("port-of-lannisport", {"sunset-sea": ["ship"]}), "not-adjacent")
    march(g, "lannister", "port-of-lannisport", {"the-golden-sound": ["ship", "ship"]})
    assert units(g, "the-golden-sound") == ["lannister ship", "lannister ship"]


def test_B_PORT_13_B_MARCH_14_a_port_cannot_be_attacked() -> None:
    g = action(
        {
            "lannisport": "lannister footman",
            "port-of-lannisport": "lannister ship",
            "the-golden-sound": "greyjoy ship ship",
        },
        {"lannisport": "defense1", "port-of-lannisport": "defense1", "the-golden-sound": "march0"},
    )
    assert prompt(g, "greyjoy").choices["the-golden-sound"]["destinations"]["ship"] == ["ironmans-bay", "sunset-sea"]
    rejected(g, "greyjoy", march_answer("the-golden-sound", {"port-of-lannisport": ["ship", "ship"]}), "not-adjacent")


def test_known_edge_a_port_is_usable_only_if_its_castle_is_controlled() -> None:
    spec = {"redwyne-straights": "lannister ship", "searoad-marches": "lannister footman"}
    orders = {"redwyne-straights": "march0", "searoad-marches": "defense1"}
    g = action(spec, orders)  # Oldtown: nobody's
    assert "port-of-oldtown" not in prompt(g, "lannister").choices["redwyne-straights"]["destinations"]["ship"]
    rejected(g, "lannister", march_answer("redwyne-straights", {"port-of-oldtown": ["ship"]}), "not-adjacent")
    g = action(spec, orders, power_tokens={"oldtown": "lannister"})
    march(g, "lannister", "redwyne-straights", {"port-of-oldtown": ["ship"]})
    assert units(g, "port-of-oldtown") == ["lannister ship"]


def test_B_PORT_08_B_RAID_10_port_raids_only_its_sea_and_is_raided_only_from_it() -> None:
    g = action(
        {
            "lannisport": "lannister footman",
            "port-of-lannisport": "lannister ship",
            "the-golden-sound": "greyjoy ship",
            "stoney-sept": "greyjoy footman",
            "riverrun": "greyjoy footman",
        },
        {
            "lannisport": "defense1",
            "port-of-lannisport": "raid",
            "the-golden-sound": "support0",
            "stoney-sept": "raid",
            "riverrun": "support0",
        },
    )
    assert prompt(g, "lannister").choices == {"port-of-lannisport": ["the-golden-sound"]}
    raid(g, "lannister", "port-of-lannisport", None)
    assert prompt(g, "greyjoy").choices == {"stoney-sept": []}  # the port is out of a land raid's reach


def test_B_PORT_10_known_edge_ships_are_destroyed_when_the_castle_is_left_empty() -> None:
    g = action(
        {"oldtown": "tyrell footman", "port-of-oldtown": "tyrell ship ship"},
        {"oldtown": "march0", "port-of-oldtown": "consolidate"},
    )
    events = g.act("tyrell", march_answer("oldtown", {"three-towers": ["footman"]}))
    assert ("port-of-oldtown", "port-lost") in [
        (e["area"], e["reason"]) for e in events if e["type"] == "units-destroyed"
    ]
    assert "port-of-oldtown" not in g.s.units
    # Fix (issue B): the ships' order goes with them; it no longer pays Tyrell a Power token.
    assert "port-of-oldtown" not in g.s.orders
    assert {
        "type": "order-removed",
        "area": "port-of-oldtown",
        "house": "tyrell",
        "token": "consolidate",
        "reason": "no-units",
    } in events
    march(g, "tyrell", "the-eyrie")
    assert g.s.houses["tyrell"].power == 5


def test_B_PORT_10_a_power_token_keeps_the_port() -> None:
    g = action(
        {"oldtown": "tyrell footman", "port-of-oldtown": "tyrell ship ship"},
        {"oldtown": "march0", "port-of-oldtown": "consolidate"},
    )
    g.act("tyrell", march_answer("oldtown", {"three-towers": ["footman"]}, leave_power=True))
    assert units(g, "port-of-oldtown") == ["tyrell ship", "tyrell ship"]
    assert g.s.orders["port-of-oldtown"].token == "consolidate"


def test_B_PORT_10_a_home_port_survives_an_empty_home() -> None:
    g = action(
        {"lannisport": "lannister footman", "port-of-lannisport": "lannister ship"},
        {"lannisport": "march0", "port-of-lannisport": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman"]})
    assert units(g, "port-of-lannisport") == ["lannister ship"]  # the printed crest keeps control


def capture(port_ships: int = 2, **extra: Any) -> Game:
    g = action(
        {
            "stoney-sept": "stark knight knight",
            "lannisport": "lannister footman",
            "port-of-lannisport": " ".join(["lannister"] + ["ship"] * port_ships),
        },
        {"stoney-sept": "march0", "lannisport": "defense1", "port-of-lannisport": "consolidate"},
        **extra,
    )
    march(g, "stark", "stoney-sept", {"lannisport": ["knight", "knight"]})
    g.act("stark", "greatjon-umber")
    g.act("lannister", "the-hound")
    return g


def test_B_PORT_11_the_conqueror_chooses_how_many_enemy_ships_to_replace() -> None:
    g = capture()
    events = g.act("lannister", "searoad-marches")  # the beaten footman retreats
    p = prompt(g, "stark")
    assert p.kind == "port-capture" and p.choices == [0, 1, 2] and p.default == 2
    rejected(g, "stark", 3, "illegal-choice")
    rejected(g, "stark", "2", "bad-answer")
    rejected(g, "stark", True, "bad-answer")
    events = g.act("stark", 1)
    assert event(events, "port-captured") == {
        "type": "port-captured",
        "house": "stark",
        "area": "port-of-lannisport",
        "ships": 1,
    }
    assert units(g, "port-of-lannisport") == ["stark ship"]
    assert "port-of-lannisport" not in g.s.orders  # the Lannister ships' order is gone with them


def test_B_PORT_11_replacing_none_removes_every_enemy_ship() -> None:
    g = capture()
    g.act("lannister", "searoad-marches")
    g.act("stark", 0)
    assert "port-of-lannisport" not in g.s.units


def test_B_PORT_11_replacement_within_supply_and_figures() -> None:
    # Stark at supply 0 with two armies of two already: at most one ship can replace (a lone ship is no army).
    extra = {"winterfell": "stark footman footman", "karhold": "stark footman footman"}
    g = action(
        {
            "stoney-sept": "stark knight",
            "lannisport": "lannister footman",
            "port-of-lannisport": "lannister ship ship ship",
        }
        | extra,
        {"stoney-sept": "march1*", "lannisport": "consolidate", "port-of-lannisport": "consolidate"},
        supply={"stark": 0},
    )
    march(g, "stark", "stoney-sept", {"lannisport": ["knight"]})
    g.act("stark", "greatjon-umber")
    g.act("lannister", "the-hound")
    g.act("lannister", "searoad-marches")
    assert prompt(g, "stark").choices == [0, 1]


def test_B_PORT_11_no_figure_left_no_replacement() -> None:
    # With all six of its ships on the board, Stark can replace none: the ships are simply destroyed.
    seas = ["bay-of-ice", "the-shivering-sea", "the-narrow-sea", "sunset-sea", "ironmans-bay", "west-summer-sea"]
    g2 = action(
        {
            "stoney-sept": "stark knight knight",
            "lannisport": "lannister footman",
            "port-of-lannisport": "lannister ship",
        }
        | {sea: "stark ship" for sea in seas},
        {"stoney-sept": "march0", "lannisport": "defense1", "port-of-lannisport": "consolidate"},
    )
    march(g2, "stark", "stoney-sept", {"lannisport": ["knight", "knight"]})
    events = fight(
        g2, cards={"stark": "greatjon-umber", "lannister": "the-hound"}, retreat={"lannister": "searoad-marches"}
    )
    assert result(events)["winner"] == "stark"
    assert not any(e["type"] == "port-captured" for e in events)
    assert "port-of-lannisport" not in g2.s.units


def test_B_PORT_03_a_ship_mustered_into_the_port_even_with_enemy_ships_in_its_sea() -> None:
    """Through the special Consolidate Power order (B-CP-06): the port is open although the sea is Greyjoy's."""
    g = action(
        {"lannisport": "lannister footman", "the-golden-sound": "greyjoy ship"},
        {"lannisport": "consolidate*", "the-golden-sound": "defense1"},
        power={"lannister": 0},
    )
    march(g, "tyrell", "the-eyrie")
    g.act("lannister", "muster")
    assert prompt(g, "lannister").kind == "muster"
    rejected(g, "lannister", {"lannisport": [{"recruit": "ship", "to": "the-golden-sound"}]})
    g.act("lannister", {"lannisport": [{"recruit": "ship", "to": "port-of-lannisport"}]})
    assert units(g, "port-of-lannisport") == ["lannister ship"]


def test_B_PORT_12_game_of_thrones_pays_for_an_unblockaded_port_with_a_ship() -> None:
    decks = [["last-days-of-summer"], ["game-of-thrones"], ["sea-of-storms"]]
    g = make(
        {
            "units": {
                "lannisport": "lannister footman",
                "port-of-lannisport": "lannister ship",
                "oldtown": "tyrell footman",
                "port-of-oldtown": "tyrell ship",
                "redwyne-straights": "greyjoy ship",
            },
            "power": {"lannister": 0, "tyrell": 0},
            "start": "westeros",
            "round": 3,
            "westeros_decks": decks,
        }
    )
    # Lannisport: no crown, one port with a ship and a free sea: 1. Oldtown: its sea is blockaded: 0.
    assert g.s.houses["lannister"].power == 1
    assert g.s.houses["tyrell"].power == 0


def emptied_for_battle(**extra: Any) -> Game:
    """Tyrell marches every unit out of Oldtown, one of them into a battle for Three Towers; two Tyrell ships lie
    in the Port of Oldtown."""
    return action(
        {
            "oldtown": "tyrell footman knight",
            "port-of-oldtown": "tyrell ship ship",
            "three-towers": "martell footman",
        },
        {"oldtown": "march0", "port-of-oldtown": "consolidate", "three-towers": "defense1"},
        **extra,
    )


def test_B_PORT_10_B_MARCH_08_a_land_emptied_by_a_march_loses_its_port_before_the_battle() -> None:
    """B-PORT-10, B-MARCH-08, B-CONTROL-02: a land the march empties is emptied before the combat (002:1767-1773,
    1781-1791: "Когда Дом походом освобождает область ... она выходит из-под его власти"), so its ships in port are
    lost at once: "Если хозяин порта теряет власть над смежной с ним землёй (выводит оттуда все свои отряды, не
    оставив жетона власти), все корабли в порту уничтожаются" (002:3142-3146). They stay lost when the attack
    fails and the attackers come back routed."""
    g = emptied_for_battle()
    events = march(g, "tyrell", "oldtown", {"three-towers": ["knight"], "dornish-marches": ["footman"]})
    kinds_seen = [e["type"] for e in events]
    lost = [e for e in events if e["type"] == "units-destroyed" and e["reason"] == "port-lost"]
    assert lost and lost[0]["area"] == "port-of-oldtown"
    assert kinds_seen.index("units-destroyed") < kinds_seen.index("combat-started")
    assert "port-of-oldtown" not in g.s.units and "port-of-oldtown" not in g.s.orders
    fight(g, cards={"tyrell": "margaery-tyrell", "martell": "areo-hotah"})  # 2 + 1 against 1 + 1 + 3, no swords
    assert units(g, "oldtown") == ["tyrell routed-knight"]
    assert "port-of-oldtown" not in g.s.units


def test_B_PORT_10_a_power_token_left_behind_keeps_the_port_through_the_battle() -> None:
    """B-CONTROL-03: the power token placed as the units leave keeps the land, and the port, during the battle."""
    g = emptied_for_battle()
    march(g, "tyrell", "oldtown", {"three-towers": ["knight"], "dornish-marches": ["footman"]}, leave_power=True)
    assert units(g, "port-of-oldtown") == ["tyrell ship", "tyrell ship"]


def test_B_CONTROL_03_a_march_that_leaves_units_behind_cannot_leave_a_power_token() -> None:
    """B-CONTROL-03: a power token is placed only in a land the march leaves empty: moving some of Oldtown's units
    is refused with the token, and accepted without it."""
    g = emptied_for_battle()
    assert prompt(g, "tyrell").choices["oldtown"]["can_leave_power"] is True
    partial = march_answer("oldtown", {"dornish-marches": ["footman"]}, leave_power=True)
    rejected(g, "tyrell", partial, "cannot-leave-power")
    march(g, "tyrell", "oldtown", {"dornish-marches": ["footman"]})
    assert "oldtown" not in g.s.power_tokens and units(g, "oldtown") == ["tyrell knight"]


def test_B_PORT_10_the_port_is_lost_also_when_arianne_keeps_the_winner_out() -> None:
    """B-PORT-10, arianne-martell: Tyrell wins (2 + 2 against 1 + 1 + 1) but Arianne Martell keeps its knight in
    Oldtown; the ships were lost when the march emptied Oldtown, and do not come back."""
    g = emptied_for_battle()
    march(g, "tyrell", "oldtown", {"three-towers": ["knight"], "dornish-marches": ["footman"]})
    events = fight(g, cards={"tyrell": "randyll-tarly", "martell": "arianne-martell"})
    assert result(events)["winner"] == "tyrell" and event(events, "attack-held")["origin"] == "oldtown"
    assert units(g, "oldtown") == ["tyrell knight"]
    assert "port-of-oldtown" not in g.s.units
