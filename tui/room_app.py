"""The app's ground floor: bound to the player's :class:`~tui.session.RoomSession` (read through properties), it
shows notices and toasts in plain words and never a traceback. :class:`tui.tables_screen.TablesScreen` and
:class:`tui.lobby_screen.LobbyScreen` build on it; :class:`tui.app.CroupierApp` is all of them."""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

from rich.text import Text
from textual import work
from textual.notifications import SeverityLevel
from textual.widgets import Static

from tui.connection import Connection
from tui.model import TableModel
from tui.session import RoomSession
from tui.typeahead import TypeaheadApp

log = logging.getLogger("croupier.tui")
log.addHandler(logging.NullHandler())  # never Python's last-resort handler: stderr is the player's screen


class RoomApp(TypeaheadApp):
    """The app with its session (made by :class:`tui.app.CroupierApp`), its notices and its errors."""

    session: RoomSession
    notices: list[str]  # every notice shown, in order (tests and the log read them)
    internal_errors: list[str]
    _notice: str

    # --- the session's state, read where the screens draw it ------------------------------------------

    @property
    def models(self) -> dict[str, TableModel]:
        return self.session.models

    @property
    def lobby_rows(self) -> dict[str, dict[str, Any]]:
        return self.session.lobby_rows

    @lobby_rows.setter
    def lobby_rows(self, rows: dict[str, dict[str, Any]]) -> None:
        self.session.lobby_rows = rows

    @property
    def me(self) -> str:
        return self.session.me

    @property
    def room_name(self) -> str:
        return self.session.room_name

    @property
    def needs(self) -> list[str]:
        return self.session.needs

    @property
    def sent(self) -> list[dict[str, Any]]:
        return self.session.sent

    @property
    def connected(self) -> asyncio.Event:
        return self.session.connected

    @property
    def connection(self) -> Connection | None:
        return self.session.connection

    @property
    def room_closed(self) -> str | None:
        return self.session.room_closed

    async def send(self, message_type: str, **fields: Any) -> bool:
        """Send to the room; a closed connection is reported, never raised."""
        return await self.session.send(message_type, **fields)

    def show_notice(self, text: str) -> None:
        self._notice = text
        notice = self.query_one("#notice", Static)
        notice.update(Text(text))  # plain: a room's words (a close reason…) are never markup such as [link=…]
        notice.set_class(not text, "-none")

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Show a toast (plain text: room and player words are never markup) and keep it in :attr:`notices`.
        Textual's own toasts (e.g. Ctrl+C's "Press [b]ctrl+q[/b] to quit") keep their markup."""
        markup = markup or str(sys._getframe(1).f_globals.get("__name__", "")).startswith("textual.")
        self.notices.append(f"{title}: {message}" if title else message)
        del self.notices[:-200]
        log.info("notice: %s %s", title, message)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    # --- the connection ------------------------------------------------------------------------------

    @work(exclusive=True, group="connection")
    async def pump(self) -> None:
        """The session: connect, read the room's messages, reconnect (:meth:`tui.session.RoomSession.run`)."""
        await self.session.run()


    # --- never a traceback on the player's screen ----------------------------------------------------

    def _handle_exception(self, error: Exception) -> None:
        log.error("internal error", exc_info=error)
        self.internal_errors.append(f"{type(error).__name__}: {error}")
        if getattr(self, "strict", False):
            super()._handle_exception(error)
            return
        try:
            self.notify("An internal error happened; it was logged.", severity="error")
        except Exception:  # the app is too broken to say so: leave quietly, the log has the details
            self.exit(1)
