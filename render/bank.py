"""The Iron Bank of Braavos (Mother of Dragons with Targaryen) as the images show it, from ``view["bank"]``.

* Its panel, on the Essos image where the Essos board prints the Iron Bank (``shapes.panel_box``), under the dragon
  strength track (render/dragons.py), which then keeps the top ``TRACK_SHARE`` of that space: the bank's name, the
  cards left in its loan deck and the holder of the Braavos token (its crest, and the 1 Power it saves on a payment);
  then its three slots left to right, each with its initial payment on a gold coin and its loan card's name (an empty
  slot dashed, "empty"). Every text is at least ``TEXT_MIN`` of the panel's height (22 px on the Essos image).
* Its tokens on the map (placed by render/layout.py): a development token (barrel, crown, stronghold) is a white chip
  ringed in gold with the printed symbol's glyph on it, so that it is not read as the symbol printed on the board (a
  glyph on the area's own colour); several in one area make one row of chips, a count on a white disc when more than
  one of a kind. A decline token covers the printed castle it cancels: a dark tile over the castle's glyph, the castle
  greyed and struck through in red.

What each house owes the bank (its loans and their interest) is a row of the status strip (render/strip.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFilter

from render import palette, shapes, stamps
from render.data import RenderBoard
from render.icons import ALL_PAINTERS
from render.marks import crest
from render.stamps import Canvas, Stamp
from render.strings import loan_name, t
from render.style import ALERT, BARREL, GOLD, INK, MUTED, OUTLINE, PAPER, PAPER_DARK, RULE, STONE, WHITE
from render.views import View, bank, dragon_strength

TRACK_SHARE = 0.69  # of the panel's height, the dragon track's when the bank shares the panel with it
TEXT_MIN = 0.155  # the smallest text of the bank's panel, as a share of its height
INSET = 5  # map px between the panel's frame and what is drawn in it (as the dragon track keeps)
DEV_SIZE = 32  # px on the map: a development chip's diameter (29 px on a phone, like the other tokens)
GLYPHS = {"barrel": (BARREL, 0.52), "crown": (GOLD, 0.6), "stronghold": (WHITE, 0.62)}  # colour, share of the chip
Box = tuple[int, int, int, int]


# --- the panel -----------------------------------------------------------------------------------------------------


def panel_parts(board: RenderBoard, view: View) -> tuple[Box | None, Box | None]:
    """The map boxes of the dragon strength track and of the bank's panel in the board's panel (None for what the view
    does not have): the whole panel for either alone, split across (the track above) for both."""
    box = shapes.panel_box(board)
    if box is None:
        return None, None
    track = dragon_strength(view) is not None
    has_bank = bank(view) is not None
    if track and has_bank:
        cut = round(box[1] + (box[3] - box[1]) * TRACK_SHARE)
        return (box[0], box[1], box[2], cut), (box[0], cut, box[2], box[3])
    return (box if track else None), (box if has_bank else None)


def output_box(box: Box, region: Box, z: float) -> Box:
    """A map box inside the panel, inset, in the pixels of an image of the map slice ``region`` at zoom ``z``."""
    inset = round(INSET * z)
    return (round((box[0] - region[0]) * z) + inset, round((box[1] - region[1]) * z) + inset,
            round((box[2] - region[0]) * z) - inset, round((box[3] - region[1]) * z) - inset)  # fmt: skip


def draw_panel(img: Image.Image, board: RenderBoard, view: View, lang: str, region: Box, z: float) -> None:
    """The bank's panel in its part of the board's panel, on an image of the map slice ``region`` drawn at zoom ``z``
    (a crop, the Essos image); a rule between it and the dragon track above. Nothing without the bank in the view or
    the panel in the slice."""
    track, box = panel_parts(board, view)
    if box is None or box[2] <= region[0] or box[0] >= region[2] or box[3] <= region[1] or box[1] >= region[3]:
        return
    x0, y0, x1, y1 = output_box(box, region, z)
    got = panel(view, lang, x1 - x0, y1 - y0)
    if got is None:
        return
    img.paste(got.image, (x0, y0))
    if track is not None:
        y = round((box[1] - region[1]) * z)
        ImageDraw.Draw(img).line((x0, y, x1, y), fill=palette.idx(RULE), width=max(2, round(1.4 * z)))


@dataclass(frozen=True)
class Panel:
    image: Image.Image  # mode P, fixed palette entries only
    slots: tuple[Box, ...]  # each slot's card (x0, y0, x1, y1), left to right
    texts: tuple[tuple[str, int], ...]  # every text drawn and its size in px (for the legibility checks)


def panel(view: View, lang: str, w: int, h: int) -> Panel | None:
    """The bank's panel ``w`` x ``h`` px, or None when the view has no bank."""
    got = bank(view)
    if got is None:
        return None
    slots = tuple(_slot(s) for s in got["slots"])
    deck = got.get("deck")
    braavos = got.get("braavos")
    discount = got.get("braavos_discount")
    return _panel(slots, deck if _is_int(deck) else None, braavos if isinstance(braavos, str) else None,
                  discount if _is_int(discount) else 1, lang, w, h)  # fmt: skip


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _slot(slot: Any) -> tuple[str | None, int | None]:
    if not isinstance(slot, dict):
        return None, None
    loan, pay = slot.get("loan"), slot.get("payment")
    return (loan if isinstance(loan, str) else None), (pay if _is_int(pay) else None)


