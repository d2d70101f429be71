"""The game service on a real SQLite file: lobby, seats, committed answers, races, undo."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app import queries as queries_module
from app.commands import Answer, Import, Join, Start, Undo
from app.database import IntegrityError
from app.decisions import Form, build_form
from app.migrate import HEAD, head, upgrade
from app.service import GameService, GameSettings, ServiceError
from app.store import SET_SEAT, GameStatus, Source, Store, VersionConflict, Write
from engine import Game, Prompt, RuleError
from engine.flow import STEPS, Step, prompt_id, register


@pytest.fixture
async def service(database: Path | str):  # type: ignore[no-untyped-def]
    store = await Store.open(database)
    yield GameService(store)
    await store.close()


async def started(service: GameService, players: int = 3, *, channel_id: int = 10) -> int:
    game_id = await service.create(
        guild_id=1, channel_id=channel_id, creator=100, name="test", settings=GameSettings(players=players, seed=5)
    )
    for user in range(100, 100 + players):
        await service.execute(Join(game_id=game_id, by=user))
    await service.execute(Start(game_id=game_id))
    return game_id


@pytest.mark.empty_database
async def test_schema_is_migrated_to_the_newest_revision_once(database: Path | str) -> None:
    store = await Store.open(database)
    assert await store.schema_revision() == head()
    game_id = await store.create_game(guild_id=1, channel_id=2, name="g", created_by=3, settings={})
    await store.close()
    again = await Store.open(database)  # opening again migrates nothing and keeps the rows
    assert await again.schema_revision() == head() and (await again.game(game_id)) is not None
    if again.db.dialect == "sqlite":
        assert await again.db.fetchone("PRAGMA journal_mode") == ("wal",)
    await again.close()


async def test_lobby_rules(service: GameService) -> None:
    game_id = await service.create(guild_id=1, channel_id=10, creator=1, name="g", settings=GameSettings(players=3))
    await service.execute(Join(game_id=game_id, by=1))
    with pytest.raises(ServiceError) as err:
        await service.execute(Join(game_id=game_id, by=1))
    assert err.value.code == "already-joined"
    with pytest.raises(ServiceError) as err:
        await service.execute(Start(game_id=game_id))
    assert err.value.code == "seats-empty"
    await service.execute(Join(game_id=game_id, by=2))
    await service.execute(Join(game_id=game_id, by=3))
    with pytest.raises(ServiceError) as err:
        await service.execute(Join(game_id=game_id, by=4))
    assert err.value.code == "game-full"
    game = (await service.execute(Start(game_id=game_id))).game
    seats = await service.store.seats(game_id)
    assert sorted(seats) == sorted(game.state.players) and sorted(seats.values()) == [1, 2, 3]


async def test_answer_is_committed_before_it_is_reported(service: GameService, database: Path | str) -> None:
    game_id = await started(service)
    seen: list[int] = []

    async def listener(applied) -> None:  # type: ignore[no-untyped-def]
        # By the time anyone is told, a fresh connection already reads the new version.
        other = await Store.open(database)
        row = await other.game(game_id)
        await other.close()
        assert row is not None
        seen.append(row.version)

    service.subscribe(listener)
    game = await service.load(game_id)
    house = game.prompts()[0].house
    user = (await service.store.seats(game_id))[house]
    applied = await service.execute(
        Answer(game_id=game_id, house=house, answer=game.prompt_for(house).default, by=user)
    )
    assert seen == [applied.game.version] == [1]
    log = await service.store.answers(game_id)
    assert [(a.house, a.user_id, a.source) for a in log] == [(house, user, "player")]


async def test_only_the_seated_player_answers(service: GameService) -> None:
    game_id = await started(service)
    game = await service.load(game_id)
    house = game.prompts()[0].house
    seats = await service.store.seats(game_id)
    stranger = next(u for h, u in seats.items() if h != house)
    with pytest.raises(ServiceError) as err:
        await service.execute(Answer(game_id=game_id, house=house, answer=game.prompt_for(house).default, by=stranger))
    assert err.value.code == "not-your-house"
    assert (await service.load(game_id)).version == 0


async def test_illegal_answer_changes_nothing(service: GameService) -> None:
    game_id = await started(service)
    game = await service.load(game_id)
    house = game.prompts()[0].house
    user = (await service.store.seats(game_id))[house]
    with pytest.raises(RuleError):
        await service.execute(Answer(game_id=game_id, house=house, answer={"orders": {"the-eyrie": "raid"}}, by=user))
    assert (await service.load(game_id)).to_json() == game.to_json()
    assert await service.store.answers(game_id) == []


async def test_double_click_is_applied_once(service: GameService) -> None:
    """Two simultaneous identical answers: both are serialised; the state advances consistently."""
    game_id = await started(service)
    game = await service.load(game_id)
    house = game.prompts()[0].house
    user = (await service.store.seats(game_id))[house]
    prompt = game.prompt_for(house)
    results = await asyncio.gather(
        *[
            service.execute(Answer(game_id=game_id, house=house, answer=prompt.default, by=user, prompt_id=prompt.id))
            for _ in range(2)
        ],
        return_exceptions=True,
    )
    # Orders may be replaced until everyone has answered, so both land, one after the other, never interleaved.
    assert all(not isinstance(r, Exception) for r in results)
    log = await service.store.answers(game_id)
    assert [a.version for a in log] == [1, 2]


async def test_compare_and_set_rejects_a_stale_writer(service: GameService) -> None:
    game_id = await started(service)
    row = await service.row(game_id)
    with pytest.raises(VersionConflict):
        await service.store.commit_answer(
            game_id,
            expected_version=row.version + 7,
            new_version=row.version + 8,
            new_state=row.state or "",
            house="stark",
            user_id=None,
            prompt_id="x",
            answer=None,
            source="player",
        )


async def test_a_stale_commit_writes_nothing(service: GameService) -> None:
    game_id = await started(service)
    before = await stored(service, game_id)
    row = await service.row(game_id)
    with pytest.raises(VersionConflict):
        await service.store.commit_answer(
            game_id, expected_version=row.version + 1, new_version=row.version + 2, new_state="{}", house="stark",
            user_id=None, prompt_id="x", answer=None, source="player", snapshot=True, status="ended",
        )  # fmt: skip
    assert await stored(service, game_id) == before


async def test_a_commit_that_fails_halfway_leaves_the_game_as_it_was(service: GameService) -> None:
    """The answer is one statement: when appending it fails after the state was written, the state write goes too."""
    game_id = await started(service)
    row = await service.row(game_id)
    # A stray log entry at the version the next answer takes makes its INSERT fail (UNIQUE (game_id, version)).
    await service.store.write(
        "INSERT INTO answers (game_id, version, house, prompt_id, answer, source, at) VALUES (?, ?, 'x', 'x', 'null',"
        " 'test', 0)",
        (game_id, row.version + 1),
    )
    before = await stored(service, game_id)
    with pytest.raises(IntegrityError):
        await service.store.commit_answer(
            game_id, expected_version=row.version, new_version=row.version + 1, new_state="{}", house="stark",
            user_id=None, prompt_id="x", answer=None, source="player", snapshot=True,
        )  # fmt: skip
    assert await stored(service, game_id) == before
    assert (await service.row(game_id)).version == row.version  # the cache was not left ahead of the file


async def stored(service: GameService, game_id: int) -> tuple[Any, ...]:
    """What the database file holds of a game: its row's state, version and status, its log and its snapshots."""
    db = service.store.db
    game = await db.fetchone("SELECT state, version, status FROM games WHERE id = ?", (game_id,))
    log = await db.fetchall("SELECT * FROM answers WHERE game_id = ? ORDER BY version", (game_id,))
    return game, log, await service.store.snapshot_versions(game_id)


