"""Issue V, item 6: the retreat drawn under a battle's image reads as a sentence in both languages ("Stark retreats 1
footman to Moat Cailin"), not as arrows between names."""

from __future__ import annotations

import pytest

from render.data import board_of
from render.step import battles_of_step
from tests.render import viewkit
from tests.render.test_battle_story import RESULT


@pytest.mark.parametrize(
    ("lang", "units", "sentence"),
    [
        ("en", ["footman"], "Stark retreats 1 footman to Moat Cailin"),
        ("en", ["knight", "footman", "footman"], "Stark retreats 1 knight, 2 footmen to Moat Cailin"),
        ("ru", ["footman"], "Старк отводит 1 пешего воина в Ров Кейлин"),
        ("ru", ["knight", "footman", "footman"], "Старк отводит 1 рыцаря, 2 пеших воинов в Ров Кейлин"),
    ],
)
def test_the_retreat_under_a_battle_reads_as_a_sentence(lang: str, units: list[str], sentence: str) -> None:
    view = viewkit.battle_view()
    retreat = {"type": "retreat", "house": "stark", "area": "the-twins", "to": "moat-cailin", "units": units}
    ((_, notes),) = battles_of_step(board_of(view), dict(view["battle"], cards={}), [RESULT, retreat], lang, {})
    assert notes == [sentence]
