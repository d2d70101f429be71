"""Channel benchmark (issue U): what a whole game posts, and what answering costs a player, on the local fake Discord.

    python bench/channel.py [--setup mod_4_ru|mod_7_en] [--games 1] [--seed 1] [--json]

Plays whole games of Mother of Dragons through the fake Discord against the real bot (in this process, as the bot
tests run it): ``mod_4_ru``, 4 players in Russian (three vassals), and ``mod_7_en``, 7 players in English. The
lobby is made with ``/game new``, joined and started through Discord, its game's seed fixed before Start (``--seed``
seeds the game and the players' choices, so a run repeats; ``--games N`` plays seeds ``seed`` .. ``seed + N - 1`` and
averages the figures, maxima being the maxima of all games). Every decision is answered from the player's decision
DM, as a player would: each menu of each page of the form set to a random option of those it offers (a menu is
changed only when the random pick differs from what it shows; ``▶`` turns the page), then Submit. A DM with a Decide
button instead of the form (too long to carry it, or sent when its decision was already settled) has the button
pressed; an answer the bot refuses is given again with the form's preselected values, opened with ``/decide``
(``refused`` and ``fallbacks`` count these). Answers come one at a time, each once the bot has sent everything the
previous one implied (channel posts, DMs, the pinned status: the status edit is not delayed), as in play-by-post
where answers are minutes apart.

What is counted, from the fake's transcript (the bot's own messages only; ephemeral replies to a player's clicks are
neither channel messages nor DMs):

- ``channel_messages_per_round``: new non-ephemeral messages in the game channel after the Start click's (the lobby
  before it, not counted; the Start's own, ``setup_messages``), mean and max over rounds; ``channel_images_per_round``:
  their image attachments; ``channel_edits``: edits of channel messages (the pinned status, the messages of a phase,
  a battle or a bidding as they grow, the lobby's Start), the whole game; the log thread's messages are not counted;
- ``battles``: battles decided, from the engine's public events as stored for ``/game log`` (one ``combat-result`` or
  ``neutral-attack`` each, neutral forces included); ``*_less_battles``: a round's messages (images) minus its
  battles, the figure issue U's target ("at most 6 messages and 2 images per round, plus one of each per battle")
  compares with 6 (2);
- ``dms_per_player_per_round``, ``dm_edits_per_player_per_round``: non-ephemeral DMs the bot sent, and edits of DMs
  (most are the player's own form redrawn after a pick, and its receipt), per player per round (the mean over
  players and rounds: the total divided by players x rounds); ``dms_per_player_round_max``: the most one player got
  in one round;
- ``taps_per_orders_turn``: the interactions (menu picks, buttons, ``/decide``) spent on ``orders`` decisions (a
  house's own orders; a liege's vassal orders are other decisions) divided by the orders decisions answered;
  ``taps_per_decision``: the same over every decision;
- ``seconds``: wall time of the game, set-up included (of all the games with ``--games N``).

Rounds: after every answer, once the bot is idle, what appeared since the previous answer is counted in the round
the game was in when the answer was given (read from the service): a step that ends a round counts what it posts (the
round's last battle, the board that ends its Action phase) in the round it ends. What the Start click posts (the
board the game starts on, the first DMs) is ``setup_messages`` and ``setup_images``, not a round's; its DMs count
in round 1. Battles are counted the same way: in the round in which they were fought. Figures, never assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.config import Config
from app.service import GameService
from app.store import Store
from cogs.publisher import FILES_PER_MESSAGE
from i18n import t
from testing.fake_discord import FakeChannel, FakeDiscord, FakeInteraction, FakeMember, StoredMessage
from testing.fake_discord.components import STRING_SELECT, walk
from testing.forms import form_controls
from testing.quick_bot import QuickBot

MAX_ATTACHMENTS = FILES_PER_MESSAGE  # the most images the bot attaches to one message (Discord's limit)
MAX_ANSWERS = 5000
MAX_TAPS_PER_FORM = 80
TIMEOUT = 30.0
BATTLE_EVENTS = ("combat-result", "neutral-attack")


@dataclass(frozen=True)
class Setup:
    players: int
    language: str
    locale: str


SETUPS = {"mod_4_ru": Setup(4, "ru", "ru"), "mod_7_en": Setup(7, "en", "en-US")}


@dataclass
class Round:
    channel_messages: int = 0
    channel_images: int = 0
    channel_edits: int = 0
    dms: Counter[int] = field(default_factory=Counter)
    dm_edits: Counter[int] = field(default_factory=Counter)
    battles: int = 0


class Meter:
    """Counts the bot's new messages, their images and edits, in the game channel and the players' DMs, by round."""

    def __init__(self, fake: FakeDiscord, channel_id: int, players: list[FakeMember]) -> None:
        self.fake = fake
        self.channel_id = channel_id
        self.dm_owner = {fake.dm_channel(p).id: p.id for p in players}
        self.position = 0  # in the transcript
        self.edits: dict[int, int] = {}  # tracked message id -> edits counted
        self.tracked: list[StoredMessage] = []
        self.rounds: dict[int, Round] = {}
        self.round_of: dict[int, int] = {}  # channel message id -> the round it was counted in

    def _counts(self, message: StoredMessage) -> bool:
        return (
            message.author.id == self.fake.world.bot.id
            and message.ephemeral_for is None
            and (message.channel_id == self.channel_id or message.channel_id in self.dm_owner)
        )

    def baseline(self) -> None:
        """What exists now is set-up: not counted, but its later edits are."""
        transcript = self.fake.world.transcript
        for message in transcript[self.position :]:
            if self._counts(message):
                self.tracked.append(message)
                self.edits[message.id] = len(message.history)
        self.position = len(transcript)

    def take(self, round_: int) -> None:
        """Count what appeared since the last call in ``round_``."""
        now = self.rounds.setdefault(round_, Round())
        transcript = self.fake.world.transcript
        for message in transcript[self.position :]:
            if not self._counts(message):
                continue
            self.tracked.append(message)
            self.edits[message.id] = 0
            if message.channel_id == self.channel_id:
                self.round_of[message.id] = round_
                now.channel_messages += 1
                now.channel_images += sum(1 for a in message.attachments if is_image(a.filename, a.content_type))
            else:
                now.dms[self.dm_owner[message.channel_id]] += 1
        self.position = len(transcript)
        for message in self.tracked:
            edits = len(message.history) - self.edits[message.id]
            if edits:
                self.edits[message.id] += edits
                if message.channel_id == self.channel_id:
                    now.channel_edits += edits
                else:
                    now.dm_edits[self.dm_owner[message.channel_id]] += edits


def channel_transcript(fake: FakeDiscord, meter: Meter) -> str:
    """The game channel as it reads at the end, round by round: each bot message's final text and its images; then
    the threads under the channel (the step-by-step log), message by message."""
    lines: list[str] = []
    shown_round = 0
    for message in meter.tracked:
        if message.channel_id != meter.channel_id:
            continue
        round_ = meter.round_of.get(message.id, shown_round)
        if round_ != shown_round:
            lines.append(f"\n======== round {round_} ========")
            shown_round = round_
        images = [a.filename for a in message.attachments if is_image(a.filename, a.content_type)]
        lines.append(f"--- message {message.id}" + (f" [images: {', '.join(images)}]" if images else ""))
        lines.append(message.text())
    threads = {c.id: c for c in fake.world.channels.values() if c.parent_id == meter.channel_id}
    for thread in threads.values():
        lines.append(f"\n======== thread {thread.name} ========")
        for message in fake.world.transcript:
            if message.channel_id == thread.id and not message.deleted:
                lines.append(message.text())
    return "\n".join(lines) + "\n"


def is_image(filename: str, content_type: str | None) -> bool:
    return bool(content_type and content_type.startswith("image/")) or filename.lower().endswith(".png")


def selects(message: StoredMessage) -> list[dict[str, Any]]:
    """The message's menus in the order shown, in action rows at the top or inside a layout (components v2)."""
    return [dict(c) for c in walk(message.components) if c.get("type") == STRING_SELECT]


