"""House colours under simulated colour-vision deficiencies (Machado et al. 2009) and arrow contrast."""

from __future__ import annotations

import itertools

import pytest

from render import style, vision
from render.arrows import arrow_colours
from render.data import houses

TINT_MIN_DE2000 = 12.0  # land tints: each pair of houses, and each house against unowned land
CHIP_MIN_DE2000 = 10.0  # chips and tokens also carry the house initial, so a little less is enough


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [  # Sharma, Wu & Dalal (2005), test data pairs 1, 7, 17 and 25
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_ciede2000_matches_the_published_test_data(
    lab1: tuple[float, float, float], lab2: tuple[float, float, float], expected: float
) -> None:
    assert vision.ciede2000_lab(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_simulation_is_the_identity_for_normal_vision_and_keeps_greys() -> None:
    for c in [(0, 0, 0), (255, 255, 255), (12, 200, 90)]:
        assert vision.simulate(c, "normal") == c
    for v in vision.VISIONS:  # each Machado row sums to 1: greys stay (about) grey
        r, g, b = vision.simulate((128, 128, 128), v)
        assert max(r, g, b) - min(r, g, b) <= 2, v
    # Red and green collapse for a deuteranope: the simulation really removes the red/green axis.
    assert (
        vision.ciede2000(
            vision.simulate((200, 60, 60), "deuteranopia"), vision.simulate((110, 130, 40), "deuteranopia")
        )
        < 20
    )


def test_all_eight_houses_have_their_own_colours() -> None:
    """Every house of the base game and of Mother of Dragons (Arryn, Targaryen) is drawn in its tuned colours, so the
    checks below cover the eight of them."""
    assert set(style.HOUSE_STYLES) == set(houses()) and len(style.HOUSE_STYLES) == 8
    assert (
        len({hs.colour for hs in style.HOUSE_STYLES.values()})
        == len({hs.tint for hs in style.HOUSE_STYLES.values()})
        == 8
    )
    assert len({(hs.initial_en, hs.initial_ru) for hs in style.HOUSE_STYLES.values()}) == 8  # Tyrell T, Targaryen Ta


@pytest.mark.parametrize("seen_as", vision.VISIONS)
def test_house_tints_stay_apart_from_each_other_and_from_unowned_land(seen_as: str) -> None:
    tints = {h: hs.tint for h, hs in style.HOUSE_STYLES.items()} | {"unowned": style.LAND_NEUTRAL}
    dist, a, b = vision.min_pair_distance(tints, seen_as)
    assert dist >= TINT_MIN_DE2000, (seen_as, a, b, round(dist, 1))


@pytest.mark.parametrize("seen_as", vision.VISIONS)
def test_house_chip_colours_stay_apart(seen_as: str) -> None:
    chips = {h: hs.colour for h, hs in style.HOUSE_STYLES.items()}
    dist, a, b = vision.min_pair_distance(chips, seen_as)
    assert dist >= CHIP_MIN_DE2000, (seen_as, a, b, round(dist, 1))


def test_tints_differ_from_seas_and_impassable_land() -> None:
    water = [*style.SEA_FILLS, style.PORT_FILL, style.LAND_IMPASSABLE]
    for seen_as in vision.VISIONS:
        for hs, w in itertools.product(style.HOUSE_STYLES.values(), water):
            d = vision.ciede2000(vision.simulate(hs.tint, seen_as), vision.simulate(w, seen_as))
            assert d >= 5, (seen_as, hs.tint, w, round(d, 1))


def test_every_house_arrow_stands_out_on_land_and_sea() -> None:
    """An arrow is a house-coloured shaft inside a dark edge inside a light halo: whatever lies under it, one of the
    rings contrasts with it (WCAG ratio >= 3), and the shaft differs from the ring around it."""
    backgrounds = [
        style.LAND_NEUTRAL,
        style.LAND_IMPASSABLE,
        style.PORT_FILL,
        *style.SEA_FILLS,
        *(hs.tint for hs in style.HOUSE_STYLES.values()),
    ]
    for house in style.HOUSE_STYLES:
        fill, edge, halo = arrow_colours(house)
        assert vision.contrast_ratio(fill, edge) >= 2.5, house
        for bg in backgrounds:
            assert max(vision.contrast_ratio(edge, bg), vision.contrast_ratio(halo, bg)) >= 3, (house, bg)
            assert vision.contrast_ratio(edge, halo) >= 7
