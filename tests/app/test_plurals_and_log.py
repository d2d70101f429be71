"""Issue J: counts through gettext plural forms, and a channel log without ids over whole simulated games."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.narration import QUIET, narrate, narrate_all
from engine.sim import play_game
from i18n import catalog, tn
from tests.app.test_forms_explain import LATIN, raw_ids


def russian_form(n: int) -> int:
    """The Russian plural class: 1, 21, 101… → 0; 2-4, 22-24… → 1; everything else → 2."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


RU_UNITS = {
    "units.footman": ("пеший воин", "пеших воина", "пеших воинов"),
    "units.knight": ("рыцарь", "рыцаря", "рыцарей"),
    "units.ship": ("корабль", "корабля", "кораблей"),
    "units.siege-engine": ("осадная башня", "осадные башни", "осадных башен"),
    "count.power": ("жетон власти", "жетона власти", "жетонов власти"),
}
EN_UNITS = {
    "units.footman": ("footman", "footmen"),
    "units.knight": ("knight", "knights"),
    "units.ship": ("ship", "ships"),
    "units.siege-engine": ("siege engine", "siege engines"),
}


def test_catalogs_declare_their_plural_forms() -> None:
    assert catalog("en").num_plurals == 2 and catalog("ru").num_plurals == 3


@pytest.mark.parametrize("n", range(26))
def test_counts_0_to_25_take_the_right_form_in_both_languages(n: int) -> None:
    for key, forms in RU_UNITS.items():
        assert tn(key, n, "ru") == f"{n} {forms[russian_form(n)]}", (key, n)
    for key, forms in EN_UNITS.items():
        assert tn(key, n, "en") == f"{n} {forms[0 if n == 1 else 1]}", (key, n)
    assert tn("decision.muster.area", n, "ru", area="Винтерфелл") == (
        f"Винтерфелл ({n} {('очко', 'очка', 'очков')[russian_form(n)]})"
    )
    assert tn("decision.muster.area", n, "en", area="Winterfell") == f"Winterfell ({n} point{'' if n == 1 else 's'})"
    # Every plural entry of both catalogs gives a text for every count, naming the count.
    for lang in ("en", "ru"):
        for message in catalog(lang):
            if message.id and message.pluralizable:
                key = message.id[0]
                params = dict.fromkeys(re.findall(r"\{(\w+)(?::\w+)?\}", " ".join(message.string)), "x")
                params.pop("count", None)
                assert str(n) in tn(key, n, lang, **params), (lang, key)


GAMES: list[tuple[int, dict[str, Any], int]] = [
    (3, {}, 1),
    (4, {}, 2),
    (5, {}, 3),
    (6, {}, 4),
    (6, {"tides_of_battle": True}, 5),
    (7, {"ruleset": "mother-of-dragons"}, 6),
    (4, {"ruleset": "mother-of-dragons"}, 7),  # three vassals
    (3, {"ruleset": "mother-of-dragons"}, 8),  # four vassals
]


@pytest.mark.parametrize(("players", "options", "seed"), GAMES)
def test_whole_games_narrate_every_public_event_without_ids(players: int, options: dict[str, Any], seed: int) -> None:
    """Every public event of a simulated game gets a line (or is deliberately quiet), in both languages, with
    no id-shaped token; Russian lines hold no Latin word. Phase headers follow the events."""
    events: list[dict[str, Any]] = []
    result = play_game(players, seed, options=options, check_invariants=False, on_step=lambda g, p, e: events.extend(e))
    assert result.finished, result.error
    for lang in ("en", "ru"):
        for e in events:
            if "private_to" in e or e["type"] in QUIET:
                assert narrate(e, lang) is None
                continue
            line = narrate(e, lang)
            assert line, (lang, e)
            assert not raw_ids(line), (lang, line, e)
            if lang == "ru":
                assert not LATIN.findall(line), (line, e)
        lines = narrate_all(events, lang, round_=1)
        headers = [line for line in lines if line.startswith("**—")]
        assert len(headers) >= 3 * result.rounds - 1  # Westeros (from round 2), planning and action each round