def shown_values(select: dict[str, Any]) -> list[str]:
    return sorted(str(o["value"]) for o in select.get("options", []) if o.get("default"))


def page_pattern(lang: str) -> re.Pattern[str]:
    """The form's "Page 1/2" line in ``lang``."""
    text = t("decision.page", lang, page="PAGE", pages="PAGES")
    return re.compile(re.escape(text).replace("PAGES", r"(\d+)").replace("PAGE", r"(\d+)"))


class Players:
    """The scripted players: each answers its decisions from its DMs; every interaction is a tap."""

    def __init__(self, fake: FakeDiscord, channel: FakeChannel, game_id: int, lang: str, seed: int) -> None:
        self.fake = fake
        self.channel = channel
        self.game_id = game_id
        self.rnd = random.Random(seed)
        self.recorded = t("decision.recorded", lang, summary="")
        self.pages = page_pattern(lang)
        self.taps: Counter[str] = Counter()  # by decision kind
        self.answered: Counter[str] = Counter()
        self.refused = 0
        self.fallbacks = 0
        self._kind = ""

    # ----- one interaction -----

    async def tap(self, interaction: FakeInteraction) -> FakeInteraction:
        self.taps[self._kind] += 1
        return await interaction.wait_ack(timeout=TIMEOUT)

    async def effect(self, interaction: FakeInteraction, message: StoredMessage, edits_before: int) -> None:
        """Wait for what a click on ``message`` does: the message edited, or a followup (a refusal, a fresh form)."""
        await self.fake.wait_until(
            lambda: len(message.history) > edits_before or bool(interaction.followup_ids) or interaction.failed,
            timeout=TIMEOUT,
            what=f"the effect of {interaction!r}",
        )
        interaction.raise_if_failed()

    # ----- a decision -----

    async def answer(self, player: FakeMember, house: str, kind: str) -> None:
        self._kind = kind
        form = await self.dm_form(player, house)
        if form is None:
            self.fallbacks += 1
            form = await self.open_with_decide(player, house)
        outcome, form = await self.fill_and_submit(player, house, form, pick=True)
        if outcome == "expired":  # the bot sent a fresh form instead: submit it as it stands
            outcome, form = await self.fill_and_submit(player, house, form, pick=False)
        if outcome != "ok":
            self.refused += 1
            form = await self.open_with_decide(player, house)
            outcome, form = await self.fill_and_submit(player, house, form, pick=False)
            if outcome != "ok":
                raise AssertionError(f"the preselected answer of {house} was refused: {form.text()!r}")
        self.answered[kind] += 1

    async def dm_form(self, player: FakeMember, house: str) -> StoredMessage | None:
        """The player's latest DM about ``house``: its form, or the form its Decide button opens (None: no DM)."""
        decide = f"decide:{self.game_id}:{house}"
        for message in reversed(self.fake.dm_messages(player)):
            if message.ephemeral_for is not None:
                continue
            if "submit" in form_controls(message, self.game_id, house):
                return message
            if decide in message.custom_ids():
                self.fallbacks += 1
                opened = await self.tap(await self.fake.click(player, message, decide))
                return await opened.wait_response(timeout=TIMEOUT)
        return None

    async def open_with_decide(self, player: FakeMember, house: str) -> StoredMessage:
        """The house's form opened with /decide in the game channel (a button first if several decisions wait)."""
        opened = await self.tap(await self.fake.slash(player, self.channel, "decide"))
        form = await opened.wait_response(timeout=TIMEOUT)
        decide = f"decide:{self.game_id}:{house}"
        if decide in form.custom_ids():
            clicked = await self.tap(await self.fake.click(player, form, decide))
            form = await clicked.wait_response(timeout=TIMEOUT)
        return form

    async def fill_and_submit(
        self, player: FakeMember, house: str, form: StoredMessage, *, pick: bool
    ) -> tuple[str, StoredMessage]:
        """Set every menu of every page at random (``pick``), then Submit: ("ok" | "refused" | "expired", the form
        to go on with)."""
        for _ in range(MAX_TAPS_PER_FORM):
            if not pick:
                break
            fresh = await self.pick_page(player, house, form)
            if fresh is not None:
                return "expired", fresh
            page = self.pages.search(form.text())
            if page is None or int(page[1]) >= int(page[2]):
                break
            before = len(form.history)
            turned = await self.tap(await self.fake.click(player, form, self.control(form, house, "next")))
            await self.effect(turned, form, before)
            if turned.followups:
                return self.after_followup(house, turned, form)
        submit = form.component(self.control(form, house, "submit"))
        if submit is not None and submit.get("disabled"):
            return "refused", form  # the form says why the picks would be refused, and offers no Submit
        before = len(form.history)
        submitted = await self.tap(await self.fake.click(player, form, self.control(form, house, "submit")))
        await self.effect(submitted, form, before)
        if self.recorded in form.text() and len(form.history) > before:
            return "ok", form
        return self.after_followup(house, submitted, form)

    async def pick_page(self, player: FakeMember, house: str, form: StoredMessage) -> StoredMessage | None:
        """Each menu of the page shown set at random; a fresh form the bot sent instead (None: none)."""
        index = 0
        while index < len(selects(form)):
            select = selects(form)[index]  # read again: a march's origin rebuilds the menus after it
            index += 1
            options = [str(o["value"]) for o in select["options"]]
            low, high = select.get("min_values", 1), select.get("max_values", 1)
            chosen = self.rnd.sample(options, k=self.rnd.randint(low, max(low, min(high, len(options)))))
            if sorted(chosen) == shown_values(select):
                continue  # what it shows already: no tap
            before = len(form.history)
            picked = await self.tap(await self.fake.select(player, form, select["custom_id"], chosen))
            await self.effect(picked, form, before)
            if picked.followups:
                outcome, fresh = self.after_followup(house, picked, form)
                return fresh if outcome == "expired" else None
        return None

    def after_followup(
        self, house: str, interaction: FakeInteraction, form: StoredMessage
    ) -> tuple[str, StoredMessage]:
        """A followup is a fresh form (the clicked one was out of date) or a refusal."""
        for message in interaction.followups:
            if "submit" in form_controls(message, self.game_id, house):
                return "expired", message
        return "refused", form

    def control(self, form: StoredMessage, house: str, part: str) -> str:
        controls = form_controls(form, self.game_id, house)
        if part not in controls:
            raise AssertionError(f"no {part!r} on {house}'s form: {form.custom_ids()}")
        return controls[part]


