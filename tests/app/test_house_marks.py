"""Issue U, fault 10: the colour mark a house carries in DMs and lines is the square emoji nearest the colour the map
draws it in, so a player recognises his house on the map from his DM (Arryn was 🟦 in DMs and violet on the map)."""

from __future__ import annotations

from app.labels import HOUSE_MARKS
from render.style import HOUSE_STYLES
from render.vision import ciede2000

# The square emoji as Twemoji and most phone fonts draw them.
SQUARES = {
    "🟥": (221, 46, 68),
    "🟧": (244, 144, 12),
    "🟨": (253, 203, 88),
    "🟩": (120, 177, 89),
    "🟦": (85, 172, 238),
    "🟪": (170, 142, 214),
    "🟫": (193, 105, 79),
    "⬛": (49, 55, 61),
    "⬜": (230, 231, 232),
}


def nearest_square(rgb: tuple[int, int, int]) -> str:
    """The square that looks closest (CIEDE2000, the measure the map's colours were tuned with)."""
    return min(SQUARES, key=lambda mark: ciede2000(SQUARES[mark], rgb))


def test_every_houses_mark_is_the_square_nearest_its_map_colour() -> None:
    wrong = {h: (HOUSE_MARKS[h], nearest_square(s.colour)) for h, s in HOUSE_STYLES.items()}
    assert {h: pair for h, pair in wrong.items() if pair[0] != pair[1]} == {}


def test_no_two_houses_share_a_mark() -> None:
    assert len(set(HOUSE_MARKS.values())) == len(HOUSE_MARKS)
