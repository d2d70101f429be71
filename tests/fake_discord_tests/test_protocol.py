"""The fake's own protocol behaviour, checked with raw HTTP/websocket clients and small bots."""

from __future__ import annotations

import json
import zlib
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route

from testing.fake_discord import FakeDiscord, FakeDiscordError

from .conftest import Table
from .tiny_bot import TinyBot, tiny_png


def api(fake: FakeDiscord, path: str) -> str:
    return f"{fake.base_url}/api/v10{path}"


def auth(fake: FakeDiscord) -> dict[str, str]:
    return {"Authorization": f"Bot {fake.token}"}


async def test_loopback_only_and_clean_stop() -> None:
    original = Route.BASE
    fake = await FakeDiscord.start()
    assert fake.base_url.startswith("http://127.0.0.1:")
    assert fake.base_url + "/api/v10" == Route.BASE
    await fake.stop()
    await fake.stop()  # idempotent
    assert original == Route.BASE
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.ClientConnectionError):
            await session.get(fake.base_url + "/api/v10/gateway")


async def test_rest_auth_and_unsupported(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(api(fake, "/users/@me")) as response:
            assert response.status == 401
        async with session.get(api(fake, "/users/@me"), headers=auth(fake)) as response:
            assert response.status == 200
            assert response.headers["Content-Type"] == "application/json"
            assert (await response.json())["id"] == str(fake.bot_user.id)
        async with session.get(api(fake, "/voice/regions"), headers=auth(fake)) as response:
            assert response.status == 404
    assert fake.unsupported_requests == ["GET /voice/regions"]
    bot = TinyBot()
    with pytest.raises(discord.LoginFailure):
        await bot.login("not-the-token")
    await bot.close()


async def _receive_json(ws: aiohttp.ClientWebSocketResponse, inflator: Any = None) -> dict[str, Any]:
    msg = await ws.receive(timeout=5)
    if msg.type == aiohttp.WSMsgType.BINARY:
        assert msg.data.endswith(b"\x00\x00\xff\xff")
        return json.loads(inflator.decompress(msg.data))  # type: ignore[no-any-return]
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    return json.loads(msg.data)  # type: ignore[no-any-return]


async def test_gateway_plain_zlib_identify_and_bad_token(fake: FakeDiscord) -> None:
    guild = fake.add_guild("G")
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
            hello = await _receive_json(ws)
            assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
            await ws.send_json({"op": 1, "d": None})
            assert (await _receive_json(ws))["op"] == 11
            await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 1, "properties": {}}})
            closing = await ws.receive(timeout=5)
            assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4004

        url = fake.gateway_url + "?v=10&encoding=json&compress=zlib-stream"
        async with session.ws_connect(url) as ws:
            inflator = zlib.decompressobj()
            assert (await _receive_json(ws, inflator))["op"] == 10
            await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 513, "properties": {}}})
            ready = await _receive_json(ws, inflator)
            assert ready["t"] == "READY" and ready["s"] == 1
            assert ready["d"]["guilds"] == [{"id": str(guild.id), "unavailable": True}]
            assert ready["d"]["application"]["id"] == str(fake.application_id)
            created = await _receive_json(ws, inflator)
            assert created["t"] == "GUILD_CREATE" and created["d"]["name"] == "G"


async def test_gateway_resume_replays_missed_events(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
            await _receive_json(ws)
            await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "properties": {}}})
            ready = await _receive_json(ws)
        session_id = ready["d"]["session_id"]
        assert fake.gateway.dispatch("FAKE_EVENT", {"n": 1}) == 1
        fake.gateway.dispatch("FAKE_EVENT", {"n": 2})
        async with session.ws_connect(ready["d"]["resume_gateway_url"] + "?v=10&encoding=json") as ws:
            await _receive_json(ws)
            await ws.send_json({"op": 6, "d": {"token": fake.token, "session_id": session_id, "seq": 1}})
            replayed = [await _receive_json(ws) for _ in range(3)]
            assert [(p["t"], p["s"]) for p in replayed] == [("FAKE_EVENT", 2), ("FAKE_EVENT", 3), ("RESUMED", 4)]
        async with session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
            await _receive_json(ws)
            await ws.send_json({"op": 6, "d": {"token": fake.token, "session_id": "nope", "seq": 1}})
            assert (await _receive_json(ws)) == {"op": 9, "d": False, "s": None, "t": None}