async def settle(bot: QuickBot) -> None:
    """Until the bot has sent everything the answers so far imply: channel posts, DMs, the status edit."""
    publisher = bot.play.publisher
    while publisher.posting or publisher.status_tasks:
        await publisher.settled()
        if publisher.status_tasks:
            await asyncio.wait(list(publisher.status_tasks))


async def battles_by_round(store: Store, game_id: int) -> Counter[int]:
    """Battles decided, by the round they were fought in."""
    out: Counter[int] = Counter()
    round_ = 1
    for _, events in sorted((await store.events_by_version(game_id)).items()):
        for e in events:
            if e["type"] == "round-started":
                round_ = int(e["round"])
            elif e["type"] in BATTLE_EVENTS:
                out[round_] += 1
    return out


async def play_game(name: str, seed: int, transcript: Path | None = None) -> dict[str, Any]:
    """One game of ``name``'s setup with ``seed``, from the lobby to its end: its figures."""
    setup = SETUPS[name]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        async with FakeDiscord.start() as fake:
            guild = fake.add_guild("Westeros", locale=setup.locale)
            channel = fake.add_text_channel(guild, "game")
            moderator = fake.add_member(guild, "mod", manage_guild=True, locale=setup.locale)
            members = [fake.add_member(guild, f"p{i}", locale=setup.locale) for i in range(setup.players)]
            store = await Store.open(db)
            service = GameService(store)
            bot = QuickBot(Config(token=fake.token, database=db), service, guild_ready_timeout=0.05, status_delay=0.0)
            try:
                async with fake.run_bot(bot):
                    await fake.wait_for_commands("game")
                    figures = await play(fake, bot, service, channel, moderator, members, setup, seed, transcript)
            finally:
                await store.close()
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return figures


