"""A local fake of Discord (REST v10 + gateway) that the real discord.py client runs against.

See README.md in this directory. Typical use::

    async with FakeDiscord.start() as fake:
        guild = fake.add_guild("Westeros")
        channel = fake.add_text_channel(guild, "game")
        alice = fake.add_member(guild, "alice")
        async with fake.run_bot(make_bot()):
            result = await fake.slash(alice, channel, "game new", players=6)
            message = await result.wait_response()
"""

from .discord_py import point_discord_py_at
from .errors import ApiError, FakeDiscordError, FakeTimeoutError, InteractionFailedError
from .faults import FaultPlan, FaultRule, RequestLog, RequestRecord
from .interactions import FakeInteraction
from .models import (
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    StoredAttachment,
    StoredMessage,
)
from .permissions import ADMINISTRATOR, MANAGE_GUILD
from .server import FakeDiscord

__all__ = [
    "ADMINISTRATOR",
    "MANAGE_GUILD",
    "ApiError",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeRole",
    "FakeTimeoutError",
    "FakeUser",
    "FaultPlan",
    "FaultRule",
    "InteractionFailedError",
    "RequestLog",
    "RequestRecord",
    "StoredAttachment",
    "StoredMessage",
    "point_discord_py_at",
]