async def test_interaction_callback_rules(table: Table) -> None:
    fake = table.fake
    fake.interactions.ack_timeout = 0.2
    async with aiohttp.ClientSession() as session:
        commands = [{"name": "ping", "description": "Ping", "type": 1}]
        path = api(fake, f"/applications/{fake.application_id}/commands")
        async with session.put(path, json=commands, headers=auth(fake)) as response:
            assert response.status == 200 and (await response.json())[0]["name"] == "ping"

        first = await fake.slash(table.alice, table.channel, "ping", wait=False)
        hook = api(fake, f"/webhooks/{fake.application_id}/{first.token}")
        async with session.post(hook + "?wait=1", json={"content": "too early"}) as response:
            assert response.status == 404 and (await response.json())["code"] == 10015
        callback = api(fake, f"/interactions/{first.id}/{first.token}/callback?with_response=1")
        body = {"type": 4, "data": {"content": "pong", "flags": 64}}
        async with session.post(callback, json=body) as response:
            data = await response.json()
            assert data["resource"]["message"]["content"] == "pong"
            assert data["interaction"]["response_message_ephemeral"] is True
        async with session.post(callback, json=body) as response:
            assert response.status == 400 and (await response.json())["code"] == 40060
        async with session.patch(hook + "/messages/@original", json={"content": "pong!"}) as response:
            assert response.status == 200
        assert first.response is not None and first.response.content == "pong!" and first.response.ephemeral

        late = await fake.slash(table.alice, table.channel, "ping")
        assert late.failed
        callback = api(fake, f"/interactions/{late.id}/{late.token}/callback")
        async with session.post(callback, json=body) as response:
            assert response.status == 404 and (await response.json())["code"] == 10062
    assert fake.failed_interactions == [late]


async def test_custom_error_fault_and_request_counts(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()) as bot:
        route = f"POST /channels/{table.channel.id}/messages"
        fake.faults.error(route, status=403, code=50013, message="Missing Permissions")
        channel = bot.get_channel(table.channel.id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.Forbidden) as caught:
            await channel.send("nope")
        assert caught.value.code == 50013
        await channel.send("yes")
        assert fake.requests.count(route) == 2
        assert fake.requests.count("/channels/{channel_id}/messages") == 2
        assert fake.requests.counts()["POST /channels/{channel_id}/messages"] == 2
        assert [r.fault for r in fake.requests.matching(route)] == ["error", None]


async def test_a_send_repeated_with_its_enforced_nonce_is_the_first_message(table: Table) -> None:
    """Discord's enforce_nonce (discord.py sends it with every nonce): the same author, channel and nonce within the
    window return the message already created and create nothing; another nonce, another channel or a send after the
    window is a new message."""
    fake = table.fake
    other = fake.add_text_channel(table.guild, "other")
    async with fake.run_bot(TinyBot()) as bot:
        channel = bot.get_channel(table.channel.id)
        elsewhere = bot.get_channel(other.id)
        assert isinstance(channel, discord.TextChannel) and isinstance(elsewhere, discord.TextChannel)
        first = await channel.send("the reveal", nonce="g1v7post0")
        again = await channel.send("the reveal, sent again", nonce="g1v7post0")
        assert again.id == first.id and again.content == "the reveal" and again.nonce == "g1v7post0"
        assert [m.content for m in fake.messages_in(table.channel)] == ["the reveal"]
        assert (await channel.send("another", nonce="g1v7post1")).id != first.id
        assert (await elsewhere.send("the reveal", nonce="g1v7post0")).id != first.id
        fake.world.nonce_window = 0.0  # the window is over: the nonce is free again
        assert (await channel.send("the reveal, later", nonce="g1v7post0")).id != first.id
        assert [m.content for m in fake.messages_in(table.channel)] == ["the reveal", "another", "the reveal, later"]
        with pytest.raises(discord.HTTPException) as caught:
            await channel.send("too long a nonce", nonce="n" * 26)
        assert caught.value.code == 50035


async def test_a_lost_answer_does_the_thing_and_discord_py_retries_it_with_its_nonce(table: Table) -> None:
    """A send Discord did but whose answer was lost (a 500 after creating the message): discord.py sends it again with
    the same nonce, and the channel holds one message."""
    fake = table.fake
    async with fake.run_bot(TinyBot()) as bot:
        route = f"POST /channels/{table.channel.id}/messages"
        rule = fake.faults.lost_answer(route)
        channel = bot.get_channel(table.channel.id)
        assert isinstance(channel, discord.TextChannel)
        message = await channel.send("once")
        assert rule.hits == 1 and [r.status for r in fake.requests.matching(route)] == [500, 200]
        assert [m.content for m in fake.messages_in(table.channel)] == ["once"]
        assert message.id == fake.messages_in(table.channel)[0].id


async def test_private_channel_visibility(table: Table) -> None:
    fake = table.fake
    secret = fake.add_text_channel(table.guild, "stark-orders", private_to=[table.alice])
    async with fake.run_bot(TinyBot()):
        result = await fake.slash(table.alice, secret, "game new", players=3)
        reply = await result.wait_response()
        assert reply in fake.visible_messages(table.alice)
        assert reply not in fake.visible_messages(table.bob)
        with pytest.raises(FakeDiscordError, match="cannot see channel"):
            await fake.slash(table.bob, secret, "game new", players=3)


