"""Mother of Dragons vassals as the images show them: a vassal is a house nobody plays, commanded this round by its
liege. The strip tags its column with a "vassal" label in the liege's colour and names the liege in a "Vassal of"
row (its Power shows as "—": a vassal has none); a house whose player is leaving is marked "leaving" in red; a
battle side that is a vassal says whose. Every word comes from the catalogs, through ``render/strings.py``.

Tags are drawn at 20 px or more (the strip's smallest text, ``strip.TEXT_MIN``), so they read on a phone."""

from __future__ import annotations

from functools import lru_cache

from render import stamps
from render.fonts import text_size
from render.marks import crest
from render.stamps import Canvas, Stamp
from render.strings import house_name, t
from render.style import ALERT, INK, OUTLINE, PAPER, PAPER_DARK, RGB, house_style
from render.views import View

TAG_PAD = 7  # px of the tag's fill either side of its word
TAG_SIZES = (("bold", 22), ("bold", 21), ("bold", 20), ("condensed", 22), ("condensed", 21), ("condensed", 20))


def vassals_of(view: View) -> dict[str, str | None]:
    """Each vassal of the view and its liege (None before the first claim); {} outside Mother of Dragons."""
    got = view.get("vassals")
    if not isinstance(got, dict):
        return {}
    return {str(h): (str(lg) if isinstance(lg, str) and lg else None) for h, lg in got.items()}


def leaving_of(view: View) -> list[str]:
    """Player houses that become vassals as the next round starts."""
    got = view.get("leaving")
    return [str(h) for h in got if isinstance(h, str)] if isinstance(got, list) else []


def colours(house: str | None) -> tuple[RGB, RGB]:
    """Fill and ink of a tag in ``house``'s colour (paper and ink for no house)."""
    if house is None:
        return PAPER_DARK, INK
    hs = house_style(house)
    return hs.colour, hs.ink


Tag = tuple[Stamp, int]  # a tag and the size of its word in px (the legibility checks read it)


def fit(word: str, max_w: float, extra: float = 0) -> tuple[str, int]:
    """The largest of ``TAG_SIZES`` at which ``word`` (plus ``extra`` px) fits ``max_w``, else the smallest."""
    for weight, size in TAG_SIZES:
        if text_size(word, weight, size)[0] + extra <= max_w:
            return weight, size
    return TAG_SIZES[-1]


@lru_cache(maxsize=256)
def contrast(a: RGB, b: RGB) -> float:
    """WCAG's contrast ratio of two colours (1 for the same colour, 21 for black on white)."""

    def luminance(c: RGB) -> float:
        lin = [(v / 255) / 12.92 if v <= 10 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


PALE = 1.3  # a fill this close to the paper (Stark's grey) gets a heavy outline, or its tag reads as blank paper


def tag(word: str, fill: RGB, ink: RGB, max_w: float = 1e9) -> Tag:
    """``word`` on a rounded, outlined label, as large as ``max_w`` allows (``TAG_SIZES``)."""
    weight, size = fit(word, max_w, 2 * TAG_PAD + 2)
    w = text_size(word, weight, size)[0] + 2 * TAG_PAD + 2
    h = size + 10
    edge = 3.5 if contrast(fill, PAPER) < PALE else 1.5
    c = Canvas(w, h, fringe=OUTLINE)
    c.rect((0, 0, w, h), OUTLINE, radius=h / 3)
    c.rect((edge, edge, w - edge, h - edge), fill, radius=h / 3 - 1)
    c.text((w / 2, h / 2 + 1), word, weight, size, ink)
    return c.finish(), size


def vassal_tag(liege: str | None, lang: str, max_w: float = 1e9) -> Tag:
    """The "vassal" tag of a vassal's column, in its liege's colour (paper before the first claim)."""
    fill, ink = colours(liege)
    return tag(t("vassal", lang), fill, ink, max_w)


def leaving_tag(lang: str, max_w: float = 1e9) -> Tag:
    """ "leaving" in red on the paper, with no label around it (a red label would read as Lannister's vassal)."""
    weight, size = fit(t("leaving", lang), max_w)
    return stamps.text(t("leaving", lang), weight, size, ALERT, bg=PAPER), size


def liege_tag(liege: str | None, lang: str, max_w: float = 1e9, compact: bool = False) -> Tag:
    """The liege's name in its colour ("unclaimed" on paper before the first claim). ``compact``: where that label is
    too wide even at its smallest (eight narrow columns), the liege's crest instead, or "unclaimed" without its
    label."""
    fill, ink = colours(liege)
    word = house_name(liege, lang) if liege else t("vassal.unclaimed", lang)
    got = tag(word, fill, ink, max_w)
    if not compact or got[0].width <= max_w:
        return got
    if liege is not None:
        return crest(liege, lang, 30), 0
    weight, size = fit(word, max_w)
    return stamps.text(word, weight, size, INK, bg=PAPER_DARK), size


def vassal_line(liege: str | None, lang: str) -> str:
    """ "vassal of Greyjoy" / "вассал дома Грейджой" ("vassal" alone before the first claim)."""
    return t("vassal_of", lang, house=house_name(liege, lang)) if liege else t("vassal", lang)