LEGACY = Path(__file__).resolve().parent / "legacy"


@pytest.mark.parametrize("legacy", [6, 10])
async def test_a_database_from_before_alembic_is_stamped_upgraded_and_plays_on(tmp_path: Path, legacy: int) -> None:
    """A file made by the hand-kept migrations (its schema read back from such a file) carries its number in
    PRAGMA user_version: it is stamped with the same revision, upgraded, and its games play on."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path, isolation_level=None) as old:
        old.executescript((LEGACY / f"schema_{legacy}.sql").read_text())
        old.execute(f"PRAGMA user_version={legacy}")
        old.execute(
            "INSERT INTO games (guild_id, channel_id, name, created_by, created_at, status, settings, updated_at)"
            " VALUES (1, 2, 'before', 3, 0, 'lobby', '{}', 0)"
        )
    old.close()
    store = await Store.open(path)
    try:
        assert await store.schema_revision() == head()
        before = await store.game(1)
        assert before is not None and before.name == "before"
        service = GameService(store)
        game_id = await started(service)
        game = await service.load(game_id)
        prompt = game.prompts()[0]
        await service.execute(
            Answer(
                game_id=game_id, house=prompt.house, answer=prompt.default, prompt_id=prompt.id, source=Source.DEADLINE
            )
        )
        assert [a.version for a in await store.answers(game_id)] == [game.version + 1]
    finally:
        await store.close()


async def test_undo_restores_the_exact_previous_state(service: GameService) -> None:
    game_id = await started(service, players=4)
    states = [(await service.load(game_id)).to_json()]
    for _ in range(4):
        game = await service.load(game_id)
        p = next(p for p in game.prompts() if not p.answered)
        user = (await service.store.seats(game_id))[p.house]
        await service.execute(Answer(game_id=game_id, house=p.house, answer=p.default, by=user))
        states.append((await service.load(game_id)).to_json())
    for expected in reversed(states[:-1]):
        restored = (await service.execute(Undo(game_id=game_id))).game
        assert restored.to_json() == expected
        assert (await service.load(game_id)).to_json() == expected
    with pytest.raises(ServiceError):
        await service.execute(Undo(game_id=game_id))
    assert Game.from_json(states[0]).version == 0


class _OnlyOneWay(Step):
    """A test step that asks the first house a question with a single legal answer."""

    type = "test-only-one-way"

    def prompts(self, g, f):  # type: ignore[no-untyped-def]
        if f.get("done"):
            return []
        house = g.s.players[0]
        return [
            Prompt(id=prompt_id(f, "only", house), house=house, kind="raven-wildling", choices=["yes"], default="yes")
        ]

    def answer(self, g, f, house, answer):  # type: ignore[no-untyped-def]
        f["done"] = answer

    def advance(self, g, f):  # type: ignore[no-untyped-def]
        g.pop(f)


if _OnlyOneWay.type not in STEPS:
    register(_OnlyOneWay)


async def test_a_prompt_with_one_legal_answer_is_answered_and_logged_as_automatic(service: GameService) -> None:
    game_id = await started(service, players=3)
    row = await service.row(game_id)
    game = Game.from_json(row.state or "")
    game.push(_OnlyOneWay.type)
    game.state.version += 1
    await service.store.commit_answer(
        game_id,
        expected_version=row.version,
        new_version=game.version,
        new_state=game.to_json(),
        house="",
        user_id=1,
        prompt_id="repair",
        answer={},
        source="moderator",
    )
    await service.answer_forced(game_id, game)
    log = await service.store.answers(game_id)
    assert (log[-1].source, log[-1].answer, log[-1].house) == ("auto", "yes", game.state.players[0])
    after = await service.load(game_id)
    assert all(f["type"] != _OnlyOneWay.type for f in after.state.stack)
    assert {p.kind for p in after.prompts()} == {"orders"}  # back to the planning it interrupted


async def test_the_shared_game_is_read_only_and_answers_still_change_the_stored_one(service: GameService) -> None:
    game_id = await started(service)
    shared = await service.load(game_id)
    assert await service.load(game_id) is shared  # one parsed game for every reader of this version
    house = shared.prompts()[0].house
    prompt = shared.prompt_for(house)
    assert prompt is not None
    with pytest.raises(TypeError):
        shared.act(house, prompt.default)
    with pytest.raises(TypeError):
        shared.set_seat(house, None, autopilot=True)
    user = (await service.store.seats(game_id))[house]
    applied = await service.execute(Answer(game_id=game_id, house=house, answer=prompt.default, by=user))
    assert shared.version == 0 and applied.game.version == 1  # the answer worked on its own copy
    assert await service.load(game_id) is applied.game


async def test_a_versions_form_is_built_once_for_every_message_and_anew_for_the_next_version(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[tuple[str, str]] = []
    real = queries_module.build_form

    def counting(prompt: Prompt, view: dict[str, object], lang: str) -> Form:
        built.append((prompt.house, lang))
        return real(prompt, view, lang)

    monkeypatch.setattr(queries_module, "build_form", counting)
    game_id = await started(service)
    shared = await service.load(game_id)
    prompt = shared.prompts()[0]
    forms = [shared.form(prompt, "en-US") for _ in range(5)]  # the DM, a reminder, three opened forms
    assert built == [(prompt.house, "en-US")]
    assert forms[0] == build_form(prompt, shared.view(prompt.house), "en-US")
    forms[0].fields[0].options.clear()  # one reader's draft changes its own copy only
    forms[0].fields[0].selected.append("x")
    assert shared.form(prompt, "en-US") == forms[1] and forms[1].fields[0].options
    shared.form(prompt, "ru")
    assert built == [(prompt.house, "en-US"), (prompt.house, "ru")]  # each language once
    user = (await service.store.seats(game_id))[prompt.house]
    applied = await service.execute(Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=user))
    other = applied.game.prompts()[-1]
    assert other.house != prompt.house
    applied.game.form(other, "en-US")
    applied.game.form(other, "en-US")
    assert built[2:] == [(other.house, "en-US")]  # a new version builds its own, once


async def test_a_raid_with_no_target_is_removed_at_once_and_never_asked(service: GameService) -> None:
    """Issue U, fault 6: a single Raid order with nothing to raid leaves no choice (B-RAID-07), so the house is not
    asked: the removal is applied at once, logged as automatic, and narrated like any raid with no target."""
    game_id = await started(service, players=3)
    spec = {
        "start": "action",
        "units": {"winterfell": "stark footman", "lannisport": "lannister footman", "dragonstone": "baratheon footman"},
        "orders": {"winterfell": "raid", "lannisport": "defense1", "dragonstone": "defense1"},
    }
    applied = await service.execute(Import(game_id=game_id, by=1, spec=spec))
    assert applied.game.prompt_for("stark") is not None and applied.game.prompt_for("stark").kind == "raid"
    game = await service.load(game_id)
    assert all(p.kind != "raid" for p in game.prompts())
    last = (await service.store.answers(game_id))[-1]
    assert (last.house, last.source, last.answer) == ("stark", "auto", {"from": "winterfell", "target": None})
    events = await service.public_events(game_id, limit=1)
    assert {"type": "raid", "house": "stark", "area": "winterfell", "target": None} in events


async def test_a_raid_with_a_target_or_a_second_raid_is_still_asked(service: GameService) -> None:
    game_id = await started(service, players=3)
    spec = {
        "start": "action",
        "units": {"winterfell": "stark footman", "white-harbor": "stark footman", "dragonstone": "baratheon footman"},
        "orders": {"winterfell": "raid", "white-harbor": "raid*", "dragonstone": "defense1"},
    }
    await service.execute(Import(game_id=game_id, by=1, spec=spec))
    prompt = (await service.load(game_id)).prompt_for("stark")
    assert prompt is not None and prompt.kind == "raid" and set(prompt.choices) == {"winterfell", "white-harbor"}


@pytest.mark.several_processes
async def test_two_processes_answering_one_game_at_once_both_land(database: Path | str) -> None:
    """Two bots on one database answer for two houses of the same game at the same moment: neither waits for the
    other's lock, so one commits first and the other finds the version moved on; it is applied again to the game as
    it now stands, and both answers land once."""
    first, second = await Store.open(database, shared=True), await Store.open(database, shared=True)
    try:
        services = [GameService(first), GameService(second)]
        for round_ in range(5):
            game_id = await started(services[0]) if round_ == 0 else await another(services[0], round_)
            game = await services[0].load(game_id)
            seats = await first.seats(game_id)
            prompts = game.prompts()[:2]
            await asyncio.gather(
                *(
                    service.execute(
                        Answer(game_id=game_id, house=p.house, answer=p.default, by=seats[p.house], prompt_id=p.id)
                    )
                    for service, p in zip(services, prompts, strict=True)
                )
            )
            log = await first.answers(game_id)
            assert sorted(a.house for a in log) == sorted(p.house for p in prompts)
            assert [a.version for a in log] == [game.version + 1, game.version + 2]
    finally:
        await first.close()
        await second.close()


async def another(service: GameService, channel: int) -> int:
    """One more started 3-player game, in its own channel."""
    game_id = await service.create(
        guild_id=1, channel_id=10 + channel, creator=100, name="test", settings=GameSettings(players=3, seed=5)
    )
    for user in range(100, 103):
        await service.execute(Join(game_id=game_id, by=user))
    await service.execute(Start(game_id=game_id))
    return game_id


@pytest.mark.several_processes
async def test_a_shared_store_drops_what_another_process_changed(database: Path | str) -> None:
    """Two processes' stores keep the rows they read; a change one makes (a pause, a seat, a locale) is announced by
    the database, and the other reads it afresh instead of what it kept."""
    first, second = await Store.open(database, shared=True), await Store.open(database, shared=True)
    try:
        game_id = await started(GameService(first))
        assert (await second.game(game_id)).status == "running"  # type: ignore[union-attr]
        seats = await second.seats(game_id)
        await second.locale(100)
        await first.set_status(game_id, GameStatus.PAUSED)
        house = next(iter(seats))
        await first.apply([Write(SET_SEAT, (game_id, house, 999))])
        await first.set_locale(100, "ru")

        async def caught_up() -> bool:
            row = await second.game(game_id)
            return (
                row is not None
                and row.status == "paused"
                and (await second.seats(game_id))[house] == 999
                and await second.locale(100) == "ru"
            )

        for _ in range(100):
            if await caught_up():
                break
            await asyncio.sleep(0.02)
        assert await caught_up()
    finally:
        await first.close()
        await second.close()


@pytest.mark.several_processes
async def test_a_players_answer_ends_his_run_of_missed_deadlines_whichever_process_applies_it(
    database: Path | str,
) -> None:
    """The run of missed deadlines ends with the player's own answer in the answer's commit, whether the process
    applying it held the game's runs (it updates them) or not (it never reads them for this: the commit's trigger
    ends the run if there is one), and another process that held them hears the change."""
    from app.store_deadlines import DeadlineStore

    first, second = await Store.open(database, shared=True), await Store.open(database, shared=True)
    try:
        services = [GameService(first), GameService(second)]
        game_id = await started(services[0])
        game = await services[0].load(game_id)
        seats = await first.seats(game_id)
        houses = [p.house for p in game.prompts()][:2]
        for house in houses:
            await DeadlineStore(first).record_missed(game_id, house)
        assert await first.missed_houses(game_id) == set(houses)
        second.forget(game_id)  # the applying process holds none of the game's runs of missed deadlines
        prompt = game.prompt_for(houses[0])
        assert prompt is not None
        await services[1].execute(Answer(game_id=game_id, house=houses[0], answer=prompt.default, by=seats[houses[0]]))

        async def first_caught_up() -> bool:
            return await first.missed_houses(game_id) == {houses[1]}

        for _ in range(100):
            if await first_caught_up():
                break
            await asyncio.sleep(0.02)
        assert await first_caught_up()
        assert await second.missed_in_a_row(game_id, houses[0]) == 0
        assert await second.missed_in_a_row(game_id, houses[1]) == 1
        # The process holding the runs applies the other's answer: its own copy follows at once.
        game = await services[0].load(game_id)
        prompt = game.prompt_for(houses[1])
        assert prompt is not None
        await services[0].execute(Answer(game_id=game_id, house=houses[1], answer=prompt.default, by=seats[houses[1]]))
        assert await first.missed_houses(game_id) == set()
        first.forget(game_id)
        assert await first.missed_houses(game_id) == set()
    finally:
        await first.close()
        await second.close()


def test_the_head_the_bot_knows_is_alembics() -> None:
    assert head() == HEAD


def test_a_store_at_the_newest_revision_opens_without_loading_alembic_or_postgresql(tmp_path: Path) -> None:
    """Nearly every start finds the schema up to date: one query says so, and the one-process bot on SQLite loads
    neither Alembic and SQLAlchemy nor psycopg (about 50 MB between them)."""
    path = tmp_path / "games.sqlite3"
    upgrade(path)
    script = (
        "import asyncio, sys\n"
        "from app.store import Store\n"
        "async def main():\n"
        f"    store = await Store.open({str(path)!r})\n"
        "    await store.close()\n"
        "asyncio.run(main())\n"
        "print(sorted(m for m in ('alembic', 'sqlalchemy', 'psycopg') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[]", done.stderr


async def _answer_once(service: GameService, game_id: int, pick: int = 0) -> str:
    """Answer the first open prompt (its ``pick``-th choice where it has a list of them); the new state's JSON."""
    game = await service.load(game_id)
    p = next(p for p in game.prompts() if not p.answered)
    answer = p.choices[pick % len(p.choices)] if isinstance(p.choices, list) and p.choices else p.default
    user = (await service.store.seats(game_id))[p.house]
    await service.execute(Answer(game_id=game_id, house=p.house, answer=answer, by=user))
    return (await service.load(game_id)).to_json()


