"""Scripted players: slash commands, button clicks, select menus, modal submits, plain messages.

Mixed into :class:`testing.fake_discord.FakeDiscord`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import commands, threads
from . import components as comps
from . import interactions as ix
from .bodies import RequestBody
from .errors import ApiError, FakeDiscordError
from .events import EventEmitter
from .gateway import Gateway
from .interactions import FakeInteraction, InteractionTracker
from .models import FakeChannel, FakeRole, StoredMessage, UserLike
from .payloads import (
    ATTACHMENT_SIZE_LIMIT,
    bot_app_permissions,
    channel_payload,
    member_payload,
    message_payload,
    user_payload,
)
from .world import World


class ScriptedPlayers:
    world: World
    gateway: Gateway
    events: EventEmitter
    interactions: InteractionTracker

    # --------------------------------------------------------- player actions
    def _start_interaction(
        self,
        itype: int,
        user: UserLike,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        name: str,
        locale: str | None,
        message: StoredMessage | None = None,
    ) -> FakeInteraction:
        world = self.world
        fake_user = user.user
        guild = world.guild_of(channel)
        member = guild.members.get(fake_user.id) if guild is not None else None
        if guild is not None and member is None:
            raise FakeDiscordError(f"{fake_user.name} is not a member of {guild.name}")
        if channel.is_dm and channel.recipient_id != fake_user.id:
            raise FakeDiscordError(f"{fake_user.name} is not the recipient of DM channel {channel.id}")
        if not world.can_view_channel(fake_user, channel):
            raise FakeDiscordError(f"{fake_user.name} cannot see channel {channel!r}")
        interaction_id = world.ids.next()
        token = self.interactions.new_token()
        chosen_locale = locale or fake_user.locale
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(world.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "locale": chosen_locale,
            "app_permissions": str(bot_app_permissions(world, channel)),
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "channel_id": str(channel.id),
            "channel": channel_payload(world, channel, permissions_for=fake_user),
        }
        if guild is not None and member is not None:
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                    "guild_locale": guild.locale,
                    "member": member_payload(member, permissions=world.channel_permissions(channel, fake_user)),
                    "authorizing_integration_owners": {"0": str(guild.id)},
                    "context": commands.CONTEXT_GUILD,
                }
            )
        else:
            payload.update(
                {
                    "user": user_payload(fake_user),
                    "authorizing_integration_owners": {"0": "0"},
                    "context": commands.CONTEXT_BOT_DM,
                }
            )
        if message is not None:
            payload["message"] = message_payload(world, message)
        interaction = FakeInteraction(
            world=world,
            id=interaction_id,
            token=token,
            type=itype,
            user=fake_user,
            channel=channel,
            guild=guild,
            member=member,
            locale=chosen_locale,
            name=name,
            payload=payload,
            source_message_id=message.id if message is not None else None,
        )
        self.interactions.register(interaction)
        self.gateway.dispatch("INTERACTION_CREATE", payload, guild_id=guild.id if guild is not None else None)
        return interaction

    async def _settle(self, interaction: FakeInteraction, wait: bool) -> FakeInteraction:
        if wait:
            timeout = self.interactions.ack_timeout + 2.0
            await self.world.wait_until(lambda: interaction.done, timeout, f"ack or failure of {interaction!r}")
        return interaction

    async def slash(
        self,
        user: UserLike,
        channel: FakeChannel,
        command: str,
        /,
        *,
        locale: str | None = None,
        wait: bool = True,
        opts: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> FakeInteraction:
        """Run ``/command`` ("game new" for subcommands) with typed options.

        Options are checked against what the bot registered: users/members, channels,
        roles and ``(filename, bytes)`` attachments are sent with ``resolved`` data.
        With ``wait`` (default) returns once the bot acknowledged or the ack deadline passed.
        Options named ``locale``/``wait``/``opts`` can be passed in the ``opts`` mapping.
        """
        options = {**(opts or {}), **options}
        guild = self.world.guild_of(channel)
        member = guild.members.get(user.id) if guild is not None else None
        data = commands.build_command_data(self.world, command, options, guild=guild, member=member, user=user.user)
        interaction = self._start_interaction(ix.APPLICATION_COMMAND, user, channel, data, name=command, locale=locale)
        return await self._settle(interaction, wait)

    async def autocomplete(
        self,
        user: UserLike,
        channel: FakeChannel,
        command: str,
        focused: str,
        /,
        *,
        timeout: float = 3.0,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused``; returns the bot's choices."""
        guild = self.world.guild_of(channel)
        member = guild.members.get(user.id) if guild is not None else None
        data = commands.build_command_data(
            self.world, command, options, guild=guild, member=member, user=user.user, focused=focused
        )
        interaction = self._start_interaction(ix.AUTOCOMPLETE, user, channel, data, name=command, locale=None)
        await interaction.wait_ack(timeout)
        return interaction.choices or []

    def _message_for(self, user: UserLike, message: StoredMessage | int) -> StoredMessage:
        found = self.world.messages.get(message if isinstance(message, int) else message.id)
        if found is None or found.deleted:
            raise FakeDiscordError(f"message {message!r} does not exist (deleted?)")
        if not self.world.can_see(user.user, found):
            raise FakeDiscordError(f"{user.name} cannot see message {found!r}")
        return found

    async def click(
        self,
        user: UserLike,
        message: StoredMessage | int,
        custom_id: str,
        *,
        locale: str | None = None,
        wait: bool = True,
    ) -> FakeInteraction:
        """Press the button ``custom_id`` on ``message`` (its current version)."""
        found = self._message_for(user, message)
        comps.require_clickable(found.components, custom_id)
        data = {"custom_id": custom_id, "component_type": comps.BUTTON}
        channel = self.world.channels[found.channel_id]
        interaction = self._start_interaction(
            ix.MESSAGE_COMPONENT, user, channel, data, name=custom_id, locale=locale, message=found
        )
        return await self._settle(interaction, wait)

    async def select(
        self,
        user: UserLike,
        message: StoredMessage | int,
        custom_id: str,
        values: Sequence[str | UserLike | FakeRole | FakeChannel],
        *,
        locale: str | None = None,
        wait: bool = True,
    ) -> FakeInteraction:
        """Choose ``values`` in a select menu (option values; or users/roles/channels for entity selects)."""
        found = self._message_for(user, message)
        channel = self.world.channels[found.channel_id]
        guild = self.world.guild_of(channel)
        resolved = commands.Resolved(self.world, guild, user.user)
        raw_values: list[str] = []
        for value in values:
            if isinstance(value, str):
                raw_values.append(value)
            elif isinstance(value, FakeRole):
                raw_values.append(resolved.role(value))
            elif isinstance(value, FakeChannel):
                raw_values.append(resolved.channel(value, None))
            else:
                raw_values.append(resolved.user(value))
        component = comps.require_select(found.components, custom_id, raw_values)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"], "values": raw_values}
        if resolved.data:
            data["resolved"] = resolved.data
        interaction = self._start_interaction(
            ix.MESSAGE_COMPONENT, user, channel, data, name=custom_id, locale=locale, message=found
        )
        return await self._settle(interaction, wait)

    async def submit_modal(
        self,
        user: UserLike,
        custom_id: str,
        values: Mapping[str, str | Sequence[str]],
        *,
        locale: str | None = None,
        wait: bool = True,
    ) -> FakeInteraction:
        """Fill in and submit the modal ``custom_id`` the bot most recently opened for ``user``."""
        opened = self.interactions.take_modal(user.user, custom_id)
        origin = opened.interaction
        data = {"custom_id": custom_id, "components": comps.build_modal_submission(opened.data, values)}
        source = self.world.messages.get(origin.source_message_id or 0)
        interaction = self._start_interaction(
            ix.MODAL_SUBMIT,
            user,
            origin.channel,
            data,
            name=custom_id,
            locale=locale or origin.locale,
            message=source if source is not None and not source.deleted else None,
        )
        return await self._settle(interaction, wait)

    def say(self, user: UserLike, channel: FakeChannel, content: str) -> StoredMessage:
        """Post a plain message as ``user`` (delivered as MESSAGE_CREATE)."""
        if not self.world.can_view_channel(user.user, channel):
            raise FakeDiscordError(f"{user.name} cannot see channel {channel!r}")
        if channel.is_thread:
            try:
                threads.check_may_post(self.world, channel, user.user)
            except ApiError as refused:  # what Discord's client would show the member instead of sending
                raise FakeDiscordError(f"{user.name} may not post in {channel!r}: {refused.message}") from None
        message = self.world.create_message(channel, user.user, RequestBody(payload={"content": content}))
        self.events.message_create(message)
        return message
