"""Targaryen's loyalty tokens on the images (issue Y): the token on the map (in its area, with its count, clear of
every other piece and name, on the board image, the crops and the change crops), Targaryen's Victory cell read as
loyalty in the status strip, the loyalty reserve on the dragon track, deck IV's card among the round facts, and the
legend. Real Pillow output throughout; the 6- and 7-house images stay byte-identical (tests/render/test_essos.py)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image, ImageChops

import i18n
from engine import data as rules_data
from render import images_for_step, measure, palette, render_legend, render_panel, shapes, stamps, style
from render.api import compose_board
from render.changes import changed_areas
from render.crop import Move, compose, encode
from render.data import board_named
from render.dragons import panel
from render.essos import essos_areas
from render.layout import Piece, board_pieces, outside, overlaps
from render.legend import entries
from render.loyalty import SIZE, place, token
from render.stamps import Stamp
from render.strings import t
from render.strip import LABEL_W, PAD, Item, items, overlapping, round_facts, row_label
from render.style import INK, OUTLINE, PAPER, PAPER_DARK, WHITE
from render.tokens import power_token
from render.views import check, loyalty_reserve, loyalty_tokens
from tests.render import modkit
from tests.render.conftest import open_png

ESSOS = board_named("mother-of-dragons-essos")
LANGS = ("en", "ru")
TARGARYEN = "targaryen"
PURPLE = style.HOUSE_STYLES[TARGARYEN].colour
LANDS = [a for a, area in ESSOS.areas.items() if area.kind == "land" and a not in essos_areas(ESSOS)]
SEAS = {area.index for area in ESSOS.areas.values() if area.kind == "sea"}
DECK4 = "strongholds-of-resistance"
View = dict[str, Any]


def holding(tokens: dict[str, int], reserve: int = 13, view: View | None = None) -> View:
    """A view of the board with Essos (the 8-house setup unless given) with these loyalty tokens on the board."""
    v = copy.deepcopy(view) if view is not None else modkit.setup_view(8)
    v["targaryen"]["loyalty_tokens"] = dict(tokens)
    v["targaryen"]["loyalty_reserve"] = reserve
    return v


def rgb(img: Image.Image) -> Image.Image:
    """A drawn palette image as a viewer sees it, through the PNG."""
    return open_png(encode(img)).convert("RGB")


def shows(img: Image.Image, box: tuple[float, float, float, float], stamp: Stamp) -> bool:
    """Whether ``img`` (RGB) shows every pixel of ``stamp``'s mask with its top-left at the box's."""
    x, y = round(box[0]), round(box[1])
    got = img.crop((x, y, x + stamp.width, y + stamp.height))
    diff = ImageChops.difference(got, stamp.image.convert("RGB")).convert("L").point(lambda v: 255 if v else 0)
    mask = stamp.mask or Image.new("L", got.size, 255)
    return ImageChops.darker(diff, mask).getbbox() is None


def count(img: Image.Image, colour: tuple[int, int, int]) -> int:
    return sum(n for n, c in img.getcolors(1 << 20) or [] if c == colour)


def loyalty_of(pieces: list[Piece]) -> dict[str, Piece]:
    return {p.area: p for p in pieces if p.kind == "loyalty"}


def covered(piece: Piece) -> set[int]:
    """The area entries of the map pixels a board token's stamp covers (its transparent corners cover nothing)."""
    assert piece.stamp is not None
    x0, y0 = round(piece.box[0]), round(piece.box[1])
    st = piece.stamp
    labels = shapes.labels(ESSOS).crop((x0, y0, x0 + st.width, y0 + st.height))
    mask = st.mask or Image.new("L", labels.size, 255)
    return {v for v, m in zip(labels.tobytes(), mask.tobytes(), strict=True) if m}


# --- the token ----------------------------------------------------------------------------------------------------


