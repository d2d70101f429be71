"""``/stats player`` and ``/stats leaderboard`` through the fake Discord (issue W), after three finished games of the
server and one of another server: a member's own record and another's, in English and Russian, the leaderboard with
its footer, a member who never played, and a member who asked to be forgotten gone from both. The finished games are
built through the service (``tests/app/test_stats.py``: a start, a round-10 import, the last march answered)."""

from __future__ import annotations

from typing import Any

from testing.fake_discord import StoredMessage
from tests.app.test_stats import finished_game
from tests.bot.conftest import Table

EPHEMERAL = 64


async def ask(table: Table, user: Any, command: str, **options: Any) -> StoredMessage:
    reply = await (await table.fake.slash(user, table.channel, command, **options)).wait_response(timeout=30)
    assert reply.flags & EPHEMERAL and reply.ephemeral_for == user.id, reply.content
    return reply


async def test_stats_and_the_leaderboard_after_three_finished_games(table: Table) -> None:
    fake, service = table.fake, table.service
    guild: Any = table.guild
    players: list[Any] = table.players
    trio = tuple(p.id for p in players[:3])
    mod = table.moderator.id  # type: ignore[attr-defined]
    seats = {}
    for number in range(3):
        channel: Any = fake.add_text_channel(table.guild, f"game-{number}")
        seats = await finished_game(service, trio, "stark", guild=guild.id, channel=channel.id, mod=mod,
                                    missed=number == 0)  # fmt: skip
    # Another server's game, won by the same houses' players there: never counted here.
    elsewhere: Any = fake.add_guild("Essos", locale="en-US")
    far: Any = fake.add_text_channel(elsewhere, "game")
    await finished_game(service, trio, "baratheon", guild=elsewhere.id, channel=far.id, mod=mod)
    winner = next(p for p in players if p.id == seats["stark"])
    second = next(p for p in players[:3] if p is not winner)

    own = await ask(table, winner, "stats player")
    assert f"**<@{winner.id}>** on this server" in own.content
    assert "Games: 3 played, 3 finished, 3 won (100% of the finished ones)." in own.content, own.content
    assert "Stark: 3 played, 3 finished, 3 won (100%)" in own.content
    assert "Median time to answer: under a minute (over 3 answers)." in own.content
    assert "Rating: " in own.content and "place 1 of 3 on the leaderboard." in own.content

    # Another member's record: the same public figures, asked by someone else.
    theirs = await ask(table, winner, "stats player", member=second)
    assert f"**<@{second.id}>** on this server" in theirs.content and "3 finished, 0 won (0%" in theirs.content
    house = next(h for h, u in seats.items() if u == second.id)
    assert f"{house.title()}: 3 played" in theirs.content
    missed = sum(
        int(r.content.split("Deadlines missed: ")[1].split(".")[0])
        for r in [await ask(table, p, "stats player") for p in players[:3]]
    )
    assert missed == 1  # one deadline answered for a house, in the first game

    board = await ask(table, second, "stats leaderboard")
    lines = board.content.splitlines()
    assert lines[0] == "**Leaderboard** of this server (OpenSkill rating, finished games only)"
    assert lines[1].startswith(f"1. <@{winner.id}>: ") and lines[1].endswith("(3 games)"), lines
    assert {line.split(" ")[1].rstrip(":") for line in lines[1:4]} == {f"<@{p}>" for p in trio}
    assert (
        "Rated games: 3. Games in which the bot played a house" in board.content and "out: 0 of them" in board.content
    )

    never = await ask(table, winner, "stats player", member=players[5])
    assert never.content == f"<@{players[5].id}> has not played a game on this server yet."

    # In Russian, for a reader whose Discord speaks it.
    reader: Any = fake.add_member(table.guild, "ru-reader", locale="ru")
    russian = await ask(table, reader, "stats leaderboard")
    assert "**Таблица рейтинга** сервера" in russian.content and "(3 партии)" in russian.content, russian.content
    assert "Партий в рейтинге: 3." in russian.content
    record = await ask(table, reader, "stats player", member=winner)
    assert "Партии: сыграно — 3, завершено — 3, выиграно — 3 (100 % завершённых)." in record.content
    assert "Медианное время ответа: меньше минуты (по 3 ответам)." in record.content
    assert "1-е место из 3 в таблице." in record.content
    nobody = await ask(table, reader, "stats player")
    assert nobody.content == f"У <@{reader.id}> пока нет партий на этом сервере."

    # The winner asks to be forgotten: he is gone from the records and the leaderboard; the games stay rated.
    forget = await ask(table, winner, "privacy forget")
    done = await (await fake.click(winner, forget, "privacy:forget")).wait_response()
    assert "keeps nothing about you any more" in done.content
    gone = await ask(table, second, "stats player", member=winner)
    assert gone.content == f"<@{winner.id}> has not played a game on this server yet."
    after = await ask(table, second, "stats leaderboard")
    assert f"<@{winner.id}>" not in after.content and "Rated games: 3." in after.content
    assert "Nobody is ranked yet" not in after.content and after.content.count("(3 games)") == 2
    assert fake.failed_interactions == [] and fake.internal_errors == []
