"""The battle crop and its panel."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from render import PrivateViewError, ViewError, base, palette, render_battle, style
from render.battle import battle_crop
from render.data import board_of
from render.palette import PLACEHOLDER
from tests.render import viewkit
from tests.render.conftest import open_png


def test_battle_crop_renders() -> None:
    png = render_battle(viewkit.battle_view(), "en")
    img = open_png(png)
    assert img.width >= 900 and img.height > img.width * 0.8
    assert len(png) < 2 * 1024 * 1024


def test_battle_in_russian_and_against_a_neutral_force() -> None:
    view = viewkit.battle_view()
    view["battle"].update(
        area="kings-landing", defender="neutral", defender_units=[], from_="blackwater", cards={}, winner="attacker"
    )
    view["battle"]["from"] = "blackwater"
    view["areas"]["kings-landing"].update(units=[], neutral=5, controller=None)
    open_png(render_battle(view, "ru"))


def test_battle_needs_a_battle_and_a_public_view() -> None:
    with pytest.raises(ViewError):
        render_battle(viewkit.midgame_view())
    private = viewkit.hide_orders(viewkit.battle_view(), "stark")
    with pytest.raises(PrivateViewError):
        render_battle(private)
    open_png(render_battle(private, private=True))


def _colours(img: Image.Image) -> set[tuple[int, int, int]]:
    return {c for _, c in img.convert("RGB").getcolors(1 << 16) or []}


@pytest.mark.parametrize("view", [viewkit.battle_view(), viewkit.sunset_battle_view()], ids=["twins", "sunset-sea"])
def test_battle_image_is_drawn_in_the_board_palette(view: dict[str, Any]) -> None:
    """The PNG comes out of the renderer in mode P with the board's own palette (area entries set for the view),
    as wide as its map crop, and uses only real entries: no octree palette, no stray placeholder pixels."""
    img = open_png(render_battle(view, "en"))
    crop = battle_crop(board_of(view), view, view["battle"], "en")
    assert img.mode == "P"
    assert img.width == crop.image.width and 1000 <= img.width <= style.PHONE_W
    assert crop.image.height + 300 < img.height < crop.image.height + 1400
    assert bytes(img.getpalette() or []) == palette.palette_bytes(base.area_fills(board_of(view), view))
    fills = base.area_fills(board_of(view), view)
    used = [i for i, n in enumerate(img.histogram()) if n]
    stray = [i for i in used if (i not in fills if i <= palette.AREA_ENTRIES else palette.ENTRIES[i] == PLACEHOLDER)]
    assert not stray


@pytest.mark.parametrize("view", [viewkit.battle_view(), viewkit.sunset_battle_view()], ids=["twins", "sunset-sea"])
def test_battle_image_shows_both_houses_colours_and_arrows(view: dict[str, Any]) -> None:
    b = view["battle"]
    colours = _colours(open_png(render_battle(view, "en")))
    for house in (b["attacker"], b["defender"]):
        hs = style.house_style(house)
        assert {hs.colour, hs.ink, style.arrow_fill(house)} <= colours, house
    assert {style.ALERT, style.OUTLINE, style.WHITE, style.PAPER, style.PAPER_DARK, style.INK} <= colours


def test_battle_image_is_never_quantized_or_converted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the stamps are cached, drawing a battle maps no colours: it is drawn in the palette from the start."""
    view = viewkit.battle_view()
    expected = render_battle(view, "en")

    def refuse(*_args: Any, **_kwargs: Any) -> Image.Image:
        raise AssertionError("the battle image was quantized or converted")

    monkeypatch.setattr(Image.Image, "quantize", refuse)
    monkeypatch.setattr(Image.Image, "convert", refuse)
    assert render_battle(view, "en") == expected