async def test_guild_added_after_ready_and_guild_commands(fake: FakeDiscord) -> None:
    async with fake.run_bot(TinyBot(sync_on_start=False)) as bot:
        guild = fake.add_guild("Late")
        channel = fake.add_text_channel(guild, "late-game")
        carol = fake.add_member(guild, "carol")
        await fake.wait_until(lambda: bot.get_guild(guild.id), what="GUILD_CREATE")
        await fake.wait_until(lambda: bot.get_channel(channel.id), what="CHANNEL_CREATE")
        target = discord.Object(guild.id)
        bot.tree.copy_global_to(guild=target)
        await bot.tree.sync(guild=target)
        assert fake.registered_commands(guild) != [] and fake.registered_commands() == []
        result = await fake.slash(carol, channel, "game new", players=4)
        assert result.payload["data"]["guild_id"] == str(guild.id)
        assert "players=4" in (await result.wait_response()).content


async def test_autocomplete_and_attachments_in_responses(table: Table) -> None:
    fake = table.fake
    async with fake.run_bot(TinyBot()):
        choices = await fake.autocomplete(table.alice, table.channel, "house", "name", name="gr")
        assert choices == [{"name": "Greyjoy", "value": "Greyjoy"}]
        result = await fake.slash(table.alice, table.channel, "map")
        await fake.wait_idle()
        message = result.response
        assert message is not None and message.content == "map v2"
        assert [a.filename for a in message.attachments] == ["map2.png"]
        assert message.attachments[0].data == tiny_png() + b"v2"
        assert message.history[0]["attachments"] == ["map.png"]


def test_modal_submission_mirrors_labels_and_rows() -> None:
    from testing.fake_discord.components import build_modal_submission

    modal = {
        "custom_id": "m",
        "components": [
            {"type": 18, "label": "Name", "component": {"type": 4, "custom_id": "name", "style": 1}},
            {"type": 1, "components": [{"type": 4, "custom_id": "bio", "required": False, "value": "hi"}]},
            {"type": 18, "label": "Pick", "component": {"type": 3, "custom_id": "pick", "options": [{"value": "x"}]}},
        ],
    }
    submitted = build_modal_submission(modal, {"name": "Ned", "pick": ["x"]})
    assert submitted == [
        {"type": 18, "component": {"type": 4, "custom_id": "name", "value": "Ned"}},
        {"type": 1, "components": [{"type": 4, "custom_id": "bio", "value": "hi"}]},
        {"type": 18, "component": {"type": 3, "custom_id": "pick", "values": ["x"]}},
    ]
    with pytest.raises(FakeDiscordError, match="required"):
        build_modal_submission(modal, {"pick": ["x"]})
    with pytest.raises(FakeDiscordError, match="no inputs"):
        build_modal_submission(modal, {"name": "Ned", "pick": ["x"], "age": "3"})


def test_route_matching() -> None:
    from testing.fake_discord.faults import FaultPlan, route_matches

    template, path = "/channels/{channel_id}/messages", "/channels/5/messages"
    assert route_matches("POST /channels/{channel_id}/messages", "POST", template, path)
    assert route_matches("POST /channels/5/messages", "POST", template, path)
    assert route_matches("/channels/{channel_id}/messages", "GET", template, path)
    assert not route_matches("GET /channels/{channel_id}/messages", "POST", template, path)
    assert not route_matches("POST /channels/6/messages", "POST", template, path)
    plan = FaultPlan()
    rule = plan.rate_limit("POST /channels/5/messages", times=1)
    assert plan.take("POST", template, path) is rule
    assert plan.take("POST", template, path) is None


def test_zstd_stream_encoder_roundtrip() -> None:
    zstandard = pytest.importorskip("zstandard")
    from testing.fake_discord.codec import encoder_for

    encoder = encoder_for("zstd-stream")
    decompressor = zstandard.ZstdDecompressor().decompressobj()
    for text in ('{"op":10}', '{"op":11}'):
        frame = encoder.encode(text)
        assert isinstance(frame, bytes) and decompressor.decompress(frame).decode() == text


def test_a_components_v2_message_keeps_its_rules_on_every_edit() -> None:
    """Discord's "Using Message Components": IS_COMPONENTS_V2 cannot be taken off a message, such a message has no
    content, and its text displays hold 4,000 characters in all."""
    from testing.fake_discord.errors import ApiError
    from testing.fake_discord.models import FLAG_COMPONENTS_V2
    from testing.fake_discord.validation import validate_message

    def refusal(payload: dict[str, Any], **options: Any) -> str:
        with pytest.raises(ApiError) as refused:
            validate_message(payload, **options)
        return json.dumps(refused.value.errors)

    text = {"type": 10, "content": "Winterfell"}
    validate_message({"flags": FLAG_COMPONENTS_V2, "components": [text]})
    # An edit that leaves the flag out still has it: no content beside the components.
    assert "IS_COMPONENTS_V2" in refusal({"content": "Recorded"}, creating=False, existing_flags=FLAG_COMPONENTS_V2)
    validate_message({"components": [text]}, creating=False, existing_flags=FLAG_COMPONENTS_V2)
    long = [{"type": 10, "content": "x" * 2000}, {"type": 10, "content": "y" * 2001}]
    assert "4000" in refusal({"flags": FLAG_COMPONENTS_V2, "components": long})
    assert "4000" in refusal({"components": long}, creating=False, existing_flags=FLAG_COMPONENTS_V2)
