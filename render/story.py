"""The pictures of a game's story (issue W): line charts of the houses' victory points, Power and supply round by
round, drawn with matplotlib (Agg, no screen) in the houses' colours, and the timelapse of the public board, one
frame per round, as an animated GIF that Discord plays inline.

Plain data in (series by house, the public views of the rounds' ends), PNG or GIF bytes out; the words come from the
catalogs (``image.story.*``). Charts are 1000 px wide with large type, so a phone shows them without zooming.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no screen: before pyplot is imported anywhere

import matplotlib.patheffects as effects
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from PIL import Image

from render import palette, style
from render.api import compose_board
from render.data import board_of
from render.strings import house_name, t
from render.views import View, require_public

CHART_W_IN = 10.0  # inches at DPI: 1000 px, a phone's width
DPI = 100
FONT = 20  # points at 100 dpi: about 28 px tall, read at a phone's width without zooming
FRAME_MS = 1200  # each round of the timelapse
LAST_FRAME_MS = 4000  # the final board stays a while before the loop starts again
GIF_LIMIT = 2 * 1024 * 1024  # our ceiling for an image (Discord's is larger: ../shared/design/discord-ux.md)

Series = Mapping[str, Sequence[int]]

_lock = threading.Lock()  # matplotlib's state is not thread-safe; an image worker may run threads


def _hex(colour: style.RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _style_axes(ax: Any, title: str, rounds: Sequence[int], lang: str) -> None:
    ax.set_title(title, fontsize=FONT + 4, fontweight="bold", color=_hex(style.INK), loc="left")
    ax.set_facecolor(_hex(style.WHITE))
    ax.grid(True, color=_hex(style.RULE), alpha=0.35, linewidth=1)
    ax.set_xticks(list(rounds))
    ax.set_xticklabels([t("story.start", lang) if r == 0 else str(r) for r in rounds])
    ax.tick_params(labelsize=FONT - 2, colors=_hex(style.INK))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(rounds[0] - 0.2, rounds[-1] + 0.2)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def _lines(ax: Any, rounds: Sequence[int], series: Series, houses: Sequence[str], dashed: set[str]) -> None:
    """One line per house in its colour, outlined in ink so a light colour (Stark's) reads on white; houses that
    share values are spread a hair apart so that none hides another."""
    count = max(1, len(houses))
    for i, house in enumerate(houses):
        offset = (i - (count - 1) / 2) * 0.04
        values = [v + offset for v in series[house]]
        ax.plot(
            list(rounds),
            values,
            color=_hex(style.house_style(house).colour),
            linewidth=4,
            linestyle="--" if house in dashed else "-",
            marker="o",
            markersize=8,
            path_effects=[effects.Stroke(linewidth=6.5, foreground=_hex(style.INK)), effects.Normal()],
        )


def _legend(fig: Figure, houses: Sequence[str], lang: str, dashed: set[str]) -> None:
    from matplotlib.lines import Line2D

    handles = [
        Line2D(
            [],
            [],
            color=_hex(style.house_style(h).colour),
            linewidth=5,
            linestyle="--" if h in dashed else "-",
            path_effects=[effects.Stroke(linewidth=7.5, foreground=_hex(style.INK)), effects.Normal()],
        )
        for h in houses
    ]
    labels = [house_name(h, lang) for h in houses]
    fig.legend(handles, labels, loc="lower center", ncol=min(4, len(houses)), fontsize=FONT - 2, frameon=False)


def _bottom(fig: Figure, legend_rows: int) -> float:
    """The share of the figure under the axes: the round numbers and the word "Round" (about 95 px), then the
    legend's rows (about 40 px each)."""
    return (95 + 40 * legend_rows + 10) / (fig.get_figheight() * DPI)


def _png(fig: Figure) -> bytes:
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=DPI, facecolor=fig.get_facecolor())
    return out.getvalue()