@lru_cache(maxsize=32)
def _panel(slots: tuple[tuple[str | None, int | None], ...], deck: int | None, braavos: str | None, discount: int,
           lang: str, w: int, h: int) -> Panel:  # fmt: skip
    img = Image.new("P", (w, h), palette.idx(PAPER))
    texts: list[tuple[str, int]] = []
    floor = max(1, round(h * TEXT_MIN))
    pad = round(h * 0.07)
    space = round(h * 0.04)
    # The heading: "Iron Bank · Deck: 9" and, right, "Braavos: [crest] −1" when a house holds the Braavos token.
    row = round(h * 0.25)
    right: list[Stamp] = []
    if braavos is not None:
        where = _braavos_name(lang) + ":"
        name, px = _fitted(where, "regular", round(h * 0.19), w * 0.3, floor)
        texts.append((where, px))
        less, px = _fitted(f"\u2212{discount}", "bold", round(h * 0.19), w * 0.1, floor)
        texts.append((f"\u2212{discount}", px))
        right = [name, crest(braavos, lang, round(row * 0.98)), less]
    beside = sum(s.width + space for s in right)
    room = w - 2 * pad - beside
    head = [(t("iron_bank", lang), "bold", round(h * 0.22), room * 0.6)]
    if deck is not None:
        head.append(("  \u00b7  " + t("bank_deck", lang, n=deck), "regular", round(h * 0.19), room * 0.4))
    x = float(pad)
    for words, weight, size, max_w in head:
        got, px = _fitted(words, weight, size, max_w, floor)
        got.paste(img, x, pad + (row - got.height) / 2)
        x += got.width
        texts.append((words.strip(" \u00b7"), px))
    x = w - pad - beside + space
    for got in right:
        got.paste(img, x, pad + (row - got.height) / 2)
        x += got.width + space
    # The three slots, left to right: the payment on a coin, the card's name beside it.
    sgap = round(h * 0.07)
    n = max(1, len(slots))
    sw = (w - 2 * pad - sgap * (n - 1)) / n
    top, bottom = pad + row + round(h * 0.05), h - pad
    d = ImageDraw.Draw(img)
    boxes: list[Box] = []
    radius = round(h * 0.08)
    lw = max(2, round(h * 0.018))
    for i, (loan, pay) in enumerate(slots):
        x0 = pad + i * (sw + sgap)
        box = (round(x0), top, round(x0 + sw), bottom)
        boxes.append(box)
        empty = loan is None
        if empty:
            _dashed(d, box, radius, lw)
        else:
            d.rounded_rectangle(box, radius, fill=palette.idx(PAPER_DARK), outline=palette.idx(RULE), width=lw)
        coin = _coin(round(min((bottom - top) * 0.72, sw * 0.3)), pay, empty)
        cx = box[0] + round(h * 0.06)
        coin.paste(img, cx, top + (bottom - top - coin.height) / 2)
        tx = cx + coin.width + space
        room = box[2] - round(h * 0.06) - tx
        words = t("bank_empty", lang) if empty else loan_name(loan or "", lang)
        lines, px = _wrapped(words, room, bottom - top - space, round(h * 0.2), floor,
                             PAPER if empty else PAPER_DARK, MUTED if empty else INK,
                             "regular" if empty else "bold")  # fmt: skip
        ty = top + (bottom - top - sum(s.height for s in lines)) / 2
        for got in lines:
            got.paste(img, tx + (room - got.width) / 2, ty)
            ty += got.height
        texts.append((words, px))
    return Panel(img, tuple(boxes), tuple(texts))


