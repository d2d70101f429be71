"""Support (checklist section 19, B-SUPPORT-*; known edge case: land units cannot support sea battles)."""

from __future__ import annotations

from typing import Any

from engine import Game

from .helpers import combat_frame, event, fight, kinds, make, march, prompt, rejected, result, units

TRACKS = {
    "iron_throne": ["tyrell", "lannister", "baratheon", "stark", "martell", "greyjoy"],
    "fiefdoms": ["greyjoy", "martell", "stark", "baratheon", "tyrell", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}
KEEP = {"the-eyrie": "greyjoy footman"}  # Greyjoy's March order keeps the Action phase open after the combat
KEEP_ORDER = {"the-eyrie": "march-1"}  # never carried out with moves; Greyjoy's March +0 stays free


def action(unit_spec: dict[str, str], orders: dict[str, str], **extra: Any) -> Game:
    extra.setdefault("tracks", TRACKS)
    return make({"units": unit_spec | KEEP, "orders": orders | KEEP_ORDER, "start": "action", **extra})


def book_position() -> Game:
    return action(
        {
            "the-reach": "tyrell knight knight",
            "blackwater": "lannister footman",
            "kings-landing": "tyrell knight",
            "stoney-sept": "lannister footman knight",
            "harrenhal": "baratheon knight",
        },
        {
            "the-reach": "march1*",
            "blackwater": "march-1",
            "kings-landing": "support0",
            "stoney-sept": "support0",
            "harrenhal": "support0",
        },
        # Tyrell 3rd on the King's Court track: one special order (its March +1)
        tracks=dict(TRACKS, kings_court=["lannister", "stark", "tyrell", "martell", "baratheon", "greyjoy"]),
    )


def test_rulebook_support_example() -> None:
    """002:2129-2160, 001:953-959: two Tyrell knights march +1 from The Reach into Blackwater (one Lannister footman).
    Lannister supports itself from Stoney Sept (3), Baratheon supports Lannister from Harrenhal (2), Tyrell supports
    itself from King's Landing (2): Tyrell 7 (4 + 2 + 1), Lannister 6 (1 + 5)."""
    g = book_position()
    march(g, "tyrell", "the-reach", {"blackwater": ["knight", "knight"]})
    # Declarations in turn order (Tyrell, Lannister, Baratheon on the Iron Throne track).
    assert kinds(g) == [("tyrell", "support")]
    g.act("tyrell", "attacker")
    assert kinds(g) == [("lannister", "support")]
    g.act("lannister", "defender")
    assert kinds(g) == [("baratheon", "support")]
    g.act("baratheon", "defender")
    # Lannister accepts Baratheon's help (B-SUPPORT-08: it could refuse it).
    assert kinds(g) == [("lannister", "support-refusal")]
    g.act("lannister", "accept")
    events = fight(
        g, cards={"tyrell": "margaery-tyrell", "lannister": "the-hound"}, retreat={"lannister": "searoad-marches"}
    )
    r = result(events)
    initial = {side: r["strength"][side]["total"] - r["strength"][side]["card"] for side in ("attacker", "defender")}
    assert initial == {"attacker": 7, "defender": 6}
    assert r["strength"]["attacker"] == {"units": 4, "support": 2, "march": 1, "card": 1, "total": 8}
    assert r["strength"]["defender"] == {"units": 1, "support": 5, "card": 2, "total": 8}


def test_B_SUPPORT_01_B_SUPPORT_06_both_sides_call_adjacent_support_orders() -> None:
    g = book_position()
    march(g, "tyrell", "the-reach", {"blackwater": ["knight", "knight"]})
    f = combat_frame(g)
    from engine.combat.strength import support_areas

    assert f is not None
    assert support_areas(g.s, f["area"]) == {
        "harrenhal": "baratheon",
        "kings-landing": "tyrell",
        "stoney-sept": "lannister",
    }
    assert prompt(g, "tyrell").choices == ["attacker", "none"]  # an attacker supports itself...
    g.act("tyrell", "attacker")
    assert prompt(g, "lannister").choices == ["defender", "none"]  # ...and so does the defender


def test_B_SUPPORT_02_B_SUPPORT_04_a_third_house_chooses_a_side_or_nobody() -> None:
    g = book_position()
    march(g, "tyrell", "the-reach", {"blackwater": ["knight", "knight"]})
    g.act("tyrell", "none")
    g.act("lannister", "none")
    # Baratheon has no unit in this combat and may help either side or nobody.
    assert prompt(g, "baratheon").choices == ["attacker", "defender", "none"]
    g.act("baratheon", "attacker")
    g.act("tyrell", "accept")
    r = result(
        fight(
            g, cards={"tyrell": "margaery-tyrell", "lannister": "the-hound"}, retreat={"lannister": "searoad-marches"}
        )
    )
    assert r["strength"]["attacker"]["support"] == 2 and r["strength"]["defender"]["support"] == 0


def test_B_SUPPORT_02_each_support_order_gets_its_own_choice() -> None:
    g = action(
        {
            "lannisport": "lannister knight",
            "riverrun": "stark footman",
            "seagard": "baratheon footman",
            "harrenhal": "baratheon knight",
        },
        {"lannisport": "march0", "riverrun": "defense1", "seagard": "support0", "harrenhal": "support0"},
    )
    march(g, "lannister", "lannisport", {"riverrun": ["knight"]})
    assert prompt(g, "baratheon").info["from"] == ["harrenhal", "seagard"]
    rejected(g, "baratheon", {"winterfell": "attacker"}, "support-bad-area")
    rejected(g, "baratheon", {"seagard": "neutral"}, "illegal-choice")
    g.act("baratheon", {"harrenhal": "attacker", "seagard": "none"})
    assert combat_frame(g)["supports"] == {"harrenhal": "attacker", "seagard": "none"}  # type: ignore[index]


def test_B_SUPPORT_03_B_SUPPORT_11_all_units_of_the_area_support() -> None:
    g = action(
        {
            "lannisport": "lannister knight",
            "stoney-sept": "stark footman",
            "harrenhal": "stark knight footman footman",
        },
        {"lannisport": "march0", "stoney-sept": "defense1", "harrenhal": "support0"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    # The answer is a side, never a subset of units: support is all or nothing.
    rejected(g, "stark", ["knight"], "illegal-choice")
    g.act("stark", "defender")
    r = result(fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}))
    assert r["strength"]["defender"]["support"] == 4


def test_B_SUPPORT_05_B_SUPPORT_19_declarations_in_turn_order_before_the_cards() -> None:
    g = book_position()
    march(g, "tyrell", "the-reach", {"blackwater": ["knight", "knight"]})
    seen = []
    while prompt_kind(g) == "support":
        p = g.prompts()[0]
        seen.append(p.house)
        # Nobody chooses a card while a supporter has not declared.
        assert all(q.kind == "support" for q in g.prompts())
        g.act(p.house, "none")
    assert seen == ["tyrell", "lannister", "baratheon"]
    assert {q.kind for q in g.prompts()} == {"house-card"}


def prompt_kind(g: Game) -> str | None:
    ps = g.prompts()
    return ps[0].kind if ps else None


def test_B_SUPPORT_07_a_support_order_stays_and_helps_in_several_combats() -> None:
    g = action(
        {
            "lannisport": "lannister knight",
            "searoad-marches": "lannister knight",
            "stoney-sept": "stark footman",
            "blackwater": "stark footman",
            "harrenhal": "baratheon knight",
        },
        {
            "lannisport": "march0",
            "searoad-marches": "march-1",
            "stoney-sept": "defense1",
            "blackwater": "defense1",
            "harrenhal": "support0",
        },
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    fight(g, cards={"lannister": "the-hound", "stark": "eddard-stark"}, support={"baratheon": "defender"})
    assert g.s.orders["harrenhal"].token == "support0"
    march(g, "greyjoy", "the-eyrie")
    march(g, "lannister", "searoad-marches", {"blackwater": ["knight"]})
    assert prompt(g, "baratheon").kind == "support"


def test_B_SUPPORT_08_a_combatant_may_refuse_offered_support() -> None:
    g = book_position()
    march(g, "tyrell", "the-reach", {"blackwater": ["knight", "knight"]})
    g.act("tyrell", "attacker")
    g.act("lannister", "defender")
    g.act("baratheon", "defender")
    p = prompt(g, "lannister")
    assert p.kind == "support-refusal" and p.choices == ["accept", "refuse"] and p.default == "accept"
    assert (p.info["from"], p.info["supporter"], p.info["side"]) == ("harrenhal", "baratheon", "defender")
    rejected(g, "lannister", "stoney-sept", "illegal-choice")
    rejected(g, "lannister", ["harrenhal"], "illegal-choice")
    rejected(g, "baratheon", "refuse", "not-your-turn")  # only the supported combatant decides
    events = g.act("lannister", "refuse")
    assert event(events, "support-refused")["supporter"] == "baratheon"
    r = result(
        fight(g, cards={"tyrell": "margaery-tyrell", "lannister": "the-hound"}, retreat={"lannister": "stoney-sept"})
    )
    assert r["strength"]["defender"]["support"] == 3


def test_B_SUPPORT_08_only_support_from_other_houses_is_asked_about() -> None:
    g = book_position()
    march(g, "tyrell", "the-reach", {"blackwater": ["knight", "knight"]})
    g.act("tyrell", "attacker")
    g.act("lannister", "defender")
    g.act("baratheon", "none")
    assert {p.kind for p in g.prompts()} == {"house-card"}


def test_B_SUPPORT_09_known_edge_land_units_never_support_a_sea_battle() -> None:
    g = action(
        {
            "the-golden-sound": "lannister ship",
            "sunset-sea": "greyjoy ship",
            "searoad-marches": "lannister knight",
            "west-summer-sea": "lannister ship",
        },
        {
            "the-golden-sound": "march0",
            "sunset-sea": "defense1",
            "searoad-marches": "support0",
            "west-summer-sea": "support0",
        },
    )
    march(g, "lannister", "the-golden-sound", {"sunset-sea": ["ship"]})
    from engine.combat.strength import support_areas

    # Searoad Marches borders the Sunset Sea, but its knight cannot help at sea; the ship next door can.
    assert support_areas(g.s, "sunset-sea") == {"west-summer-sea": "lannister"}


def test_B_SUPPORT_09_ships_support_a_land_combat() -> None:
    g = action(
        {"lannisport": "lannister knight", "riverrun": "stark footman", "ironmans-bay": "stark ship ship"},
        {"lannisport": "march0", "riverrun": "defense1", "ironmans-bay": "support0"},
    )
    march(g, "lannister", "lannisport", {"riverrun": ["knight"]})
    g.act("stark", "defender")
    r = result(fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}))
    assert r["strength"]["defender"]["support"] == 2


