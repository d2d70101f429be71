"""The Mother of Dragons board with Essos (Targaryen plays): its committed shapes, the board image and the Essos image
drawn apart so both read on a phone, the dragons with their strength, the dragon strength track, Targaryen's colour
on Essos, and the 6- and 7-house boards drawn exactly as before."""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import zlib
from typing import Any

import PIL
import pytest
from PIL import Image, ImageChops, ImageDraw, features

from render import (
    images_for_step,
    measure,
    palette,
    render_battle,
    render_board,
    render_panel,
    render_private_board,
    shapes,
    style,
    tokens,
)
from render.api import compose_board
from render.base import sea_shades
from render.crop import Crop, Move, compose, encode, focus_box
from render.data import board_named, board_of
from render.dragons import ROUNDS, TARGARYEN, panel
from render.essos import STACK_GAP, compose_essos, essos_areas, essos_region
from render.icons import UNIT_PAINTERS
from render.layout import zoom_key
from render.stamps import Stamp
from render.strip import items, overlapping
from render.views import ViewError, check
from tests.render import modkit, viewkit
from tests.render.conftest import open_png

ESSOS = board_named("mother-of-dragons-essos")
FOUR = ["stark", "lannister", "arryn", "targaryen"]  # Targaryen with three players: four vassals
LANGS = ("en", "ru")
TARGARYEN_TINT = style.HOUSE_STYLES[TARGARYEN].tint


def four() -> dict[str, Any]:
    return modkit.setup_view(FOUR)


def rgb(img: Image.Image) -> Image.Image:
    """A drawn image as a viewer sees it: through its own palette, as the PNG carries it."""
    return open_png(encode(img)).convert("RGB")


def at(crop: Crop, x: float, y: float) -> tuple[int, int]:
    """The output pixel of a crop that shows map pixel (x, y)."""
    rx0, ry0, rx1, ry1 = crop.region
    return int((x - rx0 + 0.5) * crop.image.width / (rx1 - rx0)), int((y - ry0 + 0.5) * crop.image.height / (ry1 - ry0))


def stamp_rgb(stamp: Stamp) -> Image.Image:
    return stamp.image.convert("RGB")


def shows_stamp(img: Image.Image, box: tuple[float, float, float, float], stamp: Stamp) -> bool:
    """Whether ``img`` (RGB) shows ``stamp`` exactly, every pixel of its mask, with its top-left at the box's."""
    x, y = round(box[0]), round(box[1])
    got = img.crop((x, y, x + stamp.width, y + stamp.height))
    diff = ImageChops.difference(got, stamp_rgb(stamp)).convert("L").point(lambda v: 255 if v else 0)
    mask = stamp.mask or Image.new("L", got.size, 255)
    return ImageChops.darker(diff, mask).getbbox() is None


# --- the board and its shapes --------------------------------------------------------------------------------------


def test_targaryens_games_are_drawn_on_the_board_with_essos() -> None:
    for view in (modkit.setup_view(8), four()):
        board = board_of(check(view))
        assert board is ESSOS and len(board.areas) == 75 and board.has_essos
        assert {"pentos", "norvos", "the-rhoyne", "volantis", "braavos", "bay-of-pentos"} <= set(board.areas)
    assert ESSOS.size == (1926, 2205)  # the 1204 x 1378 layout frame at the drawing scale
    assert board_of(modkit.setup_view(7)) is board_named("mother-of-dragons")
    # Dragons are the Essos board's: a base view with one is refused, an Essos view is not.
    assert "dragon" in ESSOS.unit_types and "dragon" not in board_named("base").unit_types


