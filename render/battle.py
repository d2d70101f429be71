"""The battle image: a zoomed crop of the map around the embattled area, with arrows for the march and the
supports, over a panel comparing both sides (units, support, house cards, blade, garrison, bonuses, tides,
totals)."""

from __future__ import annotations

import io
import math
from typing import Any

from PIL import Image, ImageDraw

from render import base, palette, shapes, style, tokens
from render.data import areas, house_cards, tides_cards
from render.fonts import font
from render.pieces import draw_pieces
from render.stamps import Stamp
from render.strings import house_card_name, house_name, t
from render.style import ALERT, GOLD, INK, MUTED, OUTLINE, PAPER, PAPER_DARK, RGB, RULE, WHITE
from render.views import View, area_state

OUT_W = 1000
MAX_ZOOM = 2.2
MIN_CROP = 380


def _map_image(view: View, lang: str) -> Image.Image:
    img = base.map_base(lang).copy()
    draw_pieces(img, view, lang)
    img.putpalette(palette.palette_bytes(base.area_fills(view)))
    return img


def _units_centre(area_id: str) -> tuple[float, float]:
    x, y, w, h = shapes.area_meta(area_id)["units"]
    return x + w / 2, y + h / 2


def _side_house(battle: dict[str, Any], side: str) -> str | None:
    h = battle.get(side)
    return h if isinstance(h, str) and h != "neutral" else None


