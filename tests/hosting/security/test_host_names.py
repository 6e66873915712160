"""A host is a name in room.toml's ``hosts``. In an open room the first login with a name registers it, so a
stranger who logs in as ``ana`` before ana does must not get the host console (chips from nothing, kicks, key
resets of other players' names). A room.toml host counts when her name is pinned to her key or was registered
before this run; one first registered tonight is a host once a host says so."""

from __future__ import annotations

from typing import Any

import asyncssh
import pytest

from hosting.client import RequestRefused, RoomClient
from hosting.config import AccessConfig, RoomConfig, TableConfig
from hosting.identity import normalize_key
from hosting.server import RunningRoom

TABLE = TableConfig("t1", "Home 1/2", "texas_holdem", "no_limit", 1, 2, 6, 40, 200)


async def _host(client: RoomClient, action: str, **args: Any) -> dict[str, Any]:
    await client.send("host", action=action, args=args)
    reply: dict[str, Any] = await client.wait_for(
        "host_reply", "error", where=lambda message: message.get("type") == "host_reply"
        or message.get("in_reply_to") == "host")
    if reply["type"] == "error":
        raise RequestRefused(reply)
    return reply


async def test_a_stranger_logging_in_first_as_a_room_file_host_gets_no_console(rooms: Any, connect: Any) -> None:
    config = RoomConfig("home game", (TABLE,), hosts=frozenset({"ana"}))
    running: RunningRoom = await rooms(config, deal=False, served_tui=False)
    stranger: RoomClient = await connect(running, "ana")  # ana has not come yet: her name is free
    with pytest.raises(RequestRefused) as refused:
        await _host(stranger, "adjust_balance", player="ana", amount=1_000_000, reason="mine")
    assert refused.value.reply["code"] == "not_host"
    assert running.room.store is not None and running.room.store.balance("ana") == 1000


async def test_a_room_file_host_pinned_to_her_key_is_host_from_her_first_login(rooms: Any, connect: Any) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    access = AccessConfig(pinned_keys={"ana": normalize_key(key.export_public_key().decode())})
    running: RunningRoom = await rooms(RoomConfig("home game", (TABLE,), access, hosts=frozenset({"ana"})),
                                       deal=False, served_tui=False)
    ana: RoomClient = await connect(running, "ana", key)
    assert (await _host(ana, "status"))["hosts"] == ["ana"]


async def test_make_host_names_only_a_player_who_has_logged_in(rooms: Any, connect: Any) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    access = AccessConfig(pinned_keys={"ana": normalize_key(key.export_public_key().decode())})
    running: RunningRoom = await rooms(RoomConfig("home game", (TABLE,), access, hosts=frozenset({"ana"})),
                                       deal=False, served_tui=False)
    ana: RoomClient = await connect(running, "ana", key)
    with pytest.raises(RequestRefused) as refused:
        await _host(ana, "make_host", player="cleo")  # not here yet: whoever registered cleo next would be host
    assert refused.value.reply["code"] == "no_such_player"
    cleo: RoomClient = await connect(running, "cleo")
    await _host(ana, "make_host", player="cleo")  # the host saw her come in
    assert (await _host(cleo, "status"))["hosts"] == ["ana", "cleo"]
