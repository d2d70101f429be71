"""The bundled DejaVu fonts (render/fonts, Bitstream Vera licence); never a system font."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"

FONT_FILES: dict[str, str] = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed-Bold.ttf",
}


@cache
def font(weight: str, size: int) -> ImageFont.FreeTypeFont:
    """The bundled font ``weight`` (regular | bold | condensed) at ``size`` px, loaded once."""
    path = FONT_DIR / FONT_FILES[weight]
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


def text_size(text: str, weight: str, size: int, stroke: int = 0) -> tuple[int, int]:
    """Width and height of ``text``'s ink box (including a halo of ``stroke`` px)."""
    left, top, right, bottom = font(weight, size).getbbox(text, stroke_width=stroke)
    return int(right - left), int(bottom - top)