def test_B_SUPPORT_10_supporting_siege_engines_only_for_an_attack_on_a_castle() -> None:
    def run(target: str, side: str) -> dict[str, Any]:
        attacker, defender = ("lannister", "stark") if side == "attacker" else ("stark", "lannister")
        g = action(
            {
                "blackwater": f"{attacker} knight",
                target: f"{defender} footman",
                "stoney-sept": "baratheon siege-engine footman",
            },
            {"blackwater": "march0", target: "defense1", "stoney-sept": "support0"},
        )
        march(g, attacker, "blackwater", {target: ["knight"]})
        g.act("baratheon", side)
        g.act(attacker if side == "attacker" else defender, "accept")
        cards = {"lannister": "the-hound", "stark": "greatjon-umber"}
        return result(fight(g, cards=cards, retreat={"stark": "crackclaw-point", "lannister": "crackclaw-point"}))

    # Harrenhal has a castle; Stoney Sept borders both Harrenhal and Blackwater... the target must border Stoney Sept.
    assert run("harrenhal", "attacker")["strength"]["attacker"]["support"] == 5
    assert run("harrenhal", "defender")["strength"]["defender"]["support"] == 1


def test_B_SUPPORT_10_no_siege_strength_against_an_area_without_castle() -> None:
    g = action(
        {"harrenhal": "lannister knight", "blackwater": "stark footman", "stoney-sept": "lannister siege-engine"},
        {"harrenhal": "march0", "blackwater": "defense1", "stoney-sept": "support0"},
    )
    march(g, "lannister", "harrenhal", {"blackwater": ["knight"]})
    g.act("lannister", "attacker")
    r = result(
        fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}, retreat={"stark": "kings-landing"})
    )
    assert r["strength"]["attacker"]["support"] == 0


