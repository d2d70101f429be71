"""Baratheon's house cards: Stannis, Renly, Ser Davos, Salladhor Saan, Patchface (B-HCARD-02/03/04)."""

from __future__ import annotations

from .helpers import battle, destroyed, event, march, play, prompt, result, units

ALL_BARATHEON = [
    "stannis-baratheon",
    "renly-baratheon",
    "ser-davos-seaworth",
    "brienne-of-tarth",
    "salladhor-saan",
    "melisandre",
    "patchface",
]


def harrenhal_attack(**extra: object) -> object:
    """Baratheon (knight, March +0) attacks a Lannister footman with a Defense +1 order in Stoney Sept."""
    g = battle(
        {"harrenhal": "baratheon knight", "stoney-sept": "lannister footman"},
        {"harrenhal": "march0", "stoney-sept": "defense1"},
        **extra,  # type: ignore[arg-type]
    )
    march(g, "baratheon", "harrenhal", {"stoney-sept": ["knight"]})
    return g


# ----- Stannis Baratheon -----


def test_stannis_baratheon_B_HCARD_02_plus_one_when_the_opponent_is_higher_on_the_iron_throne() -> None:
    g = harrenhal_attack(tracks={"iron_throne": ["lannister", "baratheon", "stark", "martell", "greyjoy", "tyrell"]})
    events = play(
        g,
        {
            ("baratheon", "house-card"): "stannis-baratheon",
            ("lannister", "house-card"): "the-hound",
            ("lannister", "retreat"): "lannisport",
        },
    )
    r = result(events)
    assert r["strength"]["attacker"] == {"units": 2, "support": 0, "march": 0, "card": 5, "total": 7}


def test_stannis_baratheon_no_bonus_when_baratheon_is_higher() -> None:
    g = harrenhal_attack()  # Baratheon holds the Iron Throne
    events = play(
        g,
        {
            ("baratheon", "house-card"): "stannis-baratheon",
            ("lannister", "house-card"): "the-hound",
            ("lannister", "retreat"): "lannisport",
        },
    )
    assert result(events)["strength"]["attacker"]["card"] == 4


# ----- Renly Baratheon -----


def renly_game() -> object:
    g = battle(
        {
            "blackwater": "baratheon footman footman footman",
            "harrenhal": "baratheon footman",
            "searoad-marches": "baratheon footman",
            "stoney-sept": "lannister footman",
        },
        {"blackwater": "march0", "harrenhal": "support0", "searoad-marches": "support0", "stoney-sept": "defense1"},
    )
    march(g, "baratheon", "blackwater", {"stoney-sept": ["footman", "footman"]})
    return g


def test_renly_baratheon_B_HCARD_04_upgrades_a_supporting_baratheon_footman_after_winning() -> None:
    g = renly_game()
    seen: list = []
    events = play(
        g,
        {
            ("baratheon", "support"): {"harrenhal": "attacker"},  # Searoad Marches supports nobody
            ("baratheon", "house-card"): "renly-baratheon",
            ("lannister", "house-card"): "ser-kevan-lannister",
            ("baratheon", "renly-knight"): "harrenhal",
            ("lannister", "retreat"): "lannisport",
        },
        seen,
    )
    renly = next(p for p in seen if p.kind == "renly-knight")
    # Only footmen that took part: the two attackers (in Blackwater until they move in) and Harrenhal's supporter;
    # not Searoad Marches (its Support helped nobody) and not the footman left behind.
    assert renly.choices == ["blackwater", "harrenhal", None] and renly.default == "blackwater"
    # The victor is known before the upgrade (B-HCARD-04): 2 + 1 + 3 = 6 against 1 + 1 + 1.
    order = [e["type"] for e in events]
    assert order.index("combat-result") < order.index("unit-upgraded")
    assert units(g, "harrenhal") == ["baratheon knight"]
    assert units(g, "stoney-sept") == ["baratheon footman", "baratheon footman"]
    assert units(g, "searoad-marches") == ["baratheon footman"]


def test_renly_baratheon_upgrades_an_attacking_footman_that_then_moves_in() -> None:
    g = renly_game()
    play(
        g,
        {
            ("baratheon", "house-card"): "renly-baratheon",
            ("lannister", "house-card"): "ser-kevan-lannister",
            ("baratheon", "renly-knight"): "blackwater",
            ("lannister", "retreat"): "lannisport",
        },
    )
    assert units(g, "stoney-sept") == ["baratheon footman", "baratheon knight"]
    assert units(g, "blackwater") == ["baratheon footman"]  # the footman that stayed behind is unchanged


