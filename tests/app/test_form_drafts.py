"""The drafts of open forms a process keeps (cogs/forms.py): a house's answer ends its form's draft wherever the
version is seen, so that the publishing worker of several processes, which sent the form and never saw the Submit,
neither draws a receipt again as a form nor works out that house's prompt at every later version."""

from __future__ import annotations

from pathlib import Path

import discord

from app.commands import Answer
from app.service import Applied, GameService
from app.store import Source, Store
from cogs.acks import AckFirst
from cogs.channels import Channels
from cogs.forms import FormController, form_of
from tests.app.test_queue import started_in


async def test_a_houses_own_answer_ends_its_forms_draft_and_no_other_version_does(database: Path | str) -> None:
    store = await Store.open(database)
    try:
        service = GameService(store)
        game_id = await started_in(service, 40)
        forms = FormController(service, AckFirst(), Channels(discord.Client(intents=discord.Intents.none())))
        game = await service.load(game_id)
        seats = await store.seats(game_id)
        prompts = [p for p in game.prompts() if not p.answered]
        for prompt in prompts:  # the decision DMs sent: each house's form is open
            forms.new_draft(game_id, game, prompt, form_of(game, prompt, "en"), seats[prompt.house])
        answering, waiting = prompts[0], prompts[1]

        seen: list[Applied] = []

        async def keep(applied: Applied) -> None:
            seen.append(applied)

        service.subscribe(keep)
        await service.execute(
            Answer(game_id=game_id, house=answering.house, answer=answering.default, by=seats[answering.house])
        )
        applied = seen[-1]
        assert applied.source == Source.PLAYER and applied.house == answering.house
        forms.position_changed(applied)  # as the publishing worker's drain does for each version
        assert (game_id, answering.house) not in forms.drafts
        assert {(game_id, p.house) for p in prompts[1:]} <= set(forms.drafts)

        # A deadline's default answer leaves the house's form open: its player may still change it from there.
        defaulted = Applied(game_id, waiting.house, Source.DEADLINE, applied.game, [], applied.before)
        forms.position_changed(defaulted)
        assert (game_id, waiting.house) in forms.drafts
        # So does another command of the house's player that leaves its decision unanswered (a gift of Power).
        gift = Applied(game_id, waiting.house, Source.PLAYER, applied.game, [], applied.before)
        forms.position_changed(gift)
        assert (game_id, waiting.house) in forms.drafts
        await forms.refresh_forms(game_id, applied.game)  # the others' decisions did not change: nothing drawn
        assert {(game_id, p.house) for p in prompts[1:]} <= set(forms.drafts)
    finally:
        await store.close()
