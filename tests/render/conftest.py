from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from tests.render import viewkit


@pytest.fixture
def midgame() -> dict[str, Any]:
    return viewkit.midgame_view()


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img
