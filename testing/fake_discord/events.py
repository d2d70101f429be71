"""Gateway events that follow state changes (MESSAGE_CREATE, CHANNEL_CREATE, GUILD_MEMBER_ADD, ...)."""

from __future__ import annotations

from .gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    Gateway,
)
from .models import FakeChannel, FakeGuild, FakeMember, FakeRole, StoredMessage
from .payloads import channel_payload, member_payload, message_payload, role_payload
from .world import World


class EventEmitter:
    def __init__(self, world: World, gateway: Gateway) -> None:
        self.world = world
        self.gateway = gateway

    def _message_intent(self, message: StoredMessage) -> int:
        return INTENT_GUILD_MESSAGES if message.guild_id is not None else INTENT_DIRECT_MESSAGES

    def _send_message_event(self, event: str, message: StoredMessage) -> None:
        if message.ephemeral_for is not None:
            return  # ephemeral messages never reach the gateway
        world = self.world
        intent = self._message_intent(message)
        privileged_needed = (
            message.author.id != world.bot.id
            and message.guild_id is not None
            and world.bot.mention not in message.content
        )
        for session in self.gateway.sessions.values():
            if not session.handles_guild(message.guild_id) or not session.intents & intent:
                continue
            hide = privileged_needed and not session.intents & INTENT_MESSAGE_CONTENT
            created = event == "MESSAGE_CREATE"  # the sender's nonce rides on the creation only
            session.push(event, message_payload(world, message, hide_content=hide, with_nonce=created))

    def message_create(self, message: StoredMessage) -> None:
        self._send_message_event("MESSAGE_CREATE", message)

    def message_update(self, message: StoredMessage) -> None:
        self._send_message_event("MESSAGE_UPDATE", message)

    def message_delete(self, message: StoredMessage) -> None:
        if message.ephemeral_for is not None:
            return
        data: dict[str, str] = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        self.gateway.dispatch("MESSAGE_DELETE", data, guild_id=message.guild_id, intent=self._message_intent(message))

    def channel_create(self, channel: FakeChannel) -> None:
        event = "THREAD_CREATE" if channel.is_thread else "CHANNEL_CREATE"
        data = channel_payload(self.world, channel)
        if channel.is_thread:
            data["newly_created"] = True
        self.gateway.dispatch(event, data, guild_id=channel.guild_id, intent=INTENT_GUILDS)

    def channel_update(self, channel: FakeChannel) -> None:
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        data = channel_payload(self.world, channel)
        self.gateway.dispatch(event, data, guild_id=channel.guild_id, intent=INTENT_GUILDS)

    def channel_delete(self, channel: FakeChannel) -> None:
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        data = channel_payload(self.world, channel)
        self.gateway.dispatch(event, data, guild_id=channel.guild_id, intent=INTENT_GUILDS)

    def guild_create(self, guild: FakeGuild) -> None:
        self.gateway.dispatch_guild_create(guild)

    def member_add(self, member: FakeMember) -> None:
        data = member_payload(member)
        data["guild_id"] = str(member.guild.id)
        self.gateway.dispatch("GUILD_MEMBER_ADD", data, guild_id=member.guild.id, intent=INTENT_GUILD_MEMBERS)

    def member_update(self, member: FakeMember) -> None:
        data = member_payload(member)
        data["guild_id"] = str(member.guild.id)
        self.gateway.dispatch("GUILD_MEMBER_UPDATE", data, guild_id=member.guild.id, intent=INTENT_GUILD_MEMBERS)

    def role_create(self, role: FakeRole) -> None:
        data = {"guild_id": str(role.guild_id), "role": role_payload(role)}
        self.gateway.dispatch("GUILD_ROLE_CREATE", data, guild_id=role.guild_id, intent=INTENT_GUILDS)
