"""The room's channel transport (hosting.server.ChannelTransport) coalesces the messages of one loop turn into one
SSH write (issue 20: a write per message was a packet per message), in the order they were sent."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hosting import protocol
from hosting.server import ChannelTransport


class FakeChannel:
    def __init__(self) -> None:
        self.buffered = 0

    def get_write_buffer_size(self) -> int:
        return self.buffered


class FakeStdout:
    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.writes.append(data)


class FakeProcess:
    """The parts of an asyncssh server process the transport uses."""

    def __init__(self) -> None:
        self.channel = FakeChannel()
        self.stdout = FakeStdout()
        self.exited: int | None = None

    def get_extra_info(self, name: str) -> Any:
        return "ana"

    def exit(self, status: int) -> None:
        self.exited = status


async def test_one_write_per_loop_turn_with_every_message_in_order() -> None:
    process = FakeProcess()
    transport = ChannelTransport(process)  # type: ignore[arg-type]
    shared = protocol.shared(protocol.message("table", table="t1", seats=[]))
    for number in range(5):
        transport.send(protocol.pong(number))
    transport.send(shared)
    assert process.stdout.writes == []  # nothing written inside the turn that sent
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert len(process.stdout.writes) == 1
    lines = process.stdout.writes[0].splitlines()
    assert [json.loads(line).get("id") for line in lines] == [0, 1, 2, 3, 4, None]
    assert json.loads(lines[-1])["type"] == "table"
    transport.send(protocol.pong(9))  # a later turn: a write of its own
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert [json.loads(data)["id"] for data in process.stdout.writes[1:]] == [9]


async def test_close_writes_what_is_pending_first() -> None:
    process = FakeProcess()
    transport = ChannelTransport(process)  # type: ignore[arg-type]
    transport.send(protocol.pong(1))
    transport.send(protocol.bye("the room has closed"))
    transport.close("the room has closed")
    assert [json.loads(line)["type"] for line in process.stdout.writes[0].splitlines()] == ["pong", "bye"]
    assert process.exited == 0
    transport.send(protocol.pong(2))  # closed: nothing more goes out
    await asyncio.sleep(0)
    assert len(process.stdout.writes) == 1
