"""Fair play (issue I): each hole found by playing as a player, a moderator or a malicious member, tried again
through the fake Discord. Every attempt is refused with a clear sentence in the user's language, and nothing
changes."""

from __future__ import annotations

import json
from typing import Any

from testing.fake_discord.components import walk
from testing.forms import form_control
from testing.phone import every_text
from tests.bot.conftest import Table


async def start_own_game(table: Table, players: int = 3) -> int:
    """A game whose creator (players[0], a plain member) also plays: a moderator of their own game."""
    fake = table.fake
    creator = table.players[0]
    lobby = await (await fake.slash(creator, table.channel, "game new", players=players, name="Own")).wait_response()
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    for player in table.players[:players]:
        await (await fake.click(player, lobby, f"lobby:{game_id}:join")).wait_response()
    started = await (await fake.click(creator, lobby, f"lobby:{game_id}:start")).wait_reply(timeout=10)
    assert any("started" in m.content for m in started)
    # The start's posts and decision DMs are out: the fake may be idle while the board is drawn, before they go.
    await table.bot.play.publisher.settled()
    await fake.wait_idle()
    return game_id


async def submit_orders(table: Table, player: Any, game_id: int, house: str) -> None:
    fake = table.fake
    form = await (await fake.slash(player, table.channel, "decide")).wait_response(timeout=10)
    receipt = await (await fake.click(player, form, form_control(form, game_id, house))).wait_reply(timeout=10)
    assert any("Recorded" in m.text() for m in receipt), [m.text() for m in receipt]
    await fake.wait_idle()


async def seats_by_user(table: Table, game_id: int) -> dict[int, str]:
    return {u: h for h, u in (await table.service.store.seats(game_id)).items() if u is not None}


async def snapshot(table: Table, game_id: int) -> tuple[str, int, int]:
    row = await table.service.row(game_id)
    return row.state or "", row.version, len(await table.service.store.answers(game_id))


# ----- a seat is a player first -----


async def test_a_creator_who_plays_exports_only_what_every_player_sees(table: Table) -> None:
    fake = table.fake
    game_id = await start_own_game(table)
    seats = await seats_by_user(table, game_id)
    other = table.players[1]
    await submit_orders(table, other, game_id, seats[other.id])  # secret until everyone has given orders
    before = await snapshot(table, game_id)
    reply = await (await fake.slash(table.players[0], table.channel, "mod export")).wait_response()
    assert reply.flags & 64 and "You play in this game" in reply.content
    exported = json.loads(reply.attachments[0].data)
    assert exported["game"]["public"] is True
    assert all("answer" not in entry for entry in exported["log"])  # no one's answers, only public events
    hidden = [a for a in exported["state"]["areas"].values() if a["order"] and a["order"]["house"] == seats[other.id]]
    assert hidden and all(a["order"] == {"house": seats[other.id], "hidden": True} for a in hidden)
    # A moderator who does not play still gets everything.
    full = json.loads(
        (await (await fake.slash(table.moderator, table.channel, "mod export")).wait_response()).attachments[0].data
    )
    assert "public" not in full["game"] and any(e["house"] == seats[other.id] for e in full["log"])
    assert await snapshot(table, game_id) == before


async def test_a_creator_who_plays_cannot_undo_past_the_reveal(table: Table) -> None:
    fake = table.fake
    game_id = await start_own_game(table)
    seats = await seats_by_user(table, game_id)
    for player in table.players[:3]:
        await submit_orders(table, player, game_id, seats[player.id])
    assert (await table.service.load(game_id)).state.orders_revealed
    before = await snapshot(table, game_id)
    creator = table.players[0]
    refused = await (await fake.slash(creator, table.channel, "mod undo")).wait_response()
    assert "You play in this game" in refused.content and "revealed" in refused.content
    assert refused.flags & 64 and not refused.components  # no confirmation button to press
    creator.user.locale = "ru"
    refused_ru = await (await fake.slash(creator, table.channel, "mod undo")).wait_response()
    assert "Вы играете в этой игре" in refused_ru.content
    assert await snapshot(table, game_id) == before
    # A moderator who does not play may, and sees what will be undone.
    ask = await (await fake.slash(table.moderator, table.channel, "mod undo")).wait_response()
    assert "Orders" in ask.content and "Confirm" in ask.content
    await (await fake.click(table.moderator, ask, f"modundo:{game_id}:{before[1]}")).wait_reply()
    assert (await table.service.row(game_id)).version == before[1] - 1
    assert fake.failed_interactions == []


