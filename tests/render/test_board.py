"""Board images drawn from crafted views: size, colours under control, pieces, privacy, languages."""

from __future__ import annotations

import itertools
import time
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from render import (
    PrivateViewError,
    ViewError,
    palette,
    render_board,
    render_panel,
    render_private_board,
    shapes,
    style,
)
from render.base import area_fills, sea_shades
from render.data import board_named
from render.fonts import font
from tests.render import viewkit
from tests.render.conftest import open_png

BASE = board_named("base")  # viewkit's views are base games


def _rgb(png: bytes) -> Image.Image:
    """The map part of a board image (the status strip above it cut off), in RGB."""
    img = open_png(png).convert("RGB")
    return img.crop((0, img.height - style.MAP_H, style.MAP_W, img.height))


def _fill_share(img: Image.Image, area_id: str, colour: tuple[int, int, int]) -> float:
    """Share of the area's pixels (from the committed shapes) that show ``colour`` in the drawn image."""
    (x0, y0, x1, y1), mask = shapes.area_mask(BASE, area_id)
    crop = img.crop((x0, y0, x1, y1))
    target = Image.new("RGB", crop.size, colour)
    same = ImageChops.difference(crop, target).convert("L").point(lambda v: 255 if v == 0 else 0)
    hit = ImageChops.darker(same, mask).histogram()[255]
    return hit / mask.histogram()[255]


def test_board_is_a_valid_png_of_the_expected_size(midgame: dict[str, Any]) -> None:
    png = render_board(midgame, "en")
    img = open_png(png)
    assert img.format == "PNG"
    assert img.width == style.MAP_W and style.MAP_H + 200 < img.height < style.MAP_H + 600
    assert img.mode == "P"
    assert len(png) < 2 * 1024 * 1024


def test_controlled_land_carries_the_house_colour() -> None:
    view = viewkit.empty_view(6)
    owners = {
        "winterfell": "stark",
        "the-stony-shore": "stark",
        "lannisport": "lannister",
        "riverrun": "lannister",
        "dragonstone": "baratheon",
        "kingswood": "baratheon",
        "pyke": "greyjoy",
        "seagard": "greyjoy",
        "highgarden": "tyrell",
        "the-reach": "tyrell",
        "sunspear": "martell",
        "yronwood": "martell",
    }
    for area_id, house in owners.items():
        view["areas"][area_id]["controller"] = house
    view["areas"]["the-twins"]["power_token"] = "stark"
    view["areas"]["the-twins"]["controller"] = "stark"
    owners["the-twins"] = "stark"
    img = _rgb(render_board(view))
    px = img.load()
    assert px is not None
    for area_id, area in BASE.areas.items():
        if area.kind == "land":
            owner = owners.get(area_id)
            want = style.house_style(owner).tint if owner else style.LAND_NEUTRAL
        elif area.kind == "sea":
            want = sea_shades(BASE)[area_id]
        else:
            want = style.PORT_FILL
        x, y = shapes.area_meta(BASE, area_id)["anchor"]
        assert px[x, y] == want, (area_id, px[x, y], want)
        assert _fill_share(img, area_id, want) > 0.5, area_id


def test_house_fills_are_distinct_from_each_other_and_from_neutral_and_sea() -> None:
    tints = [hs.tint for hs in style.HOUSE_STYLES.values()]
    colours = [hs.colour for hs in style.HOUSE_STYLES.values()]
    others = [style.LAND_NEUTRAL, style.LAND_IMPASSABLE, style.PORT_FILL, *style.SEA_FILLS]
    assert len(set(tints)) == len(tints) and len(set(colours)) == len(colours)
    for t in tints:
        for o in others:
            assert sum(abs(a - b) for a, b in zip(t, o, strict=True)) > 40, (t, o)
    # Lightness differs between houses, so colour-blind players can still tell most of them apart.
    lum = sorted(0.299 * r + 0.587 * g + 0.114 * b for r, g, b in colours)
    assert min(b - a for a, b in itertools.pairwise(lum)) > 5


def test_seas_next_to_each_other_differ_in_shade() -> None:
    shade = sea_shades(BASE)
    for pair in viewkit.BOARD["adjacency"]:
        a, b = pair
        if a in shade and b in shade:
            assert shade[a] != shade[b], pair


