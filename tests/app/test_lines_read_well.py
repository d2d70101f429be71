"""Issue V, item 6: lines that read badly, fixed in the narration's output (the log thread and the demo log:
``narrate_all``; the channel: ``plan_step``), in both languages. One line per kind of no-op, not one per house; a
vassal's battle reward told under its battle; an attack on a neutral force says what became of its attackers;
plurals of crowns and ports; "Power" as the game's term; the Russian battle sum with its colon."""

from __future__ import annotations

from typing import Any

import pytest

from app.channel_posts import Table, plan_step
from app.narration import narrate, narrate_all

HOUSES = ("baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn")


def mustered_nothing(house: str) -> dict[str, Any]:
    return {"type": "mustered", "house": house, "plan": {}}


def spared(house: str, card: str = "silence-at-the-wall") -> dict[str, Any]:
    return {"type": "wildling-effect", "card": card, "house": house, "role": "everyone", "effect": "nothing"}


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Nothing mustered: Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell, Arryn."),
        ("ru", "Ничего не собирают: Баратеон, Ланнистер, Старк, Мартелл, Грейджой, Тирелл, Аррен."),
    ],
)
def test_houses_mustering_nothing_make_one_line(lang: str, line: str) -> None:
    assert narrate_all([mustered_nothing(h) for h in HOUSES], lang) == [line]


@pytest.mark.parametrize(
    ("lang", "line", "alone"),
    [
        ("en", "Silence at the Wall: nothing happens to Stark, Lannister, Tyrell.", "Stark musters nothing."),
        (
            "ru",
            "«Тишина на Стене»: с домами Старк, Ланнистер, Тирелл ничего не происходит.",
            "Старк ничего не собирает.",
        ),
    ],
)
def test_a_wildling_card_that_spares_every_house_is_told_once(lang: str, line: str, alone: str) -> None:
    events = [spared("stark"), spared("lannister"), spared("tyrell")]
    assert narrate_all(events, lang) == [line]
    # A house that loses nothing to a card that takes Power is spared as well: no "loses 0 Power".
    lost_nothing = {"type": "wildling-effect", "card": "silence-at-the-wall", "house": "tyrell", "role": "everyone",
                    "effect": "power-lost", "power": 0}  # fmt: skip
    assert narrate_all([spared("stark"), spared("lannister"), lost_nothing], lang) == [line]
    # A single house's no-op keeps its own sentence; another line between two no-ops ends the group.
    assert narrate_all([mustered_nothing("stark")], lang) == [alone]
    march = {"type": "march", "house": "stark", "origin": "winterfell", "to": "moat-cailin", "units": ["footman"]}
    told = narrate_all([mustered_nothing("stark"), march, mustered_nothing("stark")], lang)
    assert told[0] == told[2] == alone and len(told) == 3


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Supply: Greyjoy 2 → 3, Stark 1 → 2; the others unchanged (Baratheon 2, Arryn 1)."),
        ("ru", "Снабжение: Грейджой 2 → 3, Старк 1 → 2; у остальных без изменений (Баратеон 2, Аррен 1)."),
    ],
)
def test_supply_levels_that_did_not_change_are_grouped_after_those_that_did(lang: str, line: str) -> None:
    levels = [("baratheon", 2, 2), ("greyjoy", 2, 3), ("arryn", 1, 1), ("stark", 1, 2)]
    events = [{"type": "supply-adjusted", "house": h, "old": old, "new": new} for h, old, new in levels]
    assert narrate_all(events, lang) == [line]
    same = [{"type": "supply-adjusted", "house": h, "old": 2, "new": 2} for h in ("baratheon", "tyrell")]
    assert narrate_all(same, lang) == [
        {"en": "Supply: unchanged (Baratheon 2, Tyrell 2).", "ru": "Снабжение: без изменений (Баратеон 2, Тирелл 2)."}[
            lang
        ]
    ]


def test_the_channel_tells_a_spared_house_once_per_card_too() -> None:
    for lang, start in (("en", "Silence at the Wall: nothing happens to "), ("ru", "«Тишина на Стене»: с домами ")):
        table, _ = plan_step(Table(), [{"type": "round-started", "round": 2}], lang, round_=2, phase_after="westeros")
        table, posts = plan_step(table, [spared(h) for h in HOUSES[:4]], lang, round_=2, phase_after="westeros")
        (post,) = posts
        assert sum(line.startswith(start) for line in post.text(lang).splitlines()) == 1


ATTACK = {"type": "combat-started", "attacker": "tyrell", "defender": "stark", "area": "riverrun",
          "origin": "the-twins", "units": ["knight"]}  # fmt: skip
RESULT = {"type": "combat-result", "area": "riverrun", "attacker": "tyrell", "defender": "stark", "winner": "tyrell",
          "strength": {"attacker": {"units": 2, "total": 2}, "defender": {"units": 1, "total": 1}}}  # fmt: skip
ENDED = {"type": "combat-ended", "area": "riverrun", "winner": "tyrell"}
REWARD = {"type": "power-gained", "house": "lannister", "gained": 1, "reason": "vassal-victory", "vassal": "tyrell"}


