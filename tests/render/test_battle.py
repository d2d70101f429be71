"""The battle crop and its panel."""

from __future__ import annotations

import pytest

from render import PrivateViewError, ViewError, render_battle
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
