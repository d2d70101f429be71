"""Colour-vision checks: simulate colour-vision deficiencies and measure colour differences.

Used by the tests (and by hand when tuning ``style.HOUSE_STYLES``) to keep the house tints apart from each other and
from unowned land for every player.

* Simulation: Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for Simulation of Color Vision
  Deficiency", severity 1.0 matrices for protanopia, deuteranopia and tritanopia, applied in linear sRGB.
* Difference: CIEDE2000 (Sharma, Wu & Dalal 2005 formulation) between CIELAB colours (D65).
"""

from __future__ import annotations

import math

RGB = tuple[int, int, int]
Lab = tuple[float, float, float]

# Machado et al. 2009, severity 1.0 (rows: output R, G, B from linear input R, G, B).
MACHADO: dict[str, tuple[tuple[float, float, float], ...]] = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
VISIONS = tuple(MACHADO)


def _to_linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_srgb(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(rgb: RGB, vision: str) -> RGB:
    """``rgb`` as a viewer with ``vision`` (one of :data:`VISIONS`) sees it."""
    m = MACHADO[vision]
    lin = [_to_linear(c) for c in rgb]
    out = [sum(m[r][k] * lin[k] for k in range(3)) for r in range(3)]
    return (round(_to_srgb(out[0])), round(_to_srgb(out[1])), round(_to_srgb(out[2])))


def to_lab(rgb: RGB) -> Lab:
    r, g, b = (_to_linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(c1: RGB, c2: RGB) -> float:
    """CIEDE2000 colour difference between two sRGB colours."""
    return ciede2000_lab(to_lab(c1), to_lab(c2))


def ciede2000_lab(lab1: Lab, lab2: Lab) -> float:
    """CIEDE2000 colour difference between two CIELAB colours (kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar**7 / (cbar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    elif h2p - h1p > 180:
        dhp = h2p - h1p - 360
    else:
        dhp = h2p - h1p + 360
    dhp_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hbar = (h1p + h2p + 360) / 2
    else:
        hbar = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbar - 30))
        + 0.24 * math.cos(math.radians(2 * hbar))
        + 0.32 * math.cos(math.radians(3 * hbar + 6))
        - 0.20 * math.cos(math.radians(4 * hbar - 63))
    )
    dtheta = 30 * math.exp(-(((hbar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp**7 / (cbarp**7 + 25**7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp_big / sh) ** 2 + rt * (dcp / sc) * (dhp_big / sh))


def contrast_ratio(c1: RGB, c2: RGB) -> float:
    """WCAG 2 contrast ratio (1..21)."""

    def lum(c: RGB) -> float:
        r, g, b = (_to_linear(v) for v in c)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    hi, lo = sorted((lum(c1), lum(c2)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def min_pair_distance(colours: dict[str, RGB], vision: str) -> tuple[float, str, str]:
    """The smallest CIEDE2000 distance between two of ``colours`` as seen with ``vision``, and the pair."""
    seen = {k: simulate(c, vision) for k, c in colours.items()}
    keys = list(seen)
    best = (math.inf, "", "")
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            d = ciede2000(seen[a], seen[b])
            if d < best[0]:
                best = (d, a, b)
    return best