@pytest.mark.parametrize(
    ("lang", "reward"),
    [("en", "Lannister takes 1 Power for the victory of its vassal Tyrell."), ("ru", "Ланнистер")],
)
def test_a_vassals_battle_reward_is_told_under_its_battle_not_above_it(lang: str, reward: str) -> None:
    """M-VASSAL-26: the liege takes 1 Power when its vassal wins; the engine says so as the combat ends."""
    reveal = [{"type": "orders-revealed", "orders": {}}]
    table, _ = plan_step(Table(), reveal, lang, round_=1, phase_after="action")
    table, _ = plan_step(table, [ATTACK, RESULT], lang, round_=1, phase_after="action")
    returned = {"type": "vassal-cards-returned", "house": "tyrell"}
    table, posts = plan_step(table, [ENDED, returned, REWARD], lang, round_=1, phase_after="action")
    assert [p.kind for p in posts] == ["battle"]  # the phase's message (above the battle) is not edited
    line = narrate(REWARD, lang)
    assert line and reward in line and line in posts[0].text(lang).splitlines()[-1]
    # Any other line in between: the reward is no longer the battle's.
    table, _ = plan_step(table, [ATTACK, RESULT], lang, round_=1, phase_after="action")
    march = {"type": "march", "house": "stark", "origin": "winterfell", "to": "moat-cailin", "units": ["footman"]}
    table, posts = plan_step(table, [ENDED, march, REWARD], lang, round_=1, phase_after="action")
    assert [p.kind for p in posts] == ["battle", "phase"]
    assert line in posts[1].text(lang) and line not in posts[0].text(lang)


NEUTRAL_ATTACK = {"type": "combat-started", "attacker": "baratheon", "defender": "neutral", "area": "storms-end",
                  "origin": "kingswood", "units": ["knight", "footman", "footman"]}  # fmt: skip


@pytest.mark.parametrize(
    ("lang", "won", "lost"),
    [
        (
            "en",
            "the area is taken by 1 knight, 2 footmen from Kingswood.",
            "the attack falls short and is called off, leaving 1 knight, 2 footmen in Kingswood.",
        ),
        (
            "ru",
            "область захвачена 1 рыцарем, 2 пешими воинами из Королевского леса.",
            "сил не хватило: поход отменён, в Королевском лесу остаётся 1 рыцарь, 2 пеших воина.",
        ),
    ],
)
def test_an_attack_on_a_neutral_force_says_what_became_of_the_attackers(lang: str, won: str, lost: str) -> None:
    """B-NEUTRAL-03..08: strong enough, the attackers move in; short, the march is cancelled and they stay."""
    for outcome, end in ((True, won), (False, lost)):
        result = {"type": "neutral-attack", "house": "baratheon", "area": "storms-end", "strength": 4 if outcome else 3,
                  "needed": 4, "won": outcome}  # fmt: skip
        line = narrate_all([NEUTRAL_ATTACK, result], lang)[-1]
        assert line.endswith(end), line
        _, posts = plan_step(Table(), [NEUTRAL_ATTACK, result], lang, round_=1, phase_after="action")
        battle = next(p for p in posts if p.kind == "battle")
        assert battle.text(lang).endswith(end)


@pytest.mark.parametrize(
    ("lang", "crowns", "ports", "expected"),
    [
        ("en", 1, 0, "Game of Thrones: Stark gains 1 Power (1 crown, 0 ports)."),
        ("en", 2, 1, "Game of Thrones: Stark gains 3 Power (2 crowns, 1 port)."),
        ("ru", 1, 0, "Игра престолов: Старк получает 1 жетон власти (1 корона, 0 портов)."),
        ("ru", 2, 1, "Игра престолов: Старк получает 3 жетона власти (2 короны, 1 порт)."),
        ("ru", 5, 2, "Игра престолов: Старк получает 7 жетонов власти (5 корон, 2 порта)."),
    ],
)
def test_crowns_and_ports_take_their_plural_forms(lang: str, crowns: int, ports: int, expected: str) -> None:
    event = {"type": "power-gained", "house": "stark", "crowns": crowns, "ports": ports, "gained": crowns + ports,
             "reason": "game-of-thrones"}  # fmt: skip
    assert narrate(event, lang) == expected


def test_power_is_written_as_the_games_term() -> None:
    pillage = {"type": "pillage", "house": "greyjoy", "victim": "lannister", "gained": 1, "lost": 1}
    assert narrate(pillage, "en") == "Greyjoy pillages Lannister: +1 Power, Lannister −1."
    token = {"type": "power-token-placed", "house": "stark", "area": "winterfell"}
    assert narrate(token, "en") == "Stark leaves a Power token in Winterfell."
    removed = {"type": "power-token-removed", "house": "stark", "area": "winterfell"}
    assert narrate(removed, "en") == "Stark's Power token in Winterfell is removed."


def test_the_russian_battle_sum_names_each_side_with_a_colon() -> None:
    line = narrate(RESULT, "ru")
    assert line is not None and "Тирелл: отряды 2 = 2 против Старк: отряды 1 = 1." in line
    assert "Tyrell units 2 = 2 against Stark units 1 = 1." in str(narrate(RESULT, "en"))
