"""The committed area shapes (assets/, built by build_shapes.py), loaded once per process."""

from __future__ import annotations

import json
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from render.data import BOARDS, RenderBoard, areas_of
from render.palette import NO_AREA


def labels(board: RenderBoard) -> Image.Image:
    """Mode L image: pixel value = the grid_value of the area drawn there."""
    return _image(board.name, "areas.png")


def borders(board: RenderBoard) -> Image.Image:
    """Mode L image: border class per pixel (see build_shapes)."""
    return _image(board.name, "borders.png")


@cache
def _image(board: str, name: str) -> Image.Image:
    with Image.open(BOARDS[board].assets / name) as im:
        im.load()
        return Image.frombytes("L", im.size, im.tobytes())


def meta(board: RenderBoard) -> dict[str, Any]:
    return _meta(board.name)


@cache
def _meta(board: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((BOARDS[board].assets / "areas.json").read_text(encoding="utf-8"))
    return data


def area_meta(board: RenderBoard, area_id: str) -> dict[str, Any]:
    rec: dict[str, Any] = meta(board)["areas"][area_id]
    return rec


def area_mask(board: RenderBoard, area_id: str) -> tuple[tuple[int, int, int, int], Image.Image]:
    """(bbox, mode L mask of the area within its bbox)."""
    return _area_mask(board.name, area_id)


@lru_cache(maxsize=64)
def _area_mask(board: str, area_id: str) -> tuple[tuple[int, int, int, int], Image.Image]:
    k = areas_of(board)[area_id].index
    x0, y0, x1, y1 = _meta(board)["areas"][area_id]["bbox"]
    crop = _image(board, "areas.png").crop((x0, y0, x1, y1))
    return (x0, y0, x1, y1), crop.point(lambda v: 255 if v == k else 0)


def hatch_mask(
    board: RenderBoard, area_id: str, spacing: int = 10, width: int = 2
) -> tuple[tuple[int, int], Image.Image]:
    """Diagonal hatching clipped to an area: (top-left, mask)."""
    return _hatch_mask(board.name, area_id, spacing, width)


@lru_cache(maxsize=64)
def _hatch_mask(board: str, area_id: str, spacing: int, width: int) -> tuple[tuple[int, int], Image.Image]:
    box, mask = _area_mask(board, area_id)
    w, h = mask.size
    lines = Image.new("L", mask.size, 0)
    d = ImageDraw.Draw(lines)
    for off in range(-h, w + h, spacing):
        d.line((off, 0, off + h, h), fill=255, width=width)
    return (box[0], box[1]), ImageChops.darker(lines, mask)


def outline_mask(board: RenderBoard, area_id: str, thickness: int = 5) -> tuple[tuple[int, int], Image.Image]:
    """A band along the inside of an area's edge: (top-left, mask)."""
    return _outline_mask(board.name, area_id, thickness)


@lru_cache(maxsize=16)
def _outline_mask(board: str, area_id: str, thickness: int) -> tuple[tuple[int, int], Image.Image]:
    box, mask = _area_mask(board, area_id)
    pad = Image.new("L", (mask.width + 2, mask.height + 2), 0)
    pad.paste(mask, (1, 1))
    eroded = pad.filter(ImageFilter.MinFilter(2 * thickness + 1)).crop((1, 1, mask.width + 1, mask.height + 1))
    return (box[0], box[1]), ImageChops.subtract(mask, eroded)


def panel_box(board: RenderBoard) -> tuple[int, int, int, int] | None:
    """The box of the part of the map that is no area (the Essos board's Iron Bank panel), or None."""
    return _panel_box(board.name)


@cache
def _panel_box(board: str) -> tuple[int, int, int, int] | None:
    return _image(board, "areas.png").point(lambda v: 255 if v == NO_AREA else 0).getbbox()