def test_essos_shapes_touch_exactly_as_the_rules_say_and_keep_the_iron_bank_panel() -> None:
    with Image.open(ESSOS.files.assets / "areas.png") as img:
        assert img.mode == "P" and img.size == ESSOS.size
        data = img.tobytes()
    w, h = ESSOS.size
    values = set(data)
    assert values == {a.index for a in ESSOS.areas.values()} | {palette.NO_AREA}
    # The areas past the 61st take the top palette entries, clear of the fixed colours.
    assert {a.index for a in ESSOS.areas.values()} <= palette.AREA_SLOTS
    pairs: set[tuple[int, int]] = set()
    for y in range(h):
        row = data[y * w : (y + 1) * w]
        pairs |= {(a, b) for a, b in itertools.pairwise(row) if a != b}
        if y + 1 < h:
            pairs |= {(a, b) for a, b in zip(row, data[(y + 1) * w : (y + 2) * w], strict=True) if a != b}
    by_index = ESSOS.area_by_index
    found = {frozenset((by_index[a].id, by_index[b].id)) for a, b in pairs if palette.NO_AREA not in (a, b)}
    assert found == set(ESSOS.adjacency) | set(ESSOS.rivers)
    # The panel (no area) is one whole rectangle, where the layout puts the Iron Bank (frame 786..1204 x 162..372).
    box = shapes.panel_box(ESSOS)
    assert box is not None
    x0, y0, x1, y1 = box
    assert abs(x0 - 786 * style.SCALE) < 12 and abs(y0 - 162 * style.SCALE) < 12 and x1 == w
    assert data.count(bytes([palette.NO_AREA])) > 0.999 * (x1 - x0) * (y1 - y0)  # the layout grid lacks one cell


def test_every_area_is_shown_whole_on_the_board_image_or_on_the_essos_image() -> None:
    meta = shapes.meta(ESSOS)["areas"]
    apart = set(essos_areas(ESSOS))
    assert apart == {a for a, area in ESSOS.areas.items() if area.id in meta and _layout_board(a) == "essos"}
    x0, y0, x1, y1 = essos_region(ESSOS)
    for area_id in ESSOS.areas:
        for lang in LANGS:
            bx0, by0, bx1, by1 = focus_box(ESSOS, area_id, lang)
            if area_id in apart:
                assert x0 <= bx0 and y0 <= by0 and bx1 <= x1 and by1 <= y1, (area_id, lang)
            else:
                assert bx1 <= ESSOS.board_width, (area_id, lang)  # Dragonstone and the seas by Essos included
    with Image.open(ESSOS.files.assets / "areas.png") as img:
        for area_id, rec in meta.items():
            assert img.getpixel(tuple(rec["anchor"])) == ESSOS.areas[area_id].index, area_id


def _layout_board(area_id: str) -> str:
    board: str = ESSOS.layout()["areas"][area_id]["board"]
    return board


# --- the images ---------------------------------------------------------------------------------------------------


def test_the_board_image_and_the_essos_image_and_their_sizes() -> None:
    view = four()
    board_img = compose_board(ESSOS, view, "en")
    assert board_img.mode == "P" and board_img.width == ESSOS.board_width == 1194
    assert 2205 + 300 < board_img.height < 2205 + 700  # the status strip over the map's whole height
    crop = compose_essos(ESSOS, view, "en")
    rx0, ry0, rx1, ry1 = essos_region(ESSOS)
    assert crop.region == (rx0, ry0, rx1, ry1) and rx1 == 1926 and ry1 == 2205
    assert crop.zoom == zoom_key(style.PHONE_W / (rx1 - rx0)) and crop.zoom >= 1.35
    assert crop.image.size == (round((rx1 - rx0) * crop.zoom), round((ry1 - ry0) * crop.zoom))
    assert 1040 <= crop.image.width <= style.PHONE_W
    # render_board (/game map): the two in one picture, the Essos image as wide as the board image.
    whole = open_png(render_board(view, "en"))
    wide = compose_essos(ESSOS, view, "en", board_img.width).image
    assert whole.mode == "P" and whole.width == board_img.width
    assert whole.height == board_img.height + STACK_GAP + wide.height
    assert whole.convert("RGB").crop((0, 0, *board_img.size)).tobytes() == rgb(board_img).tobytes()


def test_a_whole_board_post_sends_the_board_then_essos() -> None:
    view = four()
    got = images_for_step(None, view, [], "en")
    assert [(name, kind) for name, _, kind in got] == [("board-0.png", "board"), ("essos-0.png", "board")]
    board, essos = (open_png(png) for _, png, _ in got)
    assert board.width == ESSOS.board_width and 1040 <= essos.width <= style.PHONE_W
    assert board.mode == essos.mode == "P"
    # Other boards still post one image.
    assert [kind for _, _, kind in images_for_step(None, viewkit.starting_view(6), [], "en")] == ["board"]


