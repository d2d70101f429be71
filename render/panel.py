"""The side panel: round and phase, Westeros cards, wildlings, influence tracks with dominance tokens,
each house's power, supply (allowed armies) and castles, and a legend."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import palette, stamps, style, tokens
from render.data import house_cards, kings_court_stars, supply_limits
from render.marks import crest
from render.stamps import Canvas, Stamp
from render.strings import house_name, step_name, t, westeros_card_name
from render.style import ALERT, GOLD, INK, MUTED, PAPER, PAPER_DARK, RGB, RULE, WHITE
from render.views import View, players

PAD = 16
ROMAN = ("I", "II", "III")
TRACKS = ("iron_throne", "fiefdoms", "kings_court")
DOMINANCE = {"iron_throne": "iron_throne", "fiefdoms": "valyrian_steel_blade", "kings_court": "messenger_raven"}
DOMINANCE_ICON = {"iron_throne": "throne", "valyrian_steel_blade": "sword", "messenger_raven": "raven"}
TOTAL_ROUNDS = 10
VICTORY_TARGET = 7


def _label(
    content: str, size: int, weight: str = "bold", colour: RGB = INK, bg: RGB = PAPER, max_w: float | None = None
) -> Stamp:
    """``content`` on ``bg``; with ``max_w``, a smaller size (down to 11 px) if it would not fit."""
    s = stamps.text(content, weight, size, colour, bg=bg)
    while max_w is not None and s.width > max_w and size > 11:
        size -= 1
        s = stamps.text(content, weight, size, colour, bg=bg)
    return s


class Panel:
    """Draws into ``img`` within the column [x0, x0 + width), top to bottom."""

    def __init__(self, img: Image.Image, x0: int, width: int, lang: str) -> None:
        self.img = img
        self.draw = ImageDraw.Draw(img)
        self.x0, self.width, self.lang = x0, width, lang
        self.left = x0 + PAD
        self.right = x0 + width - PAD
        self.y = PAD

    def text(self, content: str, size: int, weight: str = "bold", colour: RGB = INK, x: float | None = None,
             y: float | None = None, bg: RGB = PAPER) -> Stamp:  # fmt: skip
        at = self.left if x is None else x
        s = _label(content, size, weight, colour, bg, max_w=self.right - at)
        s.paste(self.img, at, self.y if y is None else y)
        return s

    def rule(self, gap: int = 10) -> None:
        self.y += gap
        self.draw.line((self.left, self.y, self.right, self.y), fill=palette.idx(RULE), width=2)
        self.y += gap + 2

    def heading(self, content: str) -> None:
        s = self.text(content, 21)
        self.y += s.height + 6

    def box(self, x0: float, y0: float, x1: float, y1: float, fill: RGB, outline: RGB | None = None) -> None:
        self.draw.rounded_rectangle(
            (x0, y0, x1, y1), radius=6, fill=palette.idx(fill), outline=palette.idx(outline) if outline else None,
            width=2,
        )  # fmt: skip


SECTION_MAX_H = 1000
_sections: OrderedDict[tuple[str, str, int, str], Stamp] = OrderedDict()
_sections_lock = threading.Lock()


def draw_panel(img: Image.Image, view: View, lang: str, x0: int, width: int) -> None:
    """Stack the panel's sections in the column at ``x0``. Each section is drawn from the few view fields it
    reads and kept (LRU) under those fields' values, so an unchanged section is pasted, not redrawn."""
    img.paste(palette.idx(PAPER), (x0, 0, x0 + width, img.height))
    y = PAD
    for section, fields in SECTIONS:
        sub = {k: view.get(k) for k in fields}
        key = (section.__name__, lang, width, json.dumps(sub, sort_keys=True, default=str))
        with _sections_lock:
            stamp = _sections.get(key)
            if stamp is not None:
                _sections.move_to_end(key)
        if stamp is None:
            canvas = Image.new("P", (width, SECTION_MAX_H), palette.idx(PAPER))
            p = Panel(canvas, 0, width, lang)
            p.y = 0
            section(p, sub)
            stamp = Stamp(canvas.crop((0, 0, width, min(p.y, SECTION_MAX_H))), None)
            with _sections_lock:
                _sections[key] = stamp
                while len(_sections) > 256:
                    _sections.popitem(last=False)
        stamp.paste(img, x0, y)
        y += stamp.height
    ImageDraw.Draw(img).line((x0, 0, x0, img.height), fill=palette.idx(style.BORDER_LAND), width=3)


