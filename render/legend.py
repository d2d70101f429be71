"""The legend: every piece and printed mark with its meaning. It is not part of the posted images (a phone has no
room for it); ``render_legend`` draws it for ``/game help`` and docs/render.md shows it."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from render import bank, dragons, loyalty, palette, stamps, style, tokens
from render.data import UNIT_TYPES, board_named
from render.marks import crest, mark_stamps
from render.stamps import Canvas, Stamp
from render.strings import t
from render.style import GOLD, INK, PAPER
from render.vassals import vassal_tag

WIDTH = 1080
ROW_H = 56
PAD = 24


@lru_cache(maxsize=4)
def _river_sample() -> Stamp:
    c = Canvas(48, 20, fringe=PAPER)
    c.rect((0, 0, 48, 20), style.LAND_NEUTRAL)
    c.line([(0, 10), (16, 7), (32, 13), (48, 10)], style.RIVER, 5)
    return c.finish()


def entries(lang: str) -> list[tuple[Stamp, str]]:
    demo = "stark"
    out: list[tuple[Stamp, str]] = []
    for unit in UNIT_TYPES:
        if unit == tokens.DRAGON:  # Targaryen's, with the dragons' strength on its gold badge
            dragon = tokens.unit_group(dragons.TARGARYEN, ((unit, False, 1),), lang, dragon_strength=2)
            out.append((dragon, t("legend.dragon", lang)))
            continue
        out.append((tokens.unit_group(demo, ((unit, False, 1),), lang), t(f"unit.{unit}", lang)))
    out.append((tokens.unit_group(demo, (("footman", True, 1),), lang), t("routed", lang)))
    for kind in tokens.ORDER_KINDS:
        out.append((tokens.order_token(demo, kind, False, 0), t(f"order.{kind}", lang)))
    out.append((tokens.order_token(demo, "march", True, 1), t("star", lang)))
    out.append((tokens.order_token(demo, None, False, 0), t("hidden_order", lang)))
    out.append((tokens.order_token(demo, "support", False, 0, sea=True), t("sea_order", lang)))
    out.append((tokens.power_token(demo, lang), t("power_token", lang)))
    out.append((tokens.garrison_token(2, demo), t("garrison", lang)))
    out.append((tokens.neutral_token(5), t("neutral", lang)))
    out.append((crest(demo, lang, round(22 * 1.1)), t("legend.home", lang)))
    sample = board_named("base").areas  # the printed marks look the same on every board
    winterfell = sample["winterfell"]
    marks = mark_stamps(winterfell, lang)
    castle = next(a for a in sample.values() if a.fortification == 1 and not a.home_of)
    out.append((mark_stamps(castle, lang)[0], t("castle", lang)))
    out.append((marks[1], t("stronghold", lang)))
    out.append((stamps.glyph("barrel", 19, style.BARREL, outline_px=1.2), t("barrel", lang)))
    out.append((stamps.glyph("crown", 21, GOLD, outline_px=1.2), t("crown", lang)))
    out.append((_river_sample(), t("river", lang)))
    out.append((_hatch_sample(), t("impassable", lang)))
    out.append((dragons.track_token(34), t("legend.dragon_token", lang)))  # on the dragon strength track (Essos)
    out.append((loyalty.token(), t("legend.loyalty", lang)))  # Targaryen's, on Westeros lands
    out.append((loyalty.token(count=2), t("legend.loyalty_count", lang)))
    # The Iron Bank (Mother of Dragons with Targaryen): its sea order, a development token, a castle in decline.
    out.append((tokens.order_token(demo, "iron-bank", False, 0, sea=True), t("legend.iron_bank_order", lang)))
    out.append((bank.development_token(bank.DEV_SIZE, (("barrel", 1),)), t("legend.development", lang)))
    out.append((bank.decline_cover(22), t("legend.declined", lang)))
    out.append((vassal_tag(demo, lang)[0], t("legend.vassal", lang)))  # Mother of Dragons: the strip's vassal tag
    return out


@lru_cache(maxsize=4)
def _hatch_sample() -> Stamp:
    c = Canvas(44, 32, fringe=PAPER)
    c.rect((0, 0, 44, 32), style.LAND_IMPASSABLE, radius=3)
    for off in range(-32, 44, 10):
        c.line([(off, 0), (off + 32, 32)], style.HATCH, 2)
    c.rect((0, 0, 44, 1), PAPER)
    return c.finish()


def draw_legend(lang: str) -> Image.Image:
    items = entries(lang)
    cols = 2
    col_w = (WIDTH - 2 * PAD) / cols
    rows = (len(items) + cols - 1) // cols
    title = stamps.text(t("legend", lang), "bold", 30, INK, bg=PAPER)
    img = Image.new("P", (WIDTH, PAD * 2 + title.height + 12 + rows * ROW_H), palette.idx(PAPER))
    title.paste(img, PAD, PAD)
    top = PAD + title.height + 12
    for i, (icon, label) in enumerate(items):
        x = PAD + (i % cols) * col_w
        y = top + (i // cols) * ROW_H
        slot = 120
        icon.paste(img, x + (slot - icon.width) / 2, y + (ROW_H - icon.height) / 2)
        s = stamps.text(label, "regular", 24, INK, bg=PAPER)
        for size in range(23, 17, -1):  # a long label shrinks rather than run into the next column
            if s.width <= col_w - slot - 16:
                break
            s = stamps.text(label, "regular", size, INK, bg=PAPER)
        s.paste(img, x + slot + 8, y + (ROW_H - s.height) / 2)
    img.putpalette(palette.palette_bytes({}, late=True))
    return img
