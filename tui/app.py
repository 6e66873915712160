"""The croupier Textual app: lobby and tables, tabs or tiles, over any :class:`tui.connection.Connection`.

    app = CroupierApp(lambda: SshConnection.open("room.example", 2222, "ana"))
    app.run()

The app never knows the transport. A worker reads the room's messages and hands each to :meth:`dispatch`,
which updates the lobby rows or a :class:`~tui.model.TableModel` and pushes it down into the widgets. When
the connection drops the app says so, reconnects with a growing pause and resyncs (lobby, open tables).
Errors from the room are shown in words; an internal error is logged (``log_path``), never shown as a
traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import re
import signal
import sys
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import BindingType
from textual.containers import Container
from textual.screen import Screen
from textual.theme import Theme
from textual.widgets import Static, Tab, Tabs

from engine.text import clean_value
from tui.connection import Connection
from tui.history_viewer import HandHistoryScreen
from tui.host_screen import HOST_MESSAGES, HostScreen, host_refused, room_message, seat_pending
from tui.keys import LOBBY, TABLE, TABLES, Command, bindings
from tui.model import TableModel
from tui.palette import palette_commands
from tui.screens import AmountScreen, AuthScreen, HelpScreen
from tui.session import Connector, RoomSession
from tui.widgets.key_bar import KeyBar
from tui.widgets.lobby import Lobby
from tui.widgets.table_view import TableView

log = logging.getLogger("croupier.tui")
log.addHandler(logging.NullHandler())  # never Python's last-resort handler: stderr is the player's screen


HIGH_CONTRAST = Theme(
    name="croupier-high-contrast", primary="#ffff00", secondary="#00ffff", accent="#ff00ff",
    foreground="#ffffff", background="#000000", surface="#000000", panel="#202020", boost="#303030",
    success="#00ff00", warning="#ffff00", error="#ff3030", dark=True,
)
FELT = Theme(
    name="croupier-felt", primary="#2e8b57", secondary="#c9a227", accent="#e0c060", foreground="#f0f0e0",
    background="#0b2b1a", surface="#123824", panel="#1b4a31", success="#3cb371", warning="#ffb000",
    error="#ff4040", dark=True,
)
COMPACT_WIDTH = 100
COMPACT_HEIGHT = 32
TILED_FULL_WIDTH = 150  # four tiles of 75 columns and 21 rows or more keep the full table layout
TILED_FULL_HEIGHT = 45
ERROR_TITLES = {
    "auth_required": "password needed", "auth_failed": "not let in", "no_such_table": "no such table",
    "table_full": "table full", "already_seated": "already seated", "not_seated": "not seated",
    "bad_amount": "amount refused", "hand_in_progress": "wait for the hand to end", "table_rule": "table rule",
    "no_hand": "no hand in play", "not_your_turn": "not your turn", "invalid_amount": "amount refused",
    "illegal_action": "not allowed now", "not_dealt_in": "not in this hand", "too_early": "too early",
    "too_late": "too late", "rate_limited": "too fast", "refill_refused": "refill refused",
}
"""Protocol error codes (hosting/PROTOCOL.md "Errors") as the toast's title: players never see the codes."""
RULE_ID = re.compile(r"\s*\(R-[A-Z0-9]+-[0-9A-Z]+\)|\bR-[A-Z0-9]+-[0-9]+\b")


ROOM_CLOSED = "The room has closed (the host stopped it)."


def plain_words(text: str) -> str:
    """A room's text for a player: rule ids (the spec's, for hosts and developers) taken out.

    >>> plain_words("every chip you put into it was returned (R-CRASH-1).")
    'every chip you put into it was returned.'
    """
    return RULE_ID.sub("", text)


def to_player(text: str, me: str) -> str:
    """A room's refusal that names the player in the third person, said to him.

    >>> to_player("alice is in a hand: top up after it ends", "alice")
    'You are in a hand: top up after it ends'
    >>> to_player("alice has no seat at this table", "alice"), to_player("bob has no chips", "alice")
    ('You have no seat at this table', 'bob has no chips')
    """
    for verb, said in (("is", "are"), ("has", "have"), ("was", "were")):
        if me and text.startswith(f"{me} {verb} "):
            return f"You {said} " + text[len(me) + len(verb) + 2:]
    return text


