"""PNG encoding for every posted image: one setting, chosen by measurement."""

from __future__ import annotations

import io

from PIL import Image

# zlib level 1 with its default strategy, chosen by measurement (issue 15; mid-game 6-player view, P mode,
# median of 7 encodes on the 2-core host, Pillow's `compress_type` being zlib's strategy):
#   board 1186x2647: level 1 default 8.4 ms 160 KB | level 1 RLE (3) 8.1 ms 189 KB | level 3 default 9.6 ms 149 KB
#                    level 6 default 22 ms 118 KB  | Huffman only (2) 20-22 ms 1080 KB
#   crop 1080x1242:  level 1 default 5.9 ms 133 KB | level 1 RLE 10.3 ms 148 KB     | level 6 default 21 ms 113 KB
# RLE is as fast but 12-18 % larger; higher levels cost two to three times the time for 7-27 % less.
PNG_OPTIONS: dict[str, int] = {"compress_level": 1}


def encode_png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, "PNG", **PNG_OPTIONS)
    return out.getvalue()
