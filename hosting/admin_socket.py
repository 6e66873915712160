"""The admin socket: ``croupier admin … --data DIR`` talks to the running room through it (hosting.admin).

A Unix socket, ``admin.sock`` in the room's data directory — a folder only its owner may enter
(:func:`hosting.datadir.prepare` refuses any other) — made 0600, and every connection's peer must be the
room's own user (``SO_PEERCRED``). One JSON object a line each way: a request (hosting.admin_requests) in, the
reply out (``{"ok": true, "text": …}`` or ``{"ok": false, "code": …, "error": …}``). Bounded: a line of at
most :data:`MAX_LINE` bytes, :data:`MAX_CONNECTIONS` at once, each closed after :data:`IDLE_SECONDS` quiet.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from hosting.admin_requests import AdminRefusal, parse_request

SOCKET_FILE: Final = "admin.sock"
MAX_LINE: Final = 16 * 1024
MAX_CONNECTIONS: Final = 4
IDLE_SECONDS: Final = 60.0
security_log = logging.getLogger("croupier.security")
log = logging.getLogger("croupier.room")

Perform = Callable[[dict[str, Any]], dict[str, Any]]
"""A checked request's JSON → the reply (raises :class:`AdminRefusal`)."""


def socket_path(data_dir: Path) -> Path:
    return data_dir / SOCKET_FILE


def own_uid() -> int:
    """The room's user (a function, so a test can play another user)."""
    return os.getuid()


def peer_uid(connection: socket.socket) -> int | None:
    """The user id of the process at the other end (Linux ``SO_PEERCRED``); ``None`` where unknown."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:  # pragma: no cover - not Linux: the folder's and socket's modes still guard it
        return None
    credentials = connection.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    return int(struct.unpack("3i", credentials)[1])


class AdminSocket:
    """The listening socket; :meth:`start` it inside the room's event loop, :meth:`close` when the room goes."""

    def __init__(self, data_dir: Path, perform: Perform) -> None:
        self.path = socket_path(data_dir)
        self.perform = perform
        self._server: asyncio.AbstractServer | None = None
        self._open = 0

    async def start(self) -> None:
        """Listen (a stale socket of a room that died is replaced: the data directory's lock says no other room
        runs here). ``OSError`` if it cannot (e.g. a path over the system's ~107-byte limit)."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        previous = os.umask(0o177)  # created 0600, never briefly open to others
        try:
            self._server = await asyncio.start_unix_server(self._serve, path=str(self.path), limit=MAX_LINE)
        finally:
            os.umask(previous)
        os.chmod(self.path, 0o600)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        raw = writer.get_extra_info("socket")
        uid = peer_uid(raw) if raw is not None else None
        if uid is not None and uid != own_uid():
            security_log.warning("admin socket: refused a connection from user id %d", uid)
            writer.close()
            return
        if self._open >= MAX_CONNECTIONS:
            writer.write(_line({"ok": False, "code": "busy", "error": "too many admin connections: try again"}))
            writer.close()
            return
        self._open += 1
        try:
            while True:
                try:
                    line = await asyncio.wait_for(reader.readline(), IDLE_SECONDS)
                except (ValueError, asyncio.LimitOverrunError):
                    writer.write(_line({"ok": False, "code": "too_long", "error": f"a request is at most {MAX_LINE} "
                                                                                 "bytes"}))
                    break
                except TimeoutError:
                    break
                if not line:
                    break
                writer.write(_line(self.answer(line)))
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self._open -= 1
            writer.close()

    def answer(self, line: bytes) -> dict[str, Any]:
        """One request line → its reply (never raises: a bug is logged and answered with one line)."""
        try:
            data = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            return {"ok": False, "code": "bad_json", "error": "a request is one JSON object on one line"}
        try:
            parse_request(data)  # checked here too, so a bad line never reaches the room
            return {"ok": True, **self.perform(data)}
        except AdminRefusal as refusal:
            return {"ok": False, "code": refusal.code, "error": str(refusal)}
        except Exception:
            log.exception("admin socket: %s failed", str(data)[:200])
            return {"ok": False, "code": "internal_error", "error": "the room could not do that (see host.log)"}


def _line(reply: dict[str, Any]) -> bytes:
    return json.dumps(reply, separators=(",", ":")).encode() + b"\n"


async def ask(data_dir: Path, request: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
    """Send one request to the room running in ``data_dir``; its reply. ``OSError`` when no room answers."""
    reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(str(socket_path(data_dir)),
                                                                         limit=1 << 22), timeout)
    try:
        writer.write(_line(request))
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout)
    finally:
        writer.close()
    if not line:
        raise ConnectionError("the room closed the admin connection without an answer")
    reply: dict[str, Any] = json.loads(line)
    return reply
