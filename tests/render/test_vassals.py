"""Mother of Dragons vassals on the images (issue M2): every vassal's column in the strip is tagged "vassal" in its
liege's colour and a "Vassal of" row names the liege; a vassal shows no Power; a leaving house is marked; a battle
side that is a vassal says whose; at the end vassals are not ranked. All from real views of a 4-player vassal game,
in English and Russian, drawn to PNGs and read back with Pillow."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from PIL import Image

from engine import new_game
from engine.sim import play_game
from render import measure, palette, render_battle, render_board, render_legend, render_panel, style
from render.data import board_of
from render.legend import entries
from render.strings import house_name, t
from render.strip import ROW_H, TEXT_MIN, Item, house_order, items, overlapping
from render.style import ALERT, PAPER_DARK
from render.vassals import vassal_line
from render.views import check
from tests.render.conftest import open_png

MOD = {"ruleset": "mother-of-dragons"}
PLAYERS = ["stark", "lannister", "greyjoy", "baratheon"]
LANGS = ("en", "ru")
View = dict[str, Any]


def _game() -> Any:
    return new_game(PLAYERS, seed=1, options=MOD)


def _claim(g: Any, pick_first: bool) -> None:
    """Answer the vassal claims until the orders open: every holder passing (the last player on the Iron Throne
    commands all) or each claimant taking the first vassal offered (so the lieges differ)."""
    while not any(p.kind == "orders" for p in g.prompts()):
        for p in g.prompts():
            choice = p.default
            if isinstance(p.choices, list) and p.kind == "vassal-claim":
                choice = next((c for c in p.choices if c != "pass"), p.default) if pick_first else "pass"
            g.act(p.house, choice)


@cache
def _views() -> dict[str, View]:
    g = _game()
    out = {"unclaimed": g.view(None)}
    _claim(g, pick_first=False)
    out["default"] = g.view(None)
    g = _game()
    _claim(g, pick_first=True)
    out["claimed"] = g.view(None)
    g.vassalize("stark")
    out["leaving"] = g.view(None)
    found: dict[str, View] = {}

    def keep(game: Any, prompt: Any, events: Any) -> None:
        view = game.view(None)
        b = view.get("battle")
        if b and "battle" not in found and {b.get("attacker"), b.get("defender")} & set(view["vassals"]):
            found["battle"] = view
        if game.finished:
            found["ended"] = view

    play_game(4, 1, "heuristic", options=MOD, check_invariants=False, on_step=keep)
    out.update(found)
    return out


def view(name: str) -> View:
    return copy.deepcopy(_views()[name])


def without_vassals(v: View) -> View:
    """The same view as if nobody were a vassal (what the strip looked like before M2)."""
    out = copy.deepcopy(v)
    out["vassals"], out["leaving"] = {}, []
    return out


def _of(got: list[Item], kind: str) -> dict[str, Item]:
    return {i.house: i for i in got if i.kind == kind}


def _colour_px(img: Image.Image, box: tuple[float, float, float, float], colour: style.RGB) -> int:
    """Pixels of the palette entry ``colour`` inside ``box`` of a palette image."""
    crop = img.crop(tuple(round(c) for c in box))  # type: ignore[arg-type]
    return crop.histogram()[palette.idx(colour)]


def test_the_views_come_from_a_real_four_player_vassal_game() -> None:
    assert set(view("unclaimed")["vassals"]) == {"tyrell", "martell", "arryn"}
    assert set(view("unclaimed")["vassals"].values()) == {None}
    assert set(view("default")["vassals"].values()) == {"greyjoy"}  # the last player on the Iron Throne
    assert len(set(view("claimed")["vassals"].values())) == 3
    assert view("leaving")["leaving"] == ["stark"]
    assert view("ended")["winner"] not in view("ended")["vassals"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["default", "claimed"])
def test_each_vassal_column_is_tagged_in_its_lieges_colour_and_names_its_liege(name: str, lang: str) -> None:
    v = view(name)
    lieges: dict[str, str] = v["vassals"]
    got = items(board_of(v), v, lang)
    tags, row = _of(got, "tag"), _of(got, "vassal_row")
    assert set(tags) == set(row) == set(lieges)  # players carry neither
    img = open_png(render_panel(v, lang))
    assert img.mode == "P"
    for vassal, liege in lieges.items():
        assert tags[vassal].text == t("vassal", lang)
        assert row[vassal].text == house_name(liege, lang)
        fill = style.house_style(liege).colour
        # The tag and the liege's label are filled with the liege's colour in the PNG itself.
        assert _colour_px(img, tags[vassal].box, fill) > 150
        assert _colour_px(img, row[vassal].box, fill) > 300
    # Tags sit beside the vassal's crest, within its column.
    crests = _of(got, "crest")
    for vassal in lieges:
        assert crests[vassal].box[2] < tags[vassal].box[0]


@pytest.mark.parametrize("lang", LANGS)
def test_the_panel_gains_one_row_and_changes_only_in_the_vassals_columns(lang: str) -> None:
    v = view("claimed")
    with_v = open_png(render_panel(v, lang))
    plain = open_png(render_panel(without_vassals(v), lang))
    assert with_v.width == plain.width and with_v.height == plain.height + ROW_H
    got = items(board_of(v), v, lang)
    names = _of(got, "name")
    # The header (above the names) differs exactly where a tag was drawn.
    top = round(min(i.box[1] for i in got))
    for house, item in _of(got, "crest").items():
        box = (item.box[0], top, names[house].box[2], item.box[3])
        a = with_v.crop(tuple(round(c) for c in box))  # type: ignore[arg-type]
        b = plain.crop(tuple(round(c) for c in box))  # type: ignore[arg-type]
        assert (a.tobytes() != b.tobytes()) == (house in v["vassals"]), house


@pytest.mark.parametrize("lang", LANGS)
def test_a_vassal_shows_no_power(lang: str) -> None:
    v = view("claimed")
    power = _of(items(board_of(v), v, lang), "power_col")
    for house, item in power.items():
        assert item.text == ("—" if house in v["vassals"] else str(v["power"][house]))


@pytest.mark.parametrize("lang", LANGS)
def test_before_the_first_claim_the_vassals_read_unclaimed(lang: str) -> None:
    v = view("unclaimed")
    got = items(board_of(v), v, lang)
    row = _of(got, "vassal_row")
    assert set(row) == set(v["vassals"])
    assert {i.text for i in row.values()} == {t("vassal.unclaimed", lang)}
    img = open_png(render_panel(v, lang))
    for item in _of(got, "tag").values():
        assert _colour_px(img, item.box, PAPER_DARK) > 150


@pytest.mark.parametrize("lang", LANGS)
def test_a_leaving_house_is_marked_in_red(lang: str) -> None:
    v = view("leaving")
    got = items(board_of(v), v, lang)
    tags = _of(got, "tag")
    assert tags["stark"].text == t("leaving", lang)
    assert "stark" not in _of(got, "vassal_row")
    img = open_png(render_panel(v, lang))
    assert _colour_px(img, tags["stark"].box, ALERT) > 40


@pytest.mark.parametrize("lang", LANGS)
def test_the_strip_stays_phone_sized_and_nothing_overlaps_or_leaves_its_column(lang: str) -> None:
    for name in ("unclaimed", "default", "claimed", "leaving", "ended"):
        v = check(view(name))
        got = items(board_of(v), v, lang)
        assert overlapping(got) == [], name
        # At least TEXT_MIN px on the board, so at least 18 px when the board is shown 1080 px wide.
        assert min(i.px for i in got if i.px) >= TEXT_MIN
        assert min(i.px for i in got if i.px) * style.PHONE_W / style.MAP_W >= 18
        starts = sorted((i.box[0], i.house) for i in _of(got, "crest").values())
        for (x0, house), (x1, _) in zip(starts, [*starts[1:], (style.MAP_W, "")], strict=True):
            mine = [i for i in got if i.house == house]
            assert all(x0 - 4 <= i.box[0] and i.box[2] <= x1 - 4 for i in mine), (name, house)


def test_the_boards_with_vassals_keep_the_phone_layout() -> None:
    views = [view(n) for n in ("default", "claimed", "ended")]
    for lang in LANGS:
        figures = measure.board_figures(views, lang)  # type: ignore[arg-type]
        assert figures.overlaps == 0 and figures.min_piece_px >= 28
        board = open_png(render_board(views[1], lang))
        assert board.width == style.MAP_W and board.mode == "P"


@pytest.mark.parametrize("lang", LANGS)
def test_at_the_end_only_players_are_ranked_and_vassals_come_last(lang: str) -> None:
    v = view("ended")
    order = house_order(board_of(v), v)
    vassals = set(v["vassals"])
    assert order[0] == v["winner"]
    assert set(order[-len(vassals) :]) == vassals
    ranks = _of(items(board_of(v), v, lang), "rank")
    assert set(ranks) == set(order) - vassals
    assert [ranks[h].text for h in order if h in ranks] == [f"{n}." for n in range(1, len(ranks) + 1)]


@pytest.mark.parametrize("lang", LANGS)
def test_a_battle_side_that_is_a_vassal_says_whose(lang: str) -> None:
    v = view("battle")
    b = v["battle"]
    vassal = next(h for h in (b["attacker"], b["defender"]) if h in v["vassals"])
    liege = v["vassals"][vassal]
    line = vassal_line(liege, lang)
    assert house_name(liege, lang) in line and t("vassal", lang).lower() in line.lower()
    with_v = open_png(render_battle(v, lang))
    plain = open_png(render_battle(without_vassals(v), lang))
    assert with_v.width == plain.width and with_v.height == plain.height + 28  # the side's box holds one more line


def test_the_legend_explains_the_vassal_tag() -> None:
    for lang in LANGS:
        assert entries(lang)[-1][1] == t("legend.vassal", lang)
        assert open_png(render_legend(lang)).width == 1080


def test_the_strip_cache_tells_vassal_views_apart() -> None:
    v = view("claimed")
    first = render_panel(v, "en")
    other = copy.deepcopy(v)
    vassal = next(iter(other["vassals"]))
    other["vassals"][vassal] = next(h for h in PLAYERS if h != v["vassals"][vassal])
    assert render_panel(other, "en") != first
    assert render_panel(v, "en") == first
