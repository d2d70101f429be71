"""The bot's decision forms as a test finds them on a message: by game, house and what a component does.

A form component's custom id carries the game version the form was built from (``dec:<game>:<house>:v<version>:<part>``,
see ``cogs/forms.py``), which a test does not know in advance; these read it off the message as Discord shows it.
"""

from __future__ import annotations

import re

from testing.fake_discord import StoredMessage

FORM_CONTROL = re.compile(r"dec:(?P<game>\d+):(?P<house>[a-z]+):v(?P<version>\d+):(?P<part>.+)")


def form_controls(message: StoredMessage, game_id: int, house: str) -> dict[str, str]:
    """The form components of ``house`` in game ``game_id`` on ``message`` (its current version): their custom ids by
    part (``submit``, ``prev``, ``next``, ``s:<field index>``)."""
    found = {}
    for custom_id in message.custom_ids():
        match = FORM_CONTROL.fullmatch(custom_id)
        if match and int(match["game"]) == game_id and match["house"] == house:
            found[match["part"]] = custom_id
    return found


def form_control(message: StoredMessage, game_id: int, house: str, part: str = "submit") -> str:
    """The custom id of the component of ``house``'s form in game ``game_id`` doing ``part`` on ``message``; an
    AssertionError naming what the message holds if it has none."""
    controls = form_controls(message, game_id, house)
    if part not in controls:
        raise AssertionError(
            f"no {part!r} of {house}'s form in game {game_id} on the message; ids: {message.custom_ids()}"
        )
    return controls[part]


def form_version(message: StoredMessage, game_id: int, house: str) -> int:
    """The game version ``house``'s form on ``message`` was built from (every component of a form carries the same)."""
    versions = {
        int(match["version"])
        for custom_id in form_controls(message, game_id, house).values()
        if (match := FORM_CONTROL.fullmatch(custom_id))
    }
    if len(versions) != 1:
        raise AssertionError(f"{house}'s form in game {game_id} carries versions {versions}: {message.custom_ids()}")
    return versions.pop()
