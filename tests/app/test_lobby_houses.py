"""Houses chosen in the lobby, on a real SQLite file: each pick is a command (``PickHouse``) on the service's one path,
stored durably (migration 10), refused when the house is taken, not offered, or the player is not in the lobby or the
game has started; the start seats the picks and deals the rest so that the ruleset accepts the whole set."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.commands import Join, LeaveLobby, PickHouse, Start
from app.messages import error_text
from app.migrate import head
from app.service import GameService, GameSettings, ServiceError
from app.store import HouseTaken, NotInLobby, Store
from engine import new_game, rules, rulesets
from i18n import t

MOD = "mother-of-dragons"
WESTEROS = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"]


@pytest.fixture
async def service(database: Path | str) -> AsyncIterator[GameService]:
    store = await Store.open(database)
    yield GameService(store)
    await store.close()


async def lobby(service: GameService, players: int, *, channel: int = 10, **settings: object) -> int:
    """A lobby of ``players`` members (ids 1..players), everyone joined."""
    game_id = await service.create(
        guild_id=1,
        channel_id=channel,
        creator=1,
        name="g",
        settings=GameSettings(players=players, seed=7, **settings),  # type: ignore[arg-type]
    )
    for user in range(1, players + 1):
        await service.execute(Join(game_id=game_id, by=user))
    return game_id


async def refused(service: GameService, command: PickHouse) -> str:
    with pytest.raises(ServiceError) as err:
        await service.execute(command)
    return err.value.code


async def test_revision_0010_stores_the_picks_each_house_once(database: Path | str) -> None:
    store = await Store.open(database)
    assert await store.schema_revision() == head() and int(head()) >= 10
    game_id = await store.create_game(guild_id=1, channel_id=2, name="g", created_by=1, settings={})
    for user in (1, 2):
        await store.join_lobby(game_id, user)
    await store.pick_house(game_id, 1, "stark")
    with pytest.raises(HouseTaken):  # the table's own key, not a read before the write
        await store.pick_house(game_id, 2, "stark")
    with pytest.raises(NotInLobby):
        await store.pick_house(game_id, 3, "tyrell")
    await store.close()


async def test_pick_change_conflict_and_leave(service: GameService, database: Path | str) -> None:
    game_id = await lobby(service, 4)
    assert await service.execute(PickHouse(game_id=game_id, by=1, house="lannister")) == {1: "lannister"}
    # Choosing again changes the pick; the house left is free again.
    assert await service.execute(PickHouse(game_id=game_id, by=1, house="stark")) == {1: "stark"}
    assert await service.execute(PickHouse(game_id=game_id, by=2, house="lannister")) == {1: "stark", 2: "lannister"}
    # A house already taken by another player is refused and changes nothing.
    assert await refused(service, PickHouse(game_id=game_id, by=3, house="stark")) == "house-taken"
    assert await service.execute(PickHouse(game_id=game_id, by=1, house="stark")) == {1: "stark", 2: "lannister"}
    # "No preference": the house is dealt at the start.
    assert await service.execute(PickHouse(game_id=game_id, by=2, house=None)) == {1: "stark"}
    # Leaving the lobby frees the pick, in the statement that removes the seat (a foreign key's cascade).
    await service.execute(LeaveLobby(game_id=game_id, by=1))
    assert await service.lobby_picks(game_id) == {}
    assert await service.execute(PickHouse(game_id=game_id, by=3, house="stark")) == {3: "stark"}
    # The picks are durable: another connection to the file reads them.
    other = await Store.open(database)
    assert await other.lobby_picks(game_id) == {3: "stark"}
    await other.close()


async def test_refusals(service: GameService) -> None:
    game_id = await lobby(service, 4)
    # Someone not in the lobby; a house this game does not offer (the base game's 4 players hold no Tyrell, and
    # Targaryen is not in the base game); anything that is no house at all.
    assert await refused(service, PickHouse(game_id=game_id, by=99, house="stark")) == "pick-not-joined"
    assert await refused(service, PickHouse(game_id=game_id, by=None, house="stark")) == "pick-not-joined"
    for house in ("tyrell", "targaryen", "x" * 10_000, ""):
        assert await refused(service, PickHouse(game_id=game_id, by=1, house=house)) == "house-not-offered"
    await service.execute(Start(game_id=game_id))
    # After the start nothing is chosen any more.
    assert await refused(service, PickHouse(game_id=game_id, by=1, house="stark")) == "pick-after-start"
    assert await refused(service, PickHouse(game_id=404, by=1, house="stark")) == "no-game"


async def test_three_players_of_mother_of_dragons_cannot_pick_targaryen(service: GameService) -> None:
    game_id = await lobby(service, 3, ruleset=MOD)
    settings = GameSettings.from_dict((await service.row(game_id)).settings)
    assert settings.choosable_houses() == WESTEROS and not settings.targaryen_may_play()
    assert await refused(service, PickHouse(game_id=game_id, by=1, house="targaryen")) == "house-not-offered"
    await service.execute(PickHouse(game_id=game_id, by=1, house="arryn"))
    game = (await service.execute(Start(game_id=game_id))).game
    seats = await service.seats(game_id)
    assert seats["arryn"] == 1 and "targaryen" not in game.houses


async def test_base_four_players_start_with_the_picks_and_deal_the_rest(service: GameService) -> None:
    game_id = await lobby(service, 4)
    await service.execute(PickHouse(game_id=game_id, by=3, house="greyjoy"))
    await service.execute(PickHouse(game_id=game_id, by=4, house="stark"))
    game = (await service.execute(Start(game_id=game_id))).game
    seats = await service.seats(game_id)
    assert sorted(seats) == sorted(rulesets.named("base").houses_for(4)) == sorted(game.houses)
    assert seats["greyjoy"] == 3 and seats["stark"] == 4
    assert sorted(u for u in seats.values() if u is not None) == [1, 2, 3, 4]
    assert {game.state.houses[h].seat for h in seats} == {str(u) for u in seats.values()}


async def test_with_no_picks_the_deal_is_the_one_before_houses_could_be_chosen(service: GameService) -> None:
    """The seed deals exactly as it did: the houses of the count, shuffled by the game's seed."""
    for channel, (players, ruleset) in enumerate([(3, "base"), (6, "base"), (4, MOD), (7, MOD)], start=20):
        game_id = await lobby(service, players, channel=channel, ruleset=ruleset)
        await service.execute(Start(game_id=game_id))
        settings = GameSettings.from_dict((await service.row(game_id)).settings)
        houses = rules.player_houses(new_game(players, seed=7, options=settings.options()).state)
        random.Random(7).shuffle(houses)
        assert await service.seats(game_id) == dict(zip(houses, range(1, players + 1), strict=True))


