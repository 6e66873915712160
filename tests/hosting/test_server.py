"""The room over real SSH on loopback: logins, lobby, seating, chat, watching, bad input (issue 6)."""

from __future__ import annotations

from typing import Any

import asyncssh
import pytest

from hosting.client import ConnectionClosed, RequestRefused, RoomClient
from hosting.config import AccessConfig, RoomConfig, TableConfig, default_room
from hosting.protocol import Limits
from hosting.server import RunningRoom

Rooms = Any
Connect = Any


def _small_room(access: AccessConfig | None = None, seats: int = 2) -> RoomConfig:
    table = TableConfig("duel", "Heads-up 1/2", "texas_holdem", "no_limit", 1, 2, seats, 40, 200)
    return RoomConfig("test room", (table,), access or AccessConfig())


# --- identity ----------------------------------------------------------------------------------------------


async def test_first_login_registers_the_key_and_it_is_kept(room: RunningRoom, connect: Connect,
                                                            new_key: Any) -> None:
    key = new_key()
    first: RoomClient = await connect(room, "ana", key)
    assert first.hello["type"] == "hello" and first.hello["v"] == 1
    assert (first.hello["name"], first.hello["registered"], first.hello["needs"]) == ("ana", True, [])
    assert first.hello["room_id"] == room.room.room_id
    store = room.room.store  # accounts live in the store (issue 7), with the new account's chips (R-PLAY-1)
    assert store is not None
    assert store.keys("ana") == {" ".join(key.export_public_key().decode().split()[:2])}
    assert store.balance("ana") == 1000
    await first.close()
    again: RoomClient = await connect(room, "ana", key)
    assert again.hello["registered"] is False


async def test_another_key_for_a_taken_name_is_refused(room: RunningRoom, connect: Connect, new_key: Any) -> None:
    await connect(room, "ana", new_key())
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(room, "ana", new_key())
    assert list(room.room.gatekeeper.accounts.names()) == ["ana"]


async def test_registration_survives_a_restart(rooms: Rooms, connect: Connect, new_key: Any, tmp_path: Any) -> None:
    key = new_key()
    first = await rooms(data_dir=tmp_path / "kept")
    await connect(first, "bruno", key)
    fingerprint = first.fingerprint
    await first.close()
    second = await rooms(data_dir=tmp_path / "kept")
    assert second.fingerprint == fingerprint  # host key kept in the data dir
    assert second.room.room_id == first.room.room_id
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(second, "bruno", new_key())
    client = await connect(second, "bruno", key)
    assert client.hello["registered"] is False


async def test_bad_names_and_allow_list_are_refused(rooms: Rooms, connect: Connect) -> None:
    running = await rooms(_small_room(AccessConfig(allow=frozenset({"ana"}))))
    await connect(running, "ana")
    for name in ("bruno", "-dash", "x" * 30):
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(running, name)


async def test_room_password_gates_everything_but_auth(rooms: Rooms, connect: Connect) -> None:
    running = await rooms(_small_room(AccessConfig(password="swordfish")))
    client: RoomClient = await connect(running, "ana")
    assert client.hello["needs"] == ["password"] and client.hello["registered"] is False
    with pytest.raises(RequestRefused) as refused:
        await client.request("lobby")
    assert refused.value.reply["code"] == "auth_required"
    assert (await client.request("auth", password="guess"))["ok"] is False
    assert not running.room.gatekeeper.accounts.is_registered("ana")
    result = await client.request("auth", password="swordfish")
    assert result["ok"] is True and "registered" in result["reason"]
    assert running.room.gatekeeper.accounts.is_registered("ana")
    assert len((await client.request("lobby"))["tables"]) == 1