def _chip(house: str, lang: str, size: int = 26) -> Stamp:
    return crest(house, lang, size)


def _header(p: Panel, view: View) -> None:
    viewer = view.get("viewer")
    if viewer:
        h = 58
        p.box(p.left, p.y, p.right, p.y + h, ALERT)
        s = _label(
            t("private", p.lang, house=house_name(viewer, p.lang)),
            19,
            colour=WHITE,
            bg=ALERT,
            max_w=p.right - p.left - 20,
        )
        s.paste(p.img, p.left + 10, p.y + 6)
        s2 = _label(t("private.note", p.lang), 14, "regular", WHITE, ALERT, max_w=p.right - p.left - 20)
        s2.paste(p.img, p.left + 10, p.y + 32)
        p.y += h + 12
    rnd = view.get("round")
    rnd_n = rnd if isinstance(rnd, int) else 0
    s = p.text(t("round", p.lang, n=rnd_n or "?", total=TOTAL_ROUNDS), 28)
    p.y += s.height + 2
    # Round pips: past rounds filled, the current one ringed.
    pip, gap = 22, 12
    for i in range(TOTAL_ROUNDS):
        cx = p.left + i * (pip + gap // 2 + 8) + pip / 2
        filled = i + 1 < rnd_n
        current = i + 1 == rnd_n
        fill = INK if filled else (GOLD if current else PAPER_DARK)
        r = pip / 2
        p.draw.ellipse((cx - r, p.y, cx + r, p.y + pip), fill=palette.idx(fill), outline=palette.idx(INK), width=2)
        label = _label(str(i + 1), 12, colour=WHITE if filled else INK, bg=fill)
        label.paste_centred(p.img, cx, p.y + pip / 2)
    p.y += pip + 8
    phase = str(view.get("phase") or "")
    line = t(f"phase.{phase}", p.lang) if phase in ("westeros", "planning", "action", "ended") else phase
    step = view.get("step")
    if step and phase != "ended":
        line += " · " + step_name(str(step), p.lang)
    s = p.text(line, 19, colour=MUTED)
    p.y += s.height + 6
    winner = view.get("winner")
    if winner:
        h = 40
        p.box(p.left, p.y, p.right, p.y + h, GOLD, INK)
        _chip(winner, p.lang, 26).paste(p.img, p.left + 8, p.y + 7)
        s = _label(
            t("winner", p.lang, house=house_name(winner, p.lang)), 20, colour=INK, bg=GOLD, max_w=p.right - p.left - 50
        )
        s.paste(p.img, p.left + 42, p.y + (h - s.height) / 2)
        p.y += h + 8
    awaiting = [h for h in view.get("awaiting") or [] if isinstance(h, str)]
    if awaiting and not winner:
        s = p.text(t("waiting", p.lang) + ":", 16, "regular")
        x = p.left + s.width + 8
        for house in awaiting:
            _chip(house, p.lang, 24).paste(p.img, x, p.y - 2)
            x += 28
        p.y += s.height + 4
    p.rule()


def _westeros(p: Panel, view: View) -> None:
    p.heading(t("westeros", p.lang))
    cards = list(view.get("westeros_cards") or [])
    for i in range(3):
        card = cards[i] if i < len(cards) and cards[i] else None
        p.text(ROMAN[i], 19, x=p.left + 4)
        name = westeros_card_name(str(card), p.lang) if card else "—"
        s = p.text(name, 19, "regular", x=p.left + 44)
        p.y += s.height + 3
    restrictions = [r for r in view.get("restrictions") or [] if isinstance(r, str)]
    if restrictions:
        p.y += 4
        s = p.text(t("restricted", p.lang), 16, colour=ALERT)
        p.y += s.height + 2
        x = p.left
        for r in restrictions:
            icon = _forbidden(r)
            icon.paste(p.img, x, p.y)
            s = p.text(t(f"order.{r}", p.lang) if r in tokens.ORDER_KINDS else r, 16, "regular", x=x + 30,
                       y=p.y + 3)  # fmt: skip
            x += 30 + s.width + 14
            if x > p.right - 120:
                x = p.left
                p.y += 30
        p.y += 30
    p.rule()


@lru_cache(maxsize=256)
def _forbidden(kind: str) -> Stamp:
    c = Canvas(26, 26)
    c.ellipse((0, 0, 26, 26), ALERT)
    c.ellipse((2.5, 2.5, 23.5, 23.5), WHITE)
    if kind in tokens.ORDER_KINDS:
        c.icon(kind, (6, 6, 20, 20), INK)
    c.line([(5, 21), (21, 5)], ALERT, 2.5)
    return c.finish()


def _wildlings(p: Panel, view: View) -> None:
    threat = view.get("wildling_threat")
    level = threat if isinstance(threat, int) else None
    s = p.text(t("wildlings", p.lang), 21)
    value = _label(str(level) if level is not None else "?", 21)
    value.paste(p.img, p.right - value.width, p.y)
    p.y += s.height + 6
    steps = list(range(0, 13, 2))
    cw = (p.right - p.left) / len(steps)
    for i, v in enumerate(steps):
        x0 = p.left + i * cw
        hit = level is not None and (v == level or (level % 2 == 1 and v == level - 1))
        danger = v >= 12
        fill = (ALERT if danger else INK) if hit else (PAPER_DARK if not danger else style.mix(ALERT, PAPER, 0.5))
        fill = fill if fill in palette._INDEX else PAPER_DARK
        p.box(x0 + 2, p.y, x0 + cw - 2, p.y + 32, fill, INK)
        label = _label(str(v), 17, colour=WHITE if hit else INK, bg=fill)
        label.paste_centred(p.img, x0 + cw / 2, p.y + 16)
    p.y += 32
    p.rule()


def _dominance(view: View, key: str) -> dict[str, Any]:
    got = (view.get("dominance") or {}).get(key)
    return got if isinstance(got, dict) else {}


def _tracks(p: Panel, view: View) -> None:
    p.heading(t("tracks", p.lang))
    tracks = view.get("tracks") or {}
    n_players = len(players(view))
    stars = kings_court_stars(n_players)
    for track in TRACKS:
        order = [h for h in tracks.get(track) or [] if isinstance(h, str)]
        s = p.text(t(f"track.{track}", p.lang), 19)
        # The dominance token: icon, holder, used / ready.
        key = DOMINANCE[track]
        dom = _dominance(view, key)
        holder = dom.get("house") or (order[0] if order else None)
        used = bool(dom.get("used"))
        if key != "iron_throne":
            state = _label(t("used" if used else "ready", p.lang), 15, "regular", ALERT if used else MUTED)
            state.paste(p.img, p.right - state.width, p.y + 4)
            icon_x = p.right - state.width - 38
        else:
            icon_x = p.right - 32
        _dominance_token(key, used).paste(p.img, icon_x, p.y - 4)
        p.y += s.height + 6
        cell = min(60, (p.right - p.left) / max(6, len(order) or 1))
        for i in range(max(len(order), 1)):
            cx = p.left + i * cell + cell / 2
            _label(str(i + 1), 13, "regular", MUTED).paste_centred(p.img, cx, p.y + 7)
            if i < len(order):
                chip = _chip(order[i], p.lang, 38)
                if i == 0 and holder == order[0]:
                    p.box(cx - 24, p.y + 14, cx + 24, p.y + 62, GOLD)
                chip.paste_centred(p.img, cx, p.y + 38)
            if track == "kings_court" and i < len(stars) and stars[i]:
                _star_count(stars[i]).paste_centred(p.img, cx, p.y + 72)
        p.y += 86 if track == "kings_court" else 68
    p.rule()


@lru_cache(maxsize=256)
def _dominance_token(key: str, used: bool) -> Stamp:
    c = Canvas(32, 32)
    c.ellipse((0, 0, 32, 32), INK)
    c.ellipse((2, 2, 30, 30), PAPER_DARK if used else GOLD)
    c.icon(DOMINANCE_ICON[key], (6, 6, 26, 26), MUTED if used else INK)
    if used:
        c.line([(5, 27), (27, 5)], ALERT, 3)
    return c.finish()


@lru_cache(maxsize=256)
def _star_count(n: int) -> Stamp:
    label = f"{n}"
    c = Canvas(38, 20, fringe=PAPER)
    c.icon("star", (1, 0, 19, 18), GOLD)
    c.text((22, 10.5), label, "bold", 15, INK, anchor="lm")
    return c.finish()


def _houses(p: Panel, view: View) -> None:
    p.heading(t("houses", p.lang))
    cols = [p.left + 182, p.left + 246, p.right - 52]
    for x, key in zip(cols, ("col.power", "col.supply", "col.castles"), strict=True):
        _label(t(key, p.lang), 13, "regular", MUTED).paste(p.img, x, p.y)
    p.y += 20
    power = view.get("power") or {}
    supply = view.get("supply") or {}
    victory = view.get("victory") or {}
    order = list((view.get("tracks") or {}).get("iron_throne") or players(view))
    for h in order:
        row_h = 56
        _chip(h, p.lang, 34).paste(p.img, p.left, p.y + 4)
        _label(house_name(h, p.lang), 19, max_w=cols[0] - p.left - 46).paste(p.img, p.left + 42, p.y + 1)
        pw = power.get(h)
        _label(str(pw) if isinstance(pw, int) else "?", 22).paste(p.img, cols[0] + 4, p.y + 4)
        sp = supply.get(h)
        if isinstance(sp, int):
            _label(str(sp), 22).paste(p.img, cols[1] + 4, p.y + 4)
            armies = "·".join(str(n) for n in supply_limits(sp))
            _label(armies, 13, "regular", MUTED).paste(p.img, cols[1] + 4, p.y + 32)
        vc = victory.get(h)
        text = f"{vc}/{VICTORY_TARGET}" if isinstance(vc, int) else "?"
        _label(text, 22).paste(p.img, cols[2] + 2, p.y + 4)
        # Castle pips under the name: the victory track at a glance.
        if isinstance(vc, int):
            for i in range(VICTORY_TARGET):
                x = p.left + 43 + i * 17
                fill = palette.idx(style.house_style(h).colour if i < vc else PAPER_DARK)
                p.draw.rectangle((x, p.y + 31, x + 13, p.y + 42), fill=fill, outline=palette.idx(INK))
        p.y += row_h
    p.rule()


def hand_of(view: View, house: str) -> list[str] | None:
    """The house cards ``house`` holds: the view's hand, else its seven cards minus the public discards."""
    info = (view.get("houses") or {}).get(house) or {}
    hand = info.get("hand")
    if isinstance(hand, list) and all(isinstance(c, str) for c in hand) and hand:
        return list(hand)
    discards = info.get("discards")
    if isinstance(discards, list):
        own = [cid for cid, c in house_cards().items() if c.get("house") == house]
        left = [c for c in own if c not in discards]
        return left or own
    return None


def _hands(p: Panel, view: View) -> None:
    order = list((view.get("tracks") or {}).get("iron_throne") or players(view))
    rows = [(h, hand) for h in order if (hand := hand_of(view, h)) is not None]
    if not rows:
        return
    p.heading(t("hands", p.lang))
    for h, hand in rows:
        _chip(h, p.lang, 26).paste(p.img, p.left, p.y)
        x = p.left + 36
        cards = sorted((house_cards().get(c, {}) for c in hand), key=lambda c: -int(c.get("strength") or 0))
        for c in cards:
            _card_tile(int(c.get("strength") or 0), int(c.get("swords") or 0), int(c.get("fortifications") or 0)).paste(
                p.img, x, p.y
            )
            x += 45
        p.y += 32
    p.rule()


@lru_cache(maxsize=256)
def _card_tile(strength: int, swords: int, forts: int) -> Stamp:
    """A house card in hand: its strength, with a sword or tower pip per icon."""
    c = Canvas(42, 26, fringe=PAPER)
    c.rect((0, 0, 42, 26), INK, radius=4)
    c.rect((1.5, 1.5, 40.5, 24.5), WHITE, radius=3)
    c.text((12, 13.5), str(strength), "bold", 17, INK)
    for i in range(swords):
        c.icon("sword", (22 + i * 9, 3, 31 + i * 9, 23), ALERT)
    for i in range(forts):
        c.icon("castle", (22 + (swords + i) * 9, 6, 31 + (swords + i) * 9, 20), style.STONE_DARK)
    return c.finish()


def _legend_section(p: Panel, view: View) -> None:
    _legend(p)


def _legend(p: Panel) -> None:
    p.heading(t("legend", p.lang))
    lang = p.lang
    col_w = (p.right - p.left) / 2
    entries: list[tuple[Stamp, str]] = []
    demo = "stark"
    for unit in ("footman", "knight", "siege-engine", "ship"):
        entries.append((stamps.glyph(unit, 24, INK, outline=None), t(f"unit.{unit}", lang)))
    for kind in tokens.ORDER_KINDS:
        entries.append((tokens.order_token(demo, kind, False, 0, 30), t(f"order.{kind}", lang)))
    entries.append((tokens.order_token(demo, "march", True, 1, 30), t("star", lang)))
    entries.append((tokens.order_token(demo, None, False, 0, 30), t("hidden_order", lang)))
    entries.append((tokens.unit_group(demo, (("footman", True, 1),), lang, True), t("routed", lang)))
    entries.append((tokens.power_token(demo, lang), t("power_token", lang)))
    entries.append((tokens.garrison_token(2, None), t("garrison", lang)))
    entries.append((tokens.neutral_token(5), t("neutral", lang)))
    entries.append((tokens.neutral_token(None), t("impassable", lang)))
    entries.append((stamps.glyph("castle", 20, WHITE, outline_px=1.4), t("castle", lang)))
    entries.append((stamps.glyph("stronghold", 25, WHITE, outline_px=1.4), t("stronghold", lang)))
    entries.append((stamps.glyph("barrel", 17, style.BARREL), t("barrel", lang)))
    entries.append((stamps.glyph("crown", 19, GOLD), t("crown", lang)))
    entries.append((_river_sample(), t("river", lang)))
    row_h = 42
    for i, (icon, label) in enumerate(entries):
        col, row = i % 2, i // 2
        x = p.left + col * col_w
        y = p.y + row * row_h
        slot = 50
        icon.paste_centred(p.img, x + slot / 2, y + row_h / 2)
        s = _label(label, 16, "regular", max_w=col_w - slot - 4)
        s.paste(p.img, x + slot + 2, y + (row_h - s.height) / 2)
    p.y += row_h * ((len(entries) + 1) // 2)


@lru_cache(maxsize=256)
def _river_sample() -> Stamp:
    c = Canvas(40, 16, fringe=PAPER)
    c.rect((0, 0, 40, 16), style.LAND_NEUTRAL)
    c.line([(0, 8), (14, 6), (26, 10), (40, 8)], style.RIVER, 4)
    return c.finish()


SECTIONS: list[tuple[Callable[[Panel, View], None], tuple[str, ...]]] = [
    (_header, ("viewer", "round", "phase", "step", "winner", "awaiting")),
    (_westeros, ("westeros_cards", "restrictions")),
    (_wildlings, ("wildling_threat",)),
    (_tracks, ("tracks", "dominance", "players")),
    (_houses, ("tracks", "players", "power", "supply", "victory")),
    (_hands, ("tracks", "players", "houses")),
    (_legend_section, ()),
]
