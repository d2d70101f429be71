"""Draws a view's pieces on the map: units, orders, power tokens, garrisons, neutral forces, hatching."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render import palette, shapes, style, tokens
from render.base import draw_label
from render.data import areas
from render.views import View, area_state


def _centre(rect: list[int]) -> tuple[float, float]:
    return rect[0] + rect[2] / 2, rect[1] + rect[3] / 2


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def draw_pieces(img: Image.Image, view: View, lang: str, dx: int = 0, dy: int = 0) -> None:
    """Draw every area's pieces; the map's origin is at (dx, dy) in ``img``."""
    hatch = palette.idx(style.HATCH)
    for area_id, area in areas().items():
        state = area_state(view, area_id)
        if not state:
            continue
        rec = shapes.area_meta(area_id)
        compact = bool(rec.get("compact")) or area.kind == "port"
        ux, uy = _centre(rec["units"])
        ux, uy = ux + dx, uy + dy
        neutral = state.get("neutral")
        if neutral == "impassable":
            (hx, hy), mask = shapes.hatch_mask(area_id)
            img.paste(hatch, (hx + dx, hy + dy, hx + dx + mask.width, hy + dy + mask.height), mask)
            draw_label(img, area_id, lang, dx, dy)  # keep the name readable over the hatching
            tokens.neutral_token(None, 30 if compact else 34).paste_centred(img, ux, uy)
        elif _int(neutral) is not None:
            tokens.neutral_token(_int(neutral), 30 if compact else 34).paste_centred(img, ux, uy)
        garrison = _int(state.get("garrison"))
        if garrison:
            gx, gy = _centre(rec.get("garrison") or rec["units"])
            tokens.garrison_token(garrison, area.home_of, 26 if compact else 30).paste_centred(img, gx + dx, gy + dy)
        power = state.get("power_token")
        if isinstance(power, str):
            slot = rec.get("power") or rec["order"]
            px, py = _centre(slot)
            tokens.power_token(power, lang, 24 if compact else 27).paste_centred(img, px + dx, py + dy)
        order = state.get("order")
        if isinstance(order, dict) and order.get("house"):
            ox, oy = _centre(rec["order"])
            size = 32 if compact else 40
            if order.get("hidden") or not order.get("type"):
                stamp = tokens.order_token(str(order["house"]), None, False, 0, size)
            else:
                bonus = _int(order.get("bonus")) or 0
                kind = str(order["type"])
                stamp = tokens.order_token(str(order["house"]), kind, bool(order.get("star")), bonus, size)
            stamp.paste_centred(img, ox + dx, oy + dy)
        units = state.get("units") or []
        if units and not neutral:
            groups = tokens.group_units(units)
            n = len(groups)
            for i, (house, group) in enumerate(sorted(groups.items())):
                stamp = tokens.unit_group(house, group, lang, compact)
                offset = (i - (n - 1) / 2) * (stamp.height + 2)
                stamp.paste_centred(img, ux, uy + offset)
