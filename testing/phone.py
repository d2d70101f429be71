"""A message as a phone shows it, in plain text: what a player reads and taps, for tests to assert on.

Text (the content, embeds, text displays) reads as lines, its markdown as Discord draws it (bold and links as their
words, a timestamp as a date and time in UTC, escapes undone); a menu as ``[▼ …]`` holding what it shows (the labels
of its selected options, else its placeholder: Discord hides the placeholder once something is picked); a button
as ``[Label]``, ``[Label (disabled)]`` when it cannot be pressed; the controls of one row on one line, in order.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from testing.fake_discord import StoredMessage
from testing.fake_discord.components import (
    ACTION_ROW,
    BUTTON,
    CONTAINER,
    LINK_STYLE,
    SECTION,
    SELECT_TYPES,
    TEXT_DISPLAY,
    texts,
    walk,
)

SEPARATOR = 14
MEDIA_GALLERY = 12
FILE = 13

MASKED_LINK = re.compile(r"\[((?:\\.|[^\]\\])*)\]\(<?(https?://[^\s)>]+)>?\)")
TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")
EMPHASIS = re.compile(r"(\*\*|__|~~|\|\|)(?=\S)(.+?)(?<=\S)\1")
SMALL = re.compile(r"^(?:-#|#{1,3}) ", re.MULTILINE)
ESCAPE = re.compile(r"\\([\\*_~`|>#\[\]()-])")


def plain(text: str) -> str:
    """Markdown as a phone draws it, in plain text."""
    text = MASKED_LINK.sub(lambda m: m[1], text)
    text = TIMESTAMP.sub(_when, text)
    text = SMALL.sub("", text)
    text = EMPHASIS.sub(lambda m: m[2], text)
    return ESCAPE.sub(lambda m: m[1], text)


def _when(match: re.Match[str]) -> str:
    at = int(match[1])
    if match[2] == "R":
        return f"{round((at - time.time()) / 3600):+d} h"  # Discord words it in the reader's language
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


def as_phone(message: StoredMessage) -> str:
    """``message`` as its reader sees it on a phone, top to bottom."""
    lines: list[str] = [plain(message.content)] if message.content else []
    for embed in message.embeds:
        lines += [plain(str(embed[key])) for key in ("title", "description") if embed.get(key)]
        for fld in embed.get("fields", []):
            lines += [plain(str(fld.get("name", ""))), plain(str(fld.get("value", "")))]
    lines += _layout(message.components)
    lines += [f"[🖼 {a.filename}]" for a in message.attachments]
    return "\n".join(lines)


def control(component: Mapping[str, Any]) -> str:
    """One menu or button as it shows: ``[▼ Defense +1]``, ``[Submit]``, ``[Submit (disabled)]``."""
    if component.get("type") in SELECT_TYPES:
        picked = [str(o["label"]) for o in component.get("options", []) if o.get("default")]
        shown = ", ".join(picked) or str(component.get("placeholder") or "…")
        return f"[▼ {shown}{' (disabled)' if component.get('disabled') else ''}]"
    label = str(component.get("label") or component.get("emoji", {}).get("name") or "?")
    if component.get("style") == LINK_STYLE:
        label += " ↗"
    return f"[{label}{' (disabled)' if component.get('disabled') else ''}]"


def _layout(components: Sequence[Mapping[str, Any]]) -> list[str]:
    lines: list[str] = []
    for component in components:
        kind = component.get("type")
        if kind == TEXT_DISPLAY:
            lines.append(plain(str(component.get("content") or "")))
        elif kind == ACTION_ROW:
            lines.append(" ".join(control(c) for c in component.get("components", [])))
        elif kind in SELECT_TYPES or kind == BUTTON:
            lines.append(control(component))
        elif kind == CONTAINER:
            lines += _layout(component.get("components", []))
        elif kind == SECTION:
            lines += _layout(component.get("components", []))
            accessory = component.get("accessory")
            if isinstance(accessory, dict) and accessory.get("type") == BUTTON:
                lines.append(control(accessory))
        elif kind == SEPARATOR:
            lines.append("―――")
        elif kind in (MEDIA_GALLERY, FILE):
            lines.append("[🖼]")
    return lines


def tapped(message: StoredMessage, custom_id: str) -> list[str]:
    """The menu ``custom_id`` of ``message`` as it opens when tapped: each option's label, its description under it,
    a ✓ beside what is picked."""
    select = next((c for c in walk(message.components) if c.get("custom_id") == custom_id), None)
    if select is None:
        raise AssertionError(f"no menu {custom_id!r} on the message")
    lines = []
    for option in select.get("options", []):
        lines.append(f"{'✓' if option.get('default') else '·'} {option.get('label')}")
        if option.get("description"):
            lines.append(f"    {option['description']}")
    return lines


def menus(message: StoredMessage) -> list[tuple[str, str]]:
    """Each menu of ``message`` with the line just above it (the words saying what it is for), as a phone shows
    them: ``[("Winterfell — 2 footmen", "[▼ Defense +1]"), ...]``."""
    lines = as_phone(message).split("\n")
    return [(lines[i - 1] if i else "", line) for i, line in enumerate(lines) if line.startswith("[▼ ")]


def every_text(message: StoredMessage) -> list[str]:
    """The raw text (content and text displays, markdown kept) of each version the message had, its first
    (before any edit) first and its current one last."""
    earlier = [
        "\n".join([str(h.get("content") or ""), *texts(h.get("components") or [])]).strip("\n") for h in message.history
    ]
    return [*earlier, message.text()]
