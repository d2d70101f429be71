"""The battle image: a crop of the map around the embattled area (drawn at its zoom, with the march and support
arrows), over a strength table by source — units, support, march or defence, garrison, house card, Valyrian Steel
Blade, Tides of Battle, total — from the view's ``battle.components``. 1080 px wide, for a phone, and drawn in the
board's palette (mode P) from the start: the PNG is written as drawn, with nothing quantized or resized."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import base, palette, stamps, style, tokens
from render.crop import OUT_W, Crop, Move, compose, encode
from render.data import RenderBoard, house_cards, tides_cards
from render.marks import crest
from render.strings import house_card_name, house_name, t
from render.style import ALERT, GOLD, INK, MUTED, OUTLINE, PAPER, PAPER_DARK, RGB, WHITE
from render.vassals import vassal_line, vassals_of
from render.views import View, ViewError, area_state, dragon_strength

SIDES = ("attacker", "defender")
LABEL_W = 300
ROW_H = 52
SOURCES = ("units", "support", "march", "defense", "garrison", "neutral", "card", "blade", "tides")
SOURCE_LABEL = {
    "units": "b.units", "support": "b.support", "march": "b.march", "defense": "b.defense", "garrison": "b.garrison",
    "neutral": "neutral_side", "card": "b.card", "blade": "b.blade", "tides": "b.tides",
}  # fmt: skip


def _side_house(battle: dict[str, Any], side: str) -> str | None:
    h = battle.get(side)
    return h if isinstance(h, str) and h != "neutral" else None


def battle_crop(board: RenderBoard, view: View, battle: dict[str, Any], lang: str) -> Crop:
    area_id = str(battle["area"])
    if area_id not in board.areas:
        raise ViewError(f"battle in unknown area {area_id!r}")
    attacker = _side_house(battle, "attacker")
    defender = _side_house(battle, "defender")
    focus = [area_id]
    moves: list[Move] = []
    src = battle.get("from")
    if isinstance(src, str) and src in board.areas:
        focus.append(src)
        moves.append(Move(attacker, "march", src, area_id))
    for side, group in (battle.get("supporters") or {}).items():
        for a in group or []:
            if a in board.areas:
                focus.append(a)
                order = area_state(view, a).get("order") or {}
                owner = order.get("house") if isinstance(order, dict) else None
                house = owner or (attacker if side == "attacker" else defender if side == "defender" else None)
                if side in SIDES:
                    moves.append(Move(house, "support", a, area_id))
    return compose(board, view, lang, focus, moves=moves, highlight=[area_id])


def compose_battle(
    board: RenderBoard, view: View, lang: str, battle: dict[str, Any] | None = None, notes: list[str] | None = None
) -> bytes:
    """PNG of the battle in ``battle`` (default: ``view["battle"]``); ``notes`` are outcome lines under it."""
    b: dict[str, Any] = battle if battle is not None else view["battle"]
    crop = battle_crop(board, view, b, lang)
    table = _table(board, view, b, lang, crop.image.width, notes or [])
    out = Image.new("P", (crop.image.width, crop.image.height + table.height), palette.idx(PAPER))
    out.paste(crop.image, (0, 0))
    out.paste(table, (0, crop.image.height))
    out.putpalette(base.board_palette(board, view))
    return encode(out)


def _text(d: ImageDraw.ImageDraw, img: Image.Image, xy: tuple[float, float], content: str, size: int,
          weight: str = "bold", colour: RGB = INK, bg: RGB = PAPER, max_w: float | None = None) -> int:  # fmt: skip
    s = stamps.text(content, weight, size, colour, bg=bg)
    while max_w is not None and s.width > max_w and size > 20:
        size -= 1
        s = stamps.text(content, weight, size, colour, bg=bg)
    s.paste(img, xy[0], xy[1])
    return s.width


def _card_detail(card: Any, lang: str) -> str | None:
    if not isinstance(card, str) or not card:
        return None
    return house_card_name(card, lang)


def _tides_detail(card: Any) -> str | None:
    if not isinstance(card, str) or not card:
        return None
    info = tides_cards().get(card, {})
    names = info.get("names")
    return str(names.get("en")) if isinstance(names, dict) and names.get("en") else card.replace("-", " ")


def strength_cell(value: int) -> str:
    """A strength by source as the table shows it: signed, with a true minus sign as the channel prints it."""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def _wrapped(text: str, size: int, width: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` at ``size`` (a longer word stands alone)."""
    lines: list[str] = []
    for word in text.split():
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and stamps.text(candidate, "regular", size, INK).width <= width:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines


def components_of(battle: dict[str, Any]) -> dict[str, dict[str, int]]:
    """The strength by source per side: ``components`` when the view has it, else rebuilt from the older fields."""
    got = battle.get("components")
    if isinstance(got, dict) and all(isinstance(got.get(s), dict) for s in SIDES):
        return {s: {k: v for k, v in got[s].items() if isinstance(v, int)} for s in SIDES}
    out: dict[str, dict[str, int]] = {s: {} for s in SIDES}
    if isinstance(battle.get("march_bonus"), int):
        out["attacker"]["march"] = battle["march_bonus"]
    if isinstance(battle.get("garrison"), int):
        out["defender"]["garrison"] = battle["garrison"]
    strength = battle.get("strength") or {}
    for s in SIDES:
        card = (battle.get("cards") or {}).get(s)
        if isinstance(card, str) and isinstance(house_cards().get(card, {}).get("strength"), int):
            out[s]["card"] = house_cards()[card]["strength"]
        if isinstance(strength.get(s), int):
            out[s]["total"] = strength[s]
    return out


def _table(
    board: RenderBoard, view: View, battle: dict[str, Any], lang: str, width: int, notes: list[str]
) -> Image.Image:
    img = Image.new("P", (width, 1400), palette.idx(PAPER))
    d = ImageDraw.Draw(img)
    d.line((0, 1, width, 1), fill=palette.idx(style.BORDER_LAND), width=3)
    pad = 24
    y = 18
    area_name = board.areas[str(battle["area"])].name(lang)
    _text(d, img, (pad, y), t("battle", lang, area=area_name), 36, max_w=width - 2 * pad)
    y += 56
    col_w = (width - 2 * pad - LABEL_W) / 2
    houses = {s: _side_house(battle, s) for s in SIDES}
    vassals = vassals_of(view)
    box_h = 92 if any(h in vassals for h in houses.values()) else 64  # room to say whose vassal a side is
    for i, side in enumerate(SIDES):
        x = pad + LABEL_W + i * col_w
        h = houses[side]
        colour = style.house_style(h).colour if h else style.NEUTRAL_FORCE
        ink = style.house_style(h).ink if h else WHITE
        d.rounded_rectangle((x, y, x + col_w - 10, y + box_h), radius=8, fill=palette.idx(colour),
                            outline=palette.idx(OUTLINE), width=2)  # fmt: skip
        if h in vassals:
            _text(d, img, (x + 52, y + 62), vassal_line(vassals[h], lang), 21, "regular", ink, colour,
                  max_w=col_w - 70)  # fmt: skip
        if h:
            c = crest(h, lang, 40)
            c.paste(img, x + 8, y + 12)
        _text(d, img, (x + 52, y + 4), t(side, lang), 22, "regular", ink, colour, max_w=col_w - 70)
        _text(d, img, (x + 52, y + 30), house_name(h, lang) if h else t("neutral_side", lang), 26, "bold", ink,
              colour, max_w=col_w - 70)  # fmt: skip
    y += box_h + 12
    # The fighting units, as on the map (a neutral force as its token).
    for i, side in enumerate(SIDES):
        x = pad + LABEL_W + i * col_w
        units = [dict(u, house=houses[side] or "neutral") for u in battle.get(f"{side}_units") or []]
        if houses[side] and units:
            for house, group in tokens.group_units(units).items():
                chip = tokens.unit_group(
                    house, group, lang, False, 1.3, tokens.strength_shown(group, dragon_strength(view))
                )
                chip.paste(img, x, y)
        elif side == "defender" and not houses[side]:
            n = area_state(view, str(battle["area"])).get("neutral")
            if isinstance(n, int):
                tok = tokens.neutral_token(n, 44)
                tok.paste(img, x, y)
    y += 60
    comp = components_of(battle)
    cards = battle.get("cards") or {}
    tides = battle.get("tides") or {}
    sup = battle.get("supporters") or {}
    details: dict[str, dict[str, str | None]] = {
        "card": {s: _card_detail(cards.get(s), lang) for s in SIDES},
        "tides": {s: _tides_detail(tides.get(s)) for s in SIDES},
        "support": {s: ", ".join(board.areas[a].name(lang) for a in sup.get(s) or [] if a in board.areas) or None
                    for s in SIDES},
    }  # fmt: skip
    n = 0
    for source in SOURCES:
        if not any(source in comp[s] for s in SIDES) and source not in ("units", "support", "card"):
            continue
        detail = details.get(source, {})
        tall = any(detail.get(s) for s in SIDES)
        row_h = ROW_H + (30 if tall else 0)
        bg = PAPER_DARK if n % 2 == 0 else PAPER
        d.rectangle((pad, y, width - pad, y + row_h - 1), fill=palette.idx(bg))
        _text(d, img, (pad + 8, y + 11), t(SOURCE_LABEL[source], lang), 24, "regular", INK, bg, max_w=LABEL_W - 16)
        for i, side in enumerate(SIDES):
            x = pad + LABEL_W + i * col_w
            v = comp[side].get(source)
            if source == "card" and v is None and not houses[side]:
                continue
            text = strength_cell(v) if isinstance(v, int) else "—"
            if source == "card" and v is None:
                text = t("b.card_hidden", lang)
            _text(d, img, (x + 6, y + 8), text, 30 if isinstance(v, int) else 24, "bold", INK, bg, max_w=col_w - 16)
            extra = detail.get(side)
            if extra:
                _text(d, img, (x + 6, y + 48), extra, 22, "regular", MUTED, bg, max_w=col_w - 16)
        y += row_h
        n += 1
    d.line((pad, y + 4, width - pad, y + 4), fill=palette.idx(INK), width=3)
    y += 12
    _text(d, img, (pad + 8, y + 10), t("b.total", lang), 30)
    totals = {s: comp[s].get("total") for s in SIDES}
    for i, side in enumerate(SIDES):
        x = pad + LABEL_W + i * col_w
        v = totals[side]
        _text(d, img, (x + 6, y + 4), str(v) if isinstance(v, int) else "?", 40)
    y += 62
    winner = battle.get("winner")
    if winner:
        won = next((s for s in SIDES if houses[s] == winner or s == winner), None)
        if winner in houses.values():
            name = house_name(str(winner), lang)
        else:
            name = t(won, lang) if won else t("neutral_side", lang)
        d.rounded_rectangle((pad, y, width - pad, y + 54), radius=8, fill=palette.idx(GOLD),
                                outline=palette.idx(INK), width=2)  # fmt: skip
        label = t("b.winner", lang, side=name) + (f" ({t(won, lang).lower()})" if won and winner != won else "")
        _text(d, img, (pad + 16, y + 10), label, 28, "bold", INK, GOLD, max_w=width - 2 * pad - 32)
        y += 66
        if battle.get("tie_broken"):  # equal totals: say why one side still won
            _text(d, img, (pad, y), t("b.tie", lang), 24, "regular", INK, max_w=width - 2 * pad)
            y += 36
    for note in notes:
        colour = ALERT if note.startswith("✕") else INK
        for line in _wrapped(note, 24, width - 2 * pad):
            _text(d, img, (pad, y), line, 24, "regular", colour)
            y += 34
        y += 4
    d.rectangle((0, y + 10, width, y + 12), fill=palette.idx(PAPER_DARK))
    return img.crop((0, 0, width, y + 14))


_ = OUT_W