def _braavos_name(lang: str) -> str:
    from render.data import board_named

    names = board_named("mother-of-dragons-essos").areas["braavos"].names
    return str(names.get(lang) or names["en"])


def _dashed(d: ImageDraw.ImageDraw, box: Box, radius: int, width: int) -> None:
    """An empty slot's outline: dashes along its sides (the rounded corners left open)."""
    x0, y0, x1, y1 = box
    dash, skip = 3 * width + 6, 2 * width + 4
    ink = palette.idx(MUTED)
    sides = ((x0 + radius, x1 - radius, y0, True), (x0 + radius, x1 - radius, y1 - width, True),
             (y0 + radius, y1 - radius, x0, False), (y0 + radius, y1 - radius, x1 - width, False))  # fmt: skip
    for a, b, fixed, across in sides:
        p = a
        while p < b:
            q = min(b, p + dash)
            d.rectangle((p, fixed, q, fixed + width - 1) if across else (fixed, p, fixed + width - 1, q), fill=ink)
            p = q + skip


@lru_cache(maxsize=32)
def _coin(size: int, pay: int | None, muted: bool) -> Stamp:
    """A slot's initial payment: a gold coin ringed in black with the number of Power tokens (paler when empty)."""
    c = Canvas(size, size)
    c.ellipse((0, 0, size, size), MUTED if muted else OUTLINE)
    ring = max(1.5, size / 16)
    c.ellipse((ring, ring, size - ring, size - ring), PAPER_DARK if muted else GOLD)
    if pay is not None:
        c.text((size / 2, size / 2 + size * 0.03), str(pay), "bold", size * 0.58, MUTED if muted else INK)
    return c.finish()


def _fitted(content: str, weight: str, size: int, max_w: float, floor: int) -> tuple[Stamp, int]:
    """``content`` on paper, shrunk (not below ``floor`` px) until it fits ``max_w``, set condensed when bold still
    does not fit; and the size it is drawn at."""
    s = stamps.text(content, weight, size, INK, bg=PAPER)
    while s.width > max_w and size > floor:
        size -= 1
        s = stamps.text(content, weight, size, INK, bg=PAPER)
    if s.width > max_w and weight == "bold":
        s = stamps.text(content, "condensed", size, INK, bg=PAPER)
    return s, size


def _wrapped(content: str, max_w: float, max_h: float, size: int, floor: int, bg: tuple[int, int, int],
             ink: tuple[int, int, int], weight: str) -> tuple[list[Stamp], int]:  # fmt: skip
    """A card's name in one or two lines (split at a space), as large as fits ``max_w`` x ``max_h`` from ``size`` down
    to ``floor`` px (bold, else condensed), and the size it is drawn at; at the floor, condensed as it comes."""
    words = content.split()
    splits = [[content]] + [[" ".join(words[:k]), " ".join(words[k:])] for k in range(1, len(words))]
    faces = (weight, "condensed") if weight == "bold" else (weight,)
    for px in range(size, floor - 1, -1):
        for face in faces:
            for lines in splits:
                got = [stamps.text(line, face, px, ink, bg=bg) for line in lines]
                if max(s.width for s in got) <= max_w and sum(s.height for s in got) <= max_h:
                    return got, px
    lines = min(splits, key=lambda ls: max(len(x) for x in ls))
    return [stamps.text(line, "condensed", floor, ink, bg=bg) for line in lines], floor