def test_the_token_is_a_purple_diamond_with_a_white_heart_unlike_any_other_piece() -> None:
    one = token()
    assert (one.width, one.height) == (SIZE, SIZE) and one.mask is not None
    # A diamond: its corners are empty, its middle and the middles of its edges drawn.
    m = one.mask
    for corner in ((1, 1), (SIZE - 2, 1), (1, SIZE - 2), (SIZE - 2, SIZE - 2)):
        assert m.getpixel(corner) == 0, corner
    for inside in ((SIZE // 2, SIZE // 2), (SIZE // 2, 2), (2, SIZE // 2), (SIZE - 3, SIZE // 2)):
        assert m.getpixel(inside) == 255, inside
    img = one.image.convert("RGB")
    assert count(img, PURPLE) > 100 and count(img, WHITE) > 80 and count(img, OUTLINE) > 40
    # White inside the purple (the heart): the middle pixel is white, ringed by purple.
    assert img.getpixel((SIZE // 2, SIZE // 2 + 1)) == WHITE
    # Not a power token's disc (which covers the corners' diagonals).
    disc = power_token(TARGARYEN, "en", SIZE).mask
    assert disc is not None
    same = ImageChops.darker(disc, m).histogram()[255] / ImageChops.lighter(disc, m).histogram()[255]
    assert same < 0.75


def test_more_than_one_token_shows_the_count_beside_or_under_the_diamond() -> None:
    two, twelve = token(SIZE, 2), token(SIZE, 12)
    assert two.height == SIZE and two.width > SIZE * 1.3  # the count's disc at the right corner
    under_two = token(SIZE, 2, below=True)
    assert under_two.width == SIZE and under_two.height > SIZE * 1.3
    for stamp, badge in ((two, (SIZE, 0, two.width, SIZE)), (under_two, (0, SIZE, SIZE, under_two.height))):
        part = stamp.image.convert("RGB").crop(badge)
        assert count(part, INK) > 8 and count(part, WHITE) > 40  # a dark number on a white disc
    assert two.image.tobytes() != token(SIZE, 3).image.tobytes() != twelve.image.tobytes()
    assert count(token().image.convert("RGB"), INK) == 0  # one token carries no number


# --- the board image ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_tokens_are_drawn_in_their_areas_on_the_board_image(lang: str) -> None:
    v = holding({"kings-landing": 1, "riverrun": 2, "winterfell": 3, "the-reach": 12})
    img = rgb(compose_board(ESSOS, check(v), lang))
    top = img.height - ESSOS.size[1]
    drawn = loyalty_of(board_pieces(ESSOS, v, lang))  # what the measures read is what is drawn
    assert set(drawn) == set(v["targaryen"]["loyalty_tokens"])
    labels = shapes.labels(ESSOS)
    for area_id, piece in drawn.items():
        n = v["targaryen"]["loyalty_tokens"][area_id]
        assert piece.stamp in (token(SIZE, n), token(SIZE, n, below=True)), area_id
        x0, y0, x1, y1 = piece.box
        assert shows(img, (x0, y0 + top), piece.stamp), area_id
        assert count(img.crop((round(x0), round(y0 + top), round(x1), round(y1 + top))), PURPLE) > 100
        # In its own area, on the board image.
        assert labels.getpixel((round((x0 + x1) / 2), round((y0 + y1) / 2))) == ESSOS.areas[area_id].index
        assert x0 >= 0 and x1 <= ESSOS.board_width
    # Nothing else moved: the pieces drawn without the tokens are drawn where they were.
    bare = board_pieces(ESSOS, holding({}), lang)
    assert [p for p in board_pieces(ESSOS, v, lang) if p.kind != "loyalty"] == bare


def test_a_token_never_hides_a_piece_or_a_name_in_any_land_of_westeros() -> None:
    """Every land of Westeros holding tokens at once, on the setup and on a round-3 position of a real game: no token
    overlaps anything, each stays in its area (a thin coastal area's may reach over the sea, never over another
    land), off its anchor pixel, and on the board image."""
    labels = shapes.labels(ESSOS)
    for base in (modkit.setup_view(8), modkit.midgame_view()):
        assert overlaps(board_pieces(ESSOS, holding({}, view=base), "en")) == []
        for n in (1, 2, 12):
            v = holding(dict.fromkeys(LANDS, n), view=base)
            pieces = board_pieces(ESSOS, v, "en")
            assert overlaps(pieces) == [], n
            drawn = loyalty_of(pieces)
            assert set(drawn) == set(LANDS)
            off = {p.area for p in outside(ESSOS, pieces) if p.kind == "loyalty"}
            assert len(off) <= len(LANDS) // 4, off  # most lie wholly inside
            for area_id, piece in drawn.items():
                own = ESSOS.areas[area_id].index
                x0, y0, x1, y1 = piece.box
                assert labels.getpixel((round((x0 + x1) / 2), round((y0 + y1) / 2))) == own, area_id
                assert covered(piece) <= {own} | SEAS, area_id
                assert x1 <= ESSOS.board_width
                ax, ay = shapes.area_meta(ESSOS, area_id)["anchor"]
                st = piece.stamp
                assert st is not None and st.mask is not None
                u, w = ax - round(x0), ay - round(y0)
                assert not (0 <= u < st.width and 0 <= w < st.height and st.mask.getpixel((u, w))), area_id


@pytest.mark.parametrize("lang", LANGS)
def test_the_boards_with_tokens_still_read_on_a_phone_with_no_overlap(lang: str) -> None:
    views = [
        holding({"kings-landing": 1}),
        holding({"riverrun": 2, "harrenhal": 1, "the-eyrie": 4, "sunspear": 1}, view=modkit.midgame_view()),
        holding(
            {"winterfell": 1, "moat-cailin": 2}, view=modkit.setup_view(["stark", "lannister", "arryn", "targaryen"])
        ),
    ]
    board = measure.board_figures(views, lang)
    assert board.min_piece_px >= 28 and board.min_label_px >= 16 and board.overlaps == 0
    essos = measure.essos_figures(views, lang)
    assert essos.overlaps == 0 and essos.min_piece_px >= 40
    # The token itself is measured as a piece: 32 px on the board, 28.9 px at 1080 px wide.
    sizes = {p.size for p in board_pieces(ESSOS, views[1], lang) if p.kind == "loyalty"}
    assert sizes == {SIZE} and SIZE * style.PHONE_W / ESSOS.board_width >= 28


def test_a_token_left_without_room_is_reported_not_drawn_over_pieces() -> None:
    # A crowded spot: every box of the area's middle taken; place() answers None rather than overlap.
    rec = shapes.area_meta(ESSOS, "kings-landing")
    x0, y0, x1, y1 = rec["bbox"]
    assert place(ESSOS, "kings-landing", 1, 1.0, (0, 0), [(x0 - 50, y0 - 50, x1 + 50, y1 + 50)]) is None
    got = place(ESSOS, "kings-landing", 1, 1.0, (0, 0), [])
    assert got is not None and got[1] == token()


# --- crops and posts ----------------------------------------------------------------------------------------------


def test_a_crop_of_an_area_holding_tokens_shows_them_at_its_zoom() -> None:
    v = holding({"riverrun": 2, "harrenhal": 1, "kings-landing": 1}, view=modkit.midgame_view())
    moves = [Move("lannister", "march", "harrenhal", "stoney-sept")]
    crop = compose(ESSOS, v, "en", ["harrenhal", "riverrun", "stoney-sept"], moves=moves, highlight=["harrenhal"])
    img = rgb(crop.image)
    drawn = loyalty_of(crop.pieces)
    assert {"riverrun", "harrenhal"} <= set(drawn)
    size = round(SIZE * crop.zoom)
    for area_id in ("riverrun", "harrenhal"):
        piece = drawn[area_id]
        n = v["targaryen"]["loyalty_tokens"][area_id]
        assert piece.stamp in (token(size, n), token(size, n, below=True)) and piece.size == size
        assert shows(img, piece.box, piece.stamp)
    assert crop.overlap_count() == 0  # nor does the march arrow cross a token
    piece_px, _ = crop.min_sizes()
    assert piece_px >= 40


def test_placing_a_token_posts_a_crop_of_its_area() -> None:
    before = holding({"kings-landing": 1})
    after = holding({"kings-landing": 1, "riverrun": 1}, reserve=12)
    # From the views alone, and from the engine's event.
    assert changed_areas(ESSOS, [], before, after).areas == ["riverrun"]
    event = {"type": "loyalty-placed", "area": "riverrun", "card": "playing-with-fire", "house": TARGARYEN}
    assert changed_areas(ESSOS, [event], before, before).areas == ["riverrun"]
    moved = {"type": "loyalty-moved", "origin": "kings-landing", "to": "blackwater", "card": "x", "house": "stark"}
    assert changed_areas(ESSOS, [moved], before, before).areas == ["kings-landing", "blackwater"]
    got = images_for_step(before, after, [event], "en")
    assert [kind for _, _, kind in got] == ["change"]
    img = open_png(got[0][1]).convert("RGB")
    assert count(img, PURPLE) > 300  # the token, at the crop's zoom


# --- the status strip ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_targaryens_victory_cell_reads_as_loyalty(lang: str) -> None:
    v = holding({"kings-landing": 1})
    v["victory"][TARGARYEN] = 3
    got = items(ESSOS, check(v), lang, ESSOS.board_width)
    assert overlapping(got) == []
    marks = [i for i in got if i.kind == "loyalty_mark"]
    assert [i.house for i in marks] == [TARGARYEN]  # only Targaryen's number is loyalty
    cell = _one(got, "castles", TARGARYEN)
    assert cell.text == "3/7" and marks[0].box[2] < cell.box[0]  # the token, then the number
    assert abs((marks[0].box[1] + marks[0].box[3]) / 2 - (cell.box[1] + cell.box[3]) / 2) < 4  # on its line
    # The row says so: "Castles / Loyalty" where Targaryen plays, "Castles" on the other boards.
    order = [i.house for i in sorted((i for i in got if i.kind == "crest"), key=lambda i: i.box[0])]
    label = next(i for i in got if i.kind == "row" and abs(i.box[1] - cell.box[1] - 2) < 1)
    assert label.text == row_label("castles", order, lang) == t("castles_loyalty", lang) != t("castles", lang)
    assert row_label("castles", [h for h in order if h != TARGARYEN], lang) == t("castles", lang)
    # In the PNG itself: the token's purple and white in Targaryen's cell, the label's words in the row.
    img = open_png(render_panel(v, lang)).convert("RGB")
    mark_px = img.crop(tuple(round(c) for c in marks[0].box))  # type: ignore[arg-type]
    assert count(mark_px, PURPLE) > 60 and count(mark_px, WHITE) > 30
    assert shows(img, label.box, stamps.text(label.text, "regular", label.px, INK, bg=PAPER_DARK))
    assert label.box[0] == PAD + 6 and label.box[2] <= PAD + LABEL_W + 6


def _one(got: list[Item], kind: str, house: str) -> Item:
    return next(i for i in got if i.kind == kind and i.house == house)


@pytest.mark.parametrize("lang", LANGS)
def test_deck_fours_card_is_named_among_the_round_facts(lang: str) -> None:
    v = holding({"kings-landing": 1})
    v["westeros_cards"] = ["supply", "clash-of-kings", "storm-of-swords", DECK4]
    name = rules_data.westeros_deck4()[f"4:{DECK4}"]["names"][lang]
    facts = [text for text, _ in round_facts(v, lang)]
    assert t("westeros_deck4", lang, card=name) in facts
    assert any(f.startswith(t("westeros_short", lang)) and name not in f for f in facts)  # decks I-III apart
    got = items(ESSOS, check(v), lang, ESSOS.board_width)
    drawn = [i for i in got if i.kind == "fact"]
    assert [i.text for i in drawn] == facts and overlapping(got) == []
    img = open_png(render_panel(v, lang)).convert("RGB")
    for fact in drawn:
        assert fact.box[2] <= ESSOS.board_width - PAD
        assert shows(img, fact.box, stamps.text(fact.text, "regular", fact.px, INK, bg=PAPER))
    # Three cards (no Targaryen): one fact, as before.
    three = [text for text, _ in round_facts({**v, "westeros_cards": v["westeros_cards"][:3]}, lang)]
    assert len(three) == len(facts) - 1


# --- the dragon track panel, the legend, the catalogs -------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_dragon_track_says_the_loyalty_tokens_in_reserve(lang: str) -> None:
    v = holding({"kings-landing": 1}, reserve=19)
    fewer = holding({"kings-landing": 1, "riverrun": 6}, reserve=13)
    a, b = panel(v, lang, 900, 440), panel(fewer, lang, 900, 440)
    assert a is not None and b is not None
    line = a.spaces[0][3]  # under the round spaces: "Loyalty 0 · 19 in reserve"
    ia, ib = _through(a.image), _through(b.image)
    assert ia.crop((0, 0, 900, line)).tobytes() == ib.crop((0, 0, 900, line)).tobytes()
    assert ia.crop((0, line, 900, 440)).tobytes() != ib.crop((0, line, 900, 440)).tobytes()
    assert count(ia.crop((0, line, 120, 440)), PURPLE) > 40  # a loyalty token before the words
    assert loyalty_reserve(v) == 19 and loyalty_reserve(modkit.setup_view(7)) is None


def _through(img: Image.Image) -> Image.Image:
    out = img.copy()
    out.putpalette(palette.palette_bytes({}, late=True))
    return out.convert("RGB")


@pytest.mark.parametrize("lang", LANGS)
def test_the_legend_shows_the_loyalty_token(lang: str) -> None:
    got = dict((label, stamp) for stamp, label in entries(lang))
    assert got[t("legend.loyalty", lang)] == token()
    assert got[t("legend.loyalty_count", lang)] == token(count=2)
    img = open_png(render_legend(lang)).convert("RGB")
    assert count(img, PURPLE) > 2 * 200


def test_the_words_come_from_both_catalogs() -> None:
    keys = ("castles_loyalty", "loyalty_reserve", "westeros_deck4", "legend.loyalty", "legend.loyalty_count")
    for lang in LANGS:
        texts = {m.id: m.string for m in i18n.catalog(lang) if isinstance(m.id, str)}
        for key in keys:
            assert texts.get(f"image.{key}"), (lang, key)
    assert t("loyalty_reserve", "en", n=17) == "17 in reserve" and "17" in t("loyalty_reserve", "ru", n=17)
    assert "верност" in t("legend.loyalty", "ru") and "Верность" in t("castles_loyalty", "ru")


def test_the_view_accessor_keeps_only_areas_holding_tokens() -> None:
    v = holding({"kings-landing": 1, "the-reach": 3})
    v["targaryen"]["loyalty_tokens"].update({"riverrun": 0, "harrenhal": True, "winterfell": "2", "oldtown": None})
    assert loyalty_tokens(v) == {"kings-landing": 1, "the-reach": 3}
    assert loyalty_tokens(modkit.setup_view(7)) == {}
    # An impassable area shows nothing, not even a token.
    v["areas"]["the-reach"]["neutral"] = "impassable"
    assert set(loyalty_of(board_pieces(ESSOS, v, "en"))) == {"kings-landing"}