async def test_a_version_rebuilt_from_an_earlier_one_held_equals_the_one_replayed_from_the_snapshot(
    service: GameService,
) -> None:
    """The publisher rebuilds each version from the one it holds and the entries since (issue X, the scale-out's
    CPU), not from the last snapshot and the whole log: both give the stored state, and a held game that is not on
    the log's line any more (the log was truncated under it by an undo) is not used for a version it cannot reach."""
    game_id = await started(service, players=4)
    states = {0: (await service.load(game_id)).to_json()}
    for version in range(1, 6):
        states[version] = await _answer_once(service, game_id)
    held = await service.game_at(game_id, 2)
    for version in range(2, 6):
        assert (await service.game_at(game_id, version, start=held)).to_json() == states[version]
        assert (await service.game_at(game_id, version)).to_json() == states[version]
    assert held.to_json() == states[2]  # the start is copied, never changed
    # The outbox's versions, rebuilt one after another from a game held at the first of them; those after it from
    # one read of the log's entries of every version drained (a publisher behind busy games), not a read per game or
    # per version, nor one more per version rebuilt the long way.
    reads: list[list[tuple[int, int]]] = []
    read_entries, read_one = service.store.entries_at, service.store.answer_at
    one_by_one: list[int] = []

    async def counted(versions: list[tuple[int, int]]) -> Any:
        reads.append(versions)
        return await read_entries(versions)

    async def counted_one(game: int, version: int) -> Any:
        one_by_one.append(version)
        return await read_one(game, version)

    service.store.entries_at = counted  # type: ignore[method-assign]
    service.store.answer_at = counted_one  # type: ignore[method-assign]
    try:
        pending = await service.unpublished(known=lambda _game: held)
    finally:
        del service.store.entries_at
        del service.store.answer_at
    rebuilt = {applied.game.version: applied.game.to_json() for _, applied, _ in pending}
    assert set(rebuilt) >= {3, 4, 5} and all(rebuilt[v] == states[v] for v in rebuilt)
    # (Versions up to the held one are rebuilt the long way, the start from its snapshot and each next from it.)
    assert len(reads) == 1 and {(game_id, v) for v in range(3, 6)} <= set(reads[0])
    assert one_by_one == []
    # An undo truncates the log after version 4; the held game at 5 is not a start for anything before it.
    stale = await service.game_at(game_id, 5)
    await service.execute(Undo(game_id=game_id))
    assert (await service.game_at(game_id, 4, start=stale)).to_json() == states[4]