# --- the tokens on the map -----------------------------------------------------------------------------------------


def dev_size(z: float = 1.0) -> int:
    """A development chip's diameter at zoom ``z`` (its legibility size)."""
    return round(DEV_SIZE * z)


@lru_cache(maxsize=256)
def development_token(size: int, held: tuple[tuple[str, int], ...], below: bool = False) -> Stamp:
    """The development tokens of one area: a chip per kind in a row (a column ``below``), each ``size`` px across,
    a count on a white disc at its lower right when more than one of a kind."""
    b = round(size * 0.6)
    extra = [math.ceil(b * 0.6) if n > 1 else 0 for _, n in held]
    gap = max(1, round(size * 0.08))
    if below:
        w, h = size + max(extra), sum(size for _ in held) + gap * (len(held) - 1)
    else:
        w, h = sum(size + e for e in extra) + gap * (len(held) - 1), size
    c = Canvas(w, h)
    x = y = 0.0
    for (kind, n), e in zip(held, extra, strict=True):
        _chip(c, x, y, size, kind)
        if n > 1:
            cx, cy = x + size + e - b / 2, y + size - b / 2
            c.ellipse((cx - b / 2, cy - b / 2, cx + b / 2, cy + b / 2), OUTLINE)
            ring = max(1.0, size / 22)
            c.ellipse((cx - b / 2 + ring, cy - b / 2 + ring, cx + b / 2 - ring, cy + b / 2 - ring), WHITE)
            c.text((cx, cy + b * 0.04), str(n), "bold", b * (0.72 if n < 10 else 0.56), INK)
        if below:
            y += size + gap
        else:
            x += size + e + gap
    return c.finish()


def _chip(c: Canvas, x: float, y: float, size: int, kind: str) -> None:
    c.ellipse((x, y, x + size, y + size), OUTLINE)
    ring = max(1.0, size / 22)
    c.ellipse((x + ring, y + ring, x + size - ring, y + size - ring), GOLD)
    inner = ring + max(1.5, size * 0.09)
    c.ellipse((x + inner, y + inner, x + size - inner, y + size - inner), WHITE)
    colour, share = GLYPHS.get(kind, (INK, 0.6))
    g = size * share
    gx, gy = x + (size - g) / 2, y + (size - g) / 2 + size * 0.01
    box = c._box((gx, gy, gx + g, gy + g))
    # The glyph outlined in black as render/marks.py prints it (stamps.glyph), on the chip.
    silhouette = Image.new("L", c.alpha.size, 0)
    ALL_PAINTERS[kind](ImageDraw.Draw(silhouette), box, 255)  # type: ignore[arg-type]
    edge = silhouette.filter(ImageFilter.MaxFilter(2 * round(max(1.0, g / 16) * c.ss) + 1))
    c.rgb.paste(OUTLINE, (0, 0), edge)
    c.icon(kind, (gx, gy, gx + g, gy + g), colour)


@lru_cache(maxsize=64)
def decline_cover(size: int) -> Stamp:
    """A decline token over a printed castle ``size`` px across: a dark tile, the castle on it grey and struck through
    with a red cross."""
    s = size + 4
    c = Canvas(s, s)
    c.rect((0, 0, s, s), OUTLINE, radius=s * 0.18)
    g = size * 0.72
    c.icon("castle", ((s - g) / 2, (s - g) / 2, (s + g) / 2, (s + g) / 2), STONE)
    m = s * 0.16
    width = max(1.5, s * 0.09)
    c.line([(m, m), (s - m, s - m)], ALERT, width)
    c.line([(m, s - m), (s - m, m)], ALERT, width)
    return c.finish()
