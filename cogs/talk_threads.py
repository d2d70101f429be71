"""The private threads of the houses' talks on Discord (issue 40): opening one, and keeping its members those the game
says (``app.talks``) as seats change and when the game ends.

Discord keeps a thread's members; the store keeps which thread is a pair's (``app.store_talks``). Every change here is
worked out from the game as it stands against the thread's members as Discord lists them, so doing it again (a
publication retried, a restart) changes nothing more. Nothing posted here pings anyone: the members added see the
thread in their list, as Discord shows any thread they join.
"""

from __future__ import annotations

import logging
from typing import Literal

import discord

from app.labels import house_mark
from app.lru import KeyedLocks
from app.notices import TalkRefused
from app.queries import Applied, ServiceError
from app.service import GameService
from app.store import GameRow, Talk
from app.talks import TalkAsked, every_player, left_game, moves_talks, talk_members
from i18n import t

log = logging.getLogger("westeros.talks")

# A talk left a week without a post is archived by Discord (and brought back when next asked for).
ARCHIVE_AFTER_MINUTES: Literal[10080] = 10080
THREAD_NAME_LIMIT = 100  # Discord's limit of a thread's name
MISSING_PERMISSIONS = 50013
MAX_ACTIVE_THREADS = 160006


def thread_name(houses: tuple[str, str], lang: str) -> str:
    """ "🟥 Lannister ↔ ⬜ Stark": both houses with their marks, in the game's language."""
    return f"{house_mark(houses[0], lang)} ↔ {house_mark(houses[1], lang)}"[:THREAD_NAME_LIMIT]


def refusal(error: discord.HTTPException, step: str) -> ServiceError:
    """What Discord's refusal means to the member (and to the moderator he tells): the permission or limit at fault.
    ``step``: "create" (starting the thread needs Create Private Threads) or "add" (adding a member needs Send
    Messages in Threads)."""
    if error.code == MAX_ACTIVE_THREADS:
        return ServiceError("talk-thread-limit", "The server has reached Discord's limit of active threads.")
    if error.code == MISSING_PERMISSIONS:
        code = "talk-cannot-create" if step == "create" else "talk-cannot-add"
        return ServiceError(code, "The bot lacks a permission it needs for private threads.")
    return ServiceError("talk-discord-refused", "Discord refused to open the thread.")


