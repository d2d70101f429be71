"""Issue U, fault 10: a Stark vassal's tag, Stark's pale grey on the paper, read as blank paper. A tag whose fill is
that close to the paper is drawn with a heavy dark edge; every other keeps its thin one."""

from __future__ import annotations

from PIL import Image

from render import palette
from render.style import OUTLINE, PAPER, house_style
from render.vassals import PALE, contrast, liege_tag

HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell", "arryn", "targaryen")


def edge_px(house: str) -> int:
    """How many pixels of the outline's colour the tag's left edge shows at mid-height."""
    stamp, _ = liege_tag(house, "en")
    img = Image.new("P", (stamp.width + 4, stamp.height + 4), palette.idx(PAPER))
    img.putpalette(palette.palette_bytes({}))
    stamp.paste(img, 2, 2)
    row = img.convert("RGB")
    y = 2 + stamp.height // 2
    return sum(1 for x in range(2, 2 + stamp.width // 3) if row.getpixel((x, y)) == OUTLINE)


def test_a_pale_houses_tag_has_a_heavy_edge_and_the_others_a_thin_one() -> None:
    assert contrast(house_style("stark").colour, PAPER) < PALE
    assert edge_px("stark") >= 3
    for house in HOUSES:
        if contrast(house_style(house).colour, PAPER) >= PALE:
            assert edge_px(house) <= 2, house
