"""Time the renderer: full board, battle crop and side panel, against the cost of encoding a blank PNG.

    python bench/render.py          # human-readable
    python bench/render.py --json   # one JSON object
    python bench/render.py --ruleset mother-of-dragons --players 8   # Targaryen plays: the board with Essos

``floor_ms`` is Pillow encoding a blank image of the board's size, mode and palette with the same PNG options the
renderer uses; the board should stay within 3x of it. Board and floor are timed alternately (board, floor, board,
floor...) so that machine noise hits both alike. The ``phone_*`` and ``crop_*`` figures come from the renderer's own
layout (render/measure.py), at a phone's width of 1080 px: the smallest chip or token, the smallest name, overlaps
between pieces, names and arrows, pieces partly off their area, and the farthest an order lies from its units.
``board_ms`` re-renders one view (warm caches, as when a
game's state has just been drawn once); ``board_fresh_ms`` renders a different state each run (moved units, new
numbers in the panel), which is what a running game mostly does.

The default is the crafted six-house position of the tests (tests/render/viewkit.py); any other ruleset or player
count plays a game with the engine's heuristic agents and takes a position of round 3 or later, its orders revealed,
and a battle (tests/render/modkit.py). On the board with Essos ``render_board`` draws the board image with the Essos
image under it; a whole-board post sends the two apart: ``board_image_ms`` and ``essos_ms`` time them, and the
``essos_*`` figures are those of the Essos image at 1080 px wide.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from render import measure, palette, render_battle, render_board, render_panel  # noqa: E402
from render.api import PNG_OPTIONS, compose_board  # noqa: E402
from render.crop import encode as encode_crop  # noqa: E402
from render.data import board_of  # noqa: E402
from render.essos import compose_essos  # noqa: E402
from render.png import encode_png  # noqa: E402
from tests.render import modkit  # noqa: E402
from tests.render.viewkit import battle_view, midgame_view, starting_view, sunset_battle_view  # noqa: E402

View = dict[str, Any]


def positions(ruleset: str, players: int) -> tuple[View, list[View], list[View]]:
    """The main position, more boards to measure, and battles: the crafted ones for the default, else from a game."""
    if ruleset == "base" and players == 6:
        return midgame_view(), [starting_view(n) for n in (3, 4, 5, 6)], [battle_view(), sunset_battle_view()]
    setup = [modkit.setup_view(players, ruleset=ruleset)]
    if ruleset == "mother-of-dragons" and players == 8:  # and Targaryen in a 4-player game (vassals)
        setup.append(modkit.setup_view(["stark", "lannister", "arryn", "targaryen"]))
    return modkit.midgame_view(players, ruleset=ruleset), setup, [modkit.battle_view(players, ruleset=ruleset)]


def alternate_ms(funcs: list[Callable[[int], Any]], runs: int) -> list[float]:
    """Median ms of each function, timed in turn within every run (not in separate blocks)."""
    times: list[list[float]] = [[] for _ in funcs]
    for i in range(runs):
        for k, func in enumerate(funcs):
            start = time.perf_counter()
            func(i)
            times[k].append((time.perf_counter() - start) * 1000)
    return [statistics.median(t) for t in times]


def median_ms(func: Callable[[int], Any], runs: int) -> float:
    times = []
    for i in range(runs):
        start = time.perf_counter()
        func(i)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def fresh_views(base: dict[str, Any], n: int) -> list[dict[str, Any]]:
    """``n`` different states: units shuffled between areas, power, supply and round changed."""
    out = []
    movable = [a for a, s in base["areas"].items() if s["units"]]
    for i in range(n):
        v = copy.deepcopy(base)
        v["version"] = base["version"] + i + 1
        v["round"] = 1 + (base["round"] + i) % 10
        v["wildling_threat"] = (2 * i) % 13
        for house in v["power"]:
            v["power"][house] = (v["power"][house] + i) % 20
        src, dst = movable[i % len(movable)], movable[(i + 3) % len(movable)]
        v["areas"][src]["units"], v["areas"][dst]["units"] = v["areas"][dst]["units"], v["areas"][src]["units"]
        out.append(v)
    return out


def encode(img: Image.Image, **options: Any) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", **options)
    return buf.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--ruleset", choices=("base", "mother-of-dragons"), default="base")
    parser.add_argument("--players", type=int, default=6, help="3-6 (base), 3-8 (mother-of-dragons; 8: Targaryen)")
    args = parser.parse_args()
    runs = max(3, args.runs)

    view, more_boards, battles = positions(args.ruleset, args.players)
    fight = battles[0]
    board_def = board_of(view)
    start = time.perf_counter()
    board = render_board(view, "en")  # first call also builds the static layer and the stamps
    cold_ms = (time.perf_counter() - start) * 1000
    width, height = Image.open(io.BytesIO(board)).size
    render_battle(fight, "en")
    render_panel(view, "en")
    fresh = fresh_views(view, runs)
    render_board(fresh[0], "en")

    blank = Image.new("P", (width, height), 0)
    blank.putpalette(palette.palette_bytes({}))
    board_ms, floor_ms, fresh_ms = alternate_ms(
        [
            lambda _i: render_board(view, "en"),
            lambda _i: encode(blank, **PNG_OPTIONS),
            lambda i: render_board(fresh[i], "en"),
        ],
        runs,
    )
    board_ru_ms = median_ms(lambda _i: render_board(view, "ru"), runs)
    battle_ms = median_ms(lambda _i: render_battle(fight, "en"), runs)
    panel_ms = median_ms(lambda _i: render_panel(view, "en"), runs)
    blank_rgb = Image.new("RGB", (width, height), (0, 0, 0))
    floor_rgb_ms = median_ms(lambda _i: encode(blank_rgb), max(3, runs // 3))
    boards = [view, *fresh[:3], *more_boards]
    phone = measure.board_figures(boards)
    crops = measure.sample_crops(view, battles)
    crop = measure.crop_figures(crops)
    crop_ms = median_ms(lambda i: encode_crop(crops[i % len(crops)].image), runs)
    essos: dict[str, Any] = {}
    if board_def.has_essos:
        parts_ms = alternate_ms(
            [
                lambda _i: encode_png(compose_board(board_def, view, "en")),
                lambda _i: encode_crop(compose_essos(board_def, view, "en").image),
            ],
            runs,
        )
        essos_png = encode_crop(compose_essos(board_def, view, "en").image)
        essos = {
            "board_image_ms": round(parts_ms[0], 2),
            "essos_ms": round(parts_ms[1], 2),
            "essos_bytes": len(essos_png),
            "essos_width": Image.open(io.BytesIO(essos_png)).width,
            "essos_height": Image.open(io.BytesIO(essos_png)).height,
            **measure.essos_figures(boards).as_dict("essos"),
        }

    result = {
        "ruleset": args.ruleset,
        "players": len(view.get("players") or []),
        "board_ms": round(board_ms, 2),
        "board_fresh_ms": round(fresh_ms, 2),
        "board_ru_ms": round(board_ru_ms, 2),
        "floor_ms": round(floor_ms, 2),
        "ratio": round(board_ms / floor_ms, 2),
        "ratio_fresh": round(fresh_ms / floor_ms, 2),
        "floor_rgb_default_ms": round(floor_rgb_ms, 2),
        "board_bytes": len(board),
        "board_width": width,
        "board_height": height,
        "battle_ms": round(battle_ms, 2),
        "battle_bytes": len(render_battle(fight, "en")),
        "panel_ms": round(panel_ms, 2),
        "cold_first_board_ms": round(cold_ms, 1),
        "crop_encode_ms": round(crop_ms, 2),
        **phone.as_dict("phone"),
        **crop.as_dict("crop"),
        **essos,
        "runs": runs,
        "png_options": PNG_OPTIONS,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"position   {args.ruleset}, {result['players']} houses")
    print(f"board      {board_ms:7.2f} ms  (fresh state each run {fresh_ms:.2f} ms, ru {board_ru_ms:.2f} ms)")
    print(f"floor      {floor_ms:7.2f} ms  blank {width}x{height} P image, same PNG options {PNG_OPTIONS}")
    print(f"ratio      {board_ms / floor_ms:7.2f} x   (fresh {fresh_ms / floor_ms:.2f} x; target <= 3)")
    print(f"board PNG  {len(board) / 1024:7.1f} KiB, {width} x {height}")
    print(f"battle     {battle_ms:7.2f} ms  ({result['battle_bytes'] / 1024:.1f} KiB)")
    print(f"panel      {panel_ms:7.2f} ms")
    print(f"first call {cold_ms:7.1f} ms  (builds the static layer and stamps once per process)")
    print(f"(blank RGB with Pillow's default PNG options: {floor_rgb_ms:.2f} ms)")
    print(f"phone      chips/tokens >= {phone.min_piece_px:.1f} px, names >= {phone.min_label_px:.1f} px at 1080 px,"
          f" {phone.overlaps} overlaps, {phone.outside} pieces partly off their area")  # fmt: skip
    print(
        f"crops      chips/tokens >= {crop.min_piece_px:.1f} px, names >= {crop.min_label_px:.1f} px,"
        f" {crop.overlaps} overlaps (pieces, names, arrows)"
    )
    if essos:
        print(f"board img  {essos['board_image_ms']:7.2f} ms  (a whole-board post: the board image, then Essos)")
        print(f"essos      {essos['essos_ms']:7.2f} ms  ({essos['essos_bytes'] / 1024:.1f} KiB,"
              f" {essos['essos_width']} x {essos['essos_height']}); chips/tokens >="
              f" {essos['essos_min_piece_px']:.1f} px, names >= {essos['essos_min_label_px']:.1f} px,"
              f" {essos['essos_overlaps']} overlaps")  # fmt: skip


if __name__ == "__main__":
    main()
