"""JSON may spell a lone UTF-16 surrogate (``"\\ud800"``): Python's json reads it into a string no UTF-8 encoder
takes. Such a line must be refused like any bad line — a clear error, the connection kept, nothing stored or
relayed to another player — not break the room's read of that connection."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hosting.client import RoomClient
from hosting.protocol import ProtocolError, parse_message
from hosting.server import RunningRoom

LINES = [
    b'{"v":1,"type":"sit","table":"t1","buy_in":"\\ud800"}',  # a wrong type holding one: msgspec's error broke
    b'{"v":1,"type":"chat","text":"hi \\udc00"}',  # text to every player and the database
    b'{"v":1,"type":"hello","client":"\\ud83d"}',
]


@pytest.mark.parametrize("line", LINES)
def test_a_lone_surrogate_is_a_protocol_error(line: bytes) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_message(line)
    assert refused.value.code == "bad_json"


def test_a_surrogate_pair_is_one_character() -> None:
    message: Any = parse_message(b'{"v":1,"type":"chat","text":"nice \\ud83d\\ude00"}')
    assert message.text == "nice \U0001F600"


async def test_lone_surrogates_over_ssh_get_errors_and_the_connection_goes_on(rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(deal=False, served_tui=False)
    ana: RoomClient = await connect(running, "ana")
    mallory: RoomClient = await connect(running, "mallory")
    for line in LINES:
        await mallory.send_raw(line + b"\n")
    await mallory.send("ping", id=7)
    errors = [await mallory.wait_for("error") for _ in LINES]
    assert {error["code"] for error in errors} == {"bad_json"}
    pong = await mallory.wait_for("pong")
    assert pong["id"] == 7  # the same connection, still read
    await ana.send("ping", id=8)
    assert (await ana.wait_for("pong"))["id"] == 8
    await asyncio.sleep(0.1)
    assert not [message for message in ana.received if message.get("type") == "chat"]