def test_essos_areas_take_their_owners_colour() -> None:
    view = four()
    view["areas"]["volantis"]["controller"] = "stark"
    crop = compose_essos(ESSOS, view, "en")
    img = rgb(crop.image)
    want = {
        "pentos": TARGARYEN_TINT,
        "norvos": TARGARYEN_TINT,
        "the-rhoyne": TARGARYEN_TINT,
        "myr": TARGARYEN_TINT,
        "volantis": style.HOUSE_STYLES["stark"].tint,
        "braavos": style.LAND_NEUTRAL,
        "the-disputed-lands": style.LAND_NEUTRAL,
        "bay-of-pentos": sea_shades(ESSOS)["bay-of-pentos"],
        "the-orange-shore": sea_shades(ESSOS)["the-orange-shore"],
    }
    for area_id, colour in want.items():
        x, y = shapes.area_meta(ESSOS, area_id)["anchor"]
        assert img.getpixel(at(crop, x, y)) == colour, area_id
    # Most of Pentos shows Targaryen's tint (names, marks and pieces cover a little of it).
    (x0, y0, x1, y1), mask = shapes.area_mask(ESSOS, "pentos")
    a, b = at(crop, x0, y0), at(crop, x1, y1)
    region = img.crop((*a, *b))
    inside = mask.resize(region.size, Image.Resampling.NEAREST)
    same = ImageChops.difference(region, Image.new("RGB", region.size, TARGARYEN_TINT)).convert("L")
    hit = ImageChops.darker(same.point(lambda v: 255 if v == 0 else 0), inside).histogram()[255]
    assert hit / inside.histogram()[255] > 0.8
    # The board image shows Westeros in its owners' colours too (Winterfell is Stark's).
    board_img = rgb(compose_board(ESSOS, view, "en"))
    x, y = shapes.area_meta(ESSOS, "winterfell")["anchor"]
    top = board_img.height - ESSOS.size[1]
    assert board_img.getpixel((x, y + top)) == style.HOUSE_STYLES["stark"].tint


def test_a_dragon_stands_in_norvos_with_its_strength_and_looks_like_no_other_unit() -> None:
    view = four()  # a dragon in Norvos, two in the Rhoyne, strength 0 at the start
    assert view["targaryen"]["dragon_strength"] == 0
    crop = compose_essos(ESSOS, view, "en")
    img = rgb(crop.image)
    z = zoom_key(crop.zoom)
    chips = {p.area: p for p in crop.pieces if p.kind == "units" and p.area in ("norvos", "the-rhoyne", "myr")}
    one = tokens.unit_group(TARGARYEN, (("dragon", False, 1),), "en", False, z, 0)
    two = tokens.unit_group(TARGARYEN, (("dragon", False, 2),), "en", False, z, 0)
    assert shows_stamp(img, chips["norvos"].box, one)
    assert shows_stamp(img, chips["the-rhoyne"].box, two) and two.width > one.width  # drawn one by one
    # The strength is on the piece: at strength 3 the Norvos dragon carries a 3, not a 0.
    view["targaryen"]["dragon_strength"] = 3
    stronger = compose_essos(ESSOS, view, "en")
    img3 = rgb(stronger.image)
    chip3 = next(p for p in stronger.pieces if p.kind == "units" and p.area == "norvos")
    three = tokens.unit_group(TARGARYEN, (("dragon", False, 1),), "en", False, z, 3)
    assert shows_stamp(img3, chip3.box, three) and not shows_stamp(img3, chip3.box, one)
    assert _colour_count(img3.crop(tuple(round(v) for v in chip3.box)), style.GOLD) > 40  # the gold badge
    # A knight (Myr) is drawn the old way, without a badge.
    knight = tokens.unit_group(TARGARYEN, (("knight", False, 1),), "en", False, z)
    assert shows_stamp(img, chips["myr"].box, knight)
    assert _colour_count(stamp_rgb(knight), style.GOLD) == 0


def test_the_dragon_pictogram_is_unlike_the_knight_and_the_footman() -> None:
    def silhouette(kind: str, size: int = 104) -> Image.Image:
        m = Image.new("L", (size, size), 0)
        UNIT_PAINTERS[kind](ImageDraw.Draw(m), (0, 0, size - 1, size - 1), 255)
        return m

    dragon = silhouette("dragon")
    for other in ("knight", "footman", "siege-engine", "ship"):
        them = silhouette(other)
        shared = ImageChops.darker(dragon, them).histogram()[255]
        either = ImageChops.lighter(dragon, them).histogram()[255]
        assert shared / either < 0.5, other
    box = dragon.getbbox()
    assert box is not None and box[2] - box[0] > 0.9 * 104  # wings spread across the whole square


