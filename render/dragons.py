"""Targaryen's dragons as the images show them, apart from the dragon pieces themselves (``tokens.unit_group``):
the dragon strength track, drawn where the Essos board prints the Iron Bank (above the bank's own panel when the view
has the bank: render/bank.py), and its tokens.

The track says the dragons' strength now, on the gold badge the dragon pieces carry, and which rounds' spaces still
hold a strength token (each adds 1 at the start of its round), from ``view["targaryen"]``; then Targaryen's loyalty
points and its loyalty tokens in reserve (not on the board), after a loyalty token.
Its words come from the catalogs through ``render/strings.py``; every text is at least ``TEXT_MIN`` of the panel's
height, so at the Essos image's zoom it reads on a phone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render import palette, stamps, tokens
from render.bank import output_box, panel_parts
from render.data import RenderBoard
from render.loyalty import token as loyalty_token
from render.marks import crest
from render.stamps import Canvas, Stamp
from render.strings import t
from render.style import GOLD, INK, MUTED, OUTLINE, PAPER, PAPER_DARK, RULE, house_style
from render.views import View, dragon_rounds, dragon_strength, loyalty_reserve

TARGARYEN = "targaryen"
ROUNDS = 10
TEXT_MIN = 0.075  # the smallest text of the panel, as a share of its height
Box = tuple[int, int, int, int]


@lru_cache(maxsize=64)
def track_token(size: int) -> Stamp:
    """A strength token on the track: a gold disc ringed in black with a dark dragon, like the pieces' badge."""
    c = Canvas(size, size)
    c.ellipse((0, 0, size, size), OUTLINE)
    ring = max(1.2, size / 14)
    c.ellipse((ring, ring, size - ring, size - ring), GOLD)
    g = size * 0.18
    c.icon("dragon", (g, g, size - g, size - g), INK)
    return c.finish()


def draw_track(img: Image.Image, board: RenderBoard, view: View, lang: str, region: Box, z: float) -> None:
    """The track in the board's panel (the Iron Bank's space), on an image of the map slice ``region`` drawn at zoom
    ``z`` (a crop, the Essos image); nothing on a board without a panel or a view without dragons."""
    box = panel_parts(board, view)[0]  # the whole panel, or its top when the Iron Bank shares it (render/bank.py)
    if box is None or box[2] <= region[0] or box[0] >= region[2] or box[3] <= region[1] or box[1] >= region[3]:
        return
    x0, y0, x1, y1 = output_box(box, region, z)  # inset: the panel's frame stays visible
    track = panel(view, lang, x1 - x0, y1 - y0)
    if track is not None:
        img.paste(track.image, (x0, y0))


def loyalty_of(view: View) -> int | None:
    block = view.get("targaryen")
    got = block.get("loyalty") if isinstance(block, dict) else None
    return got if isinstance(got, int) and not isinstance(got, bool) else None


@dataclass(frozen=True)
class Track:
    image: Image.Image  # mode P, fixed palette entries only
    spaces: tuple[Box, ...]  # each round's space (x0, y0, x1, y1), rounds 1..10


def panel(view: View, lang: str, w: int, h: int) -> Track | None:
    """The dragon strength track ``w`` x ``h`` px, or None when the view has no dragons (no Targaryen block)."""
    strength = dragon_strength(view)
    if strength is None:
        return None
    now = view.get("round")
    return _panel(strength, tuple(dragon_rounds(view)), now if isinstance(now, int) else 0, loyalty_of(view),
                  loyalty_reserve(view), lang, w, h)  # fmt: skip


@lru_cache(maxsize=32)
def _panel(strength: int, rounds: tuple[int, ...], now: int, loyalty: int | None, reserve: int | None, lang: str,
           w: int, h: int) -> Track:  # fmt: skip
    img = Image.new("P", (w, h), palette.idx(PAPER))
    d = ImageDraw.Draw(img)
    hs = house_style(TARGARYEN)
    pad = round(h * 0.06)
    # Title: the crest, "Dragons: Strength 2", and the piece as the map draws it.
    crest_h = round(h * 0.22)
    c = crest(TARGARYEN, lang, crest_h)
    c.paste(img, pad, pad)
    z = h * 0.22 / tokens.NORMAL.row
    chip = tokens.unit_group(TARGARYEN, (("dragon", False, 1),), lang, False, round(z * 20) / 20, strength)
    chip.paste(img, w - pad - chip.width, pad + (crest_h - chip.height) / 2)
    title = f"{t('dragons', lang)}: {t('dragon_strength', lang, n=strength)}"
    room = w - 3 * pad - c.width - chip.width
    s = _fitted(title, "bold", round(h * 0.13), room, round(h * TEXT_MIN))
    s.paste(img, pad * 1.6 + c.width, pad + (crest_h - s.height) / 2)
    y = pad + crest_h + round(h * 0.04)
    # The track: one space per round, a token on each space that still holds one, this round ringed.
    s = _fitted(t("dragon_track", lang), "regular", round(h * 0.09), w - 2 * pad, round(h * TEXT_MIN))
    s.paste(img, pad, y)
    y += s.height + round(h * 0.03)
    # "Loyalty 2 · 17 in reserve", after a loyalty token.
    words = t("loyalty", lang, n=loyalty) if loyalty is not None else None
    if words is not None and reserve is not None:
        words += " · " + t("loyalty_reserve", lang, n=reserve)
    loyalty_line = _fitted(words, "bold", round(h * 0.1), w - 2 * pad - h * 0.13, round(h * TEXT_MIN)) if (
        words is not None) else None  # fmt: skip
    below = loyalty_line.height + round(h * 0.04) if loyalty_line else 0
    gap = round(h * 0.02)
    bw = (w - 2 * pad - gap * (ROUNDS - 1)) / ROUNDS
    bh = max(bw * 0.9, min(bw * 1.45, h - pad - below - y))
    token = track_token(round(min(bw * 0.74, bh * 0.55)))
    spaces: list[Box] = []
    for i in range(ROUNDS):
        r = i + 1
        x0 = pad + i * (bw + gap)
        past = r < now
        fill = PAPER if past else PAPER_DARK
        current = r == now
        spaces.append((round(x0), round(y), round(x0 + bw), round(y + bh)))
        d.rounded_rectangle((x0, y, x0 + bw, y + bh), radius=round(bw * 0.12), fill=palette.idx(fill),
                            outline=palette.idx(hs.colour if current else RULE),
                            width=max(2, round(h * (0.014 if current else 0.006))))  # fmt: skip
        number = stamps.text(str(r), "bold", round(h * 0.085), MUTED if past else INK, bg=fill)
        number.paste(img, x0 + (bw - number.width) / 2, y + bh * 0.05 + (2 if current else 0))
        if r in rounds:
            token.paste(img, x0 + (bw - token.width) / 2, y + bh - token.height - bh * 0.08)
    y = round(y + bh + h * 0.04)
    if loyalty_line is not None:
        mark = loyalty_token(round(loyalty_line.height * 0.9))
        mark.paste(img, pad, y + (loyalty_line.height - mark.height) / 2)
        loyalty_line.paste(img, pad + mark.width + round(h * 0.025), y)
    return Track(img, tuple(spaces))


def _fitted(content: str, weight: str, size: int, max_w: float, floor: int) -> Stamp:
    """``content`` on paper, shrunk (not below ``floor`` px) until it fits ``max_w``."""
    s = stamps.text(content, weight, size, INK, bg=PAPER)
    while s.width > max_w and size > floor:
        size -= 1
        s = stamps.text(content, weight, size, INK, bg=PAPER)
    return s