def test_renly_baratheon_is_optional_and_needs_a_knight_in_the_supply() -> None:
    g = renly_game()
    events = play(
        g,
        {
            ("baratheon", "house-card"): "renly-baratheon",
            ("lannister", "house-card"): "ser-kevan-lannister",
            ("baratheon", "renly-knight"): None,
            ("lannister", "retreat"): "lannisport",
        },
    )
    assert event(events, "ability-declined")["card"] == "renly-baratheon"
    assert units(g, "stoney-sept") == ["baratheon footman", "baratheon footman"]
    # All five knights on the board: nothing to ask.
    g = battle(
        {
            "blackwater": "baratheon footman footman",
            "stoney-sept": "lannister footman",
            "kings-landing": "baratheon knight knight",
            "the-reach": "baratheon knight knight",
            "crackclaw-point": "baratheon knight",
        },
        {"blackwater": "march0", "stoney-sept": "defense1"},
    )
    march(g, "baratheon", "blackwater", {"stoney-sept": ["footman", "footman"]})
    seen: list = []
    play(
        g,
        {
            ("baratheon", "house-card"): "renly-baratheon",
            ("lannister", "house-card"): "the-hound",
            ("lannister", "retreat"): "lannisport",
        },
        seen,
    )
    assert "renly-knight" not in [p.kind for p in seen]


def test_renly_baratheon_does_nothing_when_baratheon_loses() -> None:
    g = renly_game()
    seen: list = []
    play(g, {("baratheon", "house-card"): "renly-baratheon", ("lannister", "house-card"): "tywin-lannister"}, seen)
    # 2 + 3 = 5 against 1 + 1 + 4 = 6: Lannister wins.
    assert "renly-knight" not in [p.kind for p in seen]
    assert units(g, "blackwater") == ["baratheon footman", "baratheon routed-footman", "baratheon routed-footman"]


# ----- Ser Davos Seaworth -----


def test_ser_davos_seaworth_B_HCARD_08_plus_one_and_a_sword_with_stannis_discarded() -> None:
    hand = [c for c in ALL_BARATHEON if c != "stannis-baratheon"]
    g = harrenhal_attack(hands={"baratheon": hand}, discards={"baratheon": ["stannis-baratheon"]})
    events = play(
        g, {("baratheon", "house-card"): "ser-davos-seaworth", ("lannister", "house-card"): "ser-kevan-lannister"}
    )
    assert result(events)["strength"]["attacker"]["card"] == 3
    assert destroyed(events) == [("lannister", "stoney-sept", "footman", "casualties")]


def test_ser_davos_seaworth_plain_while_stannis_is_in_hand() -> None:
    g = harrenhal_attack()
    events = play(
        g,
        {
            ("baratheon", "house-card"): "ser-davos-seaworth",
            ("lannister", "house-card"): "ser-kevan-lannister",
            ("lannister", "retreat"): "lannisport",
        },
    )
    assert result(events)["strength"]["attacker"]["card"] == 2
    assert destroyed(events) == []
    assert units(g, "lannisport") == ["lannister routed-footman"]


# ----- Salladhor Saan -----


def salladhor_game(baratheon_support: bool) -> object:
    units_spec = {
        "blackwater-bay": "greyjoy ship ship",
        "shipbreaker-bay": "baratheon ship",
        "east-summer-sea": "lannister ship",
    }
    orders = {"blackwater-bay": "march0", "shipbreaker-bay": "defense1", "east-summer-sea": "support0"}
    if baratheon_support:
        units_spec["the-narrow-sea"] = "baratheon ship"
        orders["the-narrow-sea"] = "support0"
    g = battle(units_spec, orders)
    march(g, "greyjoy", "blackwater-bay", {"shipbreaker-bay": ["ship", "ship"]})
    return g


