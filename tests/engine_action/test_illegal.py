"""Illegal answers: a RuleError with a clear message, and the state exactly unchanged (to_json before == after)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, RuleError

from .helpers import combat_frame, make, march, march_answer, prompt, rejected

TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["lannister", "tyrell", "martell", "stark", "baratheon", "greyjoy"],  # Lannister holds the Blade
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}


def test_an_order_in_an_area_without_units() -> None:
    g = make({"units": {"winterfell": "stark footman"}, "start": "planning"})
    err = rejected(g, "stark", {"orders": {"winterfell": "defense1", "karhold": "raid"}}, "order-area-empty")
    assert "karhold" in err.message


def test_a_star_order_over_the_limit() -> None:
    g = make(
        {"units": {"winterfell": "stark footman", "karhold": "stark footman"}, "start": "planning", "tracks": TRACKS}
    )
    g.s.tracks["kings_court"] = ["lannister", "martell", "baratheon", "stark", "tyrell", "greyjoy"]  # Stark: 1 star
    err = rejected(g, "stark", {"orders": {"winterfell": "defense2*", "karhold": "raid*"}}, "too-many-stars")
    assert err.params["allowed"] == 1


def test_a_march_to_a_non_adjacent_area() -> None:
    g = make({"units": {"winterfell": "stark footman"}, "orders": {"winterfell": "march0"}, "start": "action"})
    err = rejected(g, "stark", march_answer("winterfell", {"the-twins": ["footman"]}), "not-adjacent")
    assert "the-twins" in err.message


def test_a_second_combat_from_one_march() -> None:
    g = make(
        {
            "units": {
                "winterfell": "stark footman knight",
                "karhold": "greyjoy footman",
                "white-harbor": "greyjoy footman",
            },
            "orders": {"winterfell": "march0", "karhold": "defense1", "white-harbor": "defense1"},
            "start": "action",
        }
    )
    rejected(
        g, "stark", march_answer("winterfell", {"karhold": ["footman"], "white-harbor": ["knight"]}), "two-combats"
    )


def test_support_from_a_non_adjacent_area_is_not_offered() -> None:
    g = make(
        {
            "units": {"winterfell": "stark knight", "karhold": "greyjoy footman", "pyke": "greyjoy footman"},
            "orders": {"winterfell": "march0", "karhold": "defense1", "pyke": "support0"},
            "start": "action",
            "tracks": TRACKS,
        }
    )
    march(g, "stark", "winterfell", {"karhold": ["knight"]})
    assert {p.kind for p in g.prompts()} == {"house-card"}
    g.act("stark", "eddard-stark")
    rejected(g, "greyjoy", "defender", "illegal-choice")  # Greyjoy is asked for a card, not for support


def test_a_retreat_into_an_enemy_area() -> None:
    g = make(
        {
            "units": {
                "riverrun": "lannister knight knight knight",
                "stoney-sept": "stark footman",
                "blackwater": "baratheon footman",
            },
            "orders": {"riverrun": "march0", "stoney-sept": "defense1", "blackwater": "defense1"},
            "start": "action",
            "tracks": TRACKS,
        }
    )
    march(g, "lannister", "riverrun", {"stoney-sept": ["knight", "knight", "knight"]})
    g.act("lannister", "the-hound")
    g.act("stark", "greatjon-umber")
    g.act("lannister", False)
    assert prompt(g, "stark").kind == "retreat"
    rejected(g, "stark", "blackwater", "illegal-choice")
    rejected(g, "stark", "lannisport", "illegal-choice")


def test_an_answer_by_a_house_that_is_not_asked() -> None:
    g = make({"units": {"winterfell": "stark footman"}, "orders": {"winterfell": "march0"}, "start": "action"})
    err = rejected(g, "lannister", march_answer("winterfell"), "not-your-turn")
    assert err.params["house"] == "lannister"


def test_a_stale_prompt_id() -> None:
    g = make({"units": {"winterfell": "stark footman"}, "orders": {"winterfell": "march0"}, "start": "action"})
    before = g.to_json()
    with pytest.raises(RuleError) as info:
        g.act("stark", march_answer("winterfell"), prompt_id="1:march0:stark")
    assert info.value.code == "stale-prompt" and g.to_json() == before
    g.act("stark", march_answer("winterfell"), prompt_id=prompt(g, "stark").id)


def test_nothing_is_accepted_once_the_game_is_over() -> None:
    g = make({"units": {"winterfell": "stark footman"}, "orders": {"winterfell": "march0"}, "start": "action"})
    march(g, "stark", "winterfell")
    assert g.finished
    rejected(g, "stark", march_answer("winterfell"), "game-over")


GARBAGE: list[Any] = [
    None,
    17,
    -1,
    3.5,
    "nonsense",
    [["x"]],
    {"zzz": 1},
    {"from": ["x"], "moves": "y", "target": {}, "orders": [1], "action": ["swap"], "area": ["x"], "token": 5},
    {"from": "winterfell", "moves": [{"to": {"a": 1}, "units": ["footman"]}]},
    {"orders": {"winterfell": ["march0"]}},
]


def reject_garbage(g: Game) -> None:
    """Every open decision refuses every kind of malformed answer with a RuleError, state untouched."""
    for p in [p for p in g.prompts() if not p.answered]:
        for junk in GARBAGE:
            before = g.to_json()
            try:
                g.act(p.house, junk)
            except RuleError as err:
                assert err.message
            else:  # pragma: no cover - a malformed answer was accepted
                raise AssertionError(f"{p.kind} accepted {junk!r}")
            assert g.to_json() == before, (p.kind, junk)


def test_malformed_answers_at_every_kind_of_decision() -> None:
    g = make(
        {
            "units": {
                "lannisport": "lannister knight knight footman",
                "the-golden-sound": "lannister ship",
                "stoney-sept": "lannister footman",
                "riverrun": "stark footman knight",
                "ironmans-bay": "baratheon ship",
                "seagard": "stark footman",
                "winterfell": "stark footman",
            },
            "start": "planning",
            "tracks": TRACKS,
            "wildling_deck": ["crow-killers", "mammoth-riders"],
        }
    )
    seen: list[str] = []

    def step(house: str, answer: Any) -> None:
        reject_garbage(g)
        seen.append(prompt(g, house).kind)
        g.act(house, answer)

    step("baratheon", {"orders": {"ironmans-bay": "support0"}})
    step("lannister", {"orders": {"lannisport": "march1*", "the-golden-sound": "raid", "stoney-sept": "consolidate*"}})
    step("stark", {"orders": {"riverrun": "defense1", "seagard": "support0", "winterfell": "raid"}})
    step("lannister", {"action": "peek"})
    step("lannister", "bottom")
    step("lannister", {"from": "the-golden-sound", "target": None})
    step("stark", {"from": "winterfell", "target": None})
    step("lannister", march_answer("lannisport", {"riverrun": ["knight", "knight", "footman"]}))
    step("baratheon", "attacker")
    step("stark", "defender")
    step("lannister", "accept")
    step("lannister", "ser-gregor-clegane")
    step("stark", "ser-rodrick-cassel")
    step("lannister", True)
    step("stark", ["footman"])
    step("stark", "harrenhal")
    assert seen == [
        "orders",
        "orders",
        "orders",
        "raven",
        "raven-wildling",
        "raid",
        "raid",
        "march",
        "support",
        "support",
        "support-refusal",
        "house-card",
        "house-card",
        "blade",
        "casualties",
        "retreat",
    ]
    assert g.finished


def test_malformed_answers_to_port_capture_and_consolidate_choice() -> None:
    g = make(
        {
            "units": {
                "stoney-sept": "stark knight knight",
                "lannisport": "lannister footman",
                "port-of-lannisport": "lannister ship",
                "harrenhal": "stark footman",
            },
            "orders": {"stoney-sept": "march0", "lannisport": "defense1", "harrenhal": "consolidate*"},
            "start": "action",
            "tracks": TRACKS,
        }
    )
    march(g, "stark", "stoney-sept", {"lannisport": ["knight", "knight"]})
    g.act("stark", "greatjon-umber")
    g.act("lannister", "the-hound")
    g.act("lannister", False)
    g.act("lannister", "searoad-marches")
    assert prompt(g, "stark").kind == "port-capture"
    reject_garbage(g)
    g.act("stark", 1)
    assert prompt(g, "stark").kind == "consolidate"
    reject_garbage(g)
    g.act("stark", "power")
    assert g.finished and combat_frame(g) is None
