"""A private tournament's password guessed online, and one key under several names (issue 18, R-TOUR-2), over SSH.

Each connection's error budget was the only bound: 21 guesses per connection, and a new connection (20 logins a
minute from one address) got 21 more — some 400 guesses a minute for one name. Now wrong passwords count per name
and per key across connections (hosting.tournament_guard.PasswordGuard): 3 free, then a doubling wait during
which an answer is refused unchecked, even a right one. Players at the same address (a NAT, a tunnel to
127.0.0.1) with their own keys are not held back by a stranger's guesses.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from hosting.client import RequestRefused, RoomClient
from hosting.config import AccessConfig, RoomConfig
from hosting.errors import RoomError
from hosting.server import RunningRoom
from hosting.tournament_guard import ADDRESS_FREE_GUESSES, PasswordGuard
from tests.hosting.security.helpers import drain
from tests.hosting.tournament_play import sit_and_go


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def private_room() -> RoomConfig:
    return RoomConfig("private room", (), AccessConfig(connections_per_minute=1000),
                      tournaments=(sit_and_go("club", size=6, seats=6, password="friday"),))


async def register(client: RoomClient, password: str) -> str:
    try:
        await client.request("tournament", action="register", tournament="club", password=password)
    except RequestRefused as refused:
        return str(refused.reply["message"])
    return "registered"


async def test_password_guesses_are_bounded_per_name_and_key_across_connections(
        rooms: Any, connect: Any, new_key: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    clock = Clock()
    running: RunningRoom = await rooms(private_room(), clock=clock)
    key = new_key()
    guesser: RoomClient = await connect(running, "mallory", key)
    await guesser.send_raw(b"".join(b'{"v":1,"type":"tournament","action":"register","tournament":"club",'
                                    b'"password":"guess%d"}\n' % index for index in range(200)))
    answers = [message["message"] for message in await drain(guesser, 5.0) if message["type"] == "error"]
    assert answers[:3] == ["this tournament is private: wrong password"] * 3  # 3 free answers checked
    assert answers[3].startswith("too many wrong passwords: try again in")
    assert all(not answer.endswith("wrong password") for answer in answers[3:])  # refused unchecked
    assert sum(1 for record in caplog.records if "wrong password for private tournament club" in
               record.getMessage()) == 3  # the host's log names each checked guess

    # a new connection of the name, another name of the key: still waiting, even with the right password
    again: RoomClient = await connect(running, "mallory", key)
    assert (await register(again, "friday")).startswith("too many wrong passwords")
    other_name: RoomClient = await connect(running, "mallory2", key)
    assert (await register(other_name, "friday")).startswith("too many wrong passwords")

    # a player at the same address with his own key is not held back
    ana: RoomClient = await connect(running, "ana", new_key())
    assert await register(ana, "friday") == "registered"
    assert await register(await connect(running, "bob", new_key()), "thursday") == \
        "this tournament is private: wrong password"

    # his flood spent his name's error budget, whatever the connection (issue 25 item 3): that one was closed
    clock.now += 400  # the wait is over (it doubles up to 300 s), and the budget has refilled
    assert await register(await connect(running, "mallory", key), "friday") == "registered"
    owner = running.room.tournaments.owners["club"]
    assert sorted(entry.player for entry in owner.director.entries.values()) == ["ana", "mallory"]
    assert running.room.store is not None and running.room.store.balance("mallory") == 1000 - 130


async def test_one_key_takes_one_seat_in_a_tournament_whatever_its_names(rooms: Any, connect: Any,
                                                                         new_key: Any) -> None:
    """A key may hold 3 names (``names_per_key``): entering one tournament under two of them would seat one
    player twice (two hands seen at one table, chips passed between them). The second name is refused."""
    running: RunningRoom = await rooms(private_room())
    key = new_key()
    mallory: RoomClient = await connect(running, "mallory", key)
    assert await register(mallory, "friday") == "registered"
    twin: RoomClient = await connect(running, "mallory2", key)
    assert await register(twin, "friday") == \
        "mallory, a name of the same key, has an entry in this tournament: one player, one entry"
    store = running.room.store
    assert store is not None and store.balance("mallory2") == 1000  # nothing paid
    await mallory.request("tournament", action="unregister", tournament="club")
    assert await register(twin, "friday") == "registered"  # his one entry, under the name he likes
    owner = running.room.tournaments.owners["club"]
    assert [entry.player for entry in owner.director.entries.values()] == ["mallory2"]


async def test_registering_and_unregistering_in_a_loop_is_bounded(rooms: Any, connect: Any) -> None:
    """Each register and unregister is a store transaction (ledger rows and the director's state): 2,000 toggles
    in 10 s from one connection wrote 4,000 ledger rows. Each name may now register or unregister 4 times at
    once per tournament, then once every 30 s; sooner is refused (and spends the connection's error budget)."""
    running: RunningRoom = await rooms(private_room())
    mallory: RoomClient = await connect(running, "mallory")
    toggle = (b'{"v":1,"type":"tournament","action":"register","tournament":"club","password":"friday"}\n'
              b'{"v":1,"type":"tournament","action":"unregister","tournament":"club"}\n')
    await mallory.send_raw(toggle * 50)
    seen = await drain(mallory, 3.0)
    done = [message["action"] for message in seen if message["type"] == "ack"]
    assert done == ["register", "unregister"] * 2  # then refused, until the connection's budget is spent
    refusals = [message["message"] for message in seen if message["type"] == "error"]
    assert refusals and all(refusal.startswith("you registered or unregistered too often here: try again in")
                            for refusal in refusals)
    store = running.room.store
    assert store is not None
    await store.flush()
    rows = store.connection.execute("SELECT COUNT(*) FROM ledger WHERE player = 'mallory'").fetchone()[0]
    assert rows == 1 + 4 * 3  # his first 1,000; 2 entries paid and 2 refunded, 3 rows each (buy-in, fee, bounty)
    assert store.balance("mallory") == 1000
    ana: RoomClient = await connect(running, "ana")  # another name is not held back
    assert await register(ana, "friday") == "registered"


async def test_fresh_names_from_one_address_do_not_buy_fresh_guesses(rooms: Any, connect: Any, new_key: Any) -> None:
    """Issue 25 item 7: per name and per key only, 297 fresh names (each with a fresh key) × 3 free guesses made
    891 checked guesses in 30 s from one address. Wrong answers now count per address group too, as the room
    password's do: after ADDRESS_FREE_GUESSES from 127.0.0.1 every answer from there waits, whatever the name."""
    clock = Clock()
    running: RunningRoom = await rooms(private_room(), clock=clock, served_tui=False)
    checked = refused = 0
    for number in range(8):  # 8 fresh names and keys × 3 guesses: 24 answers
        guesser: RoomClient = await connect(running, f"fresh{number}", new_key())
        for attempt in range(3):
            answer = await register(guesser, f"guess{number}.{attempt}")
            checked += answer == "this tournament is private: wrong password"
            refused += answer.startswith("too many wrong passwords: try again in")
        await guesser.close()
    assert (checked, refused) == (ADDRESS_FREE_GUESSES, 24 - ADDRESS_FREE_GUESSES)
    # even the right password waits now, from that address; the room's other players elsewhere are not held back
    assert (await register(await connect(running, "late", new_key()), "friday")).startswith("too many wrong")
    clock.now += 400
    assert await register(await connect(running, "ana", new_key()), "friday") == "registered"


def test_an_ipv6_guesser_counts_once_for_his_whole_64() -> None:
    guard = PasswordGuard()
    answers: list[str] = []
    for number in range(ADDRESS_FREE_GUESSES + 3):  # another address of the same /64, name and key each time
        try:
            guard.check("club", "friday", "nope", f"n{number}", f"key{number}", 10.0, f"2001:db8:1:2::{number:x}")
        except RoomError as refusal:
            answers.append(str(refusal))
    assert answers.count("this tournament is private: wrong password") == ADDRESS_FREE_GUESSES
    assert all(answer.startswith("too many wrong passwords") for answer in answers[ADDRESS_FREE_GUESSES:])
    guard.check("club", "friday", "friday", "ana", "key-ana", 10.0, "2001:db8:1:3::1")  # the next /64: fine