async def test_the_undo_confirmation_shows_what_is_undone_but_no_secret_to_a_player(table: Table) -> None:
    fake = table.fake
    game_id = await start_own_game(table)
    seats = await seats_by_user(table, game_id)
    stark = next(p for p in table.players[:3] if seats[p.id] == "stark")
    if stark is table.players[0]:
        stark = next(p for p in table.players[:3] if p is not table.players[0])
    await submit_orders(table, stark, game_id, seats[stark.id])
    secret = await table.service.store.answers(game_id)
    assert secret[-1].house == seats[stark.id]
    # The moderator who does not play sees the orders themselves.
    shown = await (await fake.slash(table.moderator, table.channel, "mod undo")).wait_response()
    assert "Orders" in shown.content and "hidden" not in shown.content and ": " in shown.content
    area = next(iter(secret[-1].answer["orders"]))
    from app.decisions import area_label

    assert area_label(area, "en") in shown.content
    # The creator, who plays, sees who answered and what kind of decision, not the orders.
    seen = await (await fake.slash(table.players[0], table.channel, "mod undo")).wait_response()
    assert "hidden until the reveal" in seen.content and area_label(area, "en") not in seen.content
    assert seats[stark.id].title() in seen.content


async def test_a_creator_who_plays_cannot_import_a_position(table: Table) -> None:
    fake = table.fake
    game_id = await start_own_game(table)
    before = await snapshot(table, game_id)
    scenario = json.dumps({"players": 3, "power": {"stark": 20}}).encode()
    reply = await (
        await fake.slash(table.players[0], table.channel, "mod import", scenario=("s.json", scenario))
    ).wait_reply(timeout=10)
    assert any("You play in this game" in m.content for m in reply)
    assert await snapshot(table, game_id) == before
    assert fake.failed_interactions == []


# ----- mentions and markdown -----


def bot_messages(table: Table) -> list[Any]:
    return [m for m in table.fake.transcript if m.author.id == table.fake.world.bot.id]


async def test_a_game_name_pings_no_one_and_shows_no_link(table: Table) -> None:
    fake = table.fake
    role = fake.add_role(table.guild, "Everyone-ish")
    name = f"@everyone <@&{role.id}> [click](https://evil.example)"
    closed = table.players[1]
    closed.user.dms_closed = True  # this player is pinged in the channel: the one message meant to ping
    lobby = await (await fake.slash(table.moderator, table.channel, "game new", players=3, name=name)).wait_response()
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    for player in table.players[:3]:
        await (await fake.click(player, lobby, f"lobby:{game_id}:join")).wait_response()
    await (await fake.click(table.moderator, lobby, f"lobby:{game_id}:start")).wait_reply(timeout=10)
    await fake.wait_until(lambda: any("DMs are closed" in m.content for m in bot_messages(table)), timeout=10)
    # The pinned status follows the start's post after a short coalescing window: wait for it, not for a quiet moment.
    await fake.wait_until(lambda: any("📌" in m.content for m in bot_messages(table)), timeout=10)
    await fake.wait_idle()
    await (await fake.slash(table.moderator, table.channel, "game status")).wait_response()
    texts = [(m, text) for m in bot_messages(table) for text in every_text(m)]  # a form's words are text displays
    showing = [(m, text) for m, text in texts if "evil.example" in text]
    assert any("A Game of Thrones" in text for _, text in showing), fake.describe()  # the lobby
    assert any(m.guild_id is None for m, _ in showing) and any("📌" in text for _, text in showing)  # DMs, status
    for _, text in showing:
        assert "@everyone" not in text and f"<@&{role.id}>" not in text
        # Shown as typed, not as a link (inside the DM header's link to the channel "]" is escaped too).
        assert "\\[click]" in text or "\\[click\\]" in text
    for message in bot_messages(table):
        expected = [f"user:{closed.id}"] if "DMs are closed" in message.content else []
        assert message.pings == expected, (message.content, message.pings)
    assert fake.failed_interactions == []


