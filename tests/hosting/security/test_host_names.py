"""A host is a name in room.toml's ``hosts``. In an open room the first login with a name registers it, so a
stranger who logs in as ``ana`` before ana does must not get the host console (chips from nothing, kicks, key
resets of other players' names). A room.toml host counts when her name is pinned to her key or was registered
before this run; one first registered tonight is a host once a host says so."""

from __future__ import annotations

import json
from typing import Any

import asyncssh
import pytest

from hosting.admin_socket import ask
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


async def test_a_squatter_on_a_host_name_is_no_host_after_a_restart(rooms: Any, connect: Any, new_key: Any,
                                                                     tmp_path: Any) -> None:
    """Issue 25 item 1: ``hosts = ["boss"]``, boss not registered yet. A stranger logs in as boss first (tonight:
    ``not_host``); after a restart his name was "registered before this run" and he had the console: chips from
    nothing and ``make_host`` for himself, kept. A host name is a host with a pinned key or a key a host vouched
    for (``make_host``), never by being first."""
    data_dir = tmp_path / "kept"
    config = RoomConfig("home game", (TABLE,), hosts=frozenset({"boss"}))
    squatter_key = new_key()
    first: RunningRoom = await rooms(config, data_dir=data_dir, deal=False, served_tui=False)
    squatter: RoomClient = await connect(first, "boss", squatter_key)
    notice = await squatter.wait_for("notice", where=lambda message: "host list" in message.get("text", ""))
    assert "has not confirmed your key" in notice["text"]
    await first.close()

    running: RunningRoom = await rooms(config, data_dir=data_dir, deal=False, served_tui=False)
    squatter = await connect(running, "boss", squatter_key)
    for action, args in (("adjust_balance", {"player": "boss", "amount": 1_000_000, "reason": "mine"}),
                         ("make_host", {"player": "boss"}), ("status", {})):
        with pytest.raises(RequestRefused) as refused:
            await _host(squatter, action, **args)
        assert refused.value.reply["code"] == "not_host"
    assert running.room.store is not None and running.room.store.balance("boss") == 1000
    assert not running.room.console.is_host("boss")
    assert not (data_dir / "host_console.json").exists()  # nothing vouched, nothing kept


async def test_the_host_vouches_once_for_a_host_names_key_and_it_holds_across_restarts(
        rooms: Any, connect: Any, new_key: Any, tmp_path: Any) -> None:
    data_dir = tmp_path / "kept"
    config = RoomConfig("home game", (TABLE,), hosts=frozenset({"boss"}))
    boss_key = new_key()
    first: RunningRoom = await rooms(config, data_dir=data_dir, deal=False, served_tui=False)
    boss: RoomClient = await connect(first, "boss", boss_key)
    with pytest.raises(RequestRefused):
        await _host(boss, "status")
    reply = await ask(data_dir, {"action": "make_host", "player": "boss"})  # croupier admin make-host boss
    assert reply["ok"] and reply["text"] == "boss is now a host"
    assert (await _host(boss, "status"))["hosts"] == ["boss"]
    await first.close()

    running: RunningRoom = await rooms(config, data_dir=data_dir, deal=False, served_tui=False)
    boss = await connect(running, "boss", boss_key)
    await _host(boss, "adjust_balance", player="boss", amount=5, reason="tip jar")
    assert running.room.store is not None and running.room.store.balance("boss") == 1005
    kept = json.loads((data_dir / "host_console.json").read_text())["host_keys"]
    assert kept == {"boss": [normalize_key(boss_key.export_public_key().decode())]}
    # his name with another key (after a key reset, say) is no host: the vouch was for his key
    assert not running.room.console.is_host("boss", new_key().export_public_key().decode())


@pytest.mark.parametrize("look_alike", ["BOSS", "Boss", "b0ss", "HOSTER", "hoster", "H0STER"])
async def test_a_look_alike_of_a_host_name_is_refused_at_registration(rooms: Any, new_key: Any,
                                                                       look_alike: str) -> None:
    config = RoomConfig("home game", (TABLE,), hosts=frozenset({"boss", "Hoster"}))
    running: RunningRoom = await rooms(config, deal=False, served_tui=False)
    with pytest.raises((asyncssh.PermissionDenied, asyncssh.DisconnectError, ConnectionError, OSError)):
        await RoomClient.connect("127.0.0.1", running.port, look_alike, client_keys=[new_key()])
    assert running.room.store is not None and not running.room.store.has_account(look_alike)
    refusal = running.room.gatekeeper.new_name_refusal(look_alike, new_key().export_public_key().decode())
    assert refusal is not None and refusal.endswith("a host of this room: choose another")
