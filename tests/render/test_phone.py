"""Phone legibility from the renderer's own layout, the change crops, the battle image and images_for_step."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from render import PrivateViewError, images_for_step, measure, render_board, render_legend, style
from render.changes import changed_areas
from render.data import board_of
from render.layout import board_pieces, order_gaps, overlaps
from render.step import change_crop
from render.strip import house_order, phase_line
from tests.render import viewkit
from tests.render.conftest import open_png

BOARDS = [viewkit.midgame_view(), *(viewkit.starting_view(n) for n in (3, 4, 5, 6))]
# Areas whose order cannot sit beside its units at these sizes (too small or too thin; see docs/render.md).
FAR_ORDERS = {"dragonstone", "seagard", "stoney-sept"}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_board_pieces_and_names_are_phone_sized_and_never_overlap(lang: str) -> None:
    figures = measure.board_figures(BOARDS, lang)
    assert figures.min_piece_px >= 28
    assert figures.overlaps == 0
    if lang == "en":
        assert figures.min_label_px >= 16


def test_every_order_touches_its_units() -> None:
    for view in BOARDS:
        gaps = order_gaps(board_pieces(board_of(view), view, "en"))
        far = {a for a, g in gaps.items() if g > 12}
        assert far <= FAR_ORDERS, far


def test_impassable_areas_show_only_their_hatching() -> None:
    view = viewkit.starting_view(3)
    pieces = board_pieces(board_of(view), view, "en")
    impassable = {a for a, s in view["areas"].items() if s.get("neutral") == "impassable"}
    assert impassable
    assert not [p for p in pieces if p.area in impassable]  # no name, marks, crest or token


def test_change_crops_and_battle_crops_are_phone_sized() -> None:
    crops = measure.sample_crops(viewkit.midgame_view(), [viewkit.battle_view()])
    figures = measure.crop_figures(crops)
    assert figures.min_piece_px >= 40
    assert figures.min_label_px >= 22
    assert figures.overlaps == 0
    for c in crops:
        assert c.image.mode == "P" and 1000 <= c.image.width <= 1100
        assert c.image.height <= c.image.width * 1.2


def test_changed_areas_come_from_events_and_the_view_diff() -> None:
    before = viewkit.midgame_view()
    after = viewkit.midgame_view()
    after["areas"]["moat-cailin"]["units"] = []
    viewkit.add_units(after, "the-twins", "stark", "knight", "footman")
    events = [{"type": "march", "house": "stark", "origin": "moat-cailin", "to": "the-twins", "units": ["knight"]}]
    got = changed_areas(board_of(after), events, before, after)
    assert got.areas[:2] == ["moat-cailin", "the-twins"]
    assert [(m.kind, m.origin, m.to) for m in got.moves] == [("march", "moat-cailin", "the-twins")]
    # A private event never shows, and a mere reveal of every order is not a local change.
    hidden = viewkit.hide_orders(before)
    assert (
        changed_areas(board_of(before), [{"type": "raid", "area": "x", "private_to": "stark"}], hidden, before).areas
        == []
    )


def _png_size(data: bytes) -> tuple[int, int]:
    img = open_png(data)
    assert img.format == "PNG" and img.mode == "P"
    return img.size


def test_images_for_step_posts_a_change_crop_after_a_march() -> None:
    before = viewkit.midgame_view()
    after = viewkit.midgame_view()
    after["areas"]["moat-cailin"]["units"] = []
    viewkit.add_units(after, "the-twins", "stark", "knight", "footman")
    events = [{"type": "march", "house": "stark", "origin": "moat-cailin", "to": "the-twins", "units": ["knight"]}]
    got = images_for_step(before, after, events, "en")
    assert [k for _, _, k in got] == ["change"]
    name, png, _ = got[0]
    assert name.endswith(".png") and len(png) < 2 * 1024 * 1024
    w, h = _png_size(png)
    assert 1000 <= w <= 1100 and h <= 1.2 * w


def test_images_for_step_posts_the_battle_and_the_board_at_the_right_moments() -> None:
    fight = viewkit.battle_view()
    fight["battle"]["components"] = {
        "attacker": {"units": 3, "support": 1, "march": 1, "total": 5},
        "defender": {"units": 1, "support": 1, "total": 2},
    }
    after = viewkit.midgame_view()
    result = {
        "type": "combat-result", "area": "the-twins", "attacker": "lannister", "defender": "stark",
        "strength": {"attacker": {"units": 3, "support": 1, "march": 1, "card": 4, "total": 9},
                     "defender": {"units": 1, "support": 1, "card": 3, "total": 5}},
        "winner": "lannister", "tie_broken_by_fiefdoms": False,
    }  # fmt: skip
    events: list[dict[str, Any]] = [
        result,
        {
            "type": "units-destroyed",
            "area": "the-twins",
            "house": "stark",
            "units": ["footman"],
            "reason": "casualties",
        },
        {"type": "combat-ended", "area": "the-twins", "winner": "lannister"},
    ]
    got = images_for_step(fight, after, events, "en")
    assert [k for _, _, k in got] == ["battle"]
    w, h = _png_size(got[0][1])
    assert 1000 <= w <= 1100 and h > w
    # The start of the game and the end of an action phase post the whole board.
    assert [k for _, _, k in images_for_step(None, after, [], "ru")] == ["board"]
    assert [k for _, _, k in images_for_step(after, after, [{"type": "action-cleanup"}], "en")] == ["board"]
    # Nothing changed: nothing to post.
    assert images_for_step(after, after, [{"type": "orders-submitted", "house": "stark"}], "en") == []
    with pytest.raises(PrivateViewError):
        images_for_step(after, viewkit.hide_orders(after, "stark"), [], "en")


def test_a_step_changing_too_much_posts_the_board() -> None:
    before = viewkit.empty_view(6)
    after = viewkit.starting_view(6)
    assert change_crop(board_of(after), before, after, [], "en") is None
    assert [k for _, _, k in images_for_step(before, after, [], "en")] == ["board"]


def test_the_strip_says_each_thing_once_and_ranks_the_houses_at_the_end() -> None:
    view = viewkit.midgame_view()
    view.update(phase="planning", step="planning")
    assert phase_line(view, "en") == "Round 4/10 · Planning phase"
    view.update(phase="action", step="march")
    assert phase_line(view, "en") == "Round 4/10 · Action phase: marches"
    view.update(phase="ended", winner="tyrell")
    view["victory"].update(tyrell=7, lannister=3, stark=3)
    view["supply"].update(lannister=3, stark=2)
    order = house_order(board_of(view), view)
    assert order[0] == "tyrell"
    assert order.index("lannister") < order.index("stark")  # same castles: more supply first (no strongholds here)


def test_board_and_legend_are_real_pngs() -> None:
    board = open_png(render_board(viewkit.midgame_view(), "en"))
    assert board.width == style.MAP_W and board.mode == "P"
    legend = open_png(render_legend("ru"))
    assert legend.width == 1080 and legend.mode == "P"
    with Image.open(io.BytesIO(render_legend("en"))) as im:
        assert im.format == "PNG"


def test_board_overlaps_helper_sees_an_overlap() -> None:
    midgame = viewkit.midgame_view()
    pieces = board_pieces(board_of(midgame), midgame, "en")
    a = next(p for p in pieces if p.kind == "units")
    clash = type(a)("order", a.area, a.box, 40)
    assert overlaps([a, clash]) == [(a, clash)] or overlaps([a, clash]) == [(clash, a)]