async def test_the_game_at_a_forms_version_is_the_stored_one_while_it_is_the_newest(service: GameService) -> None:
    """A step's Submits come while their form's version is the newest: the gateway takes the stored game then, with
    no snapshot read and no replay of the log (issue X, the scale-out's CPU); an older version is rebuilt."""
    game_id = await started(service, players=4)
    states = {0: (await service.load(game_id)).to_json()}
    for version in range(1, 3):
        states[version] = await _answer_once(service, game_id)
    snapshots: list[int] = []
    read_snapshot = service.store.latest_snapshot

    async def counted(game: int, *, at_most: int) -> Any:
        snapshots.append(at_most)
        return await read_snapshot(game, at_most=at_most)

    service.store.latest_snapshot = counted  # type: ignore[method-assign]
    try:
        newest = await service.game_then(game_id, 2)
        assert newest is await service.load(game_id) and newest.to_json() == states[2]
        assert snapshots == []
        assert (await service.game_then(game_id, 1)).to_json() == states[1]
        assert snapshots == [1]
    finally:
        del service.store.latest_snapshot


async def test_the_publishers_own_commits_are_published_as_applied_and_a_row_written_again_is_rebuilt(
    service: GameService,
) -> None:
    """Scale-out that pays (issue X): the publishing worker publishes the versions it committed itself as it applied
    them (``applied_here``, keyed by their outbox rows), reading none of their entries back and replaying none; the
    versions another committed are rebuilt from them. A row written again since (an undo, then the version committed
    anew) is not the one applied here: it is rebuilt, whatever was kept for its version."""
    game_id = await started(service, players=4)
    applied_here: dict[Any, Any] = {}
    keeping = [False]

    async def keep(applied: Any) -> None:
        if keeping[0]:
            applied_here[(applied.game_id, applied.game.version, "step", applied.written_at)] = applied

    service.subscribe(keep)
    await _answer_once(service, game_id)  # version 1, as if another worker's: not kept
    keeping[0] = True
    states = {v: await _answer_once(service, game_id) for v in (2, 3)}
    assert {key[1] for key in applied_here} == {2, 3}
    reads: list[list[tuple[int, int]]] = []
    read_entries = service.store.entries_at

    async def counted(versions: list[tuple[int, int]]) -> Any:
        reads.append(versions)
        return await read_entries(versions)

    service.store.entries_at = counted  # type: ignore[method-assign]
    asked: list[Any] = []

    def here(key: Any) -> Any:
        asked.append(key)
        return applied_here.pop(key, None)

    try:
        kept = dict(applied_here)
        pending = {
            applied.game.version: (key, applied) for key, applied, _ in await service.unpublished(applied_here=here)
        }
    finally:
        del service.store.entries_at
    for version in (2, 3):
        key, applied = pending[version]
        assert applied is kept[key]  # the very object applied, its row's key its own
        assert applied.game.to_json() == states[version]
    assert all((game_id, v) not in read for read in reads for v in (2, 3))  # none of their entries read back
    assert any((game_id, 1) in read for read in reads) and pending[1][1].game.version == 1  # another's: rebuilt
    assert applied_here == {}  # each taken once

    # An undo takes version 3 back and an answer commits version 3 anew: its row is a new one.
    await service.execute(Undo(game_id=game_id))
    stale = kept[pending[3][0]]
    applied_here[pending[3][0]] = stale  # what was kept for the old row
    keeping[0] = False
    again = await _answer_once(service, game_id, pick=1)
    rebuilt = {applied.game.version: (key, applied) for key, applied, _ in await service.unpublished(applied_here=here)}
    key, applied = rebuilt[3]
    assert key != pending[3][0] and applied is not stale and applied.game.to_json() == again