def test_the_dragon_strength_track_shows_the_strength_and_the_rounds_still_holding_a_token() -> None:
    view = modkit.midgame_view()
    block = view["targaryen"]
    track = panel(view, "en", 900, 440)
    assert track is not None and len(track.spaces) == ROUNDS and track.image.mode == "P"
    img = _through_palette(track.image)
    for r, space in enumerate(track.spaces, start=1):
        gold = _colour_count(img.crop(space), style.GOLD)
        assert (gold > 60) == (r in block["dragon_rounds"]), (r, gold)
    now = track.spaces[view["round"] - 1]
    assert _colour_count(img.crop(now), style.HOUSE_STYLES[TARGARYEN].colour) > 100  # this round is ringed
    # The strength is written on the track: another strength, another picture (above the spaces only).
    stronger = copy.deepcopy(view)
    stronger["targaryen"]["dragon_strength"] = block["dragon_strength"] + 2
    other = panel(stronger, "en", 900, 440)
    assert other is not None
    above = (0, 0, 900, track.spaces[0][1])
    assert _through_palette(other.image).crop(above).tobytes() != img.crop(above).tobytes()
    assert (
        _through_palette(other.image).crop((0, track.spaces[0][1], 900, 440)).tobytes()
        == img.crop((0, track.spaces[0][1], 900, 440)).tobytes()
    )
    # No Targaryen, no track.
    assert panel(viewkit.midgame_view(), "en", 900, 440) is None


def test_the_track_is_drawn_in_the_iron_bank_panel_of_the_essos_image() -> None:
    view = four()
    crop = compose_essos(ESSOS, view, "en")
    img = rgb(crop.image)
    box = shapes.panel_box(ESSOS)
    assert box is not None
    a, b = at(crop, box[0], box[1]), at(crop, box[2] - 1, box[3] - 1)
    inside = img.crop((*a, *b))
    assert _colour_count(inside, style.GOLD) > 500  # the strength badge and five tokens (rounds 2, 4, 6, 8, 10)
    assert _colour_count(inside, style.HOUSE_STYLES[TARGARYEN].colour) > 500  # the crest, the piece, round 1 ringed
    assert _colour_count(inside, style.PAPER) > inside.width * inside.height // 3


def test_targaryen_in_the_status_strip_of_eight_columns() -> None:
    claimed = four()
    claimed["vassals"] = {"baratheon": "lannister", "martell": TARGARYEN, "greyjoy": None, "tyrell": "stark"}
    for view in (modkit.setup_view(8), modkit.midgame_view(), four(), claimed):
        for lang in LANGS:
            got = items(ESSOS, check(view), lang, ESSOS.board_width)
            assert overlapping(got) == []
            assert min(i.px for i in got if i.px) >= 20  # 18 px at a phone's width
            assert {i.house for i in got if i.kind == "crest"} == set(view["players"]) | set(view.get("vassals") or ())
            starts = sorted((i.box[0], i.house) for i in got if i.kind == "crest")
            for (x0, house), (x1, _) in zip(starts, [*starts[1:], (ESSOS.board_width, "")], strict=True):
                assert all(x0 - 4 <= i.box[0] and i.box[2] <= x1 - 4 for i in got if i.house == house), house
    strip = open_png(render_panel(claimed, "en")).convert("RGB")
    assert _colour_count(strip, style.HOUSE_STYLES[TARGARYEN].colour) > 300  # its crest, pips, Martell's liege


# --- phone sizes --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_both_images_read_on_a_phone(lang: str) -> None:
    views = [modkit.setup_view(8), modkit.midgame_view(), four()]
    board = measure.board_figures(views, lang)
    assert board.min_piece_px >= 28 and board.min_label_px >= 16 and board.overlaps == 0
    essos = measure.essos_figures(views, lang)
    assert essos.min_piece_px >= 40 and essos.min_label_px >= 22 and essos.overlaps == 0


