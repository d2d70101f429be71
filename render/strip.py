"""The status strip above the board: round and phase, who is awaited (or the winner), then one column per house with
its castles, its place on the three influence tracks, its supply and the armies that supply allows, and its Power.
In a Mother of Dragons game a vassal's column is tagged "vassal" in its liege's colour, a "Vassal of" row names the
liege, and its Power shows "—" (a vassal has none); a house whose player is leaving is tagged "leaving". Where
Targaryen plays, its Victory track counts loyalty, not castles: the row reads "Castles / Loyalty" and Targaryen's cell
starts with a loyalty token; deck IV's card is named after the other three ("Deck IV: …"); with the Iron Bank, a
last row gives each house's loans and their interest ("Loans (interest)": "1 (−1)").

Sized for a phone: at the board's width every word is at least 20 px (18 px when the board is shown 1080 px
wide). While the game runs the houses go in Iron Throne order; at its end they are ranked as the rules rank them
(castles, then strongholds, supply, Power and the Iron Throne).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import loyalty, palette, stamps, style
from render.data import RenderBoard, kings_court_stars, supply_limits
from render.marks import crest
from render.stamps import Canvas, Stamp
from render.strings import house_name, step_name, t, westeros_card_name
from render.style import ALERT, GOLD, INK, MUTED, PAPER, PAPER_DARK, RGB, RULE, WHITE
from render.vassals import leaving_of, leaving_tag, liege_tag, vassal_tag, vassals_of
from render.views import View, bank, players

PAD = 16
TOTAL_ROUNDS = 10
VICTORY_TARGET = 7
TRACKS = ("iron_throne", "fiefdoms", "kings_court")
DOMINANCE = {"iron_throne": "iron_throne", "fiefdoms": "valyrian_steel_blade", "kings_court": "messenger_raven"}
DOMINANCE_ICON = {"iron_throne": "throne", "valyrian_steel_blade": "sword", "messenger_raven": "raven"}
TEXT_MIN = 20  # px: the smallest text in the strip
ROW_H = 36
LABEL_W = 196  # px: the column of row labels (wider where a language's longest label needs it)
LABEL_GAP = 20  # px: from a row's label to its first value, at least
TARGARYEN = "targaryen"
LOYALTY_MARK = 26  # px: the loyalty token in Targaryen's Victory cell
FIELDS = (
    "viewer", "round", "phase", "step", "winner", "awaiting", "players", "tracks", "dominance", "supply",
    "victory", "power", "power_announced", "wildling_threat", "westeros_cards", "restrictions", "vassals", "leaving",
    "bank",
)  # fmt: skip


def _sized(content: str, size: int, weight: str = "bold", colour: RGB = INK, bg: RGB = PAPER,
           max_w: float | None = None, condense: bool = False) -> tuple[Stamp, int]:  # fmt: skip
    """``content`` shrunk (not below ``TEXT_MIN``) to fit ``max_w``, and the size it was drawn at; with ``condense``,
    bold text that still does not fit is set condensed (eight houses' names under their crests)."""
    s = stamps.text(content, weight, size, colour, bg=bg)
    start = size
    while max_w is not None and s.width > max_w and size > TEXT_MIN:
        size -= 1
        s = stamps.text(content, weight, size, colour, bg=bg)
    if condense and max_w is not None and s.width > max_w and weight == "bold":
        for size in range(start, TEXT_MIN - 1, -1):
            s = stamps.text(content, "condensed", size, colour, bg=bg)
            if s.width <= max_w:
                break
    return s, size


def _label(content: str, size: int, weight: str = "bold", colour: RGB = INK, bg: RGB = PAPER,
           max_w: float | None = None) -> Stamp:  # fmt: skip
    return _sized(content, size, weight, colour, bg, max_w)[0]


@dataclass(frozen=True)
class Item:
    """One thing drawn in a house's column of the table: ``kind`` is "crest", "name", "rank", "tag" (vassal or
    leaving), a row's key for its cell ("vassal_row", "castles", "track.fiefdoms", "power_col", ...), "pips",
    "dominance", "stars" or "loyalty_mark" (the loyalty token in Targaryen's Victory cell); or, with ``house`` "",
    "fact" (one of the round facts over the table) or "row" (a row's label); ``px`` the size of its text (0 for no
    text)."""

    kind: str
    house: str
    box: tuple[float, float, float, float]
    px: int = 0
    text: str = ""


class _Rec(list[Item]):
    def put(self, img: Image.Image, stamp: Stamp, x: float, y: float, kind: str, house: str, px: int = 0,
            text: str = "") -> Stamp:  # fmt: skip
        stamp.paste(img, x, y)
        self.append(Item(kind, house, (x, y, x + stamp.width, y + stamp.height), px, text))
        return stamp


def items(board: RenderBoard, view: View, lang: str, width: int = style.MAP_W) -> list[Item]:
    """What the strip draws in each house's column, where, and how large its text is (drawn afresh, not cached):
    for the legibility and overlap checks; and the round facts and the rows' labels (house "")."""
    rec = _Rec()
    _draw(board, view, lang, width, rec)
    return list(rec)


def overlapping(got: list[Item]) -> list[tuple[Item, Item]]:
    """Pairs of items whose boxes overlap."""
    out = []
    for i, a in enumerate(got):
        for b in got[i + 1 :]:
            if a.box[0] < b.box[2] and b.box[0] < a.box[2] and a.box[1] < b.box[3] and b.box[1] < a.box[3]:
                out.append((a, b))
    return out


def phase_line(view: View, lang: str) -> str:
    """ "Round 4/10 · Action phase: marches" — the step only when it says more than the phase."""
    rnd = view.get("round")
    line = t("round_short", lang, n=rnd if isinstance(rnd, int) else "?", total=TOTAL_ROUNDS)
    phase = str(view.get("phase") or "")
    if phase in ("westeros", "planning", "action", "ended"):
        text = t(f"phase.{phase}", lang)
        step = view.get("step")
        if step and phase != "ended" and step != phase:
            name = step_name(str(step), lang)
            if name and name.split()[0].lower() not in text.lower():
                text += ": " + name
        line += " · " + text
    return line


def standing(board: RenderBoard, view: View, house: str) -> tuple[int, ...]:
    """The rulebook's ranking at the end of the game: castles, then strongholds, supply, Power, Iron Throne."""

    def num(field: str) -> int:
        v = (view.get(field) or {}).get(house)
        return v if isinstance(v, int) else 0

    developed = (view.get("bank") or {}).get("developed") or {}  # Master-at-Arms makes strongholds (M-LOAN-05)
    strongholds = sum(
        1
        for a, state in (view.get("areas") or {}).items()
        if state
        and state.get("controller") == house
        and a in board.areas
        and (board.areas[a].fortification == 2 or (developed.get(a) or {}).get("stronghold"))
    )
    throne = list((view.get("tracks") or {}).get("iron_throne") or [])
    pos = throne.index(house) if house in throne else len(throne)
    return (num("victory"), strongholds, num("supply"), num("power"), -pos)


def house_order(board: RenderBoard, view: View) -> list[str]:
    """Iron Throne order while the game runs; at its end the players ranked, then the vassals (who never win)."""
    order = list((view.get("tracks") or {}).get("iron_throne") or players(view))
    if view.get("winner") or view.get("phase") == "ended":
        vassals = vassals_of(view)
        order.sort(key=lambda h: (h not in vassals, standing(board, view, h)), reverse=True)
        winner = view.get("winner")
        if winner in order:
            order.remove(winner)
            order.insert(0, winner)
    return order


_cache: OrderedDict[str, Image.Image] = OrderedDict()
_lock = threading.Lock()


def strip(board: RenderBoard, view: View, lang: str, width: int) -> Image.Image:
    """The strip (mode P, fixed palette entries only), cached by the view fields it reads."""
    key = json.dumps(
        [board.name, lang, width, {k: view.get(k) for k in FIELDS}, _strongholds(view)], sort_keys=True, default=str
    )
    with _lock:
        got = _cache.get(key)
        if got is not None:
            _cache.move_to_end(key)
            return got
    img = _draw(board, view, lang, width)
    with _lock:
        _cache[key] = img
        while len(_cache) > 64:
            _cache.popitem(last=False)
    return img


def _strongholds(view: View) -> dict[str, str]:
    if not (view.get("winner") or view.get("phase") == "ended"):
        return {}
    return {a: str(s.get("controller")) for a, s in (view.get("areas") or {}).items() if s and s.get("controller")}


def _draw(board: RenderBoard, view: View, lang: str, width: int, seen: _Rec | None = None) -> Image.Image:
    rec = _Rec() if seen is None else seen
    img = Image.new("P", (width, 1200), palette.idx(PAPER))
    d = ImageDraw.Draw(img)
    left, right = PAD, width - PAD
    y = PAD
    viewer = view.get("viewer")
    if viewer:
        d.rounded_rectangle((left, y, right, y + 44), 6, fill=palette.idx(ALERT))
        s = _label(t("private", lang, house=house_name(str(viewer), lang)) + " · " + t("private.note", lang), 22,
                   colour=WHITE, bg=ALERT, max_w=right - left - 20)  # fmt: skip
        s.paste(img, left + 10, y + (44 - s.height) / 2)
        y += 54
    s = _label(phase_line(view, lang), 30, max_w=(right - left) * 0.62)
    s.paste(img, left, y)
    winner = view.get("winner")
    awaiting = [h for h in view.get("awaiting") or [] if isinstance(h, str)]
    x = right
    if winner:
        w_s = _label(t("winner", lang, house=house_name(str(winner), lang)), 26, bg=GOLD)
        box_w = w_s.width + 58
        d.rounded_rectangle((right - box_w, y - 4, right, y + 40), 8, fill=palette.idx(GOLD), outline=palette.idx(INK),
                            width=2)  # fmt: skip
        crest(str(winner), lang, 34).paste(img, right - box_w + 10, y + 1)
        w_s.paste(img, right - w_s.width - 10, y + (36 - w_s.height) / 2)
    elif awaiting:
        for house in reversed(awaiting):
            c = crest(house, lang, 34)
            x -= c.width + 4
            c.paste(img, x, y + 1)
        w_s = _label(t("waiting", lang) + ":", 22, "regular")
        w_s.paste(img, x - w_s.width - 8, y + (36 - w_s.height) / 2)
    y += 46
    facts = round_facts(view, lang)
    x = left
    for i, (text, colour) in enumerate(facts):
        s, px = _sized(text, 22, "regular", colour, max_w=right - left)
        if x > left and x + s.width > right:
            x, y = left, y + 30
        rec.put(img, s, x, y, "fact", "", px, text)
        x += s.width
        if i < len(facts) - 1:
            dot = _label("  ·  ", 22, "regular", MUTED)
            dot.paste(img, x, y)
            x += dot.width
    y += 36
    d.line((left, y, right, y), fill=palette.idx(RULE), width=2)
    y += 8
    y = _table(img, d, board, view, lang, left, right, y, rec)
    return img.crop((0, 0, width, y + 8))


_ORDER_KEYS = {f"order.{k}" for k in ("march", "defense", "support", "raid", "consolidate")}


def round_facts(view: View, lang: str) -> list[tuple[str, RGB]]:
    """The line of round facts, each with its colour: the wildling threat, this round's Westeros cards (decks I-III;
    deck IV's apart, when Targaryen plays), the orders forbidden."""
    facts: list[tuple[str, RGB]] = []
    threat = view.get("wildling_threat")
    facts.append((t("wildlings_short", lang, n=threat if isinstance(threat, int) else "?"), INK))
    drawn = view.get("westeros_cards") or []
    cards = [westeros_card_name(str(c), lang) for c in drawn[:3] if c]
    if cards:
        facts.append((t("westeros_short", lang) + ": " + ", ".join(cards), INK))
    if len(drawn) > 3 and drawn[3]:  # a fact of its own, so that the line may wrap before it
        facts.append((t("westeros_deck4", lang, card=westeros_card_name(str(drawn[3]), lang, 4)), INK))
    restrictions = [r for r in view.get("restrictions") or [] if isinstance(r, str)]
    if restrictions:
        names = [t(f"order.{r}", lang) if f"order.{r}" in _ORDER_KEYS else r.replace("-", " ") for r in restrictions]
        facts.append((t("forbidden_short", lang) + ": " + ", ".join(names), ALERT))
    return facts


def row_label(key: str, order: list[str], lang: str) -> str:
    """A row's label; with Targaryen, whose Victory track counts its loyalty, not castles, "Castles / Loyalty"."""
    return t("castles_loyalty", lang) if key == "castles" and TARGARYEN in order else t(key, lang)


def _table(img: Image.Image, d: ImageDraw.ImageDraw, board: RenderBoard, view: View, lang: str, left: int, right: int,
           y: int, rec: _Rec) -> int:  # fmt: skip
    order = house_order(board, view)
    if not order:
        return y
    ended = bool(view.get("winner") or view.get("phase") == "ended")
    vassals = vassals_of(view)
    leaving = leaving_of(view)
    rows: list[tuple[str, Any]] = [("castles", None), *((f"track.{tr}", tr) for tr in TRACKS), ("supply", None),
                                   ("armies", None), ("power_col", None)]  # fmt: skip
    if vassals:
        rows.insert(0, ("vassal_row", None))
    owed = bank(view)
    if owed is not None:  # the Iron Bank: each house's loans and the Power their interest takes each Westeros phase
        rows.append(("loans_row", None))
    # The labels' column is as wide as its widest label at the smallest size needs: «Королевский двор» ran into
    # its value at the default width.
    widest = max(stamps.text(row_label(key, order, lang), "regular", TEXT_MIN, INK).width for key, _ in rows)
    label_w = max(LABEL_W, widest + LABEL_GAP)
    col_w = (right - left - label_w) / max(len(order), 1)
    # Header: crest and name (a rank at the end of the game: players only, a vassal never wins); with many houses
    # the names go under the crests, so that no name runs into the next column, and a rank goes beside its crest.
    ranks = {h: f"{i + 1}." for i, h in enumerate(order) if ended and h not in vassals}
    names = [(ranks[h] + " " if h in ranks else "") + house_name(h, lang) for h in order]
    beside = col_w - 36 - 12
    stacked = any(_label(name, 22, max_w=beside).width > beside for name in names)
    if stacked:
        names = [house_name(h, lang) for h in order]
    # A vassal's (or a leaving house's) tag: beside the crest when the names are under the crests, else under it all.
    tags = {h: vassal_tag(vassals[h], lang, beside) if h in vassals else leaving_tag(lang, beside)
            for h in order if h in vassals or h in leaving}  # fmt: skip
    # Eight narrow columns: a tag too wide for the side of its crest goes under the name.
    narrow = len(order) > 7
    under = narrow and stacked and any(tg.width > beside for tg, _ in tags.values())
    if under:
        tags = {h: vassal_tag(vassals[h], lang, col_w - 8) if h in vassals else leaving_tag(lang, col_w - 8)
                for h in tags}  # fmt: skip
    tag_row = 36 if tags and (under or not stacked) else 0
    for i, house in enumerate(order):
        x = left + label_w + i * col_w
        c = rec.put(img, crest(house, lang, 36), x + 4, y, "crest", house)
        tx = x + c.width + 10
        if stacked:
            nm, px = _sized(names[i], 22, max_w=col_w - 8, condense=True)
            rec.put(img, nm, x + 4, y + 42, "name", house, px, names[i])
            if house in ranks:
                rank = _label(ranks[house], 24)
                tx += rec.put(img, rank, tx, y + (36 - rank.height) / 2, "rank", house, 24, ranks[house]).width + 6
        else:
            nm, px = _sized(names[i], 22, max_w=beside)
            rec.put(img, nm, x + c.width + 8, y + 6, "name", house, px, names[i])
        if house in tags:
            tg, px = tags[house]
            tag_x: float
            tag_y: float
            if under:
                tag_x, tag_y = x + 4, y + 76
            else:
                tag_x, tag_y = (tx, y + (36 - tg.height) / 2) if stacked else (x + 4, y + 42)
            rec.put(img, tg, tag_x, tag_y, "tag", house, px, t("vassal" if house in vassals else "leaving", lang))
    y += (76 if stacked else 44) + tag_row
    tracks = view.get("tracks") or {}
    supply = view.get("supply") or {}
    victory = view.get("victory") or {}
    power = view.get("power") or {}
    announced = view.get("power_announced") or {}
    table = kings_court_stars(len(players(view)))
    houses_seen = view.get("houses") or {}
    # The view says each house's allowance (a ruleset may have its own table); older views did not.
    stars = {
        h: houses_seen.get(h, {}).get("stars_allowed", table[pos - 1] if 0 < pos <= len(table) else 0)
        for h in order
        for pos in [(tracks.get("kings_court") or []).index(h) + 1 if h in (tracks.get("kings_court") or []) else 0]
    }
    for n, (key, track) in enumerate(rows):
        if n % 2 == 0:
            d.rectangle((left, y, right, y + ROW_H - 1), fill=palette.idx(PAPER_DARK))
        bg = PAPER_DARK if n % 2 == 0 else PAPER
        word = row_label(key, order, lang)
        lab, px = _sized(word, 21, "regular", INK, bg, max_w=label_w - LABEL_GAP)
        rec.put(img, lab, left + 6, y + 5, "row", "", px, word)
        for i, house in enumerate(order):
            x = left + label_w + i * col_w + 6
            if key == "vassal_row":
                if house in vassals:
                    liege = vassals[house]
                    lt, px = liege_tag(liege, lang, col_w - 12, compact=narrow)
                    word = house_name(liege, lang) if liege else t("vassal.unclaimed", lang)
                    rec.put(img, lt, x, y + (ROW_H - lt.height) / 2, key, house, px, word)
            elif key == "castles":
                vc = victory.get(house)
                n_c = vc if isinstance(vc, int) else 0
                text = f"{vc}/{VICTORY_TARGET}" if isinstance(vc, int) else "?"
                tx = x
                if house == TARGARYEN:  # its loyalty points: the loyalty token before the number
                    mark = loyalty.token(LOYALTY_MARK)
                    tx += rec.put(img, mark, x, y + (ROW_H - mark.height) / 2, "loyalty_mark", house).width + 5
                s = rec.put(img, _label(text, 24, bg=bg), tx, y + 3, key, house, 24, text)
                pip_x = tx + s.width + 8
                # 11 px a pip, fewer where the column is narrow (eight houses), so the pips stay in their column
                room = left + label_w + (i + 1) * col_w - 4 - pip_x
                step = 11 if room >= 11 * VICTORY_TARGET - 2 else max(5, int((room + 2) // VICTORY_TARGET))
                for p in range(VICTORY_TARGET):
                    fill = style.house_style(house).colour if p < n_c else PAPER
                    d.rectangle((pip_x + p * step, y + 11, pip_x + p * step + step - 3, y + 24),
                                fill=palette.idx(fill), outline=palette.idx(INK))  # fmt: skip
                rec.append(Item("pips", house, (pip_x, y + 11, pip_x + step * VICTORY_TARGET - 2, y + 25)))
            elif track is not None:
                line = [h for h in tracks.get(track) or [] if isinstance(h, str)]
                pos = line.index(house) + 1 if house in line else None
                text = str(pos) if pos else "—"
                s = rec.put(img, _label(text, 24, bg=bg), x, y + 3, key, house, 24, text)
                tx = x + s.width + 8
                if pos == 1:
                    dom = (view.get("dominance") or {}).get(DOMINANCE[track]) or {}
                    token = _dominance_token(DOMINANCE[track], bool(dom.get("used")))
                    rec.put(img, token, tx, y + 2, "dominance", house)
                    tx += 36
                if track == "kings_court" and pos and stars.get(house):
                    rec.put(img, _star_count(stars[house], bg), tx, y + 5, "stars", house, 20)
            elif key == "supply":
                sp = supply.get(house)
                text = str(sp) if isinstance(sp, int) else "?"
                rec.put(img, _label(text, 24, bg=bg), x, y + 3, key, house, 24, text)
            elif key == "armies":
                sp = supply.get(house)
                text = " ".join(str(a) for a in supply_limits(sp)) if isinstance(sp, int) else "?"
                rec.put(img, _label(text, 22, bg=bg), x, y + 5, key, house, 22, text)
            elif key == "loans_row":
                text = loans_cell(owed or {}, house, house in vassals)
                rec.put(img, _label(text, 24, bg=bg), x, y + 3, key, house, 24, text)
            else:
                pw = power.get(house)
                if not isinstance(pw, int):  # during a bid: the total announced before the tokens were hidden
                    pw = announced.get(house)
                text = "—" if house in vassals else str(pw) if isinstance(pw, int) else "?"  # a vassal has no Power
                rec.put(img, _label(text, 24, bg=bg), x, y + 3, key, house, 24, text)
        y += ROW_H
    return y


def loans_cell(owed: dict[str, Any], house: str, vassal: bool) -> str:
    """A house's cell in the Iron Bank's row: how many loans it holds, and in brackets the Power it pays in interest
    at each Westeros phase ("2 (−2)"); "—" for a vassal (it takes no loans)."""
    if vassal:
        return "—"
    loans = (owed.get("loans") or {}).get(house) or []
    interest = (owed.get("interest") or {}).get(house)
    n = len(loans) if isinstance(loans, list) else 0
    due = interest if isinstance(interest, int) and not isinstance(interest, bool) else 0
    return f"{n} (\u2212{due})" if due else str(n)


@lru_cache(maxsize=16)
def _dominance_token(key: str, used: bool) -> Stamp:
    c = Canvas(32, 32)
    c.ellipse((0, 0, 32, 32), INK)
    c.ellipse((2, 2, 30, 30), PAPER_DARK if used else GOLD)
    c.icon(DOMINANCE_ICON[key], (6, 6, 26, 26), MUTED if used else INK)
    if used:
        c.line([(5, 27), (27, 5)], ALERT, 3)
    return c.finish()


@lru_cache(maxsize=32)
def _star_count(n: int, bg: RGB) -> Stamp:
    c = Canvas(44, 24, fringe=bg)
    c.icon("star", (0, 1, 22, 23), GOLD)
    c.text((25, 12.5), str(n), "bold", 20, INK, anchor="lm")
    return c.finish()
