"""Attack pass after issue 25: ``ban --player carl`` kept out the name only. carl's key had a second name,
``carl2``, registered before the ban: it logged straight back in and sat at t1, and a third name registered
with the same key (``carl3``) got in too; a muted player's second name chatted on at the table. A ban or a mute
of a name now reaches every name of its keys (one key, one player: the rule the tables and tournaments already
follow), online names are removed at once, and an unban lifts it for them all. A host's own name is never
refused by the ban of another name of his key."""

from __future__ import annotations

from typing import Any

import asyncssh
import pytest

from hosting.client import RoomClient
from tests.hosting.test_host_console import ANA, _host, _start


async def test_a_ban_of_a_name_keeps_out_every_name_of_its_key(rooms: Any, connect: Any, new_key: Any) -> None:
    running = await _start(rooms)
    ana: RoomClient = await connect(running, "ana", ANA)
    carls_key = new_key()
    carl: RoomClient = await connect(running, "carl", carls_key)
    carl2: RoomClient = await connect(running, "carl2", carls_key)
    await carl2.request("sit", table="t1", buy_in=100)

    await _host(ana, "ban", player="carl", reason="collusion")
    assert (await carl.wait_for("bye"))["reason"] == "collusion"
    assert (await carl2.wait_for("bye"))["reason"] == "collusion"  # before: carl2 played on
    assert running.room.tables["t1"].engine.seat_of("carl2") is None
    for name in ("carl", "carl2", "carl3"):  # before: carl2 and a new carl3 logged in
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(running, name, carls_key)
    await connect(running, "dora", new_key())  # another key: the room goes on for everyone else

    await _host(ana, "unban", player="carl")
    back: RoomClient = await connect(running, "carl2", carls_key)
    await back.request("sit", table="t1", buy_in=100)


async def test_a_hosts_own_name_is_not_refused_by_a_ban_of_another_name_of_his_key(
        rooms: Any, connect: Any) -> None:
    running = await _start(rooms)
    ana: RoomClient = await connect(running, "ana", ANA)
    await connect(running, "ana_alt", ANA)  # the host tried a second name with her own key
    await _host(ana, "ban", player="ana_alt")
    await _host(ana, "status")  # she is still here and still a host
    await connect(running, "ana", ANA)


async def test_a_mute_reaches_every_name_of_the_muted_players_key(rooms: Any, connect: Any, new_key: Any) -> None:
    running = await _start(rooms)
    ana: RoomClient = await connect(running, "ana", ANA)
    key = new_key()
    mutey: RoomClient = await connect(running, "mutey", key)
    twin: RoomClient = await connect(running, "mutey2", key)
    dora: RoomClient = await connect(running, "dora", new_key())
    for client in (mutey, twin, dora):
        await client.request("watch", table="t1")
    await _host(ana, "mute", table="t1", player="mutey", on=True)
    await twin.send("chat", table="t1", text="twin talking")
    refused = await twin.wait_for("error", "chat")
    assert (refused["type"], refused.get("code")) == ("error", "chat_off")  # before: the table heard him
    await dora.send("chat", table="t1", text="dora talking")  # the others chat on
    heard = await mutey.wait_for("chat")
    assert (heard["sender"], heard["text"]) == ("dora", "dora talking")