@pytest.mark.several_processes
async def test_a_shared_store_keeps_what_it_changed_itself_and_drops_what_another_changed(
    database: Path | str,
) -> None:
    """The database announces every change to every process, the one that made it included: that one keeps its
    cached row (its write replaced it after the commit), where dropping it made each worker read the whole game again
    after each of its own answers. Another process's change is still read afresh."""
    first, second = await Store.open(database, shared=True), await Store.open(database, shared=True)
    try:
        game_id = await started(GameService(first))
        await asyncio.sleep(0.3)  # the start's own announcements are in: a read under way when one came is not kept
        await first.game(game_id)
        await second.game(game_id)
        assert first.holds_row(game_id) and second.holds_row(game_id)
        await first.set_status(game_id, GameStatus.PAUSED)
        for _ in range(100):  # the announcement reaches both
            if not second.holds_row(game_id):
                break
            await asyncio.sleep(0.02)
        assert not second.holds_row(game_id)
        await asyncio.sleep(0.2)
        assert first.holds_row(game_id)
        assert (await first.game(game_id)).status == "paused"  # type: ignore[union-attr]
        assert (await second.game(game_id)).status == "paused"  # type: ignore[union-attr]
    finally:
        await first.close()
        await second.close()


@pytest.mark.several_processes
async def test_another_process_changing_a_games_row_leaves_its_seats_cached_and_a_seat_change_drops_them(
    database: Path | str,
) -> None:
    """A change names its table (revision 0020): every answer updates its game's row, and the other processes drop
    that row only; the seats they hold stay, unread again, until the seats themselves change."""
    first, second = await Store.open(database, shared=True), await Store.open(database, shared=True)
    try:
        service = GameService(first)
        game_id = await started(service)
        await asyncio.sleep(0.3)  # the start's own announcements are in
        await second.game(game_id)
        seats = await second.seats(game_id)
        await first.set_status(game_id, GameStatus.PAUSED)  # the game's row, by another process
        for _ in range(100):
            if not second.holds_row(game_id):
                break
            await asyncio.sleep(0.02)
        assert not second.holds_row(game_id)
        assert await _count_reads(second, lambda: second.seats(game_id)) == 0, "only the game's row changed"
        house = next(iter(seats))
        await first.write("UPDATE seats SET user_id = ? WHERE game_id = ? AND house = ?", (999, game_id, house))
        for _ in range(100):  # the seats' own announcement reaches the second process: it reads them again
            if second.cached_games() == 0 or (await second.seats(game_id))[house] == 999:
                break
            await asyncio.sleep(0.02)
        assert (await second.seats(game_id))[house] == 999
    finally:
        await first.close()
        await second.close()


