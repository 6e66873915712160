"""Issue 25 item 8: the host's watcher, chat and mute settings reach a fast-fold pool's tables and a tournament's
tables (set on ``zoom.1`` or ``zoom``, on ``priv.1`` or ``priv``: kept for the whole pool or tournament, whose tables
come and go); before, ``croupier admin mute zoom.1 …`` was refused as "a tournament's table". And a private
tournament's screen (players, tables, chips) is not for whoever asks without its password."""

from __future__ import annotations

from typing import Any

import pytest

from hosting.client import RequestRefused, RoomClient
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings
from tests.hosting.room_files import block, pool_block, room_block
from tests.hosting.test_host_console import _host
from tests.waiting import until

ROOM = (room_block("moderated", hosts=["ana"], connections_per_minute=1000)
        + pool_block("zoom", fill_seconds=0, action_seconds=120)
        + block("[[tournaments]]", {"id": "priv", "name": "Friends only", "sit_and_go_size": 2, "seats": 2,
                                    "buy_in": 10, "fee": 0, "password": "secret", "levels": "turbo"}))
QUICK = RunnerSettings(commit_seconds=10.0, reveal_seconds=10.0, pause_between_hands=0.0)


async def _chat(client: RoomClient, table: str, text: str) -> str | None:
    await client.send("chat", table=table, text=text)
    reply = await client.wait_for("chat", "error", where=lambda message: message.get("text") == text
                                  or message.get("in_reply_to") == "chat")
    return str(reply["message"]) if reply["type"] == "error" else None


@pytest.mark.timeout(300)
async def test_mute_chat_and_watchers_at_a_pool_and_a_tournament_table(room_with_players: Any) -> None:
    players = await room_with_players(ROOM, host="ana", runner_settings=QUICK)
    running: RunningRoom = players.running
    room = running.room
    ana: RoomClient = await players.login("ana")
    bob, carl, dora = [await players.login(name) for name in ("bob", "carl", "dora")]
    for client in (bob, carl):
        await client.request("sit", table="zoom", buy_in=100)
    table = await until(lambda: next((state.id for state in room.pools["zoom"].tables.values()
                                      if state.engine.hand_running), None), "a pool hand")
    reply = await _host(ana, "mute", table=table, player="bob", on=True)
    assert reply["text"] == "bob muted at zoom"  # the whole pool: his next hand is at another table
    assert await _chat(bob, table, "hi") == "the host muted you at this table"
    assert await _chat(carl, table, "hello") is None
    await _host(ana, "chat", table="zoom", on=False)
    assert await _chat(carl, table, "anyone?") == "the host turned chat off at this table"
    await _host(ana, "spectators", table=table, who="nobody")
    with pytest.raises(RequestRefused) as refused:
        await dora.request("watch", table=table)
    assert refused.value.reply["code"] == "not_allowed"

    for name in ("dora", "erin"):  # the private Sit & Go starts with two: its table priv.1
        client = dora if name == "dora" else await players.login(name)
        await client.request("tournament", action="register", tournament="priv", password="secret")
    await until(lambda: "priv.1" in room.tables, "the tournament's table")
    assert (await _host(ana, "mute", table="priv.1", player="dora", on=True))["text"] == "dora muted at priv"
    assert await _chat(dora, "priv.1", "gl") == "the host muted you at this table"
    assert (await _host(ana, "chat", table="priv", on=False))["text"] == "priv: chat off"


async def test_a_private_tournaments_screen_needs_its_password(room_with_players: Any) -> None:
    players = await room_with_players(ROOM, host="ana", runner_settings=QUICK)
    bob, mallory = [await players.login(name) for name in ("bob", "mallory")]
    ana: RoomClient = await players.login("ana")
    await bob.request("tournament", action="register", tournament="priv", password="secret")

    async def state(client: RoomClient, **fields: Any) -> dict[str, Any]:
        await client.send("tournament", action="state", tournament="priv", **fields)
        reply = await client.wait_for("tournament", "error", where=lambda message: message.get("type") == "tournament"
                                      or message.get("in_reply_to") == "tournament")
        if reply["type"] == "error":
            raise RequestRefused(reply)
        return reply

    hidden = await state(mallory)
    assert hidden["private"] is True and hidden["players"] == [] and hidden["name"] == "Friends only"
    with pytest.raises(RequestRefused) as refused:
        await state(mallory, password="guess")
    assert refused.value.reply["code"] == "wrong_password"
    assert [player["name"] for player in (await state(mallory, password="secret"))["players"]] == ["bob"]
    assert [player["name"] for player in (await state(bob))["players"]] == ["bob"]  # his own tournament
    assert [player["name"] for player in (await state(ana))["players"]] == ["bob"]  # a host
