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
from hosting.identity import key_fingerprint, normalize_key
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


async def test_a_stranger_cannot_register_a_host_name_and_the_real_host_then_gets_in(
        rooms: Any, connect: Any, new_key: Any, tmp_path: Any) -> None:
    """Attack pass 2: ``hosts = ["boss"]``; a stranger with the room password and invite code logged in as boss
    before boss did. He got no host powers, but the name was bound to his key: the real boss was refused until the
    host ran reset-key. Now a host name's first login needs a key a host confirmed; the stranger's binds nothing
    and the host confirms the real boss's key by the fingerprint his refusal showed."""
    data_dir = tmp_path / "kept"
    access = AccessConfig(password="felt", invite_codes=frozenset({"FRIDAY"}))
    config = RoomConfig("home game", (TABLE,), access, hosts=frozenset({"boss"}))
    running: RunningRoom = await rooms(config, data_dir=data_dir, deal=False, served_tui=False)
    stranger_key, boss_key = new_key(), new_key()
    stranger_print = key_fingerprint(stranger_key.export_public_key().decode())
    with pytest.raises(asyncssh.PermissionDenied) as refused:
        stranger: RoomClient = await connect(running, "boss", stranger_key)
        await stranger.pass_gates(password="felt", invite="FRIDAY")  # before: registered boss to his key
    assert str(refused.value.reason) == (
        f"'boss' is a host of this room and the host has not confirmed your key ({stranger_print}): nothing was "
        f"registered. If you are boss, ask the host to run: make-host boss --key {stranger_print}")
    assert running.room.store is not None and not running.room.store.has_account("boss")

    with pytest.raises(asyncssh.PermissionDenied) as refused:
        await connect(running, "boss", boss_key)  # the real boss, first: refused too, his key shown
    boss_print = key_fingerprint(boss_key.export_public_key().decode())
    assert boss_print in str(refused.value.reason)
    reply = await ask(data_dir, {"action": "make_host", "player": "boss"})
    assert not reply["ok"] and stranger_print in reply["error"] and boss_print in reply["error"]
    reply = await ask(data_dir, {"action": "make_host", "player": "boss", "key": boss_print})
    assert reply["ok"], reply
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(running, "boss", stranger_key)  # confirming boss's key confirmed no other
    boss = await connect(running, "boss", boss_key)
    assert boss.hello["needs"] == ["password"]  # the host's word stands for the invite code, not the password
    await boss.pass_gates(password="felt")
    assert (await _host(boss, "status"))["hosts"] == ["boss"]
    assert running.room.store.has_account("boss") and running.room.store.balance("boss") == 1000


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


async def test_the_host_confirms_a_host_names_key_once_and_it_holds_across_restarts(
        rooms: Any, connect: Any, new_key: Any, tmp_path: Any) -> None:
    """Issue 25 item 1: a host name is a host with a pinned key or a key a host confirmed, never by being first:
    a squatter's login is refused before and after a restart, nothing registered, nothing kept."""
    data_dir = tmp_path / "kept"
    config = RoomConfig("home game", (TABLE,), hosts=frozenset({"boss"}))
    boss_key, squatter_key = new_key(), new_key()
    first: RunningRoom = await rooms(config, data_dir=data_dir, deal=False, served_tui=False)
    for key in (squatter_key, boss_key):
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(first, "boss", key)
    fingerprint = key_fingerprint(boss_key.export_public_key().decode())
    reply = await ask(data_dir, {"action": "make_host", "player": "boss", "key": fingerprint})  # croupier admin
    assert reply["ok"] and reply["text"] == f"boss is now a host with key {fingerprint}: his next login with it " \
                                            "comes in"
    boss: RoomClient = await connect(first, "boss", boss_key)
    assert (await _host(boss, "status"))["hosts"] == ["boss"]
    await first.close()

    running: RunningRoom = await rooms(config, data_dir=data_dir, deal=False, served_tui=False)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(running, "boss", squatter_key)
    boss = await connect(running, "boss", boss_key)
    await _host(boss, "adjust_balance", player="boss", amount=5, reason="tip jar")
    assert running.room.store is not None and running.room.store.balance("boss") == 1005
    kept = json.loads((data_dir / "host_console.json").read_text())["host_keys"]
    assert kept == {"boss": [normalize_key(boss_key.export_public_key().decode())]}
    # his name with another key (after a key reset, say) is no host: the vouch was for his key
    assert not running.room.console.is_host("boss", new_key().export_public_key().decode())