def test_change_crops_and_battles_in_essos_read_on_a_phone() -> None:
    view = modkit.midgame_view()
    steps = [
        (["norvos", "the-rhoyne"], [Move(TARGARYEN, "march", "norvos", "the-rhoyne")]),
        (["pentos", "port-of-pentos", "bay-of-pentos"], [Move(TARGARYEN, "raid", "port-of-pentos", "bay-of-pentos")]),
        (["volantis", "myr"], [Move(TARGARYEN, "march", "myr", "volantis")]),
        (["braavos", "pentos"], [Move(TARGARYEN, "retreat", "braavos", "pentos")]),
    ]
    crops = [compose(ESSOS, view, "en", focus, moves=moves, highlight=focus) for focus, moves in steps]
    figures = measure.crop_figures(crops)
    assert figures.min_piece_px >= 40 and figures.min_label_px >= 22 and figures.overlaps == 0
    fight = modkit.battle_view()
    png = render_battle(fight, "en")
    assert open_png(png).mode == "P" and 1000 <= open_png(png).width <= 1100


def test_targaryens_private_board_shows_its_own_orders_in_essos_face_up() -> None:
    public = four()
    public["areas"]["pentos"]["order"] = {"house": TARGARYEN, "hidden": True}
    mine = copy.deepcopy(public)
    mine["viewer"] = TARGARYEN
    mine["areas"]["pentos"]["order"] = {"house": TARGARYEN, "type": "defense", "star": True, "bonus": 2}
    for view, face_up in ((public, False), (mine, True)):
        crop = compose_essos(ESSOS, view, "en")
        order = next(p for p in crop.pieces if p.kind == "order" and p.area == "pentos")
        size = round(style.ORDER_SIZE * crop.zoom)
        want = tokens.order_token(TARGARYEN, "defense" if face_up else None, face_up, 2 if face_up else 0, size)
        assert shows_stamp(rgb(crop.image), order.box, want)
    whole = open_png(render_private_board(mine, "en"))
    assert whole.width == ESSOS.board_width and whole.height == open_png(render_board(public, "en")).height + 54
    assert _colour_count(whole.convert("RGB").crop((0, 0, whole.width, 60)), style.ALERT) > 5000  # "PRIVATE"
    with pytest.raises(ViewError):
        render_board(mine, "en")


def _colour_count(img: Image.Image, colour: tuple[int, int, int]) -> int:
    return sum(n for n, c in img.getcolors(1 << 20) or [] if c == colour)


def _through_palette(img: Image.Image) -> Image.Image:
    """A fixed-entries image (mode P) in RGB, through the board palette with Targaryen's entries."""
    out = img.copy()
    out.putpalette(palette.palette_bytes({}, late=True))
    return out.convert("RGB")


# --- the other boards ---------------------------------------------------------------------------------------------

# sha256 of the PNG and of its RGB pixels, recorded from the renderer as it was before the board with Essos, Targaryen
# and the dragons came (and checked equal then): the 6- and 7-house boards are drawn exactly as before, byte for byte.
# The Russian boards were recorded again when the strip's label column grew to hold «Королевский двор» (issue U).
# Font rasterising and zlib belong to Pillow's build: the digests hold for the versions they were recorded with.
RECORDED_WITH = {"pillow": "13.0.0", "freetype2": "2.14.3", "zlib": "1.2.13"}
GOLDEN = {
    "board-6-en": ("f09760b891bc4e11dfcf6b20bc55c4e2cf6e13049ef913a7da2fa85f0235f234",
                   "d06bfa00c32575d0d654a309929932cc4385601d194f59d888fbf6c85125e128"),
    "board-3-ru": ("4365f0a5361c2d32aedf576431260007876a7850b288c91a9d4edcee3926f21a",
                   "86ec8ff3106ab2687a9c0ff1d879840b4ec084b068d55f45e82eb96082692ed6"),
    "board-7-en": ("ed1d51e98fa51c6c033e76d14f8659c70eb8579a4552c9b59f228e093b086c38",
                   "cf4a4ffff529d1600c3624699c6706f0d70a37eba67f57e966cd262baf321ea3"),
    "board-7-ru": ("62e412afa4133739f197f88fb8ea3e590631428c3f88e9a55f70c3db3f3336b8",
                   "9b0c20b29eb2ce532eb5dfe40921fae67770b123c0ecad34aefcf88b0cf01198"),
    "panel-7-en": ("1949a75fac7cf91625d83727e74776b3dec0880769b24a7e8661c57f3afe9482",
                   "636fe5a4088b32e5eabb5276aff1770260f80c7aa464d8607f9da6b888078a38"),
    "battle-6-en": ("b755969c986b71b7f13445669e93b66bb643ba3738001019e5b5bcfa5fc56ea1",
                    "84d9311e38b7f386ccc6be33cc3910f9324f721673243ff9800bc5bdb951ec02"),
    "crop-7-en": ("b70a39583a5258fdd2ec9a6c5f942d82c9a1c2d7dc3edb893dc54ea9fe0577d5",
                  "4331a74a637bdcac3e597bee79145b339091615d95e3388a43bc674997f47978"),
}  # fmt: skip
# sha256 of the fixed palette entries as they were (json of the list of the first 173 RGB triples).
OLD_ENTRIES = "7f0c90e1a856657f3b7aa9826262a04624771ad1cd86e62ea5297d2b68ce5e48"