async def test_invite_code_is_needed_to_register_a_new_name(rooms: Rooms, connect: Connect, new_key: Any) -> None:
    running = await rooms(_small_room(AccessConfig(invite_codes=frozenset({"FRIDAY-7"}))))
    squatter: RoomClient = await connect(running, "ana")
    assert squatter.hello["needs"] == ["invite"]
    assert (await squatter.request("auth", invite="nope"))["ok"] is False
    await squatter.close()
    key = new_key()
    owner: RoomClient = await connect(running, "ana", key)  # the name was never registered to the squatter
    assert (await owner.request("auth", invite="FRIDAY-7"))["ok"] is True
    await owner.close()
    returning: RoomClient = await connect(running, "ana", key)
    assert returning.hello["needs"] == []  # registered names need no invite


async def test_connections_per_address_are_rate_limited(rooms: Rooms, connect: Connect) -> None:
    running = await rooms(_small_room(AccessConfig(connections_per_minute=2)))
    await connect(running, "ana")
    await connect(running, "bruno")
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(running, "carla")


# --- lobby, seats, chat, watching --------------------------------------------------------------------------


async def test_lobby_lists_every_table_with_its_statistics(room: RunningRoom, connect: Connect) -> None:
    client: RoomClient = await connect(room, "ana")
    await client.request("sit", table="omaha-1-2", buy_in=150)
    room.room.tables["omaha-1-2"].record_hand(room.room.clock(), 30)
    room.room.tables["omaha-1-2"].record_hand(room.room.clock(), 51)
    tables = {table["id"]: table for table in (await client.request("lobby"))["tables"]}
    assert list(tables) == [table.id for table in default_room().tables]
    assert tables["omaha-1-2"] == {
        "id": "omaha-1-2", "name": "Omaha 1/2 PL", "kind": "cash", "game": "omaha", "structure": "pot_limit",
        "stakes": [1, 2],
        "buy_in": [80, 200], "players": 1, "seats": 6, "average_pot": 40, "hands_per_hour": 2, "waiting": 0,
        "watchers": 0, "clock": {"action_seconds": 20.0, "time_bank_seconds": 60.0},
    }
    assert tables["holdem-5-10"]["seats"] == 9 and tables["holdem-5-10"]["players"] == 0


async def test_sitting_top_up_waiting_list_and_leaving(rooms: Rooms, connect: Connect) -> None:
    running = await rooms(_small_room(), deal=False)  # seats only: no hand starts under our feet
    ana: RoomClient = await connect(running, "ana")
    bruno: RoomClient = await connect(running, "bruno")
    carla: RoomClient = await connect(running, "carla")
    assert (await ana.request("sit", table="duel", buy_in=100, seat=1))["seat"] == 1
    with pytest.raises(RequestRefused, match="seat 1 is taken by ana"):
        await bruno.request("sit", table="duel", buy_in=100, seat=1)
    with pytest.raises(RequestRefused, match="the maximum buy-in is 200 chips: buy-in of 500 would make 500"):
        await bruno.request("sit", table="duel", buy_in=500)
    assert (await bruno.request("sit", table="duel", buy_in=40))["seat"] == 0
    with pytest.raises(RequestRefused) as full:
        await carla.request("sit", table="duel", buy_in=40)
    assert full.value.reply["code"] == "table_full"
    assert (await carla.request("waiting_list", table="duel", on=True))["position"] == 1
    assert (await bruno.request("top_up", table="duel", amount=160))["stack"] == 200
    with pytest.raises(RequestRefused, match="top-up of 1 would make 201"):
        await bruno.request("top_up", table="duel", amount=1)
    assert (await ana.request("leave", table="duel"))["chips"] == 100
    offer = await carla.wait_for("seat_available")
    assert (offer["table"], offer["seat"]) == ("duel", 1)
    assert (await carla.request("sit", table="duel", buy_in=60))["seat"] == 1
    state = await bruno.wait_for("table", where=lambda message: len(message["seats"]) == 2
                                 and message["seats"][1]["name"] == "carla")
    assert state["waiting"] == [] and [seat["stack"] for seat in state["seats"]] == [200, 60]
    with pytest.raises(RequestRefused) as unseated:
        await ana.request("sit_out", table="duel", on=True)
    assert unseated.value.reply["code"] == "not_seated"
    assert (await bruno.request("wait_for_big_blind", table="duel", on=True))["on"] is True