def test_B_SUPPORT_12_no_support_for_an_opponent_against_oneself() -> None:
    g = action(
        {
            "lannisport": "lannister knight",
            "stoney-sept": "stark footman",
            "riverrun": "lannister footman",
            "harrenhal": "stark footman",
        },
        {"lannisport": "march0", "stoney-sept": "defense1", "riverrun": "support0", "harrenhal": "support0"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    assert prompt(g, "lannister").choices == ["attacker", "none"]
    rejected(g, "lannister", "defender", "illegal-choice")
    g.act("lannister", "none")
    assert prompt(g, "stark").choices == ["defender", "none"]
    rejected(g, "stark", "attacker", "illegal-choice")


def test_B_SUPPORT_13_adjacency_to_the_embattled_area_not_to_the_origin() -> None:
    g = action(
        {
            "lannisport": "lannister knight",
            "riverrun": "stark footman",
            "searoad-marches": "lannister footman",  # next to Lannisport, not to Riverrun
            "seagard": "baratheon footman",  # next to Riverrun, not to Lannisport
        },
        {"lannisport": "march0", "riverrun": "defense1", "searoad-marches": "support0", "seagard": "support0"},
    )
    march(g, "lannister", "lannisport", {"riverrun": ["knight"]})
    assert kinds(g) == [("baratheon", "support")]
    rejected(g, "lannister", "attacker", "not-your-turn")  # its non-adjacent support is not offered


def test_B_SUPPORT_14_special_support_adds_one() -> None:
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman", "harrenhal": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1", "harrenhal": "support1*"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    g.act("stark", "defender")
    r = result(fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}))
    assert r["strength"]["defender"]["support"] == 2