async def play(
    fake: FakeDiscord,
    bot: QuickBot,
    service: GameService,
    channel: FakeChannel,
    moderator: FakeMember,
    members: list[FakeMember],
    setup: Setup,
    seed: int,
    transcript: Path | None = None,
) -> dict[str, Any]:
    made = await fake.slash(
        moderator, channel, "game new", players=setup.players, ruleset="mother-of-dragons",
        language=setup.language, name="Bench",
    )  # fmt: skip
    lobby = await made.wait_response(timeout=TIMEOUT)
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    for member in members:
        await (await fake.click(member, lobby, f"lobby:{game_id}:join")).wait_response(timeout=TIMEOUT)
    row = await service.row(game_id)
    await service.store.update_settings(game_id, {**row.settings, "seed": seed})
    await fake.wait_idle(quiet=0.5, timeout=TIMEOUT)
    meter = Meter(fake, channel.id, members)
    meter.baseline()
    await (await fake.click(moderator, lobby, f"lobby:{game_id}:start")).wait_response(timeout=TIMEOUT)
    await fake.wait_idle(quiet=0.5, timeout=TIMEOUT)  # the start's posts are under way once the click is answered
    await settle(bot)
    meter.take(0)  # the set-up

    players = Players(fake, channel, game_id, setup.language, seed)
    for _ in range(MAX_ANSWERS):
        if (await service.row(game_id)).status == "ended":
            break
        progressed = False
        for member in members:
            game = await service.load(game_id)
            for house in await service.houses_of(game_id, member.id):
                prompt = game.prompt_for(house)
                if prompt is None or prompt.answered:
                    continue
                await players.answer(member, house, prompt.kind)
                await settle(bot)
                meter.take(game.round)
                progressed = True
                break
        if not progressed:
            raise AssertionError("nobody owes a decision, but the game has not ended")
    else:
        raise AssertionError("the game did not end")
    await settle(bot)
    await fake.wait_idle(quiet=0.3, timeout=TIMEOUT)
    final = await service.load(game_id)
    meter.take(final.round)
    if fake.failed_interactions or fake.internal_errors or fake.unsupported_requests:
        raise AssertionError(f"the fake saw failures: {fake.failed_interactions} {fake.internal_errors}")
    for round_, battles in (await battles_by_round(service.store, game_id)).items():
        meter.rounds.setdefault(round_, Round()).battles += battles
    if transcript is not None:
        transcript.write_text(channel_transcript(fake, meter), encoding="utf-8")
    return figures_of(meter, players, len(members), final.round)


