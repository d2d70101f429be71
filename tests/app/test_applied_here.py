"""Scale-out that pays (issue X): the publishing worker publishes the versions it committed itself as it applied them,
and keeps them only while it holds the publish lock: a worker that does not publish keeps nothing (its commits are
another's to publish, rebuilt there from the log), and one whose turn ended forgets what it kept."""

from __future__ import annotations

from pathlib import Path

import discord
from discord.ext import commands

from app.commands import Answer
from app.service import GameService
from app.store import Store
from cogs.acks import AckFirst
from cogs.channels import Channels
from cogs.dms import DecisionDMs
from cogs.forms import FormController
from cogs.publisher import Publisher
from tests.app.test_service import started


async def answer_next(service: GameService, game_id: int) -> None:
    game = await service.load(game_id)
    prompt = next(p for p in game.prompts() if not p.answered)
    seats = await service.store.seats(game_id)
    await service.execute(Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=seats[prompt.house]))


async def test_a_worker_keeps_its_own_commits_as_applied_only_while_it_publishes(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "w.db")
    try:
        service = GameService(store)
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())  # never connected: nothing is sent
        order = AckFirst()
        channels = Channels(bot)
        forms = FormController(service, order, channels)
        publisher = Publisher(service, order, channels, DecisionDMs(service, channels, forms), forms)
        service.subscribe(publisher.committed_here)  # as a worker's Play does (cogs/play.py)
        game_id = await started(service, players=3)

        await answer_next(service, game_id)  # not publishing: nothing kept
        assert not publisher.applied_here

        publisher.new_turn()  # it took the publish lock
        await answer_next(service, game_id)
        rows = {(g, v, kind, written_at) for g, v, kind, _sent, written_at in await store.unpublished()}
        kept = dict(publisher.applied_here)
        assert len(kept) == 1 and set(kept) <= rows  # keyed by the very outbox row its commit wrote
        ((key, applied),) = kept.items()
        assert applied.game.version == key[1] == (await service.load(game_id)).version

        pending = await service.unpublished(applied_here=lambda k: publisher.applied_here.pop(k, None))
        assert [a for k, a, _ in pending if k == key] == [applied]  # published as applied, taken once
        assert all(a.game.version != key[1] or a is applied for _, a, _ in pending)
        assert not publisher.applied_here

        await answer_next(service, game_id)
        assert len(publisher.applied_here) == 1
        publisher.end_turn()  # the lock is gone: what it kept is another's to publish
        assert not publisher.applied_here
        await answer_next(service, game_id)
        assert not publisher.applied_here
    finally:
        await store.close()