async def test_join_order_deals_the_houses_left_in_turn_order(service: GameService) -> None:
    game_id = await lobby(service, 4, assignment="join-order")
    await service.execute(PickHouse(game_id=game_id, by=2, house="baratheon"))
    game = (await service.execute(Start(game_id=game_id))).game
    seats = await service.seats(game_id)
    left = [h for h in rules.player_houses(game.state) if h != "baratheon"]
    assert seats == {"baratheon": 2, **dict(zip(left, [1, 3, 4], strict=True))}


async def test_mother_of_dragons_four_players_with_targaryen_chosen(service: GameService) -> None:
    game_id = await lobby(service, 4, ruleset=MOD, targaryen_cards="b")
    await service.execute(PickHouse(game_id=game_id, by=2, house="targaryen"))
    game = (await service.execute(Start(game_id=game_id))).game
    seats = await service.seats(game_id)
    assert seats["targaryen"] == 2
    # The others are the default houses for four players not taken, in the ruleset's order: Baratheon is left over.
    assert sorted(seats) == sorted(["targaryen", "stark", "greyjoy", "lannister"])
    assert sorted(game.state.vassals) == ["arryn", "baratheon", "martell", "tyrell"]
    options = game.view(None)["options"]
    assert options["board"] == "mother-of-dragons-essos" and options["targaryen_cards"] == "b"
    assert rulesets.named(MOD).accepts_houses(rules.player_houses(game.state))


async def test_mother_of_dragons_seven_players_with_targaryen_leave_one_vassal(service: GameService) -> None:
    game_id = await lobby(service, 7, ruleset=MOD)
    await service.execute(PickHouse(game_id=game_id, by=5, house="targaryen"))
    await service.execute(PickHouse(game_id=game_id, by=6, house="arryn"))
    game = (await service.execute(Start(game_id=game_id))).game
    assert len(rules.player_houses(game.state)) == 7 and len(game.state.vassals) == 1
    assert "targaryen" not in game.state.vassals and "arryn" not in game.state.vassals


async def test_mother_of_dragons_eight_players_hold_every_house(service: GameService) -> None:
    game_id = await lobby(service, 8, ruleset=MOD)
    await service.execute(PickHouse(game_id=game_id, by=8, house="martell"))
    game = (await service.execute(Start(game_id=game_id))).game
    seats = await service.seats(game_id)
    assert sorted(seats) == sorted([*WESTEROS, "targaryen"]) and seats["martell"] == 8
    assert game.state.vassals == {}
    assert game.view(None)["options"]["board"] == "mother-of-dragons-essos"


async def test_new_games_are_refused_outside_the_rulesets_counts_and_choices(service: GameService) -> None:
    for players in (7, 8):
        with pytest.raises(ServiceError) as err:
            await service.create(guild_id=1, channel_id=30, creator=1, name="g", settings=GameSettings(players=players))
        assert err.value.code == "players-base"
        assert "Mother of Dragons" in error_text(err.value, "en") and "«Мать драконов»" in error_text(err.value, "ru")
    with pytest.raises(ServiceError) as err:
        await service.create(
            guild_id=1, channel_id=30, creator=1, name="g", settings=GameSettings(players=4, targaryen_cards="c")
        )
    assert err.value.code == "bad-setting"
    # Targaryen's card set is an engine option of every Mother of Dragons game, never of a base game.
    assert GameSettings(players=4, ruleset=MOD, targaryen_cards="b").options()["targaryen_cards"] == "b"
    assert "targaryen_cards" not in GameSettings(players=4).options()
    # Settings stored before the option existed still read.
    assert GameSettings.from_dict({"players": 4, "ruleset": MOD}).targaryen_cards == "a"


def test_every_refusal_reads_in_english_and_russian() -> None:
    for code in (
        "house-taken",
        "house-not-offered",
        "pick-after-start",
        "pick-not-joined",
        "houses-unplayable",
        "players-base",
        "players-mother-of-dragons",
        "bad-setting",
    ):
        error = ServiceError(code, "English fallback", option="language")
        english, russian = error_text(error, "en"), error_text(error, "ru")
        assert "fallback" not in english and "fallback" not in russian, code
        assert english != russian and "{" not in english + russian, code
    assert t("lobby.picked", "ru", house="🟫 Таргариен", name="Тест") == "Ваш дом в игре Тест: 🟫 Таргариен."