async def test_a_game_name_over_64_characters_is_refused_and_creates_nothing(table: Table) -> None:
    fake = table.fake
    reply = await (
        await fake.slash(table.moderator, table.channel, "game new", players=3, name="x" * 2050)
    ).wait_response()
    assert reply.flags & 64 and "at most 64 characters" in reply.content and "2050" in reply.content
    russian = fake.add_member(table.guild, "ru-mod", locale="ru", manage_guild=True)
    reply_ru = await (await fake.slash(russian, table.channel, "game new", players=3, name="я" * 65)).wait_response()
    assert "не больше 64 символов" in reply_ru.content
    assert await table.service.store.games_in_channel(table.channel.id) == []
    status = await (await fake.slash(table.moderator, table.channel, "game status")).wait_response()
    assert "no game in this channel" in status.content
    assert fake.failed_interactions == []


async def test_typed_orders_that_cannot_be_read_get_a_reply_within_discords_limit(table: Table) -> None:
    fake = table.fake
    game_id = await start_own_game(table)
    seats = await seats_by_user(table, game_id)
    player = table.players[1]
    before = await snapshot(table, game_id)
    text = ", ".join(f"Nowhere{i} **dance** <@&123456789012345678>" for i in range(120))
    reply = await (await fake.slash(player, table.channel, "orders", text=text)).wait_response()
    assert len(reply.content) <= 2000 and "I could not read an order" in reply.content
    assert "<@&" not in reply.content and "\\*\\*dance\\*\\*" in reply.content and reply.pings == []
    assert await snapshot(table, game_id) == before
    assert seats[player.id]
    assert fake.failed_interactions == []


# ----- forms belong to a user -----


def first_select(form: Any) -> tuple[str, str, str]:
    """The first select of a form: its custom id, its selected value and another value it offers."""
    for component in walk(form.components):  # a form is a components-v2 layout: text displays among its rows
        if component["type"] == 3 and len(component["options"]) > 1:
            chosen = next((o["value"] for o in component["options"] if o.get("default")), None)
            other = next(o["value"] for o in component["options"] if o["value"] != chosen)
            return component["custom_id"], str(chosen), other
    raise AssertionError("no select with a choice")


async def test_after_replace_the_old_players_form_changes_nothing(table: Table) -> None:
    fake = table.fake
    game_id = await start_own_game(table)
    seats = await seats_by_user(table, game_id)
    old = table.players[1]
    house = seats[old.id]
    old_form = await (await fake.slash(old, table.channel, "decide")).wait_response(timeout=10)
    newcomer = table.players[4]
    await (await fake.slash(table.moderator, table.channel, "mod replace", house=house, member=newcomer)).wait_reply()
    await fake.wait_idle()
    new_form = await (await fake.slash(newcomer, table.channel, "decide")).wait_response(timeout=10)
    select_id, _chosen, other = first_select(old_form)
    before = await snapshot(table, game_id)
    # The old player's clicks on their old form: a pick, then a submit. Each is refused.
    picked = await (await fake.select(old, old_form, select_id, [other])).wait_reply()
    assert any("Only the player seated for this house" in m.content and m.flags & 64 for m in picked)
    old.user.locale = "ru"
    submitted = await (await fake.click(old, old_form, form_control(old_form, game_id, house))).wait_reply()
    assert any("может только игрок" in m.content for m in submitted), [m.content for m in submitted]
    await fake.wait_idle()
    assert await snapshot(table, game_id) == before
    # The new player's draft was not changed by those clicks: their submit records their own form.
    receipt = await (await fake.click(newcomer, new_form, form_control(new_form, game_id, house))).wait_reply(
        timeout=10
    )
    assert any("Recorded" in m.text() for m in receipt)
    answer = (await table.service.store.answers(game_id))[-1]
    assert answer.user_id == newcomer.id and answer.house == house
    assert fake.failed_interactions == []


