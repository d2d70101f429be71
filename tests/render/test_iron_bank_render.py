"""The Iron Bank of Braavos on the images (issue Z): its panel on the Essos image under the dragon strength track, each
house's loans in the status strip, the development tokens on the map and the castles in decline covered, in the board
image and the crops. A real game from the engine's scenario loader, drawn through the real entry points and read back
from the PNGs; a view without the bank draws as before (the 6- and 7-house images stay byte-identical:
tests/render/test_essos.py)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine import Game
from render import bank, measure, palette, render_board, render_legend, render_panel, shapes, style
from render.api import compose_board
from render.changes import changed_areas
from render.crop import compose, encode
from render.data import board_named
from render.dragons import panel as track_panel
from render.essos import compose_essos
from render.layout import Piece, board_pieces, decline_pieces, name_block, outside, overlaps
from render.legend import entries
from render.marks import mark_boxes
from render.stamps import Stamp
from render.strings import loan_name, t
from render.strip import ROW_H, items, loans_cell, overlapping, standing
from render.views import ViewError, check, declined, developed
from tests.render.conftest import open_png

ESSOS = board_named("mother-of-dragons-essos")
LANGS = ("en", "ru")
PLAYERS = ["stark", "lannister", "baratheon", "targaryen"]
BANK = {
    "slots": ["customs-officer", None, "pyromancer"],
    "loans": {"stark": ["spymaster"]},
    "developed": {"winterfell": {"barrel": 1}},
    "declined": {"harrenhal": ["castle"]},
}
View = dict[str, Any]


def game_view(bank_spec: dict[str, Any] | None = None) -> View:
    """The public view of a real four-house game with Targaryen, its Iron Bank set up by the scenario loader."""
    spec = {"players": PLAYERS, "options": {"ruleset": "mother-of-dragons"}, "bank": bank_spec or BANK}
    view: View = Game.from_scenario(spec).view(None)
    return view


def without_bank(view: View) -> View:
    plain = copy.deepcopy(view)
    del plain["bank"]
    return plain


def rgb(img: Image.Image) -> Image.Image:
    """A drawn palette image as a viewer sees it, through the PNG."""
    return open_png(encode(img)).convert("RGB")


def count(img: Image.Image, colour: tuple[int, int, int]) -> int:
    return sum(n for n, c in img.getcolors(1 << 20) or [] if c == colour)


def shows(img: Image.Image, box: tuple[float, float, float, float], stamp: Stamp) -> bool:
    """Whether ``img`` (RGB) shows every pixel of ``stamp``'s mask with its top-left at the box's."""
    x, y = round(box[0]), round(box[1])
    got = img.crop((x, y, x + stamp.width, y + stamp.height))
    diff = ImageChops.difference(got, stamp.image.convert("RGB")).convert("L").point(lambda v: 255 if v else 0)
    mask = stamp.mask or Image.new("L", got.size, 255)
    return ImageChops.darker(diff, mask).getbbox() is None


def through_palette(img: Image.Image) -> Image.Image:
    """A panel (mode P, fixed entries only) in RGB, through the palette of the images that may show Targaryen."""
    out = img.copy()
    out.putpalette(palette.palette_bytes({}, late=True))
    return out.convert("RGB")


def map_part(img: Image.Image) -> Image.Image:
    """The map of a board image (RGB), under its status strip: pixel (x, y) is map pixel (x, y)."""
    return img.crop((0, img.height - ESSOS.size[1], img.width, img.height))


def int_box(box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    return round(box[0]), round(box[1]), round(box[2]), round(box[3])


def the_piece(pieces: list[Piece], kind: str, area: str) -> Piece:
    got = [p for p in pieces if p.kind == kind and p.area == area]
    assert len(got) == 1, (kind, area, got)
    return got[0]


# --- the view ------------------------------------------------------------------------------------------------------


def test_the_scenario_gives_the_bank_the_view_draws() -> None:
    view = check(game_view())
    got = view["bank"]
    assert [s["loan"] for s in got["slots"]] == ["customs-officer", None, "pyromancer"]
    assert [s["payment"] for s in got["slots"]] == [1, 4, 7] and got["deck"] == 9
    assert got["loans"] == {"stark": ["spymaster"]} and got["interest"] == {"stark": 1}
    assert developed(view) == {"winterfell": (("barrel", 1),)} and declined(view) == {"harrenhal": ("castle",)}
    plain = without_bank(view)
    assert developed(plain) == {} and declined(plain) == {} and bank.panel(plain, "en", 900, 150) is None


# --- the panel on the Essos image ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_bank_panel_shares_the_iron_bank_space_with_the_dragon_track(lang: str) -> None:
    view = game_view()
    plain = without_bank(view)
    crop = compose_essos(ESSOS, view, lang)
    before = compose_essos(ESSOS, plain, lang)
    img, old = rgb(crop.image), rgb(before.image)
    assert img.size == old.size and crop.region == before.region  # the Essos image keeps its size
    track_box, bank_box = bank.panel_parts(ESSOS, view)
    whole = shapes.panel_box(ESSOS)
    assert whole is not None and track_box is not None and bank_box is not None
    assert track_box[:3] == whole[:3] and bank_box[1] == track_box[3] and bank_box[1:] != whole[1:]
    assert bank.panel_parts(ESSOS, plain) == (whole, None)
    # Only the panel changed: the map around it is the same picture.
    px0, py0, px1, py1 = bank.output_box(whole, crop.region, crop.zoom)
    outside_panel = Image.new("L", img.size, 255)
    outside_panel.paste(0, (px0 - 12, py0 - 12, px1 + 12, py1 + 12))
    diff = ImageChops.difference(img, old).convert("L").point(lambda v: 255 if v else 0)
    assert ImageChops.darker(diff, outside_panel).getbbox() is None
    # The bank's part shows the bank's panel exactly, in the bottom of the space; without the bank, that is track.
    x0, y0, x1, y1 = bank.output_box(bank_box, crop.region, crop.zoom)
    got = bank.panel(view, lang, x1 - x0, y1 - y0)
    assert got is not None
    assert img.crop((x0, y0, x1, y1)).tobytes() == through_palette(got.image).tobytes()
    assert img.crop((x0, y0, x1, y1)).tobytes() != old.crop((x0, y0, x1, y1)).tobytes()
    # The slots left to right: gold coins on the two cards, the empty slot without one; the names in the image's
    # language, every word large enough for a phone (22 px on an image shown 1080 px wide).
    slots = [img.crop((x0 + b[0], y0 + b[1], x0 + b[2], y0 + b[3])) for b in got.slots]
    assert [count(s, style.GOLD) > 600 for s in slots] == [True, False, True]
    assert count(slots[1], style.MUTED) > 200  # its dashed outline, its pale coin and "empty"
    words = dict(got.texts)
    assert {loan_name("customs-officer", lang), loan_name("pyromancer", lang), t("bank_empty", lang)} <= set(words)
    assert t("iron_bank", lang) in words and t("bank_deck", lang, n=9) in words
    assert min(words.values()) >= 22
    if lang == "ru":
        assert {"Таможенный инспектор", "Пиромант", "Железный банк", "Колода: 9", "пусто"} <= set(words)
    # The track above it, still all there (its ten spaces and the five strength tokens).
    tx0, ty0, tx1, ty1 = bank.output_box(track_box, crop.region, crop.zoom)
    track = track_panel(view, lang, tx1 - tx0, ty1 - ty0)
    assert track is not None and len(track.spaces) == 10
    assert img.crop((tx0, ty0, tx1, ty1)).tobytes() == through_palette(track.image).tobytes()
    assert count(img.crop((tx0, ty0, tx1, ty1)), style.GOLD) > 500


def test_without_the_bank_the_track_fills_the_space_as_before() -> None:
    plain = without_bank(game_view())
    crop = compose_essos(ESSOS, plain, "en")
    whole = shapes.panel_box(ESSOS)
    assert whole is not None
    x0, y0, x1, y1 = bank.output_box(whole, crop.region, crop.zoom)
    track = track_panel(plain, "en", x1 - x0, y1 - y0)
    assert track is not None
    assert rgb(crop.image).crop((x0, y0, x1, y1)).tobytes() == through_palette(track.image).tobytes()


def test_the_panel_follows_the_bank() -> None:
    view = game_view()
    w, h = 990, 140
    first = bank.panel(view, "en", w, h)
    assert first is not None
    heading = (0, 0, w, first.slots[0][1])

    def changed(edit: dict[str, Any]) -> Image.Image:
        other = copy.deepcopy(view)
        other["bank"].update(edit)
        got = bank.panel(other, "en", w, h)
        assert got is not None and got.slots == first.slots
        diff = ImageChops.difference(through_palette(got.image), through_palette(first.image))
        box = diff.getbbox()
        assert box is not None
        return through_palette(got.image)

    # Another count in the deck: the heading only.
    img = changed({"deck": 4})
    assert ImageChops.difference(img, through_palette(first.image)).getbbox()[3] <= heading[3]  # type: ignore[index]
    # Another card in the middle slot: that slot only.
    slots = copy.deepcopy(view["bank"]["slots"])
    slots[1]["loan"] = "full-host"
    img = changed({"slots": slots})
    bx0, _, bx1, _ = ImageChops.difference(img, through_palette(first.image)).getbbox()  # type: ignore[misc]
    assert first.slots[1][0] <= bx0 and bx1 <= first.slots[1][2] + 1  # its outline is drawn on its right edge
    # Lannister holds the Braavos token: its crest in the heading, "Braavos: -1".
    img = changed({"braavos": "lannister"})
    red = style.HOUSE_STYLES["lannister"].colour
    assert count(img.crop(heading), red) > 100 and count(through_palette(first.image), red) == 0


def test_the_whole_board_keeps_its_width() -> None:
    view = game_view()
    plain = without_bank(view)
    for lang in LANGS:
        with_bank, before = open_png(render_board(view, lang)), open_png(render_board(plain, lang))
        assert with_bank.width == before.width == ESSOS.board_width
        assert with_bank.height == before.height + ROW_H  # the strip's loans row
        assert open_png(render_panel(view, lang)).width == ESSOS.board_width


# --- the status strip ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_strip_gives_each_house_its_loans_and_interest(lang: str) -> None:
    view = game_view()
    got = items(ESSOS, check(view), lang, ESSOS.board_width)
    cells = {i.house: i.text for i in got if i.kind == "loans_row"}
    vassals = set(view.get("vassals") or {})
    assert cells["stark"] == "1 (\u22121)" and cells["lannister"] == cells["targaryen"] == "0"
    assert vassals and all(cells[h] == "\u2014" for h in vassals)  # a vassal takes no loans
    assert [i.text for i in got if i.kind == "row"][-1] == t("loans_row", lang)
    assert overlapping(got) == [] and min(i.px for i in got if i.px) >= 20
    assert not [i for i in items(ESSOS, without_bank(view), lang, ESSOS.board_width) if i.kind == "loans_row"]
    assert loans_cell({"loans": {"stark": ["a", "b"]}, "interest": {"stark": 2}}, "stark", False) == "2 (\u22122)"
    # The row is drawn, the last of the table: words and numbers in ink under the rows the strip had.
    strip = open_png(render_panel(view, lang)).convert("RGB")
    plain = open_png(render_panel(without_bank(view), lang)).convert("RGB")
    assert strip.height == plain.height + ROW_H and strip.width == plain.width
    row = next(i for i in got if i.kind == "loans_row" and i.house == "stark")
    assert count(strip.crop(int_box(row.box)), style.INK) > 40
    assert count(strip.crop((0, plain.height - 8, strip.width, strip.height)), style.INK) > 300


# --- the tokens on the map -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_development_token_sits_in_its_area_clear_of_everything(lang: str) -> None:
    view = game_view()
    img = map_part(rgb(compose_board(ESSOS, view, lang)))
    before = map_part(rgb(compose_board(ESSOS, without_bank(view), lang)))
    pieces = board_pieces(ESSOS, view, lang)  # map px
    token = the_piece(pieces, "development", "winterfell")
    stamp = bank.development_token(bank.DEV_SIZE, (("barrel", 1),))
    assert token.stamp == stamp and token.size == bank.DEV_SIZE >= 32
    # Inside Winterfell: every pixel of the chip on Winterfell's land, on the board image.
    x0, y0, x1, y1 = int_box(token.box)
    labels = shapes.labels(ESSOS)
    mask = stamp.mask or Image.new("L", stamp.image.size, 255)
    k = ESSOS.areas["winterfell"].index
    assert all(
        labels.getpixel((x0 + u, y0 + v)) == k
        for u in range(stamp.width)
        for v in range(stamp.height)
        if mask.getpixel((u, v))
    )
    assert x1 <= ESSOS.board_width and token not in outside(ESSOS, pieces)
    assert not [pair for pair in overlaps(pieces) if token in pair]
    # Drawn there: its gold ring, white face and barrel; not there without the bank.
    assert shows(img, token.box, stamp) and not shows(before, token.box, stamp)
    chip = img.crop((x0, y0, x1, y1))
    assert count(chip, style.GOLD) > 60 and count(chip, style.WHITE) > 20 and count(chip, style.BARREL) > 40
    # The rest of Winterfell is as it was (its name, its printed marks, its pieces).
    (ax0, ay0, ax1, ay1), _ = shapes.area_mask(ESSOS, "winterfell")
    diff = ImageChops.difference(img, before).crop((ax0, ay0, ax1, ay1)).getbbox()
    assert diff is not None
    assert x0 <= diff[0] + ax0 and y0 <= diff[1] + ay0 and diff[2] + ax0 <= x1 and diff[3] + ay0 <= y1


@pytest.mark.parametrize("lang", LANGS)
def test_a_castle_in_decline_is_covered(lang: str) -> None:
    view = game_view()
    img = map_part(rgb(compose_board(ESSOS, view, lang)))
    before = map_part(rgb(compose_board(ESSOS, without_bank(view), lang)))
    covers = decline_pieces(ESSOS, view, lang)  # map px
    cover = the_piece(covers, "declined", "harrenhal")
    assert not [p for p in covers if p.area != "harrenhal"]  # nothing covered where nothing declined
    # Harrenhal's marks (its castle, then a crown) are part of its name's block: where the block puts them.
    area = ESSOS.areas["harrenhal"]
    assert shapes.area_meta(ESSOS, "harrenhal")["name"][lang]["marks"] is None
    got = name_block(ESSOS, "harrenhal", lang, 1.0)
    assert got is not None
    block, (bx, by) = got
    row = mark_boxes(area, lang, *block.marks_at(area, lang, bx, by))
    assert [kind for kind, *_ in row] == ["castle", "crown"]
    castle = [(s, x, y) for kind, s, x, y in row if kind == "castle"]
    assert len(castle) == 1
    glyph, gx, gy = castle[0]
    # The cover hides the whole printed castle, and little else.
    c0, c1, c2, c3 = int_box(cover.box)
    assert c0 <= round(gx) and c1 <= round(gy) and round(gx) + glyph.width <= c2 and round(gy) + glyph.height <= c3
    assert c2 - c0 <= glyph.width + 4
    was, now = before.crop((c0, c1, c2, c3)), img.crop((c0, c1, c2, c3))
    assert count(was, style.ALERT) == 0 and count(was, style.STONE) > 40  # the castle as printed
    assert count(now, style.ALERT) > 40 and count(now, style.OUTLINE) > 100  # a dark tile struck in red
    assert cover.stamp is not None and shows(img, cover.box, cover.stamp)
    # Harrenhal shows nothing else new: the crown beside the castle is still printed.
    (ax0, ay0, ax1, ay1), _ = shapes.area_mask(ESSOS, "harrenhal")
    diff = ImageChops.difference(img, before).crop((ax0, ay0, ax1, ay1)).getbbox()
    assert diff is not None
    assert c0 <= diff[0] + ax0 and c1 <= diff[1] + ay0 and diff[2] + ax0 <= c2 and diff[3] + ay0 <= c3


@pytest.mark.parametrize("lang", LANGS)
def test_the_crops_show_the_tokens_at_their_zoom(lang: str) -> None:
    view = game_view()
    for area_id in ("winterfell", "harrenhal"):
        crop = compose(ESSOS, view, lang, [area_id])
        img = rgb(crop.image)
        z = crop.zoom
        origin = (crop.region[0] * z, crop.region[1] * z)
        if area_id == "winterfell":
            token = the_piece(crop.pieces, "development", "winterfell")
            stamp = bank.development_token(bank.dev_size(z), (("barrel", 1),))
            assert token.stamp == stamp and stamp.width >= 40 and shows(img, token.box, stamp)
            assert outside(ESSOS, crop.pieces, z, origin) == []
        else:
            cover = the_piece(decline_pieces(ESSOS, view, lang, z, origin), "declined", "harrenhal")
            assert cover.stamp is not None and shows(img, cover.box, cover.stamp)
            assert count(img.crop(tuple(round(v) for v in cover.box)), style.ALERT) > 60
        assert crop.overlap_count() == 0
    figures = measure.crop_figures([compose(ESSOS, view, lang, ["winterfell", "harrenhal"])])
    assert figures.overlaps == 0 and figures.min_piece_px >= 40


def test_tokens_in_essos_and_several_in_one_area_read_on_a_phone() -> None:
    spec = {
        "slots": ["sea-raiders", "master-at-arms", "vanguard-cavalry"],
        "loans": {"stark": ["spymaster", "pyromancer"], "lannister": ["full-host"]},
        "developed": {"pentos": {"crown": 2, "stronghold": 1}, "volantis": {"barrel": 1}, "the-reach": {"crown": 1}},
        "declined": {"braavos": ["castle"], "harrenhal": ["castle"]},
    }
    view = game_view(spec)
    view["bank"]["braavos"] = "lannister"
    for lang in LANGS:
        crop = compose_essos(ESSOS, view, lang)
        img = rgb(crop.image)
        pentos = the_piece(crop.pieces, "development", "pentos")
        two = bank.development_token(bank.dev_size(crop.zoom), (("crown", 2), ("stronghold", 1)), False)
        col = bank.development_token(bank.dev_size(crop.zoom), (("crown", 2), ("stronghold", 1)), True)
        assert pentos.stamp in (two, col) and shows(img, pentos.box, pentos.stamp)  # type: ignore[arg-type]
        assert the_piece(crop.pieces, "development", "volantis")
        z = crop.zoom
        cover = the_piece(decline_pieces(ESSOS, view, lang, z, (crop.region[0] * z, crop.region[1] * z)), "declined",
                          "braavos")  # fmt: skip
        assert cover.stamp is not None and shows(img, cover.box, cover.stamp)
        board = measure.board_figures([view], lang)
        assert board.min_piece_px >= 28 and board.overlaps == 0
        pieces = board_pieces(ESSOS, view, lang)
        assert the_piece(pieces, "development", "the-reach")
        assert not [p for p in outside(ESSOS, pieces) if p.kind == "development"]
        essos = measure.essos_figures([view], lang)
        assert essos.min_piece_px >= 40 and essos.overlaps == 0
        got = bank.panel(view, lang, 990, 140)
        assert got is not None and min(px for _, px in got.texts) >= 22


def test_the_count_badge_and_the_tokens_look_like_no_printed_mark() -> None:
    one = bank.development_token(32, (("crown", 1),))
    two = bank.development_token(32, (("crown", 2),))
    assert two.width > one.width == one.height == 32  # the count beside the chip
    face = one.image.convert("RGB")
    assert count(face, style.GOLD) > 150 and count(face, style.WHITE) > 30 and count(face, style.OUTLINE) > 60
    cover = bank.decline_cover(22)
    assert cover.width == cover.height == 26 and count(cover.image.convert("RGB"), style.ALERT) > 40


def test_a_step_that_develops_or_declines_an_area_crops_it() -> None:
    after = game_view()
    before = copy.deepcopy(after)
    before["bank"]["developed"], before["bank"]["declined"] = {}, {}
    got = changed_areas(ESSOS, [], before, after)
    assert {"winterfell", "harrenhal"} <= set(got.areas)
    assert changed_areas(ESSOS, [], after, copy.deepcopy(after)).areas == []


# --- the Iron Bank's sea order, the legend, the words --------------------------------------------------------------


def test_the_iron_bank_sea_order_is_drawn() -> None:
    view = game_view()
    sea = next(a for a, area in ESSOS.areas.items() if area.kind == "sea" and view["areas"][a]["units"])
    house = view["areas"][sea]["units"][0]["house"]
    view["areas"][sea]["order"] = {"house": house, "type": "iron-bank", "star": False, "bonus": 0, "sea": True}
    check(view)
    open_png(render_board(view, "en"))
    bad = copy.deepcopy(view)
    bad["areas"][sea]["order"]["type"] = "loan"
    with pytest.raises(ViewError):
        check(bad)


@pytest.mark.parametrize("lang", LANGS)
def test_the_legend_shows_the_banks_tokens(lang: str) -> None:
    got = {label: stamp for stamp, label in entries(lang)}
    assert got[t("legend.development", lang)] == bank.development_token(bank.DEV_SIZE, (("barrel", 1),))
    assert got[t("legend.declined", lang)] == bank.decline_cover(22)
    assert t("legend.iron_bank_order", lang) in got
    assert open_png(render_legend(lang)).width == 1080


def test_the_words_in_both_languages() -> None:
    assert t("iron_bank", "en") == "Iron Bank" and t("iron_bank", "ru") == "Железный банк"
    assert t("bank_deck", "ru", n=9) == "Колода: 9" and t("bank_empty", "ru") == "пусто"
    assert loan_name("customs-officer", "ru") == "Таможенный инспектор" and loan_name("spymaster", "en") == "Spymaster"


def test_a_stronghold_token_counts_in_the_final_ranking() -> None:
    """M-LOAN-05: the end-of-game ranking's strongholds (the first tie-breaker after castles) count a castle made a
    stronghold by Master-at-Arms."""
    view = game_view({"slots": [None, None, None]})
    view["areas"]["white-harbor"]["controller"] = "stark"
    board = board_named(view["options"]["board"])
    before = standing(board, view, "stark")
    view["bank"]["developed"] = {"white-harbor": {"stronghold": 1}}
    assert standing(board, view, "stark")[1] == before[1] + 1
