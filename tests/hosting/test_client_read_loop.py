"""One read loop for every client (issue 28): :class:`hosting.client.RoomClient` reads the room's lines for the
bots, ``croupier join`` (over SSH) and the served TUI (over its local socket, tui.connection.StreamConnection);
the TUI's own stream loop is gone. A room that says bye without a reason closed RoomClient's channel with the
reason 'None' (the served TUI's loop said 'the room closed the connection'); the bound on a line is the
transport's, and a line over it ends the connection rather than the reader."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from hosting.client import ConnectionClosed, RoomClient
from tui.connection import ConnectionLost, StreamConnection

HELLO = {"v": 1, "type": "hello", "name": "ana", "room": "home", "room_id": "r1"}
Room = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def line(message: dict[str, object]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def says(*lines: bytes) -> Room:
    """A room that reads the token, writes ``lines`` and closes."""

    async def room(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        for data in lines:
            writer.write(data)
        await writer.drain()
        writer.close()

    return room


@asynccontextmanager
async def serving(tmp_path: Path, room: Room) -> AsyncIterator[str]:
    path = str(tmp_path / "room.sock")
    server = await asyncio.start_unix_server(room, path)
    try:
        yield path
    finally:
        server.close()


async def test_a_bye_without_a_reason_closes_with_words_not_none(tmp_path: Path) -> None:
    async with serving(tmp_path, says(line(HELLO), line({"v": 1, "type": "bye"}))) as path:
        reader, writer = await asyncio.open_unix_connection(path)
        writer.write(b"{}\n")
        client = RoomClient(writer, writer, reader)
        assert (await client.receive())["type"] == "hello"
        assert (await client.receive())["type"] == "bye"
        with pytest.raises(ConnectionClosed, match=r"^the room closed the connection$"):
            await client.receive()
        await client.close()


async def test_the_served_tui_reads_through_the_client_and_keeps_the_rooms_reason(tmp_path: Path) -> None:
    notice = {"v": 1, "type": "notice", "text": "hi"}
    async with serving(tmp_path, says(line(HELLO), line(notice), line({"v": 1, "type": "bye", "reason": "closing"}))) \
            as path:
        connection = await StreamConnection.open_unix(path, "token")
        assert connection.name == "ana"
        assert [(await connection.receive())["type"] for _ in range(3)] == ["hello", "notice", "bye"]
        with pytest.raises(ConnectionLost, match=r"^closing$"):
            await connection.receive()
        with pytest.raises(ConnectionLost, match=r"^closing$"):  # every later read ends the same way
            await connection.receive()
        await connection.close()


async def test_a_line_over_the_bound_ends_the_connection(tmp_path: Path) -> None:
    huge = line({"v": 1, "type": "notice", "text": "x" * StreamConnection.LINE_LIMIT})
    async with serving(tmp_path, says(line(HELLO), huge, line({"v": 1, "type": "notice", "text": "after"}))) as path:
        connection = await StreamConnection.open_unix(path, "token")
        assert (await connection.receive())["type"] == "hello"
        with pytest.raises(ConnectionLost, match="the room closed the connection"):
            await connection.receive()
        await connection.close()


async def test_a_refused_token_is_said(tmp_path: Path) -> None:
    refusal = {"v": 1, "type": "error", "code": "bad_token", "message": "unknown or used session token"}
    async with serving(tmp_path, says(line(refusal))) as path:
        with pytest.raises(ConnectionLost, match="unknown or used session token"):
            await StreamConnection.open_unix(path, "token")


def talks_then(lines: int, every: float, last: dict[str, object]) -> Room:
    """A room that sends a ``pong`` every ``every`` seconds, ``lines`` times, then ``last``, and stays open."""

    async def room(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        writer.write(line(HELLO))
        for _ in range(lines):
            await asyncio.sleep(every)
            writer.write(line({"v": 1, "type": "pong"}))
            await writer.drain()
        writer.write(line(last))
        await writer.drain()
        await reader.read()  # until the client closes

    return room


async def test_a_wait_lasts_while_the_room_keeps_talking_and_fails_when_it_goes_quiet(tmp_path: Path) -> None:
    """Issue 24: a wait failed after a fixed 10 s in all, even while the room's messages kept coming (a slow hand on
    a loaded machine). Now its timeout is a quiet period: any message starts it again; and the client's default is
    its caller's choice (``patience``)."""
    end = {"v": 1, "type": "hand_end", "table": "t1"}
    async with serving(tmp_path, talks_then(12, 0.1, end)) as path:  # 1.2 s of talk, then the awaited message
        reader, writer = await asyncio.open_unix_connection(path)
        writer.write(b"{}\n")
        client = RoomClient(writer, writer, reader)
        assert (await client.wait_for("hand_end", timeout=0.5))["table"] == "t1"
        await client.close()
    async with serving(tmp_path, talks_then(2, 0.1, {"v": 1, "type": "pong"})) as path:  # then silence
        reader, writer = await asyncio.open_unix_connection(path)
        writer.write(b"{}\n")
        client = RoomClient(writer, writer, reader, patience=0.5)
        assert client.patience == 0.5
        started = asyncio.get_running_loop().time()
        with pytest.raises(TimeoutError):
            await client.wait_for("hand_end")  # the client's own patience: 0.5 s of silence
        assert asyncio.get_running_loop().time() - started < 5.0
        with pytest.raises(TimeoutError):  # a bound in all, when the caller wants one
            await client.wait_for("hand_end", timeout=5.0, limit=0.3)
        await client.close()
