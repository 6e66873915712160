"""Attack pass after issue 25: ``ban --player carl`` kept out the name only. carl's key had a second name,
``carl2``, registered before the ban: it logged straight back in and sat at t1, and a third name registered
with the same key (``carl3``) got in too. A ban of a name now reaches every name of its keys (one key, one
player: the rule the tables and tournaments already follow), online ones are removed at once, and an unban
lifts it for them all."""

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
