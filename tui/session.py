"""The player's session with the room: the connection, its reconnects, what was sent, the room's gates, and
what the player knows of the room (his name, the lobby's rows, the model of each open table).

It draws nothing: it tells its :class:`SessionScreen` (the app) what to show — a notice, a toast, each
message from the room — and the screen decides how. When the connection drops the session says so,
reconnects with a growing pause and, once the room's gates are passed again, resyncs (the lobby and each
open table).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from rich.console import RenderableType
from textual.notifications import SeverityLevel

from engine.text import clean_text
from tui.connection import Connection, ConnectionLost
from tui.model import TableModel
from tui.tournament_book import TournamentBook

log = logging.getLogger("croupier.tui")

Connector = Callable[[], Awaitable[Connection]]
RECONNECT_PAUSES = (0.5, 1.0, 2.0, 4.0, 8.0)


class RoomRefused(ConnectionError):
    """Raised by a connector when the room refused the login in its own words (banned, not on its allow-list):
    connecting again would get the same answer, so the session ends with those words instead of retrying."""


class SessionScreen(Protocol):
    """What the session needs of the screen it drives (:class:`tui.app.CroupierApp`)."""

    def show_notice(self, text: str) -> None: ...

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None: ...

    def dispatch(self, message: dict[str, Any]) -> None: ...

    def connection_lost(self) -> None: ...

    def exit(self, result: int | None = None, return_code: int = 0, message: RenderableType | None = None) -> None: ...


class RoomSession:
    """One player's session with one room. ``connect`` opens (and, after a drop, re-opens) the connection;
    ``reconnect=False`` ends the session with the first drop instead."""

    def __init__(self, connect: Connector, screen: SessionScreen, *, reconnect: bool = True) -> None:
        self._connect = connect
        self.screen = screen
        self.reconnect = reconnect
        self.connection: Connection | None = None
        self.connected = asyncio.Event()
        self.models: dict[str, TableModel] = {}
        self.lobby_rows: dict[str, dict[str, Any]] = {}
        self.tournaments = TournamentBook()  # the room's tournaments as last told (tui.tournament_lobby)
        self.me = ""
        self.room_name = ""
        self.sent: list[dict[str, Any]] = []
        self.received = 0  # messages from the room so far (tests wait while it grows)
        self.last_table: str | None = None  # the table of the last request: an error without one is about it
        self.leaving: set[str] = set()  # tables left "after this hand": closed once the seat is gone
        self.needs: list[str] = []  # the room's gates still to pass (hello.needs): password, invite
        self.credentials: dict[str, str] = {}  # what the room accepted: sent again by itself after a reconnect
        self.offered: dict[str, str] = {}  # sent in the last auth, waiting for its auth_result
        self.resync_wanted = False
        # why the room ended this session for good (its host stopped it, kicked or banned us, refused the login):
        # no reconnecting then, and croupier join says it when it exits
        self.room_closed: str | None = None

    async def run(self) -> None:
        """Connect, hand every message to the screen until the room goes, then reconnect with growing pauses."""
        screen = self.screen
        attempt = 0
        while True:
            try:
                self.connection = await self._connect()
            except RoomRefused as refused:  # a ban or an allow-list: retrying for ever would only knock on it
                self.room_closed = clean_text(str(refused))
                log.warning("the room refused the login: %s", self.room_closed)
                screen.show_notice(self.room_closed)
                screen.exit(return_code=1)
                return
            except Exception as problem:  # every way a connection can fail is shown in words
                pause = RECONNECT_PAUSES[min(attempt, len(RECONNECT_PAUSES) - 1)]
                screen.show_notice(f"Cannot reach the room: {_words(problem)} — retrying in {pause:g}s")
                log.warning("connect failed: %r", problem)
                attempt += 1
                await asyncio.sleep(pause)
                continue
            resync = attempt > 0 or bool(self.models)
            attempt = 0
            screen.show_notice("")
            self.connected.set()
            self.resync_wanted = resync  # done once the room's hello is in and its gates are passed
            try:
                while True:
                    message = await self.connection.receive()
                    self.received += 1
                    screen.dispatch(message)
                    await asyncio.sleep(0)  # let the screen mount and paint between messages
            except ConnectionLost as lost:
                self.connected.clear()
                reason = clean_text(str(lost))
                log.warning("connection lost: %s", reason)
                if self.room_closed is not None:  # stopped, kicked, banned: retrying would never end or undo it
                    screen.show_notice(self.room_closed)
                    screen.exit(0)
                    return
                if "another connection" in reason or not self.reconnect:
                    screen.show_notice(f"Disconnected: {reason}.")
                    if not self.reconnect:
                        screen.exit(0)
                    return
                screen.show_notice(f"Connection lost: {reason} — reconnecting…")
                for model in self.models.values():
                    model.legal = None
                    model.hand_running = False
                screen.connection_lost()
                attempt = 1
                await asyncio.sleep(RECONNECT_PAUSES[0])

    async def send(self, message_type: str, **fields: Any) -> bool:
        """Send to the room; a closed connection is reported, never raised."""
        if self.connection is None:
            self.screen.notify("Not connected to the room yet.", severity="warning")
            return False
        self.sent.append({"type": message_type, **fields})
        if "table" in fields:
            self.last_table = str(fields["table"])
        try:
            await self.connection.send(message_type, **fields)
        except ConnectionLost as lost:
            self.screen.notify(f"Not sent: {lost}", severity="error")
            return False
        return True

    # --- the room's gates (hello.needs) --------------------------------------------------------------

    def hello(self, message: dict[str, Any]) -> None:
        """The room's ``hello``: who we are here, and which gates are still to pass."""
        self.me = str(message.get("name", ""))
        self.tournaments.me = self.me
        self.room_name = str(message.get("room", ""))
        for model in self.models.values():
            model.me = self.me
        self.needs = [str(need) for need in message.get("needs") or []]

    def known_answers(self) -> dict[str, str] | None:
        """After a reconnect, what the room accepted before for every gate it asks now (None: ask the player)."""
        return self.credentials if all(self.credentials.get(need) for need in self.needs) else None

    async def offer(self, fields: dict[str, str]) -> None:
        """Send what the player typed (or what worked before) for the room's gates."""
        self.offered = {need: fields[need] for need in self.needs if fields.get(need)}
        await self.send("auth", **self.offered)

    def gates_passed(self, ok: bool) -> None:
        """The room's ``auth_result``: what was offered is kept (for a reconnect) or forgotten."""
        if not ok:
            self.credentials = {}
            return
        self.credentials = {**self.credentials, **self.offered}
        self.needs = []

    async def enter(self) -> None:
        """The room's gates are passed: the lobby (followed: the room pushes it again whenever it changes), and
        after a reconnect each open table again (the room resends its snapshot)."""
        await self.send("lobby", follow=True)
        if self.resync_wanted:
            self.resync_wanted = False
            for table_id, model in self.models.items():
                model.note("reconnected: the table is back")
                await self.send("watch", table=table_id)


def _words(problem: BaseException) -> str:
    text = str(problem) or type(problem).__name__
    return text.splitlines()[0][:200]