def table_tab_id(table_id: str) -> str:
    return f"tab-{table_id}"


class CroupierApp(App[int]):
    """The player's app. ``connect`` opens (and, after a drop, re-opens) the connection to the room."""

    TITLE = "croupier"
    CSS = """
    Screen { layout: vertical; }
    #tabs { height: 2; }
    .-compact #tabs { height: 1; }
    Tab.-needs-action { background: $warning 50%; text-style: bold; }
    #lobby-pane { height: 1fr; }
    #tables { height: 1fr; }
    #tables > TableView { display: none; }
    #tables > TableView.-active { display: block; }
    .-tiled #tables { layout: grid; grid-size: 2; grid-gutter: 0; }
    .-tiled #tables > TableView { display: block; }
    .-hidden { display: none; }
    #notice { height: auto; background: $error 70%; color: $text; padding: 0 1; text-style: bold; }
    #notice.-none { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = bindings(TABLES)

    def __init__(self, connect: Connector, *, log_path: Path | None = None, theme: str | None = None,
                 four_colour: bool = False, clock: Callable[[], float] = time.monotonic,
                 reconnect: bool = True, start_table: str | None = None) -> None:
        super().__init__()
        self.session = RoomSession(connect, self, reconnect=reconnect)
        self._start_table = start_table  # croupier play: show this table as soon as the room sends it
        self.clock = clock
        self.tiled = False
        self.four_colour = four_colour
        self.internal_errors: list[str] = []
        self.notices: list[str] = []  # every notice shown, in order (tests and the log read them)
        self._notice = ""
        if log_path is not None:
            from hosting.logging_setup import log_file_handler

            handler = log_file_handler(log_path)  # rotated, 0600, no escape sequences (shared by served TUIs)
            log.addHandler(handler)
            log.setLevel(logging.INFO)
            log.propagate = False  # the file has it; nothing goes to the terminal the app draws on
        self.register_theme(HIGH_CONTRAST)
        self.register_theme(FELT)
        self.theme = theme or "croupier-felt"

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

    # --- layout --------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Tabs(Tab("Lobby", id="tab-lobby"), id="tabs")
        yield Static("", id="notice", classes="-none")
        with Container(id="lobby-pane"):
            yield Lobby(id="lobby")
        yield Container(id="tables", classes="-hidden")
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        self._relayout(self.size.width, self.size.height)
        self.query_one("#tables").can_focus = False
        if not self.is_headless:
            # `kill PID` (SIGTERM) ends the app like Ctrl+Q: the terminal is given back as it was
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self.exit)
        self.pump()
        if not self.is_headless:  # the hand evaluators (the player's hand named) built before the first deal
            self.run_worker(lambda: importlib.import_module("engine.showdown"), thread=True, group="preload")
        if self._start_table is not None:
            self.call_after_refresh(self._open_start_table)

    def _open_start_table(self) -> None:
        """``croupier play`` seats the player before the app starts: watch that table to get its state."""
        table_id = self._start_table
        if table_id is not None and table_id not in self.models:
            self._open_table(table_id)
            self.call_after_refresh(self.show_table, table_id)
            self.run_worker(self.send("watch", table=table_id), group="send")

    def on_resize(self, event: Any) -> None:
        self._relayout(event.size.width, event.size.height)

    def _relayout(self, width: int, height: int) -> None:
        # tiles are a quarter of the screen each: they go compact unless the screen holds four full tables
        small = width < COMPACT_WIDTH or height < COMPACT_HEIGHT
        small_tiles = self.tiled and (width < TILED_FULL_WIDTH or height < TILED_FULL_HEIGHT)
        self.screen.set_class(small or small_tiles, "-compact")

    def show_notice(self, text: str) -> None:
        self._notice = text
        notice = self.query_one("#notice", Static)
        notice.update(Text(text))  # plain: a room's words (a close reason…) are never markup such as [link=…]
        notice.set_class(not text, "-none")

    def notify(self, message: str, *, title: str = "", severity: Any = "information", timeout: float | None = None,
               markup: bool = False) -> None:
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

    def connection_lost(self) -> None:
        """The connection dropped: every table's bar greys out until the room is back."""
        for table_id in self.models:
            self._push(table_id)

    def ask_for_gates(self, refusal: str = "") -> None:
        """Ask the player for what the room's ``hello.needs`` lists (password, invite code) and send it."""
        if not self.needs:
            self.notify("This room asks for nothing more: you are in.", timeout=3)
            return
        if isinstance(self.screen, AuthScreen):
            return
        wanted = " and ".join("a password" if need == "password" else "an invite code" for need in self.needs)
        self.show_notice(f"This room asks for {wanted}." + (f" {refusal}." if refusal else ""))
        self.push_screen(AuthScreen(self.room_name, self.needs, refusal, typed=self.session.offered),
                         self._gates_typed)

    def _gates_typed(self, fields: dict[str, str] | None) -> None:
        if fields is None:
            wanted = " and ".join("the password" if need == "password" else "an invite code" for need in self.needs)
            self.show_notice(f"This room asks for {wanted}: press Ctrl+P then \"Enter the room\" to type it, "
                             "or ask the host.")
            return
        self.run_worker(self.session.offer(fields), group="send")

    def _auth_result(self, message: dict[str, Any]) -> None:
        self.session.gates_passed(bool(message.get("ok")))
        if not message.get("ok"):
            reason = str(message.get("reason") or "the room refused that")
            self.ask_for_gates(refusal=f"The room says: {reason}")
            return
        self.show_notice("")
        if message.get("reason"):  # e.g. "your key is now registered for this name"
            self.notify(str(message["reason"]), title=self.room_name or "room", timeout=6)
        self.run_worker(self.session.enter(), group="send")

    # --- messages from the room ----------------------------------------------------------------------

    def dispatch(self, message: dict[str, Any]) -> None:
        """Apply one room message; an internal error is logged and reported, the app keeps running."""
        try:
            self._dispatch(clean_value(message))  # nothing from the wire reaches the screen unclean (engine.text)
        except Exception as problem:
            log.exception("could not handle %s", str(message)[:300])
            self.internal_errors.append(f"{type(problem).__name__}: {problem}")
            self.notify("An internal error happened; it was logged. The table goes on.", severity="error")

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        table_id = message.get("table")
        if kind == "hello":
            self.session.hello(message)
            self.title = f"croupier — {self.room_name}" if self.room_name else "croupier"
            self.sub_title = self.me
            if message.get("motd"):
                self.notify(str(message["motd"]), title=self.room_name)
            if "balance" in message:
                self.query_one(Lobby).balance = f"Balance: {message['balance']} chips"
            known = self.session.known_answers()
            if not self.needs:
                self.run_worker(self.session.enter(), group="send")
            elif known is not None:  # a reconnect: what worked before
                self.run_worker(self.session.offer(known), group="send")
            else:
                self.ask_for_gates()
        elif kind == "auth_result":
            self._auth_result(message)
        elif kind == "lobby":
            rows = [dict(row) for row in message.get("tables", [])]
            self.lobby_rows = {str(row["id"]): row for row in rows}
            self.query_one(Lobby).rows = rows
            for row in rows:
                listed = self.models.get(str(row["id"]))
                if listed is not None:
                    self._describe(listed, row)
                    self._push(listed.table_id)  # the tab's label: the table's name, not its id
            if "balance" in message:
                self.query_one(Lobby).balance = f"Balance: {message['balance']} chips"
        elif kind == "error":
            if not host_refused(self, message):
                self._room_error(message)
        elif kind == "ack":
            if not seat_pending(self, message):
                self._ack(message)
        elif kind in HOST_MESSAGES:  # the host console and the settle-up (tui.host_screen)
            room_message(self, message)
        elif kind == "chat" and table_id is None:
            self.notify(f"{message.get('sender')}: {message.get('text')}", title="lobby chat", timeout=6)
        elif kind == "notice":
            text = str(message.get("text", ""))
            if "cancelled" in text:  # a hand voided by a restart: its badge stops checking
                for opened in self.models.values():
                    for hand in [summary.hand_id for summary in opened.hands if summary.hand_id in text]:
                        if opened.cancel(hand):
                            self._push(opened.table_id)
            self.notify(plain_words(text), title="room", timeout=10)
        elif kind == "seat_available":
            self.notify(f"A seat is free for you at {self._table_name(str(table_id))}: join it from the lobby.",
                        title="waiting list")
        elif kind == "bye":
            if message.get("code") == "room_closed":
                self.session.room_closed = ROOM_CLOSED  # our own words: nothing from the wire reaches the shell
            self.show_notice(f"The room closed the connection: {message.get('reason')}")
        elif kind == "balance":
            self.query_one(Lobby).balance = f"Balance: {message.get('balance')} chips"
        elif isinstance(table_id, str):
            self._table_message(table_id, message)

    def _table_message(self, table_id: str, message: dict[str, Any]) -> None:
        model = self.models.get(table_id)
        if model is None:
            seated_here = any(row.get("name") == self.me for row in message.get("seats", []))
            if message.get("type") != "table" or not seated_here:
                return  # a table we closed; its last messages are not for us
            model = self._open_table(table_id)
            # watched too, like every tab: a seat alone stops hearing the table once it is freed (a leave
            # after the hand), and the tab would freeze on that hand
            self.run_worker(self.send("watch", table=table_id), group="send")
            if table_id == self._start_table:
                self.call_after_refresh(self.show_table, table_id)
        was_waiting = model.needs_action
        model.apply(message, self.clock())
        if table_id in self.session.leaving and not model.seated:
            self.session.leaving.discard(table_id)
            self.close_table(table_id)
            return
        self._send_queued_top_up(model)
        if message.get("type") == "verification_result" and not message.get("ok"):
            self.bell()
            self.notify(model.alarm, title="fairness", severity="error", timeout=30)
        if message.get("type") == "fairness":  # the host's log keeps each served player's own verdicts
            log.info("fairness %s: %s hand %s at %s", "verified" if message.get("ok") else "VIOLATION", self.me,
                     message.get("hand"), table_id)
        if message.get("type") == "fairness" and not message.get("ok"):
            self.bell()
            self.notify(f"Hand {message.get('hand')} at {table_id} failed this client's fairness check.",
                        title="FAIRNESS VIOLATION", severity="error", timeout=30)
        if model.needs_action and not was_waiting and not self.is_visible(table_id):
            self.bell()
            self.notify(f"Your turn at {model.name or table_id} — press N to jump there.", title="your turn",
                        severity="warning")
        self._push(table_id)

    def _room_error(self, message: dict[str, Any]) -> None:
        text = str(message.get("message") or message.get("code") or "the room refused that")
        about = message.get("in_reply_to")
        table_id = str(message.get("table") or self.session.last_table)
        if table_id in self.models and about in ("action", "sit_out", "wait_for_big_blind", "top_up", "chat", "leave"):
            model = self.models[table_id]
            model.error = to_player(text, self.me)
            if about == "action" and message.get("code") in ("invalid_amount", "illegal_action"):
                model.turn_back()  # refused, still my turn: the bar comes back to try again
            self._push(table_id)
        if about == "sit" and table_id in self.models and not self.models[table_id].seated:
            self.models[table_id].error = text
            self._push(table_id)
        code = str(message.get("code", ""))
        stale = self.models.get(table_id)
        if code == "not_seated" and stale is not None and stale.seated:  # our picture of the table is stale
            if about == "leave":
                self.close_table(table_id)  # what the player asked for is already so
                self.run_worker(self.send("lobby"), group="send")
            else:
                self.run_worker(self.send("watch", table=table_id), group="send")  # the room sends it afresh
        if about == "report_hand":
            self.notify(plain_words(text), title="not reported", severity="warning", timeout=8)
            return
        if code == "auth_required":
            self.ask_for_gates()
        self.notify(to_player(plain_words(text), self.me), title=ERROR_TITLES.get(code, "the room refused that"),
                    severity="error", timeout=8)

    def _ack(self, message: dict[str, Any]) -> None:
        about = message.get("in_reply_to")
        table_id = str(message.get("table", ""))
        if about == "leave":
            if message.get("after_hand"):
                self.session.leaving.add(table_id)
                self.notify(f"You will leave {self._table_name(table_id)} after this hand.", title="leave")
            else:
                chips = message.get("chips")
                self.notify(f"You left {self._table_name(table_id)}"
                            + (f" with {chips} chips." if chips is not None else "."))
                self.close_table(table_id)
            self.run_worker(self.send("lobby"), group="send")
        elif about == "report_hand":
            number = message.get("report")
            self.notify(f"Hand {message.get('hand')} reported to the host for review"
                        + (f" (report {number})." if number is not None else "."), title="report")
        elif about == "top_up":
            self.notify(f"Stack at {self._table_name(table_id)}: {message.get('stack')} chips.", title="top-up")
        elif about == "sit":
            self.notify(f"Seated at {self._table_name(table_id)} (seat {int(message.get('seat', 0)) + 1}) "
                        f"with {message.get('stack')}.")
            self.run_worker(self.send("lobby"), group="send")
        elif about == "waiting_list":
            self.notify(f"Waiting list for {self._table_name(table_id)}: position {message.get('position')}.")
        elif about == "refill":
            minutes = max(1, round(float(message.get("arrives_in", 0)) / 60))
            self.notify(f"{message.get('amount')} free chips are on their way: they arrive in about {minutes} min.",
                        title="refill")

    # --- tables --------------------------------------------------------------------------------------

    def _table_name(self, table_id: str) -> str:
        """The table's name for the player (its id only while the lobby has not named it)."""
        model = self.models.get(table_id)
        return (model.name if model is not None else "") or str(self.lobby_rows.get(table_id, {}).get("name")
                                                                 or table_id)

    def _describe(self, model: TableModel, row: dict[str, Any]) -> None:
        model.name = str(row.get("name") or row.get("id"))
        model.game = str(row.get("game") or "")
        model.structure = str(row.get("structure") or "")
        stakes = row.get("stakes") or [0, 0]
        model.stakes = (int(stakes[0]), int(stakes[1]))
        model.max_seats = int(row.get("seats", model.max_seats))
        clock = row.get("clock")
        if isinstance(clock, dict):  # optional: a room that sends its clock lets the bar split off the bank
            model.clock = {str(key): float(value) for key, value in clock.items() if isinstance(value, int | float)}

    def _open_table(self, table_id: str) -> TableModel:
        model = TableModel(table_id, self.me)
        if table_id in self.lobby_rows:
            self._describe(model, self.lobby_rows[table_id])
        self.models[table_id] = model
        view = TableView(table_id, id=f"view-{table_id}")
        view.four_colour = self.four_colour
        self.query_one("#tables").mount(view)
        label = f"{model.name or table_id}"
        self.query_one(Tabs).add_tab(Tab(label, id=table_tab_id(table_id)))
        self.call_after_refresh(self._push, table_id)
        return model

    def view_of(self, table_id: str) -> TableView | None:
        views = self.query(f"#view-{table_id}").results(TableView)
        return next(iter(views), None)

    def _push(self, table_id: str) -> None:
        """Send a table's model down into its view and flag its tab."""
        model = self.models.get(table_id)
        view = self.view_of(table_id)
        if model is None or view is None:
            return
        view.model = model
        tabs = self.query_one(Tabs)
        tab = next(iter(tabs.query(f"#{table_tab_id(table_id)}").results(Tab)), None)
        if tab is not None:
            tab.set_class(model.needs_action, "-needs-action")
            tab.label = ("● " if model.needs_action else "") + (model.name or table_id)

    def close_table(self, table_id: str) -> None:
        self.models.pop(table_id, None)
        view = self.view_of(table_id)
        if view is not None:
            view.remove()
        tabs = self.query_one(Tabs)
        if tabs.query(f"#{table_tab_id(table_id)}"):
            tabs.remove_tab(table_tab_id(table_id))
        if not self.models:
            tabs.active = "tab-lobby"

    def show_table(self, table_id: str, tries: int = 40) -> None:
        """Make ``table_id``'s tab the active one (waiting a moment for a tab that is still being added)."""
        tabs = self.query_one(Tabs)
        if not tabs.query(f"#{table_tab_id(table_id)}"):
            if tries and table_id in self.models:
                self.set_timer(0.05, lambda: self.show_table(table_id, tries - 1))
            return
        tabs.active = table_tab_id(table_id)
        self._show_pane(table_tab_id(table_id))

    def is_visible(self, table_id: str) -> bool:
        """Whether the player can see the table now (its tab is active, or tiles are shown)."""
        active = self.query_one(Tabs).active
        if active == "tab-lobby" or active is None:
            return False
        return self.tiled or active == table_tab_id(table_id)

    @property
    def current_table(self) -> str | None:
        """The table the keys act on: the active tab's (one source of truth — the tab, the highlighted tile,
        the table keys and the palette's table commands all follow it). None in the lobby."""
        active = self.query_one(Tabs).active or ""
        table_id = active.removeprefix("tab-")
        return table_id if active.startswith("tab-") and table_id in self.models else None

    def current_view(self) -> TableView | None:
        """The view of :attr:`current_table` (what the table hotkeys and palette actions act on)."""
        table_id = self.current_table
        return self.view_of(table_id) if table_id is not None else None

    def choose_table(self, table_id: str) -> None:
        """The player went to a table with the mouse (a click in its tile): it becomes the current table,
        without taking the focus from the widget he clicked."""
        if table_id in self.models and self.current_table != table_id:
            self.query_one(Tabs).active = table_tab_id(table_id)
            self._show_pane(table_tab_id(table_id), focus=False)

    @on(Tabs.TabActivated)
    def _tab_changed(self, event: Tabs.TabActivated) -> None:
        # the tab active now, not the event's: a late message must not bring back a pane the player left
        self._show_pane(self.query_one(Tabs).active or event.tab.id or "")

    def _show_pane(self, tab_id: str, focus: bool = True) -> None:
        """Show the pane of ``tab_id`` (lobby or one table), mark it current and focus it.

        Called directly wherever the app moves the tab, not only from ``Tabs.TabActivated``: the pane must
        never lag behind (or miss) the highlighted tab, or the player sees one table while keys go to another.
        """
        lobby = tab_id == "tab-lobby"
        self.query_one("#lobby-pane").set_class(not lobby, "-hidden")
        self.query_one("#tables").set_class(lobby, "-hidden")
        for view in self.query(TableView):
            view.set_class(table_tab_id(view.table_id) == tab_id, "-active")
        if lobby:
            self.query_one("#tables", Container).blur()
            self.call_after_refresh(self._focus_lobby)
        else:
            shown = self.view_of(tab_id.removeprefix("tab-"))
            if shown is not None and focus:
                self.call_after_refresh(self._focus_view, shown)

    def _focus_view(self, view: TableView) -> None:
        """Give the keyboard to ``view`` unless it has it already (a click in its amount box keeps it there)."""
        focused = self.focused
        if view.is_attached and (focused is None or view not in focused.ancestors_with_self):
            view.focus()

    def _focus_lobby(self) -> None:
        from textual.widgets import DataTable

        self.query_one(Lobby).query_one(DataTable).focus()

    # --- requests from widgets -----------------------------------------------------------------------

    @on(Lobby.Chosen)
    def _lobby_choice(self, event: Lobby.Chosen) -> None:
        self.open_table(event.table_id, sit=event.sit)

    @work(group="requests")
    async def open_table(self, table_id: str, sit: bool) -> None:
        """Watch a table (open its tab) and, to join, ask the buy-in and sit down."""
        row = self.lobby_rows.get(table_id, {})
        model = self.models.get(table_id)
        if model is not None and (model.seated or not sit):
            self.show_table(table_id)
            return
        if sit:
            minimum, maximum = (row.get("buy_in") or [1, 1])[:2]
            if row.get("players", 0) >= row.get("seats", 1):
                await self.send("waiting_list", table=table_id, on=True)
                return
            amount = await self.push_screen_wait(AmountScreen(f"Buy-in at {row.get('name', table_id)}",
                                                              int(minimum), int(maximum), int(maximum)))
            if amount is None:
                return
        if model is None:
            self._open_table(table_id)
            await self.send("watch", table=table_id)
        self.show_table(table_id)
        if sit:
            await self.send("sit", table=table_id, buy_in=amount)

    @on(Lobby.Refresh)
    def _refresh_lobby(self) -> None:
        self.run_worker(self.send("lobby"), group="send")

    @on(Lobby.Refill)
    def _refill(self) -> None:
        self.run_worker(self.send("refill"), group="send")  # the room answers ack (on its way) or error (why not)

    @on(TableView.Request)
    def _table_request(self, event: TableView.Request) -> None:
        fields = dict(event.fields)
        model = self.models.get(event.table_id)
        if event.message_type == "leave" and model is not None and not model.seated:
            self.run_worker(self.send("unwatch", table=event.table_id), group="send")
            self.close_table(event.table_id)
            return
        if event.message_type == "action" and model is not None:
            model.answered = model.legal  # kept: a refusal gives the turn back (the room does not ask again)
            model.legal = None  # answered: the bar greys out until the room asks again
            model.error = ""
            self._push(event.table_id)
        self.run_worker(self.send(event.message_type, table=event.table_id, **fields), group="send")

    @on(TableView.SitWanted)
    def _sit_wanted(self, event: TableView.SitWanted) -> None:
        self.open_table(event.table_id, sit=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Table keys are shown for what the current table allows now (I'm back when away, Max or Pot where
        the maximum is not all-in, Sit down and Close when watching)."""
        if action == "table_key" and parameters:
            view = self.current_view()
            if view is not None:
                return view.key_state(str(parameters[0]))
        return True

    @on(TableView.TopUpWanted)
    def _top_up(self, event: TableView.TopUpWanted) -> None:
        self.top_up(event.table_id)

    @work(group="requests")
    async def top_up(self, table_id: str) -> None:
        model = self.models.get(table_id)
        row = self.lobby_rows.get(table_id, {})
        if model is None or model.my_seat is None:
            return
        stack = model.seats[model.my_seat].stack
        maximum = int((row.get("buy_in") or [0, 0])[1])
        if stack >= maximum:
            self.notify(f"Your stack ({stack}) is already at the table maximum ({maximum}).", severity="warning")
            return
        amount = await self.push_screen_wait(AmountScreen("Top-up", 1, maximum - stack, maximum - stack))
        if amount is None:
            return
        if model.in_running_hand:  # the room adds chips only between hands: kept until this one ends
            model.pending_top_up = amount
            self.notify(f"Top-up of {amount} at {self._table_name(table_id)}: added when this hand ends.",
                        title="top-up")
            return
        await self.send("top_up", table=table_id, amount=amount)

    def _send_queued_top_up(self, model: TableModel) -> None:
        if not model.pending_top_up or model.in_running_hand or model.my_seat is None:
            return
        # what the hand brought counts: never past the table's maximum buy-in
        maximum = int((self.lobby_rows.get(model.table_id, {}).get("buy_in") or [0, 0])[1])
        room = maximum - model.seats[model.my_seat].stack if maximum else model.pending_top_up
        amount, model.pending_top_up = min(model.pending_top_up, room), 0
        if amount > 0:
            self.run_worker(self.send("top_up", table=model.table_id, amount=amount), group="send")
        else:
            self.notify(f"No top-up at {self._table_name(model.table_id)}: your stack is at the maximum.",
                        title="top-up")

    # --- app actions ---------------------------------------------------------------------------------

    def waiting_tables(self) -> list[str]:
        return [table_id for table_id, model in self.models.items() if model.needs_action]

    def action_jump(self) -> None:
        """Go to the next table that waits for your action."""
        waiting = self.waiting_tables()
        if not waiting:
            self.notify("No table is waiting for you.", timeout=2)
            return
        current = self.current_view()
        order = list(self.models)
        start = order.index(current.table_id) + 1 if current is not None and current.table_id in order else 0
        ordered = order[start:] + order[:start]
        target = next(table_id for table_id in ordered if table_id in waiting)
        self.show_table(target)  # shows the pane and focuses the table: its keys act there

    def action_toggle_tiles(self) -> None:
        self.tiled = not self.tiled
        self.screen.set_class(self.tiled, "-tiled")
        self._relayout(self.size.width, self.size.height)
        if self.models and self.query_one(Tabs).active == "tab-lobby":
            self.show_table(next(iter(self.models)))

    def action_lobby(self) -> None:
        self.query_one(Tabs).active = "tab-lobby"
        self._show_pane("tab-lobby")
        self.run_worker(self.send("lobby"), group="send")

    def action_toggle_log(self) -> None:
        self.screen.toggle_class("-show-log")

    def action_four_colour(self) -> None:
        self.four_colour = not self.four_colour
        for view in self.query(TableView):
            view.four_colour = self.four_colour
            view.model = view.model
        self.notify("Four-colour deck " + ("on" if self.four_colour else "off"), timeout=2)

    def action_hand_history(self) -> None:
        """The hand-history viewer for the table the keys act on (its last hand first)."""
        view = self.current_view()
        model = self.models.get(view.table_id) if view is not None else None
        if model is None:
            self.notify("Open a table first: the viewer shows that table's hands.", severity="warning", timeout=3)
            return
        self.push_screen(HandHistoryScreen(model, self.four_colour))

    def action_host(self) -> None:
        """The Host screen (tui.host_screen); the room refuses a player who is not a host."""
        if not any(isinstance(screen, HostScreen) for screen in self.screen_stack):
            self.push_screen(HostScreen())

    def action_settle_up(self) -> None:
        self.run_worker(self.send("settle_up"), group="send")

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_next_table(self, step: int) -> None:
        order = ["lobby", *self.models]
        active = (self.query_one(Tabs).active or "tab-lobby").removeprefix("tab-")
        index = order.index(active) if active in order else 0
        target = order[(index + step) % len(order)]
        self.query_one(Tabs).active = f"tab-{target}"
        self._show_pane(f"tab-{target}")

    def report_last_hand(self) -> None:
        """R-AUDIT-1: ask the host to review the last finished hand of the current table."""
        view = self.current_view()
        model = self.models.get(view.table_id) if view is not None else None
        finished = [summary for summary in model.hands if summary.fairness is not None] if model else []
        if not finished:
            self.notify("No finished hand to report at this table yet.", severity="warning")
            return
        # one message, when the room answers: reported (its ack) or why not (its error)
        self.run_worker(self.send("report_hand", hand=finished[-1].hand_id, reason="reported from the table"),
                        group="send")

    def _in_lobby(self, change: Callable[[], None]) -> None:
        """A lobby command from the palette: show the lobby, then change its list."""
        self.query_one(Tabs).active = "tab-lobby"
        self._show_pane("tab-lobby")
        change()

    def action_table_key(self, name: str, *arguments: Any) -> None:
        """A table key (bound in :class:`TableView`): it acts on the current table, never on another one
        that happens to hold the focus."""
        self.table_action(name, *arguments)

    def table_action(self, name: str, *arguments: Any) -> None:
        view = self.current_view()
        if view is None:
            self.notify("Open a table first.", severity="warning", timeout=3)
            return
        getattr(view, f"action_{name}")(*arguments)

    # --- the command palette -------------------------------------------------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield from palette_commands(self)

    def run_command(self, command: Command) -> None:
        """A key map command from the palette: where it acts (the current table, the app, the lobby's list)."""
        if command.where == TABLE:
            self.table_action(command.action, *command.arguments)
        elif command.where == LOBBY:
            lobby = self.query_one(Lobby)
            self._in_lobby(partial(getattr(lobby, f"action_{command.action}"), *command.arguments))
        else:
            getattr(self, f"action_{command.action}")(*command.arguments)

    def filter_lobby(self, selector: str, value: str | None) -> None:
        lobby = self.query_one(Lobby)
        self._in_lobby(partial(lobby.filter_by, selector, value))

    def current_model(self) -> TableModel | None:
        table_id = self.current_table
        return self.models.get(table_id) if table_id is not None else None

    def action_set_theme(self, theme: str) -> None:
        self.theme = theme

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

