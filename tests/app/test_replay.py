"""The replay (issue W): whole agent games played through the game service on a real store (SQLite and PostgreSQL),
base game and Mother of Dragons, then rebuilt from the start snapshot and the command log.

Property: the game rebuilt at every version equals the state the service stored for that version. Fair play: at every
version the rebuilt public view is the spectator view the service had then, and at every version where a house held
a secret (orders before the reveal, Power during a bid, a house card chosen, the Raven's peek, the Spymaster's look:
the agents always peek and take the Spymaster when offered) nothing of any house's private view is in it; each phase
end's board is its version's spectator view, and the phase's lines come from public events only.
"""

from __future__ import annotations

import contextlib
import pickle
import random
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from app.commands import Answer, Gift, Join, Start
from app.queries import Applied, ServiceError
from app.replay import Frame, Refusal, frame, frame_in_pool, latest_game_in, positions, read_log, timeline
from app.service import GameService, GameSettings
from app.store import GameStatus, Store
from engine import Game, RuleError
from engine.agents import AGENTS
from engine.prompts import PromptKind

CHANNEL = 500
USERS = list(range(100, 108))


@dataclass
class Recorded:
    """What the service stored for each version of one game, as its listener saw it committed."""

    game_id: int
    states: dict[int, str] = field(default_factory=dict)
    public: dict[int, dict[str, Any]] = field(default_factory=dict)
    private: dict[int, dict[str, dict[str, Any]]] = field(default_factory=dict)


@pytest.fixture
async def service(database: Path | str) -> AsyncIterator[GameService]:
    store = await Store.open(database)
    yield GameService(store)
    await store.close()


async def play(
    service: GameService,
    *,
    players: int,
    seed: int,
    ruleset: str = "base",
    channel: int = CHANNEL,
    stop_at_orders_of_round: int | None = None,
) -> Recorded:
    """A game of ``players`` agents through the service (answers and, with Mother of Dragons, now and then a gift of
    Power), to the end or, with ``stop_at_orders_of_round``, to the middle of that round's orders (some placed,
    hidden). Every committed version's stored state and views are recorded as the service's listener is told."""
    settings = GameSettings(players=players, seed=seed, ruleset=ruleset, tides_of_battle=seed % 2 == 0)
    game_id = await service.create(guild_id=1, channel_id=channel, creator=USERS[0], name="r", settings=settings)
    recorded = Recorded(game_id)

    async def listen(applied: Applied) -> None:
        if applied.game_id != game_id:
            return
        version = applied.game.version
        recorded.states[version] = applied.game.to_json()
        recorded.public[version] = applied.game.view(None)
        recorded.private.pop(version, None)
        # A secret sits in the state: an answer not yet revealed (orders, bids, a house card), or a private look (the
        # Raven's peek, the Spymaster's, a Tides card drawn with the Blade unused). Every house's view is kept.
        pending = any(p.answered for p in applied.game.prompts())
        if pending or any("private_to" in e for e in applied.events):
            recorded.private[version] = {h: applied.game.view(h) for h in applied.game.houses}

    service.subscribe(listen)
    for user in USERS[:players]:
        await service.execute(Join(game_id=game_id, by=user))
    await service.execute(Start(game_id=game_id))
    seats = await service.seats(game_id)
    agents = {h: AGENTS["random"](seed * 31 + i) for i, h in enumerate(sorted(seats))}
    rnd = random.Random(seed)
    for _ in range(5000):
        game = await service.load(game_id)
        if game.finished:
            break
        prompts = [p for p in game.prompts() if not p.answered]
        if stop_at_orders_of_round == game.round and any(p.kind == "orders" for p in game.prompts() if p.answered):
            # mid-orders: keep each house's private view of this version for the fair-play check
            recorded.private[game.version] = {h: game.view(h) for h in game.houses}
            break
        prompt = prompts[0]
        by = await service.seat_of(game_id, prompt.house)
        if ruleset == "mother-of-dragons" and by is not None and rnd.random() < 0.03:
            house = (await service.houses_of(game_id, by))[0]
            others = sorted(h for h, u in seats.items() if u is not None and h != house)
            with contextlib.suppress(RuleError, ServiceError):  # the rules allow no gift now
                await service.execute(Gift(game_id=game_id, by=by, to=rnd.choice(others), amount=1))
            continue
        answer = agents.get(prompt.house, agents[sorted(agents)[0]]).answer(prompt, game.view(prompt.house))
        if prompt.kind == PromptKind.RAVEN and prompt.choices.get("peek"):
            answer = {"action": "peek"}  # the Raven's holder always looks: its peek is a secret the replay must keep
        if prompt.kind == PromptKind.LOAN and "spymaster" in (prompt.choices or []):
            answer = "spymaster"  # and so does a Spymaster's taker, at the Westeros decks
        try:
            await service.execute(Answer(game_id=game_id, house=prompt.house, answer=answer, by=by))
        except (RuleError, ServiceError):
            await service.execute(Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=by))
    return recorded