def victory_chart(
    rounds: Sequence[int], series: Series, houses: Sequence[str], lang: str, *, loyalty: bool, vassals: set[str]
) -> bytes:
    """Every house's victory points (Targaryen's loyalty in Mother of Dragons) at the start and each round's end."""
    with _lock:
        legend_rows = (len(houses) + 3) // 4
        fig = Figure(figsize=(CHART_W_IN, 6.2 + 0.4 * legend_rows), facecolor=_hex(style.PAPER))
        ax = fig.add_subplot()
        _style_axes(ax, t("story.victory-title.loyalty" if loyalty else "story.victory-title", lang), rounds, lang)
        ax.set_xlabel(t("story.round", lang), fontsize=FONT)
        _lines(ax, rounds, series, houses, vassals)
        top = max([7, *(max(v) for v in series.values())])
        ax.set_ylim(-0.3, top + 0.5)
        ax.axhline(7, color=_hex(style.GOLD_DARK), linewidth=2, linestyle=":")
        _legend(fig, houses, lang, vassals)
        fig.subplots_adjust(left=0.08, right=0.98, top=0.91, bottom=_bottom(fig, legend_rows))
        return _png(fig)


def power_supply_chart(
    rounds: Sequence[int], power: Series, supply: Series, houses: Sequence[str], lang: str, *, vassals: set[str]
) -> bytes:
    """Power (available tokens) above, supply below, at the start and each round's end."""
    with _lock:
        legend_rows = (len(houses) + 3) // 4
        fig = Figure(figsize=(CHART_W_IN, 11.0 + 0.4 * legend_rows), facecolor=_hex(style.PAPER))
        top, bottom = fig.subplots(2, 1, sharex=True)
        _style_axes(top, t("story.power-title", lang), rounds, lang)
        _lines(top, rounds, power, houses, vassals)
        top.set_ylim(bottom=-0.3)
        _style_axes(bottom, t("story.supply-title", lang), rounds, lang)
        _lines(bottom, rounds, supply, houses, vassals)
        bottom.set_ylim(-0.3, 6.5)
        bottom.set_xlabel(t("story.round", lang), fontsize=FONT)
        _legend(fig, houses, lang, vassals)
        fig.subplots_adjust(left=0.08, right=0.98, top=0.95, bottom=_bottom(fig, legend_rows), hspace=0.28)
        return _png(fig)


def timelapse(views: Sequence[View], lang: str) -> bytes:
    """The public board (its status strip over the map of Westeros) at each view, as an animated GIF looping over
    the rounds. The frames are the board's own palette images, not resampled (the board is drawn for a phone's
    width already), aligned on the map so that only what changed moves; a private view is refused."""
    frames = []
    for view in views:
        v = require_public(view)
        frames.append(compose_board(board_of(v), v, lang))
    width = max(f.width for f in frames)
    height = max(f.height for f in frames)
    aligned = []
    for f in frames:
        if f.size == (width, height):
            aligned.append(f)
            continue
        padded = Image.new("P", (width, height), palette.idx(style.PAPER))
        padded.putpalette(f.getpalette() or [])
        padded.paste(f, (0, height - f.height))  # the status strip's height varies: the maps stay in place
        aligned.append(padded)
    while True:
        out = io.BytesIO()
        durations = [FRAME_MS] * (len(aligned) - 1) + [LAST_FRAME_MS]
        aligned[0].save(out, "GIF", save_all=True, append_images=aligned[1:], duration=durations, loop=0)
        if out.tell() <= GIF_LIMIT or len(aligned) <= 2:
            return out.getvalue()
        # Too big for our limit (a board crowded with pieces): every other round, the start and the end kept.
        aligned = [*aligned[:-1:2], aligned[-1]]


def pictures(
    rounds: Sequence[int],
    victory: Series,
    power: Series,
    supply: Series,
    houses: Sequence[str],
    views: Sequence[View],
    lang: str,
    *,
    loyalty: bool,
    vassals: set[str],
    names: tuple[str, str, str],
) -> list[tuple[str, bytes]]:
    """The story's three pictures, named ``names`` (victory chart, Power and supply chart, timelapse)."""
    return [
        (names[0], victory_chart(rounds, victory, houses, lang, loyalty=loyalty, vassals=vassals)),
        (names[1], power_supply_chart(rounds, power, supply, houses, lang, vassals=vassals)),
        (names[2], timelapse(views, lang)),
    ]


def warm() -> None:
    """matplotlib imported and a first chart drawn in each language (fonts found, glyphs cached): the first story of
    an image worker is then as quick as the next (cogs/warm.py)."""
    for lang in ("en", "ru"):
        victory_chart((0, 1), {"stark": (1, 2)}, ("stark",), lang, loyalty=False, vassals=set())