def test_impassable_and_neutral_forces() -> None:
    view = viewkit.starting_view(3)
    img = _rgb(render_board(view))
    assert _fill_share(img, "pyke", style.LAND_IMPASSABLE) > 0.3
    assert _fill_share(img, "pyke", style.HATCH) > 0.1  # hatched, not just grey
    fills = area_fills(BASE, view)
    assert fills[BASE.areas["pyke"].index] == style.LAND_IMPASSABLE
    # King's Landing's neutral force (5) is drawn in the units slot: dark token pixels there.
    x, y, w, h = shapes.area_meta(BASE, "kings-landing")["units"]
    box = img.crop((x, y, x + w, y + h))
    assert box.getcolors(4096) is not None
    assert any(c == style.NEUTRAL_FORCE for _, c in box.getcolors(4096) or [])


def _box_colours(img: Image.Image, rect: list[int], grow: int = 6) -> set[tuple[int, int, int]]:
    x, y, w, h = rect
    crop = img.crop((x - grow, y - grow, x + w + grow, y + h + grow))
    return {cast(tuple[int, int, int], c) for _, c in crop.getcolors(1 << 16) or []}


def test_units_and_orders_are_drawn_in_house_colours(midgame: dict[str, Any]) -> None:
    img = _rgb(render_board(midgame))
    for area_id, state in midgame["areas"].items():
        rec = shapes.area_meta(BASE, area_id)
        if state["units"] and not state.get("neutral"):
            house = state["units"][0]["house"]
            assert style.house_style(house).colour in _box_colours(img, rec["units"], 40), area_id
        if state.get("order"):
            house = state["order"]["house"]
            assert style.house_style(house).colour in _box_colours(img, rec["order"]), area_id


def test_public_view_shows_hidden_orders_face_down_and_private_view_shows_own_orders(midgame: dict[str, Any]) -> None:
    public = viewkit.hide_orders(midgame)
    private = viewkit.hide_orders(midgame, "stark")
    pub = _rgb(render_board(public))
    prv = _rgb(render_private_board(private))
    for area_id, state in midgame["areas"].items():
        if not state.get("order"):
            continue
        rec = shapes.area_meta(BASE, area_id)["order"]
        own = state["order"]["house"] == "stark"
        assert style.NEUTRAL_FORCE in _box_colours(pub, rec, 0), area_id  # face down for everyone
        face_up = style.WHITE in _box_colours(prv, rec, 0) and style.NEUTRAL_FORCE not in _box_colours(prv, rec, 0)
        assert face_up == own, area_id


def test_public_path_refuses_a_private_view(midgame: dict[str, Any]) -> None:
    private = viewkit.hide_orders(midgame, "stark")
    with pytest.raises(PrivateViewError):
        render_board(private)
    with pytest.raises(PrivateViewError):
        render_panel(private)
    with pytest.raises(ViewError):
        render_private_board(midgame)  # a public view is not a private one
    assert issubclass(PrivateViewError, ViewError)


def test_private_board_is_marked_private(midgame: dict[str, Any]) -> None:
    private = viewkit.hide_orders(midgame, "stark")
    img = open_png(render_private_board(private, "en")).convert("RGB")
    public = open_png(render_board(viewkit.hide_orders(midgame), "en")).convert("RGB")

    def alert_pixels(im: Image.Image) -> int:  # the red banner across the top of the strip
        return sum(n for n, c in im.crop((0, 0, style.MAP_W, 70)).getcolors(1 << 16) or [] if c == style.ALERT)

    assert alert_pixels(img) > 20_000
    assert alert_pixels(public) < 5_000  # only the red "Forbidden: March" words


def test_bad_views_are_refused() -> None:
    with pytest.raises(ViewError):
        render_board({"viewer": None})
    view = viewkit.empty_view()
    view["areas"]["atlantis"] = viewkit.blank_area()
    with pytest.raises(ViewError):
        render_board(view)
    with pytest.raises(ViewError):
        render_board(viewkit.empty_view(), "fr")
    view = viewkit.empty_view()
    view["areas"]["winterfell"]["units"] = [{"house": "stark", "type": "dragon"}]
    with pytest.raises(ViewError):
        render_board(view)
    view = viewkit.empty_view()
    view["areas"]["winterfell"]["order"] = {"house": "stark", "type": "feast"}
    with pytest.raises(ViewError):
        render_board(view)