async def test_unknown_table_is_named_in_the_error(room: RunningRoom, connect: Connect) -> None:
    client: RoomClient = await connect(room, "ana")
    with pytest.raises(RequestRefused, match="there is no table 'nowhere'") as refused:
        await client.request("watch", table="nowhere")
    assert refused.value.reply["code"] == "no_such_table"


async def test_lobby_and_table_chat_reach_the_right_people(rooms: Rooms, connect: Connect) -> None:
    running = await rooms(_small_room())
    ana: RoomClient = await connect(running, "ana")
    bruno: RoomClient = await connect(running, "bruno")
    carla: RoomClient = await connect(running, "carla")
    await ana.send("chat", text="hello room")
    for client in (ana, bruno, carla):
        said = await client.wait_for("chat")
        assert (said["sender"], said["text"], said.get("table")) == ("ana", "hello room", None)
    with pytest.raises(RequestRefused, match="sit at or watch duel"):
        await carla.request("chat", table="duel", text="hi")
    await ana.request("sit", table="duel", buy_in=100)
    await bruno.request("watch", table="duel")
    await bruno.send("chat", table="duel", text="gl \x1b[2Jhf\x07")
    for client in (ana, bruno):
        said = await client.wait_for("chat", where=lambda message: message.get("table") == "duel")
        assert (said["sender"], said["text"]) == ("bruno", "gl hf")  # the whole escape sequence is dropped
    await carla.request("ping", id=5)  # carla heard nothing of the table chat
    assert not [message for message in carla.received if message["type"] == "chat" and message.get("table")]


async def test_watchers_get_the_table_state(rooms: Rooms, connect: Connect) -> None:
    running = await rooms(_small_room())
    ana: RoomClient = await connect(running, "ana")
    spectator: RoomClient = await connect(running, "zoe")
    await spectator.request("watch", table="duel")
    await ana.request("sit", table="duel", buy_in=77)
    state = await spectator.wait_for("table", where=lambda message: bool(message["seats"]))
    assert state["seats"][0]["name"] == "ana" and state["seats"][0]["stack"] == 77
    await spectator.request("unwatch", table="duel")
    assert "zoe" not in running.room.tables["duel"].watchers


async def test_in_hand_messages_without_a_hand_get_no_hand(rooms: Rooms, connect: Connect) -> None:
    running = await rooms(_small_room())
    ana: RoomClient = await connect(running, "ana")
    with pytest.raises(RequestRefused) as refused:
        await ana.request("action", table="duel", hand="h1", kind="fold")
    assert refused.value.reply["code"] == "no_hand"


async def test_a_second_login_replaces_the_first(room: RunningRoom, connect: Connect, new_key: Any) -> None:
    key = new_key()
    first: RoomClient = await connect(room, "ana", key)
    second: RoomClient = await connect(room, "ana", key)
    bye = await first.wait_for("bye")
    assert "another connection" in bye["reason"]
    assert (await second.request("ping", id=1))["id"] == 1


# --- bad input ---------------------------------------------------------------------------------------------


async def test_malformed_unknown_and_oversized_messages_get_errors_and_the_room_keeps_running(
        room: RunningRoom, connect: Connect) -> None:
    client: RoomClient = await connect(room, "mallory")
    other: RoomClient = await connect(room, "ana")
    await client.send_raw(b"{nope\n")
    assert (await client.wait_for("error"))["code"] == "bad_json"
    await client.send_raw(b'{"v":1,"type":"shuffle_deck"}\n')
    assert (await client.wait_for("error"))["code"] == "unknown_type"
    await client.send_raw(b'{"v":1,"type":"sit","table":"holdem-1-2","buy_in":"all"}\n')
    reply = await client.wait_for("error")
    assert (reply["code"], reply["field"]) == ("bad_field", "buy_in")
    await client.send_raw(b'{"v":1,"type":"chat","text":"' + b"a" * 20_000 + b'"}\n')
    assert (await client.wait_for("error"))["code"] == "line_too_long"
    await client.send_raw(b"\xff\xfe\n")
    assert (await client.wait_for("error"))["code"] == "bad_utf8"
    assert len((await client.request("lobby"))["tables"]) == 6
    assert len((await other.request("lobby"))["tables"]) == 6


