"""The decision forms as a phone shows them, in one language: a claim form, an orders form, a vassal's orders form, a
march form and a house-card DM (its menu tapped open, and its cards' texts shown on request).

    PYTHONPATH=. .venv/bin/python tools/form_gallery.py --lang ru|en [--seed 3]

Plays a four-player Mother of Dragons game (three vassals) through the local fake Discord against the real bot, as
the bot tests do: the lobby is made with ``/game new``, joined and started through Discord by members whose Discord
speaks ``--lang``. Each decision DM of a kind not shown yet is printed as its player reads it (``testing.phone``); the
game is then moved on by answering every decision through the service, as a seeded random player would (the forms
are what this shows, not the answers), until each kind was shown once.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.commands import Answer
from app.config import Config
from app.service import GameService
from app.store import Store
from engine import RuleError
from engine.agents import RandomAgent
from testing.fake_discord import FakeDiscord, FakeMember, StoredMessage
from testing.forms import form_controls
from testing.phone import as_phone, tapped
from testing.quick_bot import QuickBot

KINDS = ("vassal-claim", "orders", "vassal-orders", "march", "house-card")
LOCALES = {"ru": "ru", "en": "en-US"}
MAX_ANSWERS = 2000
TIMEOUT = 30.0


def dm_form(
    fake: FakeDiscord, member: FakeMember, game_id: int, house: str, answered: set[int]
) -> StoredMessage | None:
    """The member's latest DM carrying ``house``'s form, among those whose decision was not answered yet (the gallery
    answers through the service, so an answered DM still shows its form)."""
    for message in reversed(fake.dm_messages(member)):
        if message.id not in answered and "submit" in form_controls(message, game_id, house):
            return message
    return None


async def settle(fake: FakeDiscord, bot: QuickBot) -> None:
    await bot.play.publisher.settled()
    await fake.wait_idle(quiet=0.1, timeout=TIMEOUT)


def show(title: str, message: StoredMessage) -> None:
    text = as_phone(message)
    print(f"═══ {title} ({len(message.text())} characters of text) ═══")
    print(text)
    print()


async def gallery(lang: str, seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "gallery.sqlite3"
        async with FakeDiscord.start() as fake:
            guild = fake.add_guild("Westeros", locale=LOCALES[lang])
            channel = fake.add_text_channel(guild, "game")
            moderator = fake.add_member(guild, "mod", manage_guild=True, locale=LOCALES[lang])
            members = [fake.add_member(guild, f"p{i}", locale=LOCALES[lang]) for i in range(4)]
            store = await Store.open(database)
            service = GameService(store)
            bot = QuickBot(Config(token=fake.token, database=database), service, guild_ready_timeout=0.05)
            try:
                async with fake.run_bot(bot):
                    await fake.wait_for_commands("game")
                    await play(fake, bot, service, channel, moderator, members, lang, seed)
            finally:
                await store.close()


async def play(
    fake: FakeDiscord,
    bot: QuickBot,
    service: GameService,
    channel: Any,
    moderator: FakeMember,
    members: list[FakeMember],
    lang: str,
    seed: int,
) -> None:
    made = await fake.slash(
        moderator, channel, "game new", players=4, ruleset="mother-of-dragons", language=lang, name="Gallery"
    )
    lobby = await made.wait_response(timeout=TIMEOUT)
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    for member in members:
        await (await fake.click(member, lobby, f"lobby:{game_id}:join")).wait_response(timeout=TIMEOUT)
    row = await service.row(game_id)
    await service.store.update_settings(game_id, {**row.settings, "seed": seed})
    await (await fake.click(moderator, lobby, f"lobby:{game_id}:start")).wait_response(timeout=TIMEOUT)
    await settle(fake, bot)

    rnd = random.Random(seed)
    agent = RandomAgent(seed)
    shown: set[str] = set()
    answered: set[int] = set()
    for n in range(MAX_ANSWERS):
        if shown >= set(KINDS) or (await service.row(game_id)).status == "ended":
            break
        game = await service.load(game_id)
        prompt = next((p for p in game.prompts() if not p.answered), None)
        if prompt is None:
            break
        user = await service.seat_of(game_id, prompt.house)
        member = next(m for m in members if m.id == user)
        form = dm_form(fake, member, game_id, prompt.house, answered)
        if form is not None:
            answered.add(form.id)
        if prompt.kind in KINDS and prompt.kind not in shown and form is not None:
            shown.add(prompt.kind)
            show(prompt.kind, form)
            if prompt.kind == "house-card":
                await card_texts(fake, bot, member, form, game_id, prompt.house)
        answer = agent.answer(prompt, game.view(prompt.house)) if rnd.random() < 0.9 else prompt.default
        for given in (answer, prompt.default):
            try:
                key = f"gallery:{n}:{given is answer}"
                house, prompt_id = prompt.house, prompt.id
                command = Answer(game_id=game_id, by=user, key=key, house=house, answer=given, prompt_id=prompt_id)
                await service.answer(command)
                break
            except RuleError:
                continue
        await settle(fake, bot)
    missing = [kind for kind in KINDS if kind not in shown]
    if missing:
        print(f"(not reached with seed {seed}: {', '.join(missing)})")


async def card_texts(
    fake: FakeDiscord, bot: QuickBot, member: FakeMember, form: StoredMessage, game_id: int, house: str
) -> None:
    """The house-card DM after its player presses the button that shows the cards' full texts."""
    controls = form_controls(form, game_id, house)
    print("═══ house-card, its menu tapped open ═══")
    print("\n".join(tapped(form, controls["s:0"])))
    print()
    details = controls.get("details")
    if details is None:
        return
    before = len(form.history)
    await (await fake.click(member, form, details)).wait_ack(timeout=TIMEOUT)
    await fake.wait_until(lambda: len(form.history) > before, timeout=TIMEOUT)
    await settle(fake, bot)
    show("house-card, its cards' texts shown on request", form)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", choices=sorted(LOCALES), default="ru")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    asyncio.run(gallery(args.lang, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