def differences(private: Any, public: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Where a private view says more than the public one: each path and what the private view holds there."""
    if isinstance(private, dict) and isinstance(public, dict):
        for key, value in private.items():
            yield from differences(value, public.get(key), (*path, key))
    elif private != public:
        yield path, private


def at(view: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        if not isinstance(view, dict):
            return None
        view = view.get(key)
    return view


IGNORED = {"viewer"}  # whom a view is for


def leaks(private: dict[str, dict[str, Any]], shown: dict[str, Any]) -> set[str]:
    """What each house's private view held that the board shown must not: asserts none of it is there, and returns
    the kinds of secret there were (``order``, ``power``, ``raven_peek``, ``battle``...)."""
    kinds = set()
    for house, view in private.items():
        for path, value in differences(view, shown):
            if path[0] in IGNORED:
                continue
            assert at(shown, path) != value, (house, path)
            if path[0] == "prompt":  # the house's own question, and what it alone was shown (a card looked at)
                kinds.add(f"prompt:{view['prompt']['kind']}")
            else:
                kinds.add(str(path[2] if path[0] in ("areas", "houses") and len(path) > 2 else path[0]))
    return kinds


async def check_replay(service: GameService, recorded: Recorded) -> set[str]:
    """The property and fair play over one game; returns the kinds of secret its versions held."""
    log = await read_log(service, recorded.game_id, CHANNEL)
    # Property: every version rebuilt from the log is the stored one, and shows a spectator what he saw then, none
    # of the secrets any house held at that version.
    seen = 0
    secrets: set[str] = set()
    for _, game in positions(log):
        assert game == Game.from_json(recorded.states[game.version]), game.version
        public = game.view(None)
        assert public == recorded.public[game.version], game.version
        if game.version in recorded.private:
            secrets |= leaks(recorded.private[game.version], public)
        seen += 1
    assert seen == len(recorded.states) == log.version + 1
    # Fair play: each phase end shows the spectator view of its version, and its lines come from public events only.
    line = timeline(log)
    assert line.phases and all(e for e in line.events[1:])
    for index, end in enumerate(line.phases):
        shown = frame(log, end.round, end.phase, "en")
        if shown.index != index:  # an entry passed a whole phase: the same round and phase appear once only
            continue
        assert shown.view == recorded.public[end.version]
        assert not any("private_to" in e for e in line.events[index])
        assert shown.header.startswith("**— Round")
        if end.version in recorded.private:
            leaks(recorded.private[end.version], shown.view)
    assert all(p.done for p in line.phases[:-1])
    return secrets


@pytest.mark.parametrize(
    "ruleset,players,seed", [("base", 3, 1), ("base", 6, 2), ("mother-of-dragons", 8, 3), ("mother-of-dragons", 4, 4)]
)
async def test_a_rebuilt_game_equals_the_stored_one_at_every_version(
    service: GameService, ruleset: str, players: int, seed: int
) -> None:
    recorded = await play(service, players=players, seed=seed, ruleset=ruleset)
    assert (await service.row(recorded.game_id)).status == GameStatus.ENDED
    secrets = await check_replay(service, recorded)
    # Each secret was there to keep, and kept: orders before their reveal, Power hidden during bids, the Raven's peek,
    # a house card chosen before the reveal (a battle: these games have some), the Spymaster's look (the 8-player game).
    assert {"order", "power", "raven_peek", "prompt:raven-wildling"} <= secrets, secrets
    assert players < 4 or "battle" in secrets, secrets
    assert players < 8 or "prompt:loan-spy-arrange" in secrets, secrets
    # An ended game is still the channel's game to replay, until another one starts there.
    assert (await latest_game_in(service, CHANNEL)).id == recorded.game_id
    if ruleset == "mother-of-dragons":  # gifts of Power are logged and replayed like answers
        log = await read_log(service, recorded.game_id, CHANNEL)
        assert any(e.prompt_id == "gift" for e in log.entries)


@pytest.mark.parametrize("ruleset,players", [("base", 5), ("mother-of-dragons", 8)])
async def test_a_running_games_replay_shows_no_secret_of_its_moment(
    service: GameService, ruleset: str, players: int
) -> None:
    """Stopped with some orders placed and not revealed: the replay's last board hides them, as the channel did; no
    difference between any private view and the public one reaches it (orders, bids, cards, peeks, loans' looks)."""
    recorded = await play(service, players=players, seed=7, ruleset=ruleset, stop_at_orders_of_round=3)
    await check_replay(service, recorded)
    log = await read_log(service, recorded.game_id, CHANNEL)
    last = frame(log, None, None, "ru")
    assert not last.shown.done and last.shown.phase == "planning" and last.shown.round == 3
    private = recorded.private[last.shown.version]
    secrets = [(h, path, value) for h, view in private.items() for path, value in differences(view, last.view)]
    assert any("order" in path for _, path, _ in secrets), "some orders were placed and hidden"
    for house, path, value in secrets:
        if path in (("viewer",),) or path[:1] == ("awaiting",):
            continue  # who the view is for, and the viewer's own prompt
        assert at(last.view, path) != value, (house, path)
    hidden = [a["order"] for a in last.view["areas"].values() if a["order"]]
    assert hidden and all(o.get("hidden") and "token" not in o for o in hidden)
    # A Russian replay speaks Russian.
    assert last.header.startswith("**— Раунд")


async def test_refusals_name_what_is_wrong(service: GameService) -> None:
    recorded = await play(service, players=3, seed=11, stop_at_orders_of_round=2)
    log = await read_log(service, recorded.game_id, CHANNEL)
    with pytest.raises(ServiceError) as no_round:
        frame(log, 99, None, "en")
    assert no_round.value.code == "replay-no-round" and no_round.value.params == {"round": 99, "first": 1, "last": 2}
    # In the image pool a refusal comes back as a value that crosses the process boundary, and is raised again.
    refusal = pickle.loads(pickle.dumps(frame_in_pool(log, 99, None, "en")))
    assert isinstance(refusal, Refusal) and refusal.error().params == no_round.value.params
    drawn = pickle.loads(pickle.dumps(frame_in_pool(log, 2, None, "en", lambda view, lang: b"png")))
    assert isinstance(drawn, Frame) and drawn.picture == b"png" and drawn.view == {}
    with pytest.raises(ServiceError) as no_phase:
        frame(log, 1, "westeros", "en")  # round 1 has no Westeros phase
    assert no_phase.value.code == "replay-no-phase"
    with pytest.raises(ServiceError) as elsewhere:
        await read_log(service, recorded.game_id, CHANNEL + 1)
    assert elsewhere.value.code == "replay-other-channel"
    lobby = await service.create(guild_id=1, channel_id=CHANNEL + 2, creator=1, name="l", settings=GameSettings(3))
    with pytest.raises(ServiceError) as unstarted:
        await read_log(service, lobby, CHANNEL + 2)
    assert unstarted.value.code == "replay-no-history"
    # An ended game whose log retention removed keeps its final state only: nothing to replay from.
    await service.store.write("DELETE FROM answers WHERE game_id = ?", (recorded.game_id,))
    await service.store.write("DELETE FROM snapshots WHERE game_id = ? AND version = 0", (recorded.game_id,))
    with pytest.raises(ServiceError) as pruned:
        await read_log(service, recorded.game_id, CHANNEL)
    assert pruned.value.code == "replay-no-history"
