"""``/mod games``: a server's games at a glance for its moderators, through the fake Discord (issue O)."""

from __future__ import annotations

import asyncio
import re

from app.queries import GameAtAGlance, GuildGames
from app.store import GameRow, GameStatus
from cogs.moderation import games_text
from cogs.text import MESSAGE_LIMIT
from testing.fake_discord import FakeDiscord
from testing.forms import form_control
from tests.bot.conftest import Table


async def open_game(table: Table, channel: object, name: str, players: list[object], moderator: object) -> int:
    """A lobby made by ``moderator`` in ``channel``; started once ``players`` joined (none: left as a lobby)."""
    fake = table.fake
    lobby = await (await fake.slash(moderator, channel, "game new", players=3, name=name)).wait_response()
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    for player in players:
        await (await fake.click(player, lobby, f"lobby:{game_id}:join")).wait_response()
    if players:
        started = await (await fake.click(moderator, lobby, f"lobby:{game_id}:start")).wait_response()
        assert "started" in started.content
    return game_id


async def armed(table: Table, game_id: int) -> None:
    for _ in range(500):
        if await table.service.deadline(game_id) is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"game {game_id}'s first deadline was never armed")


def game_lines(text: str) -> dict[str, str]:
    """The overview's line of each game, by the game's name."""
    return {m[1]: m[0] for m in re.finditer(r"^• \*\*([^*]+)\*\*.*$", text, re.M)}


async def test_mod_games_shows_every_game_of_the_server_and_nothing_of_another(table: Table) -> None:
    fake: FakeDiscord = table.fake
    second = fake.add_text_channel(table.guild, "second")
    third = fake.add_text_channel(table.guild, "third")
    running = await open_game(table, table.channel, "Winter", table.players[:3], table.moderator)
    paused = await open_game(table, second, "Summer", table.players[3:6], table.moderator)
    # The first deadline is armed once the start is announced: paused after that, it keeps its remaining time.
    await armed(table, paused)
    await (await fake.slash(table.moderator, second, "mod pause")).wait_response()
    # A third game of the server ends: it is counted and named, not listed with the others.
    others = [fake.add_member(table.guild, f"q{i}") for i in range(3)]
    ended = await open_game(table, third, "Autumn", others, table.moderator)
    await (await fake.slash(table.moderator, third, "mod end")).wait_response()
    # Another server's lobby, with its own moderator.
    elsewhere = fake.add_guild("Essos", locale="en-US")
    market = fake.add_text_channel(elsewhere, "market")
    essos_mod = fake.add_member(elsewhere, "essos-mod", manage_guild=True)
    await fake.wait_for_commands("game")
    lobby = await open_game(table, market, "Pentos", [], essos_mod)
    await fake.wait_idle()
    assert {(await table.service.row(g)).status for g in (running, paused, ended, lobby)} == {
        GameStatus.RUNNING,
        GameStatus.PAUSED,
        GameStatus.ENDED,
        GameStatus.LOBBY,
    }

    # Stark's player gives his orders: the overview stops waiting for Stark and says nothing of the orders.
    seats = await table.service.seats(running)
    stark_player = next(p for p in table.players if p.id == seats["stark"])
    dm = await fake.wait_for_dm(stark_player)
    receipt = await (await fake.click(stark_player, dm, form_control(dm, running, "stark"))).wait_response()
    assert "Recorded" in receipt.text()

    reply = await (await fake.slash(table.moderator, table.channel, "mod games")).wait_response()
    text = reply.content
    assert reply.flags & 64  # only the moderator sees it
    assert "<@" not in text and reply.pings == []  # house names, never a member
    lines = game_lines(text)
    assert set(lines) == {"Winter", "Summer", "Autumn"}  # nothing of Essos
    assert "Pentos" not in text and str(market.id) not in text
    winter, summer = lines["Winter"], lines["Summer"]
    assert f"<#{table.channel.id}>" in winter and f"<#{second.id}>" in summer
    assert "round 1, Planning phase" in winter and "paused" not in winter
    assert "round 1, Planning phase, **paused**" in summer
    # Whom it waits for: exactly the houses the public view awaits, and since when the step opened.
    view = (await table.service.load(running)).view(None)
    assert "stark" not in view["awaiting"] and "Stark" not in winter
    assert view["awaiting"] and all(house.title() in winter for house in view["awaiting"])
    assert "March" not in winter and "Support" not in winter and "Raid" not in winter  # no order of Stark's
    deadline = await table.service.deadline(running)
    assert deadline is not None
    assert f"step opened <t:{int(deadline.opened_at)}:R>" in winter
    assert f"Deadline: <t:{int(deadline.due_at)}:f> (<t:{int(deadline.due_at)}:R>)" in winter
    assert re.search(r"Deadline: \d+\.\d h left once resumed", summer)  # a paused deadline keeps its remaining time
    assert "**Ended**: 1 game." in text and f"**Autumn** in <#{third.id}>, ended <t:" in text
    assert "not ended: 2" in text

    # Another server's moderator sees his own lobby only.
    essos = await (await fake.slash(essos_mod, market, "mod games")).wait_response()
    essos_lines = game_lines(essos.content)
    assert set(essos_lines) == {"Pentos"}
    assert f"<#{market.id}>: lobby, 0/3 players, opened <t:" in essos_lines["Pentos"]
    assert "Ended" not in essos.content

    # The same in Russian: house names and the plural of the ended count in the member's language.
    russian = fake.add_member(table.guild, "ru-mod", locale="ru", manage_guild=True)
    ru = (await (await fake.slash(russian, table.channel, "mod games")).wait_response()).content
    ru_lines = game_lines(ru)
    assert set(ru_lines) == {"Winter", "Summer", "Autumn"}
    assert "раунд 1, фаза замыслов" in ru_lines["Winter"] and "Ланнистер" in ru_lines["Winter"]
    assert "**на паузе**" in ru_lines["Summer"] and "после возобновления останется" in ru_lines["Summer"]
    assert "**Окончены**: 1 игра." in ru and "Игры на этом сервере" in ru
    assert fake.failed_interactions == []