def seven_house_view() -> dict[str, Any]:
    """A 7-house Mother of Dragons position drawn from the crafted six-house one, with Arryn and a vassal."""
    v = viewkit.midgame_view()
    v["options"] = {"ruleset": "mother-of-dragons", "board": "mother-of-dragons"}
    v["areas"].update({a: viewkit.blank_area() for a in ("the-vale-of-arryn", "the-bite", "port-of-the-eyrie")})
    arryn = (("the-eyrie", ["knight", "footman"]), ("the-vale-of-arryn", ["footman"]), ("port-of-the-eyrie", ["ship"]))
    for area, types in arryn:
        v["areas"][area]["units"] = [{"house": "arryn", "type": t, "routed": False} for t in types]
        if area != "port-of-the-eyrie":
            v["areas"][area]["controller"] = "arryn"
    v["areas"]["the-eyrie"]["order"] = {"house": "arryn", "type": "march", "star": True, "bonus": 1}
    v["areas"]["the-bite"]["order"] = {"house": "arryn", "type": "support", "star": False, "bonus": 0, "sea": True}
    v["players"] = [*v["players"], "arryn"]
    for track in v["tracks"].values():
        track.append("arryn")
    for field, value in (("supply", 1), ("victory", 1), ("power", 5)):
        v[field]["arryn"] = value
    v["vassals"] = {"martell": "arryn"}
    return v


def _old_board_renders() -> dict[str, bytes]:
    six, three, seven = viewkit.midgame_view(), viewkit.starting_view(3), seven_house_view()
    step = Move("arryn", "march", "the-eyrie", "the-vale-of-arryn")
    board7 = board_of(seven)
    return {
        "board-6-en": render_board(six, "en"),
        "board-3-ru": render_board(three, "ru"),
        "board-7-en": render_board(seven, "en"),
        "board-7-ru": render_board(seven, "ru"),
        "panel-7-en": render_panel(seven, "en"),
        "battle-6-en": render_battle(viewkit.battle_view(), "en"),
        "crop-7-en": encode(
            compose(board7, seven, "en", ["the-eyrie", "the-bite"], moves=[step], highlight=["the-eyrie"]).image
        ),
    }


def _versions() -> dict[str, str]:
    return {
        "pillow": PIL.__version__,
        "freetype2": str(features.version("freetype2")),
        "zlib": zlib.ZLIB_RUNTIME_VERSION,
    }


def test_the_six_and_seven_house_boards_keep_their_palette() -> None:
    """Targaryen's entries come after every entry the other boards use, and those images carry no trace of them:
    their palette is byte for byte the one from before."""
    assert palette.FIRST_LATE == 173 and palette.HIGH_SLOTS[0] > max(
        i for i, c in enumerate(palette.ENTRIES) if c != palette.PLACEHOLDER
    )
    old = palette.ENTRIES[: palette.FIRST_LATE]
    assert hashlib.sha256(json.dumps(old).encode()).hexdigest() == OLD_ENTRIES
    for name in ("base", "mother-of-dragons"):
        pal = open_png(render_board(viewkit.midgame_view() if name == "base" else seven_house_view())).getpalette()
        assert pal is not None
        for i in range(palette.FIRST_LATE, 256):
            if i not in palette.AREA_SLOTS:
                assert tuple(pal[3 * i : 3 * i + 3]) in (palette.PLACEHOLDER, (0, 0, 0)), (name, i)


def test_the_six_and_seven_house_boards_are_drawn_exactly_as_before() -> None:
    if _versions() != RECORDED_WITH:
        pytest.skip(f"digests recorded with {RECORDED_WITH}, this is {_versions()}")
    for name, png in _old_board_renders().items():
        pixels = open_png(png).convert("RGB").tobytes()
        assert (hashlib.sha256(png).hexdigest(), hashlib.sha256(pixels).hexdigest()) == GOLDEN[name], name