async def test_repeated_abuse_disconnects_only_the_abuser(rooms: Rooms, connect: Connect) -> None:
    running = await rooms(limits=Limits(error_burst=5, errors_per_second=0.0))
    mallory: RoomClient = await connect(running, "mallory")
    ana: RoomClient = await connect(running, "ana")
    await mallory.send_raw(b"junk\n" * 20)
    bye = await mallory.wait_for("bye")
    assert "too many bad messages" in bye["reason"]
    with pytest.raises(ConnectionClosed):
        while True:
            await mallory.receive(timeout=5)
    assert "mallory" not in running.room.sessions
    assert (await ana.request("ping", id=2))["id"] == 2


async def test_flood_is_rate_limited(rooms: Rooms, connect: Connect) -> None:
    running = await rooms(limits=Limits(message_burst=5, messages_per_second=0.001, error_burst=100))
    client: RoomClient = await connect(running, "flood")
    await client.send_raw(b'{"v":1,"type":"ping"}\n' * 8)
    replies = [await client.wait_for("pong", "error") for _ in range(8)]
    assert [reply["type"] for reply in replies].count("pong") == 5
    assert {reply.get("code") for reply in replies if reply["type"] == "error"} == {"rate_limited"}


async def test_shell_requests_are_told_to_use_the_subsystem(room: RunningRoom, new_key: Any) -> None:
    async with asyncssh.connect("127.0.0.1", room.port, username="ana", client_keys=[new_key()],
                                known_hosts=None, agent_path=None, config=[]) as connection:
        result = await connection.run("ls", check=False)
    assert result.exit_status == 1 and "croupier" in str(result.stderr)


# --- the bank: balance and play-money refills (R-PLAY-1) ---------------------------------------------------


async def test_balance_in_hello_and_lobby_and_a_refill_arrives_after_its_delay(rooms: Rooms,
                                                                               connect: Connect) -> None:
    from engine.bankroll import PlayMoneyPolicy

    running: RunningRoom = await rooms(_small_room(), deal=False)
    client: RoomClient = await connect(running, "ana")
    assert client.hello["balance"] == 1000
    await client.request("sit", table="duel", buy_in=200)
    assert (await client.request("lobby"))["balance"] == 800
    with pytest.raises(RequestRefused, match="a refill needs fewer than 50 credits; ana has 1000 \\(800 in the "
                                             "account, 200 at tables\\)"):
        await client.request("refill")
    running.room.play_money = PlayMoneyPolicy(refill_allowed_below=5_000, refill_delay_seconds=0.2)
    running.room._bank_accounts.clear()
    reply = await client.request("refill")
    assert (reply["type"], reply["amount"], reply["arrives_in"]) == ("ack", 150, 0.2)
    with pytest.raises(RequestRefused, match="a refill is already on its way: it arrives in about 1 min"):
        await client.request("refill")
    arrived = await client.wait_for("balance", timeout=5)
    assert (arrived["balance"], arrived["reason"]) == (950, "refill")
    assert (await client.request("lobby"))["balance"] == 950
    await client.request("refill")
    assert (await client.wait_for("balance", timeout=5))["balance"] == 1100
    with pytest.raises(RequestRefused, match="at most 2 refills a day: try again tomorrow"):
        await client.request("refill")


async def test_a_room_without_a_bank_says_so(room: RunningRoom, connect: Connect) -> None:
    room.room.store, store = None, room.room.store
    try:
        client: RoomClient = await connect(room, "bea")
        assert "balance" not in client.hello
        with pytest.raises(RequestRefused, match="this room keeps no balances"):
            await client.request("refill")
    finally:
        room.room.store = store
