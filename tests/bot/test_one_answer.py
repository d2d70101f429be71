"""Issue U, fault 6, as the player lives it: a decision with one possible answer is applied at once and told in the
channel; its house gets no DM asking it, so no notification and no wait."""

from __future__ import annotations

import pytest

from app.commands import Import
from testing.phone import every_text
from tests.bot.conftest import Table
from tests.bot.test_images import GAME_SEED, start_seeded_game

pytestmark = pytest.mark.slow


async def test_a_raid_with_nothing_to_raid_is_never_asked_and_is_told_in_the_channel(table: Table) -> None:
    fake, service = table.fake, table.service
    game_id = await start_seeded_game(table, 3, GAME_SEED)
    await fake.wait_idle(quiet=0.5, timeout=30)
    seats = await service.seats(game_id)
    stark = next(p for p in table.players if seats["stark"] == p.id)
    dms_before = len(fake.dm_messages(stark))
    spec = {
        "start": "action",
        "units": {"winterfell": "stark footman", "lannisport": "lannister footman", "dragonstone": "baratheon footman"},
        "orders": {"winterfell": "raid", "lannisport": "defense1", "dragonstone": "defense1"},
    }
    await service.execute(Import(game_id=game_id, by=table.moderator.id, spec=spec))
    await table.bot.play.publisher.settled()
    await fake.wait_idle(quiet=0.5, timeout=30)

    asked = [m for m in fake.dm_messages(stark)[dms_before:] if "**Raid**" in "\n".join(every_text(m))]
    assert asked == [], "Stark was asked a raid it had no choice in"
    channel = "\n".join(m.text() for m in fake.visible_messages(table.moderator) if m.channel_id == table.channel.id)
    assert "Stark removes its raid in Winterfell" in channel