async def test_mod_games_is_refused_without_manage_server_and_says_when_a_server_has_none(table: Table) -> None:
    fake = table.fake
    await open_game(table, table.channel, "Winter", [], table.moderator)
    refused = await (await fake.slash(table.players[0], table.channel, "mod games")).wait_response()
    assert "Only members with Manage Server" in refused.content and "Winter" not in refused.content
    ru_player = fake.add_member(table.guild, "ru-player", locale="ru")
    ru_refused = await (await fake.slash(ru_player, table.channel, "mod games")).wait_response()
    assert "«Управлять сервером»" in ru_refused.content and "Winter" not in ru_refused.content
    # A game's creator moderates his own game, not the server: he is refused too.
    creator = fake.add_member(table.guild, "creator")
    own = fake.add_text_channel(table.guild, "own")
    await open_game(table, own, "Mine", [], creator)
    assert "Only members" in (await (await fake.slash(creator, own, "mod games")).wait_response()).content

    empty = fake.add_guild("Empty", locale="en-US")
    hall = fake.add_text_channel(empty, "hall")
    owner = fake.add_member(empty, "owner", manage_guild=True)
    await fake.wait_for_commands("game")
    none = await (await fake.slash(owner, hall, "mod games")).wait_response()
    assert "No game has been played on this server yet" in none.content
    ru_owner = fake.add_member(empty, "ru-owner", locale="ru", manage_guild=True)
    ru_none = await (await fake.slash(ru_owner, hall, "mod games")).wait_response()
    assert "На этом сервере ещё не было игр" in ru_none.content


async def test_a_game_whose_position_cannot_be_read_is_listed_as_such(table: Table) -> None:
    fake = table.fake
    lobby = await (
        await fake.slash(table.moderator, table.channel, "game new", players=3, name="Spoilt")
    ).wait_response()
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    for player in table.players[:3]:
        await (await fake.click(player, lobby, f"lobby:{game_id}:join")).wait_response()
    await (await fake.click(table.moderator, lobby, f"lobby:{game_id}:start")).wait_response()
    await fake.wait_idle()
    store = table.service.store
    await store.write("UPDATE games SET state = ? WHERE id = ?", ('{"round": "not a round"}', game_id))
    store.forget(game_id)
    text = (await (await fake.slash(table.moderator, table.channel, "mod games")).wait_response()).content
    line = game_lines(text)["Spoilt"]
    assert "its saved position cannot be read" in line and "not a round" not in line
    assert (await table.service.row(game_id)).broken_reason is not None  # quarantined, its moderators told
    assert fake.failed_interactions == []


def lobby_row(number: int) -> GameAtAGlance:
    row = GameRow(
        id=number,
        guild_id=1,
        channel_id=10_000_000_000_000_000 + number,
        name=f"A rather long game name number {number}",
        created_by=2,
        status=GameStatus.LOBBY,
        settings={"players": 6},
        state=None,
        version=0,
    )
    return GameAtAGlance(row, 1_800_000_000.0, lobby_taken=2)


def test_a_server_with_many_games_is_cut_to_discords_limit_with_the_rest_counted() -> None:
    games = GuildGames([lobby_row(n) for n in range(1, 61)], ended=7, last_ended=[])
    for lang, more in (("en", r"… and (\d+) more games\."), ("ru", r"… и ещё (\d+) игр[аы]?\.")):
        text = games_text(games, lang)
        assert len(text) <= MESSAGE_LIMIT
        shown = len(game_lines(text))
        counted = re.search(more, text)
        assert counted is not None and shown + int(counted[1]) == 60, text
        assert ("**Ended**: 7 games." if lang == "en" else "**Окончены**: 7 игр.") in text
        assert text.splitlines()[-1].startswith("**")  # the ended count closes it, whole lines only