def test_B_SUPPORT_15_no_support_through_a_chain_of_ships() -> None:
    g = action(
        {
            "lannisport": "lannister knight",
            "the-golden-sound": "lannister ship",
            "ironmans-bay": "lannister ship",
            "riverrun": "lannister footman",
            "seagard": "stark footman",
        },
        {
            "lannisport": "support0",
            "the-golden-sound": "defense1",
            "ironmans-bay": "defense1",
            "riverrun": "march0",
            "seagard": "defense1",
        },
    )
    march(g, "lannister", "riverrun", {"seagard": ["footman"]})
    assert {p.kind for p in g.prompts()} == {"house-card"}


def test_B_SUPPORT_16_routed_units_cannot_support() -> None:
    g = action(
        {
            "lannisport": "lannister knight",
            "stoney-sept": "stark footman",
            "harrenhal": "stark routed-knight",
            "blackwater": "stark routed-knight footman",
        },
        {"lannisport": "march0", "stoney-sept": "defense1", "harrenhal": "support0", "blackwater": "support0"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    assert prompt(g, "stark").info["from"] == ["blackwater"]  # Harrenhal holds only a routed unit
    g.act("stark", "defender")
    r = result(fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}))
    assert r["strength"]["defender"]["support"] == 1  # the routed knight adds nothing


def test_B_SUPPORT_17_B_PORT_07_ships_in_a_port_support_only_in_their_sea() -> None:
    base = {
        "lannisport": "lannister footman",
        "port-of-lannisport": "lannister ship ship",
    }
    orders = {"lannisport": "defense1", "port-of-lannisport": "support0"}
    # A sea combat in the port's sea: offered.
    g = action(
        base | {"ironmans-bay": "greyjoy ship", "the-golden-sound": "stark ship"},
        orders | {"ironmans-bay": "march0", "the-golden-sound": "defense1"},
    )
    march(g, "greyjoy", "ironmans-bay", {"the-golden-sound": ["ship"]})
    assert prompt(g, "lannister").info["from"] == ["port-of-lannisport"]
    g.act("lannister", "defender")
    g.act("stark", "accept")
    r = result(fight(g, cards={"greyjoy": "dagmar-cleftjaw", "stark": "greatjon-umber"}))
    assert r["strength"]["defender"]["support"] == 2
    # A land combat next to the port (even in its own land's neighbour): never.
    g = action(
        base | {"riverrun": "stark footman", "stoney-sept": "greyjoy knight"},
        orders | {"riverrun": "defense1", "stoney-sept": "march0"},
    )
    march(g, "greyjoy", "stoney-sept", {"riverrun": ["knight"]})
    from engine.combat.strength import support_areas

    assert support_areas(g.s, "riverrun") == {}
    assert support_areas(g.s, "lannisport") == {}


def test_B_SUPPORT_18_supporting_units_are_never_casualties_and_never_retreat() -> None:
    g = action(
        {
            "lannisport": "lannister knight knight",
            "stoney-sept": "stark footman",
            "harrenhal": "stark footman knight",
        },
        {"lannisport": "march0", "stoney-sept": "defense1", "harrenhal": "support0"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
    g.act("stark", "defender")
    events = fight(g, cards={"lannister": "ser-gregor-clegane", "stark": "ser-rodrick-cassel"})
    assert result(events)["winner"] == "lannister"
    # Stark's only fighting footman died (three swords, two fortifications); the supporters are untouched.
    assert units(g, "harrenhal") == ["stark footman", "stark knight"]
    assert units(g, "stoney-sept") == ["lannister knight", "lannister knight"]


def test_B_SUPPORT_08_each_offered_support_is_accepted_or_refused_on_its_own() -> None:
    g = action(
        {
            "lannisport": "lannister knight",
            "riverrun": "stark footman",
            "seagard": "baratheon footman",
            "harrenhal": "martell knight",
        },
        {"lannisport": "march0", "riverrun": "defense1", "seagard": "support0", "harrenhal": "support1*"},
    )
    march(g, "lannister", "lannisport", {"riverrun": ["knight"]})
    g.act("baratheon", "defender")
    g.act("martell", "defender")
    assert [(p.info["from"], p.info["supporter"]) for p in g.prompts()] == [("harrenhal", "martell")]
    g.act("stark", "refuse")
    assert [(p.info["from"], p.info["supporter"]) for p in g.prompts()] == [("seagard", "baratheon")]
    g.act("stark", "accept")
    r = result(fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}))
    assert r["strength"]["defender"]["support"] == 1  # Baratheon's footman only
