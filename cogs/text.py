"""Text the bot posts on Discord: what users typed is shown as typed (never as markdown, links or mentions),
and nothing goes over Discord's length limits."""

from __future__ import annotations

import re

import discord

MESSAGE_LIMIT = 2000  # characters of message content
NAME_LIMIT = 64  # characters of a game name
ECHO_LIMIT = 100  # characters of a user's input repeated back in a reply


def shown(text: str, limit: int = ECHO_LIMIT) -> str:
    """User-given text (a game name, a typed piece of an order) as literal text: markdown, masked links and
    mentions escaped, whitespace collapsed to single spaces, cut to ``limit`` characters."""
    flat = re.sub(r"\s+", " ", text).strip()
    if len(flat) > limit:
        flat = flat[: limit - 1] + "…"
    return discord.utils.escape_markdown(discord.utils.escape_mentions(flat))


def clip(text: str, limit: int) -> str:
    """Text cut to a component's limit at a word, marked with "…" (never mid-word, unless one word is too long)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:·—-") + "…"


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Cut a message to Discord's limit, at a line break where one is near, marking the cut with "…"."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    newline = cut.rfind("\n")
    if newline > limit // 2:
        cut = cut[:newline]
    return cut + "…"


def split(lines: list[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Lines packed into as few messages as fit; a single over-long line is cut."""
    out: list[str] = []
    current = ""
    for line in lines:
        line = fit(line, limit)
        if current and len(current) + len(line) + 1 > limit:
            out.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out