# ----- one game per channel -----


async def test_a_second_game_in_a_channel_is_refused_naming_the_first(table: Table) -> None:
    fake = table.fake
    lobby = await (
        await fake.slash(table.moderator, table.channel, "game new", players=3, name="First **one**")
    ).wait_response()
    member = table.players[3]  # a plain member, in the lobby phase
    refused = await (await fake.slash(member, table.channel, "game new", players=4, name="Second")).wait_response()
    assert refused.flags & 64 and "already has a game: First \\*\\*one\\*\\*" in refused.content
    assert "thread" in refused.content
    assert [g.name for g in await table.service.store.games_in_channel(table.channel.id)] == ["First **one**"]
    # The same once the first game runs; and /mod pause still acts on the first game.
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    for player in table.players[:3]:
        await (await fake.click(player, lobby, f"lobby:{game_id}:join")).wait_response()
    await (await fake.click(table.moderator, lobby, f"lobby:{game_id}:start")).wait_reply(timeout=10)
    await fake.wait_idle()
    member.user.locale = "ru"
    refused_ru = await (await fake.slash(member, table.channel, "game new", players=3)).wait_response()
    assert "В этом канале уже есть игра" in refused_ru.content
    assert len(await table.service.store.games_in_channel(table.channel.id)) == 1
    await (await fake.slash(table.moderator, table.channel, "mod pause")).wait_reply()
    assert (await table.service.row(game_id)).status == "paused"
    assert fake.failed_interactions == []


async def test_a_game_cannot_be_created_in_a_dm(table: Table) -> None:
    fake = table.fake
    player = table.players[0]
    refused = await (await fake.slash(player, fake.dm_channel(player), "game new", players=3)).wait_response()
    assert "server channel" in refused.content
    assert await table.service.store.games_in_channel(fake.dm_channel(player).id) == []
    assert await table.service.store.active_games() == []


async def test_replace_refuses_a_member_who_already_holds_a_house(table: Table) -> None:
    fake = table.fake
    game_id = await start_own_game(table)
    seats = await seats_by_user(table, game_id)
    before = await snapshot(table, game_id)
    seats_before = await table.service.store.seats(game_id)
    holder, other = table.players[1], table.players[2]
    refused = await (
        await fake.slash(table.moderator, table.channel, "mod replace", house=seats[other.id], member=holder)
    ).wait_reply()
    house_name = seats[holder.id].title()
    assert any(f"already plays {house_name}" in m.content for m in refused), [m.content for m in refused]
    assert await table.service.store.seats(game_id) == seats_before
    assert await snapshot(table, game_id) == before
    assert fake.failed_interactions == []


# ----- bounded input -----


