"""Small anti-aliased pictures ("stamps") mapped to the fixed palette once and pasted many times.

A stamp is drawn in RGB (pictures supersampled, text at 1x with the font's hinting), mapped onto the fixed palette
entries and given a hard-edged mask, so pasting it into the palette image costs one ``Image.paste``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from render import palette
from render.fonts import font
from render.icons import ALL_PAINTERS
from render.style import OUTLINE, RGB

SS = 4  # supersampling factor of drawn stamps


@dataclass(frozen=True)
class Stamp:
    image: Image.Image  # mode P, fixed palette entries only
    mask: Image.Image | None  # mode L (0/255), None for an opaque rectangle

    @property
    def width(self) -> int:
        return self.image.width

    @property
    def height(self) -> int:
        return self.image.height

    def paste(self, dst: Image.Image, x: float, y: float) -> None:
        """Paste with the top-left corner at (x, y)."""
        dst.paste(self.image, (round(x), round(y)), self.mask)

    def paste_centred(self, dst: Image.Image, cx: float, cy: float) -> None:
        self.paste(dst, cx - self.width / 2, cy - self.height / 2)


def _finish(rgb: Image.Image, alpha: Image.Image | None, threshold: int = 110) -> Stamp:
    image = palette.quantize(rgb)
    mask = None
    if alpha is not None:
        mask = alpha.point(lambda v: 255 if v >= threshold else 0)
        if mask.getextrema() == (255, 255):
            mask = None
    return Stamp(image, mask)


@lru_cache(maxsize=4096)
def text(
    content: str,
    weight: str,
    size: int,
    ink: RGB,
    *,
    halo: RGB | None = None,
    bg: RGB | None = None,
    stroke: int = 2,
) -> Stamp:
    """``content`` on one line. With ``halo``: ink inside a halo of ``stroke`` px, masked to the halo's shape.
    With ``bg``: an opaque rectangle of ``bg``. Height is the font's ascent + descent (+ halo), so stamps of
    one size share a baseline."""
    f = font(weight, size)
    sw = stroke if halo is not None else 0
    ascent, descent = f.getmetrics()
    left, _, right, _ = f.getbbox(content, anchor="ls", stroke_width=sw)
    w = max(1, math.ceil(right - left))
    h = ascent + descent + 2 * sw
    origin = (-math.floor(left), ascent + sw)
    back = halo if halo is not None else (bg if bg is not None else ink)
    rgb = Image.new("RGB", (w, h), back)
    ImageDraw.Draw(rgb).text(origin, content, font=f, fill=ink, anchor="ls", stroke_width=sw, stroke_fill=back)
    if halo is None and bg is not None:
        return _finish(rgb, None)
    alpha = Image.new("L", (w, h), 0)
    ImageDraw.Draw(alpha).text(origin, content, font=f, fill=255, anchor="ls", stroke_width=sw, stroke_fill=255)
    return _finish(rgb, alpha, threshold=90 if halo is not None else 100)


class Canvas:
    """A supersampled RGB drawing with coverage, in final-pixel coordinates."""

    def __init__(self, w: int, h: int, *, fringe: RGB = OUTLINE, ss: int = SS) -> None:
        self.w, self.h, self.ss = w, h, ss
        self.rgb = Image.new("RGB", (w * ss, h * ss), fringe)
        self.alpha = Image.new("L", (w * ss, h * ss), 0)
        self._d = ImageDraw.Draw(self.rgb)
        self._a = ImageDraw.Draw(self.alpha)

    def _box(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        s = self.ss
        return (box[0] * s, box[1] * s, box[2] * s - 1, box[3] * s - 1)

    def ellipse(self, box: tuple[float, float, float, float], fill: RGB) -> None:
        b = self._box(box)
        self._d.ellipse(b, fill=fill)
        self._a.ellipse(b, fill=255)

    def rect(self, box: tuple[float, float, float, float], fill: RGB, radius: float = 0) -> None:
        b = self._box(box)
        if radius:
            self._d.rounded_rectangle(b, radius * self.ss, fill=fill)
            self._a.rounded_rectangle(b, radius * self.ss, fill=255)
        else:
            self._d.rectangle(b, fill=fill)
            self._a.rectangle(b, fill=255)

    def polygon(self, pts: list[tuple[float, float]], fill: RGB) -> None:
        scaled = [(x * self.ss, y * self.ss) for x, y in pts]
        self._d.polygon(scaled, fill=fill)
        self._a.polygon(scaled, fill=255)

    def line(self, pts: list[tuple[float, float]], fill: RGB, width: float) -> None:
        scaled = [(x * self.ss, y * self.ss) for x, y in pts]
        self._d.line(scaled, fill=fill, width=max(1, round(width * self.ss)))
        self._a.line(scaled, fill=255, width=max(1, round(width * self.ss)))

    def icon(self, kind: str, box: tuple[float, float, float, float], fill: RGB, *, rotate: int = 0) -> None:
        """Pictogram ``kind`` in ``box``; ``rotate`` (degrees, counter-clockwise) lays it on its side."""
        s = self.ss
        w, h = round((box[2] - box[0]) * s), round((box[3] - box[1]) * s)
        painter = ALL_PAINTERS[kind]
        if not rotate:
            painter(self._d, self._box(box), fill)
            painter(self._a, self._box(box), 255)  # type: ignore[arg-type]
            return
        mask = Image.new("L", (w, h), 0)
        painter(ImageDraw.Draw(mask), (0, 0, w - 1, h - 1), 255)  # type: ignore[arg-type]
        mask = mask.rotate(rotate, resample=Image.Resampling.BILINEAR)
        at = (round(box[0] * s), round(box[1] * s))
        self.rgb.paste(fill, (at[0], at[1], at[0] + w, at[1] + h), mask)
        self.alpha.paste(255, (at[0], at[1], at[0] + w, at[1] + h), mask)

    def text(
        self, xy: tuple[float, float], content: str, weight: str, size: float, fill: RGB, anchor: str = "mm"
    ) -> None:
        f = font(weight, round(size * self.ss))
        at = (xy[0] * self.ss, xy[1] * self.ss)
        self._d.text(at, content, font=f, fill=fill, anchor=anchor)
        self._a.text(at, content, font=f, fill=255, anchor=anchor)

    def finish(self, threshold: int = 110) -> Stamp:
        rgb = self.rgb.reduce(self.ss)
        alpha = self.alpha.reduce(self.ss)
        return _finish(rgb, alpha, threshold)


@lru_cache(maxsize=512)
def glyph(kind: str, size: int, fill: RGB, outline: RGB | None = OUTLINE, outline_px: float = 1.2) -> Stamp:
    """A lone pictogram ``size`` px square, optionally ringed by ``outline``."""
    c = Canvas(size, size, fringe=outline or fill)
    if outline is None:
        c.icon(kind, (0, 0, size, size), fill)
        return c.finish()
    pad = outline_px
    inner = (pad, pad, size - pad, size - pad)
    silhouette = Image.new("L", c.alpha.size, 0)
    ALL_PAINTERS[kind](ImageDraw.Draw(silhouette), c._box(inner), 255)  # type: ignore[arg-type]
    ring = silhouette.filter(ImageFilter.MaxFilter(2 * round(outline_px * c.ss) + 1))
    c.rgb.paste(outline, (0, 0), ring)
    c.alpha.paste(255, (0, 0), ring)
    c.icon(kind, inner, fill)
    return c.finish()