async def _count_reads(store: Store, read: Any) -> int:
    """How many statements ``read()`` sent to the store's database."""
    sent = 0
    original = store.db.fetchall

    async def counted(sql: str, params: Any = ()) -> Any:
        nonlocal sent
        sent += 1
        return await original(sql, params)

    store.db.fetchall = counted  # type: ignore[method-assign]
    try:
        await read()
    finally:
        store.db.fetchall = original  # type: ignore[method-assign]
    return sent


async def test_a_start_and_a_repair_know_their_own_outbox_rows(service: GameService) -> None:
    """Issue X: every publication marks and ends its own outbox row only (``Applied.written_at``), where a start and
    a moderator's repair left it unset and took whatever row of their version a later read found there (an undo and
    the version committed again write that row anew)."""
    game_id = await service.create(
        guild_id=1, channel_id=10, creator=100, name="test", settings=GameSettings(players=3, seed=5)
    )
    for user in range(100, 103):
        await service.execute(Join(game_id=game_id, by=user))
    start = await service.execute(Start(game_id=game_id))
    assert start.written_at is not None
    assert start.written_at == (await service.store.sends(game_id, start.game.version))[0]
    spec = {"start": "action", "units": {"winterfell": "stark footman"}, "orders": {"winterfell": "defense1"}}
    repair = await service.execute(Import(game_id=game_id, by=1, spec=spec))
    assert repair.written_at is not None and repair.written_at != start.written_at
    assert repair.written_at == (await service.store.sends(game_id, repair.game.version))[0]
