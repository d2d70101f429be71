"""Slash commands: every description and choice is translated into Russian, and Discord receives it."""

from __future__ import annotations

from cogs.translator import command_text
from tests.bot.conftest import Table


def all_texts(table: Table) -> list[str]:
    texts: list[str] = []

    def walk(cmd) -> None:  # type: ignore[no-untyped-def]
        texts.append(cmd.description)
        for p in getattr(cmd, "parameters", []):
            texts.append(p.description)
            texts.extend(c.name for c in p.choices)
        for sub in getattr(cmd, "commands", []):
            walk(sub)

    for command in table.bot.tree.get_commands():
        walk(command)
    return texts


async def test_every_command_text_has_a_russian_translation(table: Table) -> None:
    missing = [text for text in all_texts(table) if command_text(text, "ru") is None]
    assert missing == []


async def test_discord_receives_the_russian_descriptions(table: Table) -> None:
    from testing.fake_discord import commands as registry

    registered = {c["name"]: c for c in registry.registered_commands(table.fake.world, None)}
    game = registered["game"]
    assert game["description_localizations"]["ru"] == "Играть в «Игру престолов»"
    new = next(o for o in game["options"] if o["name"] == "new")
    assert new["description_localizations"]["ru"] == "Создать игру в этом канале"