def mean(values: Sequence[float]) -> float:
    return round(statistics.fmean(values), 2) if values else 0.0


def figures_of(meter: Meter, players: Players, seats: int, rounds: int) -> dict[str, Any]:
    per_round = [meter.rounds.get(r, Round()) for r in range(1, rounds + 1)]
    stray = set(meter.rounds) - set(range(0, rounds + 1))
    if stray:
        raise AssertionError(f"counts outside rounds 1..{rounds} and the set-up: {sorted(stray)}")
    setup = meter.rounds.get(0, Round())
    # The set-up's DMs (the first orders) are round 1's; its channel posts are figures of their own.
    first = per_round[0]
    per_round[0] = replace(
        first,
        dms=first.dms + setup.dms,
        dm_edits=first.dm_edits + setup.dm_edits,
        channel_edits=first.channel_edits + setup.channel_edits,
    )
    messages = [r.channel_messages for r in per_round]
    images = [r.channel_images for r in per_round]
    less_messages = [r.channel_messages - r.battles for r in per_round]
    less_images = [r.channel_images - r.battles for r in per_round]
    dms = sum(sum(r.dms.values()) for r in per_round)
    dm_edits = sum(sum(r.dm_edits.values()) for r in per_round)
    orders = players.answered["orders"]
    decisions = sum(players.answered.values())
    return {
        "rounds": rounds,
        "setup_messages": setup.channel_messages,
        "setup_images": setup.channel_images,
        "channel_messages": sum(messages),
        "channel_messages_per_round": {"mean": mean(messages), "max": max(messages)},
        "channel_images": sum(images),
        "channel_images_per_round": {"mean": mean(images), "max": max(images)},
        "channel_edits": sum(r.channel_edits for r in per_round),
        "battles": sum(r.battles for r in per_round),
        "battles_source": "engine events (combat-result, neutral-attack)",
        "channel_messages_per_round_less_battles": {"mean": mean(less_messages), "max": max(less_messages)},
        "channel_images_per_round_less_battles": {"mean": mean(less_images), "max": max(less_images)},
        "dms_per_player_per_round": round(dms / (seats * rounds), 2),
        "dms_per_player_round_max": max((n for r in per_round for n in r.dms.values()), default=0),
        "dm_edits_per_player_per_round": round(dm_edits / (seats * rounds), 2),
        "orders_turns": orders,
        "taps_per_orders_turn": round(players.taps["orders"] / orders, 2) if orders else 0.0,
        "decisions": decisions,
        "taps_per_decision": round(sum(players.taps.values()) / decisions, 2) if decisions else 0.0,
        "refused": players.refused,
        "fallbacks": players.fallbacks,
        "per_round_messages": messages,
        "per_round_images": images,
        "per_round_battles": [r.battles for r in per_round],
    }