async def test_a_bad_scenario_file_is_refused_with_a_reason_and_stores_nothing(table: Table) -> None:
    fake = table.fake
    game_id = await start_own_game(table)
    before = await snapshot(table, game_id)
    attempts: list[tuple[bytes, str]] = [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"units": 5}', "could not be used"),
        (b'{"players": 4}', "its houses must be"),
        (b'{"players": ["stark", "lannister", "baratheon", "greyjoy"]}', "its houses must be"),
        (b'{"round": 1e300}', "not a whole number"),
        (b'{"seed": ' + b"9" * 400 + b"}", "out of range"),
        (b'{"power": {"stark": NaN}}', "could not be used"),
        (b"[1, 2]", "JSON object"),
        (b"\xff\xfe not text", "could not be used"),
        (b'{"padding": "' + b"x" * (8 * 1024 * 1024) + b'"}', "at most 256 KB"),
    ]
    for payload, words in attempts:
        reply = await (
            await fake.slash(table.moderator, table.channel, "mod import", scenario=("s.json", payload))
        ).wait_reply(timeout=10)
        texts = [m.content for m in reply]
        assert any(words in text and len(text) <= 2000 for text in texts), (payload[:40], texts)
        assert all(m.flags & 64 for m in reply)
    table.moderator.user.locale = "ru"
    reply = await (
        await fake.slash(table.moderator, table.channel, "mod import", scenario=("s.json", b'{"players": 5}'))
    ).wait_reply(timeout=10)
    assert any("не для этой игры" in m.content and "Старк" in m.content for m in reply), [m.content for m in reply]
    assert await snapshot(table, game_id) == before
    assert fake.failed_interactions == []
    # A good scenario for this game's houses still works.
    reply = await (
        await fake.slash(table.moderator, table.channel, "mod import", scenario=("s.json", b'{"power": {"stark": 9}}'))
    ).wait_reply(timeout=10)
    assert (await table.service.load(game_id)).state.houses["stark"].power == 9


# ----- one error handler -----


async def test_every_failure_is_answered_in_the_users_language_and_logged(table: Table, caplog: Any) -> None:
    """A real storage failure (the database refuses every write) under several commands and buttons: each one gets
    one sentence, none is left "thinking", and the log has the details."""
    fake = table.fake
    game_id = await start_own_game(table)
    before = await snapshot(table, game_id)
    other = fake.add_text_channel(table.guild, "other")
    russian = fake.add_member(table.guild, "ru-player", locale="ru")
    await table.service.store.db.set_read_only(True)
    try:
        made = await (await fake.slash(table.moderator, other, "game new", players=3)).wait_response()
        assert "NOT recorded" in made.content and made.flags & 64
        made_ru = await (await fake.slash(russian, other, "game new", players=3)).wait_response()
        assert "НЕ записано" in made_ru.content
        paused = await (await fake.slash(table.moderator, table.channel, "mod pause")).wait_reply()
        assert any("NOT recorded" in m.content for m in paused)
        seats = await seats_by_user(table, game_id)
        player = table.players[1]
        form = await (await fake.slash(player, table.channel, "decide")).wait_response(timeout=10)
        submitted = await (await fake.click(player, form, form_control(form, game_id, seats[player.id]))).wait_reply()
        assert any("NOT recorded" in m.content for m in submitted)
    finally:
        await table.service.store.db.set_read_only(False)
    await fake.wait_idle()
    assert await snapshot(table, game_id) == before
    assert await table.service.store.games_in_channel(other.id) == []
    assert fake.failed_interactions == []
    failures = [r for r in caplog.records if r.name == "westeros.errors" and r.levelname == "ERROR"]
    assert len(failures) >= 4 and all(r.exc_info for r in failures)


# ----- start answers first -----


async def test_start_answers_the_click_before_the_dms_go_out_on_a_slow_discord(table: Table) -> None:
    fake = table.fake
    lobby = await (await fake.slash(table.moderator, table.channel, "game new", players=6, name="Slow")).wait_response()
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    for player in table.players:
        await (await fake.click(player, lobby, f"lobby:{game_id}:join")).wait_response()
    await fake.wait_idle()
    mark = fake.mark()
    fake.faults.latency = 0.3  # every Discord call takes 300 ms from now on
    start = await fake.click(table.moderator, lobby, f"lobby:{game_id}:start")
    await start.wait_ack(timeout=3)
    assert start.acked_after is not None and start.acked_after < 0.5, start.acked_after
    started = await start.wait_response(timeout=5)
    assert "started" in started.content
    for player in table.players:  # every DM still goes out, one after another at 300 ms a call
        await fake.wait_for_dm(player, since=mark, timeout=20)
    assert (await table.service.row(game_id)).status == "running"
    fake.faults.latency = 0.0
    assert fake.failed_interactions == []