async def test_a_pinned_host_stays_host_when_the_allow_line_is_taken_out(
        rooms: Any, connect: Any, new_key: Any, tmp_path: Any) -> None:
    """Found trying the room as a new host: ana pinned her key under ``allow``, logged in (her key registered),
    then took the allow-list out to let bots in and restarted: her login read "ana is on this room's host list, but
    the host has not confirmed your key … ask him to run make-host" — she is the host, and her Host screen said
    "only the room's hosts can do that". The pin was the host's word for that key: it is kept as make-host keeps
    one (a squatter's key is still no host)."""
    data_dir = tmp_path / "kept"
    ana_key = new_key()
    ana_public = normalize_key(ana_key.export_public_key().decode())
    pinned = RoomConfig("home game", (TABLE,), AccessConfig(allow=frozenset({"ana"}), pinned_keys={"ana": ana_public}),
                        hosts=frozenset({"ana"}))
    first: RunningRoom = await rooms(pinned, data_dir=data_dir, deal=False, served_tui=False)
    ana: RoomClient = await connect(first, "ana", ana_key)
    assert (await _host(ana, "status"))["hosts"] == ["ana"]
    await first.close()

    opened = RoomConfig("home game", (TABLE,), hosts=frozenset({"ana"}))  # the allow line taken out
    running: RunningRoom = await rooms(opened, data_dir=data_dir, deal=False, served_tui=False)
    ana = await connect(running, "ana", ana_key)
    await _host(ana, "adjust_balance", player="ana", amount=5, reason="tip jar")  # before: only the room's hosts…
    assert running.room.store is not None and running.room.store.balance("ana") == 1005
    assert not running.room.console.is_host("ana", new_key().export_public_key().decode())


@pytest.mark.parametrize("look_alike", ["BOSS", "Boss", "b0ss", "HOSTER", "hoster", "H0STER", "bo55", "boss_",
                                        "_boss", "b.o.s.s", "8OSS", "B0-55", "h0s7er", "HO5TER."])
async def test_a_look_alike_of_a_host_name_is_refused_at_registration(rooms: Any, new_key: Any,
                                                                       look_alike: str) -> None:
    config = RoomConfig("home game", (TABLE,), hosts=frozenset({"boss", "Hoster"}))
    running: RunningRoom = await rooms(config, deal=False, served_tui=False)
    with pytest.raises((asyncssh.PermissionDenied, asyncssh.DisconnectError, ConnectionError, OSError)):
        await RoomClient.connect("127.0.0.1", running.port, look_alike, client_keys=[new_key()])
    assert running.room.store is not None and not running.room.store.has_account(look_alike)
    refusal = running.room.gatekeeper.new_name_refusal(look_alike, new_key().export_public_key().decode())
    assert refusal is not None and refusal.endswith("a host of this room: choose another")


async def test_a_look_alike_login_reads_why_it_is_refused(rooms: Any, new_key: Any) -> None:
    """Attack pass 2: ``bo55`` and ``boss_`` were accepted beside the host ``boss`` (only case, 0/o and 1/l/I were
    folded), and posed as him in chat."""
    running: RunningRoom = await rooms(RoomConfig("home game", (TABLE,), hosts=frozenset({"boss"})), deal=False,
                                       served_tui=False)
    for look_alike in ("bo55", "boss_"):
        with pytest.raises(asyncssh.PermissionDenied) as refused:
            await RoomClient.connect("127.0.0.1", running.port, look_alike, client_keys=[new_key()])
        assert str(refused.value.reason) == (f"the name {look_alike!r} looks too much like 'boss', a host of this "
                                             "room: choose another")
