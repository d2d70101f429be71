"""Interaction lifecycle: the handle tests hold, acknowledgement deadlines, open modals."""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from .errors import FakeDiscordError, InteractionFailedError
from .models import FakeChannel, FakeGuild, FakeMember, FakeUser, StoredMessage
from .world import World

# Interaction types.
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Callback (response) types.
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

FAILURE_TEXT = "This interaction failed"


@dataclass(eq=False)
class FakeInteraction:
    """What a scripted player's action produced, and the bot's answer to it.

    ``response`` is the original response message (for component interactions
    answered with type 6/7 this is the message the component is on);
    ``followups`` are the followup messages in order.
    """

    world: World
    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    guild: FakeGuild | None
    member: FakeMember | None
    locale: str
    name: str  # command path or custom_id
    payload: dict[str, Any] = field(default_factory=dict)
    source_message_id: int | None = None
    created_at: float = field(default_factory=time.monotonic)
    sent_at: float | None = None  # when its INTERACTION_CREATE frame was written to the bot's socket
    acked: bool = False
    acked_after: float | None = None  # from the event leaving the fake to the callback arriving, as Discord times it
    callback_type: int | None = None
    failed: bool = False
    failure: str | None = None
    original_message_id: int | None = None
    response_ready: bool = False  # original response exists and is not a "thinking" placeholder
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None

    def __repr__(self) -> str:
        state = "failed" if self.failed else (f"acked type={self.callback_type}" if self.acked else "pending")
        return f"<FakeInteraction {self.name!r} by {self.user.name} {state}>"

    # ------------------------------------------------------------ inspection
    @property
    def done(self) -> bool:
        return self.acked or self.failed

    @property
    def response(self) -> StoredMessage | None:
        if self.original_message_id is None:
            return None
        return self.world.messages.get(self.original_message_id)

    @property
    def followups(self) -> list[StoredMessage]:
        return [self.world.messages[i] for i in self.followup_ids if i in self.world.messages]

    @property
    def messages(self) -> list[StoredMessage]:
        """Messages this interaction created (response first, then followups), without duplicates."""
        out: list[StoredMessage] = []
        response = self.response
        if response is not None and response.interaction_id == self.id:
            out.append(response)
        for message in self.followups:
            if message not in out:
                out.append(message)
        return out

    def raise_if_failed(self) -> None:
        if self.failed:
            raise InteractionFailedError(f"{self!r}: {self.failure}")

    # --------------------------------------------------------------- waiting
    async def wait_ack(self, timeout: float = 5.0) -> FakeInteraction:
        """Wait until the bot acknowledged; raises InteractionFailedError if it did not in time."""
        await self.world.wait_until(lambda: self.done, timeout, f"acknowledgement of {self!r}")
        self.raise_if_failed()
        return self

    async def wait_response(self, timeout: float = 5.0) -> StoredMessage:
        """Wait for the visible response: a sent/updated message, or a deferred one once it is filled in."""

        def probe() -> StoredMessage | bool | None:
            if self.failed:
                return True
            return self.response if self.response_ready else None

        result = await self.world.wait_until(probe, timeout, f"response to {self!r}")
        self.raise_if_failed()
        assert isinstance(result, StoredMessage)
        return result

    async def wait_reply(self, timeout: float = 5.0) -> list[StoredMessage]:
        """Wait for the bot's first visible reply after acknowledging: the response filled in or edited, or a
        followup. Returns the response (if any; for a click, the clicked message) and the followups.

        Waiting for a quiet moment instead is not enough: an acknowledgement can come long before the reply.
        """

        def replied() -> bool:
            return self.response_ready or bool(self.followup_ids) or self.failed

        await self.world.wait_until(replied, timeout, f"a reply to {self!r}")
        self.raise_if_failed()
        replies: list[StoredMessage] = []
        for message in [self.response, *self.followups]:
            if message is not None and message not in replies:  # a "thinking" response is filled by a followup
                replies.append(message)
        return replies

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[StoredMessage]:
        """Wait until at least ``count`` followups exist; returns all of them."""
        what = f"{count} followup(s) to {self!r}"
        await self.world.wait_until(lambda: len(self.followup_ids) >= count or self.failed, timeout, what)
        self.raise_if_failed()
        return self.followups

    async def wait_modal(self, timeout: float = 5.0) -> dict[str, Any]:
        await self.world.wait_until(lambda: self.modal is not None or self.failed, timeout, f"modal from {self!r}")
        self.raise_if_failed()
        assert self.modal is not None
        return self.modal


@dataclass
class OpenModal:
    user_id: int
    data: dict[str, Any]
    interaction: FakeInteraction


class InteractionTracker:
    def __init__(self, world: World, *, ack_timeout: float) -> None:
        self.world = world
        self.ack_timeout = ack_timeout
        self.by_id: dict[int, FakeInteraction] = {}
        self.by_token: dict[str, FakeInteraction] = {}
        self.all: list[FakeInteraction] = []
        self.failures: list[FakeInteraction] = []
        self.open_modals: list[OpenModal] = []
        self._timers: dict[int, asyncio.TimerHandle] = {}

    def new_token(self) -> str:
        return "fake-interaction-" + secrets.token_urlsafe(24)

    def register(self, interaction: FakeInteraction) -> None:
        self.by_id[interaction.id] = interaction
        self.by_token[interaction.token] = interaction
        self.all.append(interaction)
        loop = asyncio.get_running_loop()
        self._timers[interaction.id] = loop.call_later(self.ack_timeout, self._expire, interaction)

    def _expire(self, interaction: FakeInteraction) -> None:
        self._timers.pop(interaction.id, None)
        if interaction.acked:
            return
        interaction.failed = True
        interaction.failure = f"{FAILURE_TEXT}: not acknowledged within {self.ack_timeout:g}s"
        self.failures.append(interaction)
        self.world.changed()

    def frame_sent(self, payload: dict[str, Any]) -> None:
        """The gateway wrote a dispatch frame: start the clock of the interaction it carries."""
        if payload.get("t") != "INTERACTION_CREATE":
            return
        interaction = self.by_id.get(int(payload["d"]["id"]))
        if interaction is not None and interaction.sent_at is None:
            interaction.sent_at = time.monotonic()

    def acknowledge(self, interaction: FakeInteraction, callback_type: int, *, arrived_at: float | None = None) -> None:
        """Record the callback; the time counts from the event being sent to the callback's bytes arriving."""
        interaction.acked = True
        started = interaction.sent_at if interaction.sent_at is not None else interaction.created_at
        interaction.acked_after = max(0.0, (arrived_at or time.monotonic()) - started)
        interaction.callback_type = callback_type
        timer = self._timers.pop(interaction.id, None)
        if timer is not None:
            timer.cancel()
        self.world.changed()

    def open_modal(self, interaction: FakeInteraction, data: dict[str, Any]) -> None:
        interaction.modal = data
        self.open_modals.append(OpenModal(interaction.user.id, data, interaction))
        self.world.changed()

    def take_modal(self, user: FakeUser, custom_id: str) -> OpenModal:
        for index in range(len(self.open_modals) - 1, -1, -1):
            entry = self.open_modals[index]
            if entry.user_id == user.id and entry.data.get("custom_id") == custom_id:
                del self.open_modals[index]
                return entry
        opened = [m.data.get("custom_id") for m in self.open_modals if m.user_id == user.id]
        raise FakeDiscordError(f"{user.name} has no open modal {custom_id!r}; open modals: {opened}")

    def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
