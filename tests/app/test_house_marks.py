"""Issue U, fault 10: the colour mark a house carries in DMs and lines is the square emoji nearest the colour the map
draws it in, so a player recognises his house on the map from his DM (Arryn was 🟦 in DMs and violet on the map)."""

from __future__ import annotations

import math

from app.labels import HOUSE_MARKS
from render.style import HOUSE_STYLES
from render.vision import ciede2000, to_lab

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
# The round ones, in the same colours: the mark of a house whose nearest square another house carries already.
CIRCLES = dict(zip("🔴🟠🟡🟢🔵🟣🟤⚫⚪", SQUARES.values(), strict=True))
LATE = "targaryen"  # the eighth house, whose colour came after the squares were all but taken


def nearest_square(rgb: tuple[int, int, int]) -> str:
    """The square that looks closest (CIEDE2000, the measure the map's colours were tuned with)."""
    return min(SQUARES, key=lambda mark: ciede2000(SQUARES[mark], rgb))


def chroma(rgb: tuple[int, int, int]) -> float:
    _, a, b = to_lab(rgb)
    return math.hypot(a, b)


def test_every_houses_mark_is_the_square_nearest_its_map_colour() -> None:
    wrong = {h: (HOUSE_MARKS[h], nearest_square(s.colour)) for h, s in HOUSE_STYLES.items() if h != LATE}
    assert {h: pair for h, pair in wrong.items() if pair[0] != pair[1]} == {}


def test_targaryens_mark_is_the_nearest_coloured_mark_no_other_house_carries() -> None:
    """Targaryen's deep purple is nearest black (by lightness), then Arryn's purple: both squares are other houses'.
    So it carries the nearest coloured mark left (a deep purple is no grey: the black and white marks are out), the
    purple circle; a change of its map colour that made another mark nearer would fail here."""
    colour = HOUSE_STYLES[LATE].colour
    taken = {HOUSE_MARKS[h] for h in HOUSE_STYLES if h != LATE}
    assert nearest_square(colour) in taken and chroma(colour) > 40
    left = {m: rgb for m, rgb in (SQUARES | CIRCLES).items() if m not in taken and chroma(rgb) > 10}
    assert HOUSE_MARKS[LATE] == min(left, key=lambda m: ciede2000(left[m], colour)) == "🟣"


def test_no_two_houses_share_a_mark() -> None:
    assert len(set(HOUSE_MARKS.values())) == len(HOUSE_MARKS)
