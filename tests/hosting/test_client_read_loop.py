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