class TalkThreads:
    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service
        # One change of a game's threads at a time in this process: a pair opened twice at once makes one thread, and
        # an end published while a moderator's end is told adds nobody twice.
        self.locks = KeyedLocks()

    async def thread(self, talk: Talk) -> discord.Thread | None:
        """The talk's thread, or None if Discord no longer has it (deleted by a moderator)."""
        found = self.client.get_channel(talk.thread_id)
        if isinstance(found, discord.Thread):
            return found
        try:
            fetched = await self.client.fetch_channel(talk.thread_id)
        except (discord.NotFound, discord.Forbidden):
            return None
        return fetched if isinstance(fetched, discord.Thread) else None

    async def open(self, row: GameRow, asked: TalkAsked) -> discord.Thread:
        """The pair's thread, opened now or brought back, with its two players in it."""
        async with self.locks.hold(row.id):
            return await self._open(row, asked)

    async def _open(self, row: GameRow, asked: TalkAsked) -> discord.Thread:
        lang = str(row.settings.get("language", "en"))
        talk = await self.service.store.talk(row.id, asked.house, asked.other)
        thread = await self.thread(talk) if talk is not None else None
        if thread is not None:
            try:
                await self._bring_in(thread, asked)
                return thread
            except discord.NotFound:  # deleted in Discord since this process last saw it: a new one replaces it
                pass
        thread = await self._start(row, asked, lang, replacing=talk)
        await self._bring_in(thread, asked)
        return thread

    async def _bring_in(self, thread: discord.Thread, asked: TalkAsked) -> None:
        """The thread open again if Discord archived it for want of posts, and the talk's players in it."""
        try:
            if thread.archived and not thread.locked:
                await thread.edit(archived=False)
            for member in sorted(asked.members):
                await thread.add_user(discord.Object(member))
        except discord.NotFound:
            raise
        except discord.HTTPException as error:
            raise refusal(error, "add") from error

    async def _start(self, row: GameRow, asked: TalkAsked, lang: str, *, replacing: Talk | None) -> discord.Thread:
        parent = self.client.get_channel(row.channel_id)
        if not isinstance(parent, discord.TextChannel):
            raise ServiceError("talk-no-channel", "Private threads open under a server's text channel.")
        try:
            thread = await parent.create_thread(
                name=thread_name(asked.houses, lang),
                type=discord.ChannelType.private_thread,
                invitable=False,
                auto_archive_duration=ARCHIVE_AFTER_MINUTES,
            )
        except discord.HTTPException as error:
            raise refusal(error, "create") from error
        if replacing is not None:
            await self.service.store.move_talk(row.id, asked.house, asked.other, thread.id)
            return thread
        kept = await self.service.store.open_talk(row.id, asked.house, asked.other, thread.id)
        if kept.thread_id != thread.id:  # another process opened the pair's thread a moment before: that one it is
            await thread.delete()
            found = await self.thread(kept)
            if found is None:
                raise ServiceError("talk-discord-refused", "Discord refused to open the thread.")
            return found
        first, second = asked.houses
        await thread.send(
            t("talk.opened", lang, first=house_mark(first, lang), second=house_mark(second, lang)),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        return thread

    # ----- as the game goes on -----

    async def on_applied(self, applied: Applied) -> None:
        """After a published version: the talks follow a change of seats (a replace, a player leaving, an undo of
        either: an undo's version has no events, so it is always looked at), and the game's end opens or closes them.
        Never raises: a thread Discord refuses to change is logged, the game's publication goes on."""
        game = applied.game
        if not moves_talks(applied):
            return
        try:
            async with self.locks.hold(applied.game_id):
                talks = await self.service.store.talks_of(applied.game_id)
                if not talks:
                    return
                row = await self.service.row(applied.game_id)
                try:
                    if game.finished:
                        await self.end(row, talks)
                    else:
                        for talk in talks:
                            await self.follow(row, talk, left_game(game))
                except discord.HTTPException as error:
                    await self._told_refused(row.id, error)
                    raise
        except Exception:
            log.exception("the talks of game %s could not follow version %s", applied.game_id, game.version)

    async def _told_refused(self, game_id: int, error: discord.HTTPException) -> None:
        """Discord refused a change of a game's talks that no member asked for (a seat's newcomer added, the end's
        opening): its moderators read in the channel which permission or limit is at fault (no house named), as
        when a member's /game talk is refused. Any other failure is only logged."""
        if error.code in (MISSING_PERMISSIONS, MAX_ACTIVE_THREADS):
            await self.service.notice(game_id, [TalkRefused(reason=refusal(error, "add").code, following=True)])

    async def on_ended(self, game_id: int) -> None:
        """A game ended by a moderator (``/mod end``: no version says so) ends its talks as a last answer does; a game
        deleted meanwhile has nothing left to end. Never raises."""
        try:
            async with self.locks.hold(game_id):
                talks = await self.service.store.talks_of(game_id)
                if talks:
                    try:
                        await self.end(await self.service.row(game_id), talks)
                    except discord.HTTPException as error:
                        await self._told_refused(game_id, error)
                        raise
        except ServiceError as gone:
            if gone.code != "no-game":
                log.exception("the talks of game %s could not end", game_id)
        except Exception:
            log.exception("the talks of game %s could not end", game_id)

    async def _members(self, thread: discord.Thread) -> set[int]:
        me = self.client.user.id if self.client.user is not None else 0
        return {member.id for member in await thread.fetch_members()} - {me}

    async def follow(self, row: GameRow, talk: Talk, left: set[str]) -> None:
        """The thread's members made those who play its houses now, each newcomer named in one line; a talk with a
        house that left the game (now a vassal) is locked and archived."""
        thread = await self.thread(talk)
        if thread is None or thread.locked:
            return
        lang = str(row.settings.get("language", "en"))
        if any(house in left for house in talk.houses):
            await thread.edit(archived=True, locked=True)
            return
        if thread.archived:
            await thread.edit(archived=False)
        wanted = await talk_members(self.service, row, talk)
        present = await self._members(thread)
        seats = await self.service.seats(row.id)
        for member in sorted(present - wanted):
            await thread.remove_user(discord.Object(member))
        for member in sorted(wanted - present):
            await thread.add_user(discord.Object(member))
            for house in talk.houses:
                if seats.get(house) == member:
                    line = t("talk.reseated", lang, house=house_mark(house, lang), player=f"<@{member}>")
                    await thread.send(line, allowed_mentions=discord.AllowedMentions.none())

    async def end(self, row: GameRow, talks: list[Talk]) -> None:
        """The game's end: with ``talks_open_at_end`` every player is added to every talk (a talk closed when a house
        left too), which is locked (read only), and the channel is told which talks are open; without, each talk is
        archived and locked, staying private. A talk already so is left as it is, so ending twice does nothing more."""
        lang = str(row.settings.get("language", "en"))
        opening = bool(row.settings.get("talks_open_at_end", True))
        players = await every_player(self.service, row) if opening else set()
        opened: list[discord.Thread] = []
        for talk in talks:
            thread = await self.thread(talk)
            if thread is None or (thread.locked and (thread.archived != opening)):
                continue  # gone, or already as the end leaves it
            if opening:
                if thread.archived:
                    await thread.edit(archived=False)
                for member in sorted(players - await self._members(thread)):
                    await thread.add_user(discord.Object(member))
                await thread.send(t("talk.opened-at-end", lang), allowed_mentions=discord.AllowedMentions.none())
                await thread.edit(locked=True)
                opened.append(thread)
            else:
                await thread.send(t("talk.closed-at-end", lang), allowed_mentions=discord.AllowedMentions.none())
                await thread.edit(archived=True, locked=True)
        channel = self.client.get_channel(row.channel_id)
        if opened and isinstance(channel, discord.TextChannel):
            listed = ", ".join(thread.mention for thread in opened)
            await channel.send(
                t("talk.end-list", lang, threads=listed), allowed_mentions=discord.AllowedMentions.none()
            )