def test_salladhor_saan_zeroes_every_non_baratheon_ship_when_baratheon_is_supported() -> None:
    """salladhor-saan, B-HCARD-02, B-COMBAT-02: other houses' ships count 0, fighting or supporting."""
    g = salladhor_game(baratheon_support=True)
    events = play(
        g,
        {
            ("baratheon", "support"): "defender",
            ("lannister", "support"): "attacker",
            ("greyjoy", "house-card"): "dagmar-cleftjaw",
            ("baratheon", "house-card"): "salladhor-saan",
        },
    )
    r = result(events)
    # Greyjoy's attacking ships and Lannister's supporting ship count 0; Baratheon's ships still count.
    assert r["strength"]["attacker"] == {"units": 0, "support": 0, "march": 0, "card": 1, "total": 1}
    assert r["strength"]["defender"] == {"units": 1, "support": 1, "defense": 1, "card": 1, "total": 4}
    assert r["winner"] == "baratheon"
    assert units(g, "blackwater-bay") == ["greyjoy routed-ship", "greyjoy routed-ship"]


def test_salladhor_saan_does_nothing_without_support_for_baratheon() -> None:
    g = salladhor_game(baratheon_support=False)
    events = play(
        g,
        {
            ("lannister", "support"): "attacker",
            ("greyjoy", "house-card"): "dagmar-cleftjaw",
            ("baratheon", "house-card"): "salladhor-saan",
            ("baratheon", "retreat"): "the-narrow-sea",
        },
    )
    r = result(events)
    assert r["strength"]["attacker"]["total"] == 4 and r["strength"]["defender"]["total"] == 3
    assert r["winner"] == "greyjoy"


# ----- Patchface -----


def test_patchface_B_HCARD_06_discards_a_card_of_the_opponents_hand_after_combat() -> None:
    g = harrenhal_attack()
    seen: list = []
    events = play(
        g,
        {
            ("baratheon", "house-card"): "patchface",
            ("lannister", "house-card"): "the-hound",
            ("baratheon", "patchface-discard"): "tywin-lannister",
        },
        seen,
    )
    p = next(p for p in seen if p.kind == "patchface-discard")
    assert p.choices == [
        "cersei-lannister",
        "ser-gregor-clegane",
        "ser-jaime-lannister",
        "ser-kevan-lannister",
        "tyrion-lannister",
        "tywin-lannister",
        None,
    ]
    assert p.default == "tywin-lannister"  # the strongest card
    # After combat: both played cards are already discarded; Patchface works whether Baratheon won or lost.
    assert result(events)["winner"] == "lannister"
    order = [e["type"] for e in events]
    assert order.index("house-card-discarded") < order.index("combat-ended")
    assert g.s.houses["lannister"].discards == ["the-hound", "tywin-lannister"]
    assert "tywin-lannister" not in g.s.houses["lannister"].hand
    assert g.s.houses["baratheon"].discards == ["patchface"]


def test_patchface_B_HCARD_07_discarding_the_last_card_returns_the_others() -> None:
    lannister = [
        "tywin-lannister",
        "ser-gregor-clegane",
        "ser-jaime-lannister",
        "ser-kevan-lannister",
        "cersei-lannister",
    ]
    g = harrenhal_attack(hands={"lannister": ["the-hound", "tyrion-lannister"]}, discards={"lannister": lannister})
    events = play(
        g,
        {
            ("baratheon", "house-card"): "patchface",
            ("lannister", "house-card"): "the-hound",
            ("baratheon", "patchface-discard"): "tyrion-lannister",
        },
    )
    assert event(events, "hand-returned")["house"] == "lannister"
    assert sorted(g.s.houses["lannister"].hand) == sorted([*lannister, "the-hound"])
    assert g.s.houses["lannister"].discards == ["tyrion-lannister"]


def test_patchface_is_optional() -> None:
    g = harrenhal_attack()
    play(
        g,
        {
            ("baratheon", "house-card"): "patchface",
            ("lannister", "house-card"): "the-hound",
            ("baratheon", "patchface-discard"): None,
        },
    )
    assert g.s.houses["lannister"].discards == ["the-hound"] and len(g.s.houses["lannister"].hand) == 6


def test_patchface_prompt_is_private_and_the_default_is_legal() -> None:
    g = harrenhal_attack()
    g.act("baratheon", "patchface")
    g.act("lannister", "the-hound")
    p = prompt(g, "baratheon")
    assert p.kind == "patchface-discard" and g.prompt_for("lannister") is None
    assert g.view("lannister").get("prompt") is None
    g.act("baratheon", p.default)
    assert "tywin-lannister" in g.s.houses["lannister"].discards