def combine(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Several games' figures as one: means averaged, maxima the largest, per-round lists dropped."""
    if len(games) == 1:
        return games[0]
    out: dict[str, Any] = {"games": len(games)}
    for key, value in games[0].items():
        values = [g[key] for g in games]
        if isinstance(value, dict):
            out[key] = {"mean": mean([v["mean"] for v in values]), "max": max(v["max"] for v in values)}
        elif key.endswith("_max"):
            out[key] = max(values)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out[key] = mean(values)
        elif not isinstance(value, list):
            out[key] = value
    out["seconds"] = round(sum(g["seconds"] for g in games), 1)
    return out


async def run(name: str, games: int = 1, seed: int = 1, transcripts: Path | None = None) -> dict[str, Any]:
    """``games`` games of the setup ``name`` (seeds ``seed``, ``seed + 1``, ...), combined; with ``transcripts`` (a
    folder) each game's channel is written there as ``<setup>-<seed>.txt``."""
    results = [
        await play_game(name, seed + i, transcripts / f"{name}-{seed + i}.txt" if transcripts else None)
        for i in range(games)
    ]
    figures = combine(results)
    figures.setdefault("games", games)
    figures["seed"] = seed
    return figures


ROWS: list[tuple[str, str | tuple[str, str]]] = [
    ("rounds", "rounds"),
    ("set-up msgs, images", ("setup_messages", "setup_images")),
    ("channel msgs/round (mean, max)", "channel_messages_per_round"),
    ("channel images/round (mean, max)", "channel_images_per_round"),
    ("battles", "battles"),
    ("msgs/round less battles", "channel_messages_per_round_less_battles"),
    ("images/round less battles", "channel_images_per_round_less_battles"),
    ("channel edits", "channel_edits"),
    ("DMs/player/round", "dms_per_player_per_round"),
    ("DM edits/player/round", "dm_edits_per_player_per_round"),
    ("taps/orders turn", "taps_per_orders_turn"),
    ("taps/decision", "taps_per_decision"),
    ("refused, fallbacks", ("refused", "fallbacks")),
    ("seconds", "seconds"),
]


def cell(figures: dict[str, Any], key: str | tuple[str, str]) -> str:
    if isinstance(key, tuple):
        return ", ".join(str(figures[k]) for k in key)
    value = figures[key]
    return f"{value['mean']}, {value['max']}" if isinstance(value, dict) else str(value)


def table(results: dict[str, dict[str, Any]]) -> str:
    names = list(results)
    width = max(len(label) for label, _ in ROWS)
    lines = [f"{'':<{width}}  " + "  ".join(f"{n:>12}" for n in names)]
    for label, key in ROWS:
        lines.append(f"{label:<{width}}  " + "  ".join(f"{cell(results[n], key):>12}" for n in names))
    lines.append("target (issue U): per round at most 6 messages and 2 images, plus one of each per battle")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--setup", choices=sorted(SETUPS), action="append", help="only this setup (repeatable)")
    parser.add_argument("--games", type=int, default=1, help="games per setup, averaged")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (and its players' choices)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--transcripts", type=Path, help="a folder: each game's channel as players read it, as text")
    args = parser.parse_args(argv)
    if args.transcripts:
        args.transcripts.mkdir(parents=True, exist_ok=True)
    results = {
        name: asyncio.run(run(name, args.games, args.seed, args.transcripts)) for name in args.setup or list(SETUPS)
    }
    if args.json:
        print(json.dumps(results))
    else:
        print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