def _arrow(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: RGB, width: float,
           stop: float = 26) -> None:  # fmt: skip
    """A thick arrow from a to b (stopping ``stop`` px short), outlined in dark ink."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < stop + 10:
        return
    ux, uy = dx / length, dy / length
    tip = (b[0] - ux * stop, b[1] - uy * stop)
    head = width * 2.4
    base_pt = (tip[0] - ux * head, tip[1] - uy * head)
    nx, ny = -uy, ux
    wing1 = (base_pt[0] + nx * head * 0.7, base_pt[1] + ny * head * 0.7)
    wing2 = (base_pt[0] - nx * head * 0.7, base_pt[1] - ny * head * 0.7)
    start = (a[0] + ux * 18, a[1] + uy * 18)
    d.line((start, base_pt), fill=OUTLINE, width=round(width + 4))
    d.polygon((tip, wing1, wing2), fill=OUTLINE)
    d.line((start, base_pt), fill=colour, width=round(width))
    inset = 2.5
    d.polygon(
        (
            (tip[0] - ux * inset * 1.6, tip[1] - uy * inset * 1.6),
            (wing1[0] - ux * inset + nx * -inset, wing1[1] - uy * inset + ny * -inset),
            (wing2[0] - ux * inset - nx * -inset, wing2[1] - uy * inset - ny * -inset),
        ),
        fill=colour,
    )


def _crop_box(battle: dict[str, Any]) -> tuple[int, int, int, int]:
    ids = [battle["area"]]
    if isinstance(battle.get("from"), str):
        ids.append(battle["from"])
    for group in (battle.get("supporters") or {}).values():
        ids += [a for a in group or [] if isinstance(a, str)]
    known = [a for a in ids if a in areas()]
    boxes = [shapes.area_meta(a)["bbox"] for a in known]
    x0 = min(b[0] for b in boxes) - 30
    y0 = min(b[1] for b in boxes) - 30
    x1 = max(b[2] for b in boxes) + 30
    y1 = max(b[3] for b in boxes) + 30
    # At least MIN_CROP square, never taller than wide by more than 1.3, centred on the battle, inside the map.
    w = max(x1 - x0, MIN_CROP, round((y1 - y0) / 1.3))
    h = max(y1 - y0, MIN_CROP, round(w * 0.75))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, h = min(w, style.MAP_W), min(h, style.MAP_H)
    left = int(min(max(0, cx - w / 2), style.MAP_W - w))
    top = int(min(max(0, cy - h / 2), style.MAP_H - h))
    return left, top, left + int(w), top + int(h)


def _rgb(stamp: Stamp) -> tuple[Image.Image, Image.Image | None]:
    return stamp.image.convert("RGB"), stamp.mask


def _paste(dst: Image.Image, stamp: Stamp, x: float, y: float) -> None:
    img, mask = _rgb(stamp)
    dst.paste(img, (round(x), round(y)), mask)


def compose_battle(view: View, lang: str) -> bytes:
    battle: dict[str, Any] = view["battle"]
    area_id = str(battle["area"])
    if area_id not in areas():
        from render.views import ViewError

        raise ViewError(f"battle in unknown area {area_id!r}")
    img = _map_image(view, lang)
    # Highlight the embattled area.
    (ox, oy), band = shapes.outline_mask(area_id)
    img.paste(palette.idx(ALERT), (ox, oy, ox + band.width, oy + band.height), band)
    box = _crop_box(battle)
    rgb = img.crop(box).convert("RGB")
    overlay = Image.new("RGBA", rgb.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(overlay)

    def local(area: str) -> tuple[float, float]:
        x, y = _units_centre(area)
        return x - box[0], y - box[1]

    target = local(area_id)
    attacker = _side_house(battle, "attacker")
    defender = _side_house(battle, "defender")
    supporters = battle.get("supporters") or {}
    for side, colour in (
        ("attacker", style.house_style(attacker or "").colour),
        ("defender", style.house_style(defender or "").colour),
        ("undecided", style.STONE),
    ):
        for a in supporters.get(side) or []:
            if a in areas():
                _arrow(d, local(a), target, colour, 6)
    src = battle.get("from")
    if isinstance(src, str) and src in areas():
        _arrow(d, local(src), target, style.house_style(attacker or "").colour, 12)
    # Arrows are see-through so the names under them stay legible.
    alpha = overlay.getchannel("A").point(lambda v: v * 72 // 100)
    rgb.paste(overlay.convert("RGB"), (0, 0), alpha)
    crop = rgb
    zoom = min(MAX_ZOOM, OUT_W / crop.width)
    crop = crop.resize((round(crop.width * zoom), round(crop.height * zoom)), Image.Resampling.BICUBIC)
    panel = _battle_panel(view, battle, lang, max(OUT_W, crop.width))
    out = Image.new("RGB", (max(crop.width, panel.width), crop.height + panel.height), PAPER)
    out.paste(crop, ((out.width - crop.width) // 2, 0))
    out.paste(panel, (0, crop.height))
    # 256 colours (fast octree, no dithering): a third of the bytes and of the encoding time of RGB.
    out = out.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    out.save(buf, "PNG", compress_level=1, compress_type=3)
    return buf.getvalue()


def _card_line(card: Any, lang: str) -> tuple[str, str]:
    if not isinstance(card, str) or not card:
        return t("b.card_hidden", lang), ""
    info = house_cards().get(card, {})
    extra = []
    if isinstance(info.get("strength"), int):
        extra.append(f"+{info['strength']}")
    if info.get("swords"):
        extra.append("⚔" * int(info["swords"]))
    if info.get("fortifications"):
        extra.append("▣" * int(info["fortifications"]))
    return house_card_name(card, lang), " ".join(extra)


def _tides_line(card: Any) -> str:
    if not isinstance(card, str) or not card:
        return "—"
    info = tides_cards().get(card, {})
    bits = [card.replace("-", " ")]
    if isinstance(info.get("value"), int):
        bits.append(f"+{info['value']}")
    if info.get("swords"):
        bits.append("⚔")
    if info.get("fortifications"):
        bits.append("▣")
    if info.get("skulls"):
        bits.append("☠")
    return " ".join(bits)


def _battle_panel(view: View, battle: dict[str, Any], lang: str, width: int) -> Image.Image:
    rows_h = 560
    img = Image.new("RGB", (width, rows_h), PAPER)
    d = ImageDraw.Draw(img)
    d.line((0, 1, width, 1), fill=style.BORDER_LAND, width=3)
    area_name = areas()[str(battle["area"])].name(lang)
    pad = 24
    y = 16
    d.text((pad, y), t("battle", lang, area=area_name), font=font("bold", 30), fill=INK)
    y += 48
    col_w = (width - 2 * pad) // 2
    label_font, value_font, small = font("regular", 17), font("bold", 19), font("regular", 15)
    sides = ("attacker", "defender")
    houses = {s: _side_house(battle, s) for s in sides}
    for i, side in enumerate(sides):
        x = pad + i * col_w
        h = houses[side]
        colour = style.house_style(h).colour if h else style.NEUTRAL_FORCE
        ink = style.house_style(h).ink if h else WHITE
        d.rounded_rectangle((x, y, x + col_w - 12, y + 44), radius=8, fill=colour, outline=OUTLINE, width=2)
        title = t(side, lang) + ": " + (house_name(h, lang) if h else t("neutral_side", lang))
        d.text((x + 14, y + 22), title, font=font("bold", 21), fill=ink, anchor="lm")
    y += 56
    state = area_state(view, str(battle["area"]))

    def row(label: str, values: dict[str, str | None], yy: int, strong: bool = False) -> int:
        for i, side in enumerate(sides):
            x = pad + i * col_w
            v = values.get(side)
            if v is None:
                continue
            d.text((x + 4, yy), label, font=label_font, fill=MUTED)
            d.text((x + 190, yy - 2), v, font=font("bold", 24) if strong else value_font, fill=INK)
        return yy + (34 if strong else 28)

    # Units, drawn as the same groups as on the map.
    for i, side in enumerate(sides):
        x = pad + i * col_w
        d.text((x + 4, y + 6), t("b.units", lang), font=label_font, fill=MUTED)
        units = [dict(u, house=houses[side] or "neutral") for u in battle.get(f"{side}_units") or []]
        if houses[side] and units:
            for house, group in tokens.group_units(units).items():
                _paste(img, tokens.unit_group(house, group, lang), x + 190, y)
        elif side == "defender" and not houses[side]:
            n = state.get("neutral")
            if isinstance(n, int):
                _paste(img, tokens.neutral_token(n), x + 190, y)
    y += 42
    src = battle.get("from")
    if isinstance(src, str) and src in areas():
        d.text((pad + 4, y), t("b.from", lang, area=areas()[src].name(lang)), font=small, fill=MUTED)
    y += 26
    bonuses: dict[str, str | None] = {"attacker": None, "defender": None}
    for side, key in (("attacker", "march_bonus"), ("defender", "defense_bonus")):
        bonus = battle.get(key)
        bonuses[side] = f"{bonus:+d}" if isinstance(bonus, int) and bonus else "—"
    y = row(t("b.march", lang), {"attacker": bonuses["attacker"]}, y)
    y -= 28
    y = row(t("b.defense", lang), {"defender": bonuses["defender"]}, y)
    garrison = battle.get("garrison")
    y = row(t("b.garrison", lang), {"defender": f"+{garrison}" if isinstance(garrison, int) and garrison else "—"}, y)
    sup = battle.get("supporters") or {}
    names: dict[str, str | None] = {}
    for side in sides:
        got = [areas()[a].name(lang) for a in sup.get(side) or [] if a in areas()]
        names[side] = ", ".join(got) if got else t("b.none", lang)
    y = row(t("b.support", lang), names, y)
    undecided = [areas()[a].name(lang) for a in sup.get("undecided") or [] if a in areas()]
    if undecided:
        d.text((pad + 4, y), t("b.undecided", lang, areas=", ".join(undecided)), font=small, fill=ALERT)
        y += 26
    cards = battle.get("cards") or {}
    card_vals: dict[str, str | None] = {}
    for side in sides:
        if side == "defender" and not houses[side]:
            card_vals[side] = None
            continue
        name, extra = _card_line(cards.get(side), lang)
        card_vals[side] = f"{name} {extra}".strip()
    y = row(t("b.card", lang), card_vals, y)
    blade = battle.get("blade")
    y = row(
        t("b.blade", lang),
        {s: ("+1" if blade and blade == houses[s] else "—") for s in sides},
        y,
    )
    tides = battle.get("tides") or {}
    if any(tides.get(s) for s in sides):
        y = row(t("b.tides", lang), {s: _tides_line(tides.get(s)) for s in sides}, y)
    d.line((pad, y + 4, width - pad, y + 4), fill=RULE, width=2)
    y += 14
    strength = battle.get("strength") or {}
    y = row(t("b.total", lang), {s: str(strength.get(s, "?")) for s in sides}, y, strong=True)
    winner = battle.get("winner")
    if winner:
        w_name = house_name(winner, lang) if winner in (houses["attacker"], houses["defender"]) else str(winner)
        if winner in sides:
            w_name = t(winner, lang)
        y += 6
        d.rounded_rectangle((pad, y, width - pad, y + 40), radius=8, fill=GOLD, outline=INK, width=2)
        d.text((pad + 14, y + 20), t("b.winner", lang, side=w_name), font=font("bold", 21), fill=INK, anchor="lm")
        y += 48
    d.rectangle((0, y + 12, width, y + 14), fill=PAPER_DARK)
    return img.crop((0, 0, width, y + 16))