def test_cyrillic_glyphs_are_real_glyphs() -> None:
    f = font("condensed", 18)
    missing = f.getmask("\U000f0000").getbbox()  # a private-use code point: the font's .notdef box
    for word in ("Винтерфелл", "Чёрный Замок", "Ланнистер", "ЖЩЮЯ"):
        assert f.getbbox(word)[2] > 0
        for ch in word.replace(" ", ""):
            mask = f.getmask(ch)
            assert mask.getbbox() is not None, ch
            assert mask.getbbox() != missing or ch == "\U000f0000", ch


def test_russian_board_draws_russian_names(midgame: dict[str, Any]) -> None:
    en = _rgb(render_board(midgame, "en"))
    ru = _rgb(render_board(midgame, "ru"))
    assert en.size == ru.size
    rec = shapes.area_meta(BASE, "winterfell")["name"]["ru"]
    x, y, w, h = rec["box"]
    assert ImageChops.difference(en.crop((x, y, x + w, y + h)), ru.crop((x, y, x + w, y + h))).getbbox() is not None
    # The Russian name block actually has ink in it.
    crop = ru.crop((x, y, x + w, y + h)).convert("L")
    assert crop.point(lambda v: 255 if v < 60 else 0).getbbox() is not None


def test_same_view_same_bytes(midgame: dict[str, Any]) -> None:
    assert render_board(midgame) == render_board(midgame)


def test_only_palette_and_fixed_entries_are_used(midgame: dict[str, Any]) -> None:
    img = open_png(render_board(midgame))
    assert img.mode == "P"
    used = {i for _, i in img.getcolors(256) or []}
    area_entries = set(range(1, palette.AREA_ENTRIES + 1))
    assert used - area_entries <= set(range(palette.FIRST_FIXED, 256))
    assert 0 not in used


def test_render_is_fast_enough(midgame: dict[str, Any]) -> None:
    render_board(midgame)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        render_board(midgame)
        times.append(time.perf_counter() - start)
    assert sorted(times)[2] < 0.25


HOUSES = list(style.HOUSE_STYLES)
LANDS = [a for a, info in BASE.areas.items() if info.kind == "land"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    owners=st.dictionaries(st.sampled_from(LANDS), st.sampled_from(HOUSES), max_size=20),
    lang=st.sampled_from(["en", "ru"]),
    routed=st.booleans(),
)
def test_random_positions_render_with_true_colours(owners: dict[str, str], lang: str, routed: bool) -> None:
    view = viewkit.empty_view(6)
    for i, (area, house) in enumerate(sorted(owners.items())):
        types = ["footman", "knight", "siege-engine"][: 1 + i % 3]
        viewkit.add_units(view, area, house, *types, routed=routed and i % 2 == 0)
        viewkit.set_order(view, area, house, ["march", "defense", "support", "raid", "consolidate"][i % 5], i % 2 == 0)
    img = _rgb(render_board(view, lang))
    px = img.load()
    assert px is not None
    for area_id in LANDS:
        want = style.house_style(owners[area_id]).tint if area_id in owners else style.LAND_NEUTRAL
        x, y = shapes.area_meta(BASE, area_id)["anchor"]
        assert px[x, y] == want, area_id


def test_anchors_show_the_fill_under_a_busy_position(midgame: dict[str, Any]) -> None:
    for lang in ("en", "ru"):
        img = _rgb(render_board(midgame, lang))
        px = img.load()
        assert px is not None
        fills = area_fills(BASE, midgame)
        for area_id, area in BASE.areas.items():
            x, y = shapes.area_meta(BASE, area_id)["anchor"]
            assert px[x, y] == fills[area.index], (lang, area_id)


def test_sparse_and_odd_views_still_render() -> None:
    assert open_png(render_board({"viewer": None, "areas": {}})).width == style.MAP_W
    odd = {"viewer": None, "areas": {"winterfell": None}, "round": "x", "tracks": None, "power": None, "houses": None}
    open_png(render_board(odd, "ru"))
