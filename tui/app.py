"""The croupier Textual app: lobby and tables, tabs or tiles, over any :class:`tui.connection.Connection`.

    app = CroupierApp(lambda: SshConnection.open("room.example", 2222, "ana"))
    app.run()

The app never knows the transport. Its parts:

- :class:`tui.session.RoomSession` — the connection, its reconnects and resync, the room's gates, and what
  the player knows of the room (the lobby rows, each table's :class:`~tui.model.TableModel`);
- :class:`tui.room_app.RoomApp` — the app bound to its session: notices and toasts in words, never a traceback;
- :class:`tui.tables_screen.TablesScreen` — the tables (tabs or tiles) and their keys;
- :class:`tui.lobby_screen.LobbyScreen` — the lobby and what is asked from it;
- :mod:`tui.palette` and :mod:`tui.keys` — the command palette and the one key map;
- this module — the layout, and each message from the room read (:meth:`CroupierApp.dispatch`) into the
  session's state and the screen.

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
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult, SystemCommand
from textual.binding import BindingType
from textual.containers import Container
from textual.screen import Screen
from textual.theme import Theme
from textual.widgets import Static, Tab, Tabs

from engine.text import clean_value
from hosting import protocol
from tui.host_screen import HOST_MESSAGES, HostScreen, host_refused, room_message, seat_pending
from tui.keys import LOBBY, TABLE, TABLES, TOURNAMENT, Command, bindings
from tui.notes import PlayerNotes
from tui.palette import palette_commands
from tui.presets import BetPresets
from tui.results import ResultBook, TableResult, chips_of, farewell, night_words, table_words
from tui.room_app import log
from tui.screens import AuthScreen, BetSizesScreen, HelpScreen, ResultsScreen
from tui.session import Connector, RoomSession
from tui.tournament_lobby import TOURNAMENT_MESSAGES, TournamentLobby
from tui.widgets.key_bar import KeyBar
from tui.widgets.lobby import Lobby

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
ERROR_TITLES = {
    "auth_required": "password needed", "auth_failed": "not let in", "no_such_table": "no such table",
    "table_full": "table full", "already_seated": "already seated", "not_seated": "not seated",
    "bad_amount": "amount refused", "hand_in_progress": "wait for the hand to end", "table_rule": "table rule",
    "no_hand": "no hand in play", "not_your_turn": "not your turn", "invalid_amount": "amount refused",
    "illegal_action": "not allowed now", "not_dealt_in": "not in this hand", "too_early": "too early",
    "too_late": "too late", "rate_limited": "too fast", "refill_refused": "refill refused",
    "tournament_rule": "tournament", "no_such_tournament": "no such tournament", "wrong_password": "wrong password",
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


class CroupierApp(TournamentLobby):
    """The player's app. ``connect`` opens (and, after a drop, re-opens) the connection to the room."""

    room_notes = False
    """Whether the room keeps this player's notes (a served screen, which writes no file: tui.served)."""

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
                 reconnect: bool = True, start_table: str | None = None, notes: PlayerNotes | None = None,
                 bet_presets: BetPresets | None = None) -> None:
        super().__init__()
        self.notes = notes if notes is not None else PlayerNotes()  # a served screen: the room keeps them
        # a served screen writes no file: its bet sizes last the session (tui.presets)
        self.bet_presets = bet_presets if bet_presets is not None else BetPresets()
        self._notes_asked = False
        self.session = RoomSession(connect, self, reconnect=reconnect)
        self._start_table = start_table  # croupier play: show this table as soon as the room sends it
        self.clock = clock
        self.tiled = False
        self.four_colour = four_colour
        self.table_views = {}
        self.internal_errors: list[str] = []
        self.pool_ids: set[str] = set()  # the fast-fold pools of the lobby: their tables come and go (R-FAST-1)
        self.notices: list[str] = []  # every notice shown, in order (tests and the log read them)
        self.results = ResultBook()  # what you brought to each table and took away (tui.results)
        self._leave_asked: set[str] = set()  # tables (pools) whose leave ack will say the result
        self._stood_up: set[str] = set()
        """Tables the room said we left (``table_left``) and we have not sat at since: a table state showing us
        seated there is one sent before (the room closing: his seat kept for its next start), no new sitting."""
        self._unsaid: dict[str, TableResult] = {}  # sittings ended and not yet told
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
        self.start_tournament_clock()
        self.set_interval(1.0, self._warn_away)
        if not self.is_headless:  # the hand evaluators (the player's hand named) built before the first deal
            self.run_worker(lambda: importlib.import_module("engine.showdown"), thread=True, group="preload")
        if self._start_table is not None:
            self.call_after_refresh(self._open_start_table)

    def _warn_away(self) -> None:
        """An away (or sitting-out) player is told, with the bell, a minute before the room gives up his seat
        (it did so silently: found at the practice table, ~8 minutes after he went away)."""
        for table_id, model in list(self.models.items()):
            words = model.away_warning(self.clock())
            if words is not None:
                self.bell()
                self.notify(f"{model.name or table_id}: {words}", title="your seat", severity="warning", timeout=30)
                self._push(table_id)

    def _open_start_table(self) -> None:
        """``croupier play`` seats the player before the app starts: watch that table to get its state."""
        table_id = self._start_table
        if table_id is not None and table_id not in self.models:
            self._open_table(table_id)
            self.call_after_refresh(self.show_table, table_id)
            self.run_worker(self.send("watch", table=table_id), group="send")

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
            pools = [dict(row) for row in message.get("pools", [])]  # fast-fold pools (R-FAST-1)
            self.pool_ids = {str(row["id"]) for row in pools}
            rows = [dict(row) for row in message.get("tables", [])] + pools
            self.lobby_rows = {str(row["id"]): row for row in rows}
            self.query_one(Lobby).rows = rows
            for table_id, listed in self.models.items():
                row = self.lobby_row_of(table_id)  # a pool's table: the pool's name, stakes and clock
                if row is not None:
                    self._describe(listed, row)
                    self._push(table_id)  # the tab's label: the table's name, not its id
            if "balance" in message:
                self.query_one(Lobby).balance = f"Balance: {message['balance']} chips"
            self.tournament_rows(message.get("tournaments"))
            if self.room_notes and not self._notes_asked:  # in the room now: its copy of this player's notes
                self._notes_asked = True
                self.run_worker(self.send("notes"), group="send")
        elif kind == "notes":  # a served screen's notes, as the room keeps them for this player
            self.notes.replace_from(message.get("notes"))
            for noted in list(self.models):
                self._push(noted)
        elif kind in TOURNAMENT_MESSAGES:
            self.tournament_message(message)
        elif kind == "error":
            if not host_refused(self, message) and not self.tournament_refused(message):
                self._room_error(message)
        elif kind == "ack":
            if message.get("pool"):  # joined a fast-fold pool: its tables open as it deals (R-FAST-1)
                self.pool_ids.add(str(message.get("table")))
            if not seat_pending(self, message):
                self._ack(message)
        elif kind in HOST_MESSAGES:  # the host console and the settle-up (tui.host_screen)
            if kind == "seat_approved":  # the host seated us (approve_seats): the sitting starts with his stack
                self._sat_down(str(message.get("table", "")), message.get("stack"))
            room_message(self, message)
        elif kind == "chat" and table_id is None:
            self.notify(f"{message.get('sender')}: {message.get('text')}", title="lobby chat", timeout=6)
        elif kind == "notice":
            self.notify(plain_words(str(message.get("text", ""))), title="room", timeout=10)
        elif kind == "seat_available":
            self.notify(f"A seat is free for you at {self._table_name(str(table_id))}: join it from the lobby.",
                        title="waiting list")
        elif kind == "bye":
            if message.get("code") == protocol.ROOM_CLOSED:
                self.session.room_closed = ROOM_CLOSED  # our own words: nothing from the wire reaches the shell
            elif message.get("code") in (protocol.KICKED, protocol.BANNED):
                # the host ended this session: reconnecting would undo a kick (and knock on a ban); his reason,
                # cleaned, is what croupier join says when it exits
                self.session.room_closed = protocol.farewell_words(message)
            self.show_notice(f"The room closed the connection: {message.get('reason')}")
        elif kind == "balance":
            self.query_one(Lobby).balance = f"Balance: {message.get('balance')} chips"
        elif kind == "pool" and chips_of(message.get("added")) > 0:  # the top-up it kept through our hand
            pool = str(message.get("pool", ""))
            self.results.added(pool, chips_of(message.get("added")))
            self.notify(f"Top-up of {chips_of(message.get('added'))} added at {self._table_name(pool)}: your stack "
                        f"there is {chips_of(message.get('stack'))}.", title="top-up")
        elif kind == "pool_left":  # a fast-fold pool let us go (at once, or when the hand did): chips back
            pool = str(message.get("pool", ""))
            self._sitting_ended(pool, self.results.cashed_out(pool, chips_of(message.get("chips")), self.clock()))
        elif kind == "table_left":  # stood up by the host (a kick, a ban) or the room closing: chips back or kept
            left = str(message.get("table", ""))
            self._stood_up.add(left)
            self._sitting_ended(left, self.results.cashed_out(left, chips_of(message.get("chips")), self.clock()))
        elif isinstance(table_id, str):
            self._table_message(table_id, message)

    def pool_table(self, table_id: str) -> bool:
        """Whether ``table_id`` is a table of a fast-fold pool (``<pool>.<n>``, R-FAST-1)."""
        return table_id.rpartition(".")[0] in self.pool_ids

    def _table_message(self, table_id: str, message: dict[str, Any]) -> None:
        model = self.models.get(table_id)
        pooled = self.pool_table(table_id)
        if model is None:
            seated_here = any(row.get("name") == self.me for row in message.get("seats", []))
            if message.get("type") != "table" or not seated_here or table_id in self.tournaments.left:
                return  # a table we closed (or were moved from); its last messages are not for us
            model = self._open_table(table_id)
            if pooled:  # a pool dealt us a fresh hand here: shown at once; the tab closes when it lets us go
                self.call_after_refresh(self.show_table, table_id)
            else:
                # watched too, like every tab: a seat alone stops hearing the table once it is freed (a leave
                # after the hand), and the tab would freeze on that hand
                self.run_worker(self.send("watch", table=table_id), group="send")
            if table_id == self._start_table:
                self.call_after_refresh(self.show_table, table_id)
        was_waiting = model.needs_action
        was_picking = model.mixed.get("chooser") == self.me
        model.apply(message, self.clock())
        self._tally(table_id, model, message)
        sitting = self.results.current(self._result_key(table_id)) if pooled else None
        if sitting is not None and sitting.hands:  # each pool hand is at a fresh table, its own hand 1: the
            model.hand_number = len(sitting.hands)  # header counts my hands in the pool instead
        if model.mixed.get("chooser") == self.me and not was_picking:  # dealer's choice: mine (R-MIX-2)
            self.bell()
            self.notify(f"Your pick of the next game at {model.name or table_id}: press G.", title="dealer's choice",
                        severity="warning", timeout=10)
        self.tournament_table_changed(model, message)
        if pooled and message.get("type") == "table" and not model.seated:
            self.close_table(table_id)  # folded (or the hand ended): the pool moved us on to a fresh hand
            return
        if table_id in self.session.leaving and not model.seated:
            self.session.leaving.discard(table_id)
            self.close_table(table_id)
            return
        self._send_queued_top_up(model)
        if message.get("type") == "verification_result" and not message.get("ok") and model.claim:
            # another player's word: a notice (rate-limited by the model), no bell, not this client's alarm
            self.notify(model.claim, title="fairness claim", severity="warning", timeout=10)
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
        if table_id in self.models and about in ("action", "sit_out", "wait_for_big_blind", "top_up", "chat", "leave",
                                                 "auto_top_up"):
            model = self.models[table_id]
            model.error = to_player(text, self.me)
            if about == "action" and message.get("code") in ("invalid_amount", "illegal_action"):
                model.turn_back()  # refused, still my turn: the bar comes back to try again
            self._push(table_id)
        if about == "leave":  # refused: a sitting that ends later is told when it ends
            key = self._result_key(table_id)
            self._leave_asked.discard(key)
            self._sitting_ended(key, self._unsaid.pop(key, None))
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
        if about == "tournament":
            self.tournament_ack(message)
        elif about == "leave":
            if message.get("after_hand"):
                if table_id in self.models and self.models[table_id].seated:
                    self.session.leaving.add(table_id)
                self._leave_asked.discard(table_id)  # the seat is freed when the hand ends: told then
                self.notify(f"You will leave {self._table_name(table_id)} after this hand.", title="leave")
                # the hand may have ended with our fold, before this answer: its result waited for it
                self._sitting_ended(table_id, self._unsaid.pop(table_id, None))
            else:
                chips = message.get("chips")
                self._leave_asked.discard(table_id)
                if isinstance(chips, int):  # the seat's own events did not reach us: the ack says it
                    ended = self.results.cashed_out(table_id, chips, self.clock())
                    if ended is not None:
                        self._unsaid[table_id] = ended
                said = self._unsaid.pop(table_id, None)
                self.notify(f"You left {self._table_name(table_id)}"
                            + (f" with {chips} chips." if chips is not None else ".")
                            + (f"\n{self._result_words(said)}" if said is not None else ""),
                            title="your result" if said is not None else "", timeout=20 if said else None)
                self.close_table(table_id)
            self.run_worker(self.send("lobby"), group="send")
        elif about == "report_hand":
            number = message.get("report")
            self.notify(f"Hand {message.get('hand')} reported to the host for review"
                        + (f" (report {number})." if number is not None else "."), title="report")
        elif about == "top_up" and message.get("after_hand"):  # a pool keeps it: its `pool` message says when
            self.notify(f"Top-up of {chips_of(message.get('amount'))} at {self._table_name(table_id)}: added when "
                        "this hand lets you go (up to the maximum buy-in).", title="top-up")
        elif about == "top_up":
            if table_id in self.pool_ids:  # a pool's top-up has no table event: its ack says the amount
                self.results.added(table_id, chips_of(message.get("amount")))
            self.notify(f"Stack at {self._table_name(table_id)}: {message.get('stack')} chips.", title="top-up")
        elif about == "auto_top_up" and table_id in self.models:
            model = self.models[table_id]
            model.auto_top_up = {key: message.get(key) for key in ("below", "rebuy", "to")}
            self.notify(f"{model.auto_top_up_words or 'auto top-up off'} at {self._table_name(table_id)} "
                        "(between your hands, from your balance).", title="auto top-up")
            self._push(table_id)
        elif about == "sit":
            self._sat_down(table_id, message.get("stack"))
            self.notify(f"Seated at {self._table_name(table_id)} (seat {int(message.get('seat', 0)) + 1}) "
                        f"with {message.get('stack')}.")
            self.run_worker(self.send("lobby"), group="send")
        elif about == "waiting_list":
            self.notify(f"Waiting list for {self._table_name(table_id)}: position {message.get('position')}.")
        elif about == "refill":
            minutes = max(1, round(float(message.get("arrives_in", 0)) / 60))
            self.notify(f"{message.get('amount')} free chips are on their way: they arrive in about {minutes} min.",
                        title="refill")

    # --- your result (tui.results) ------------------------------------------------------------------------

    def _tally(self, table_id: str, model: Any, message: dict[str, Any]) -> None:
        """Fold a table message into :attr:`results` (a pool's tables count as the pool; a tournament's chips
        are not money: its result is the tournament's)."""
        if model.kind == "tournament":
            return
        pooled = self.pool_table(table_id)
        key = self._result_key(table_id)
        now = self.clock()
        if model.last_event is not None:
            ended = self.results.observe(key, self._table_name(key), model.last_event, self.me, model.my_seat,
                                         str(message.get("hand") or ""), now)
            self._sitting_ended(key, ended)
        seat = model.seats.get(model.my_seat) if model.my_seat is not None else None
        if seat is None or model.in_running_hand:
            return
        if not pooled and message.get("type") == "table" and self.results.current(key) is None \
                and key not in self._stood_up:
            # seated before this app saw the sit (croupier play seats you first; a reconnect from a new
            # terminal): the sitting starts with the stack found
            self.results.seated(key, self._table_name(key), seat.stack, now)
        self.results.stack_now(key, seat.stack)

    def _sat_down(self, table_id: str, stack: object) -> None:
        """The room's answer to a sit (or the host's approval): the sitting starts, if no event started it."""
        if table_id and isinstance(stack, int) and stack > 0:
            self._stood_up.discard(table_id)
            self.results.seated(table_id, self._table_name(table_id), stack, self.clock())

    def _result_key(self, table_id: str) -> str:
        """Where a table's result is kept: a fast-fold pool's tables are the pool (one buy-in, one leave)."""
        return table_id.rpartition(".")[0] if self.pool_table(table_id) else table_id

    def leave_asked(self, table_id: str) -> None:
        """We asked to leave ``table_id``: its answer tells the result (not the chips' event before it)."""
        self._leave_asked.add(self._result_key(table_id))

    def _sitting_ended(self, key: str, ended: TableResult | None) -> None:
        """A sitting ended: told now, unless our own leave's answer is on its way (it tells it)."""
        if ended is None:
            return
        self._unsaid[key] = ended
        if key not in self._leave_asked:
            said = self._unsaid.pop(key)
            self.notify(self._result_words(said), title="your result", timeout=20)

    def _result_words(self, result: TableResult) -> str:
        now = self.clock()
        result.name = self._table_name(result.table_id)  # the lobby's name, if it came after the sit
        return f"{table_words(result, now)}\n{night_words(self.results, now)}"

    def farewell(self) -> str:
        """The lines the terminal shows after you quit: each sitting and the night ("" if you sat nowhere)."""
        for result in self.results.results:
            result.name = self._table_name(result.table_id)
        return farewell(self.results, self.clock())

    def action_results(self) -> None:
        """Ctrl+P → Your results: every sitting of this visit and the night."""
        self.push_screen(ResultsScreen(self.farewell() or "You have not sat at a table yet."))

    def action_host(self) -> None:
        """The Host screen (tui.host_screen); the room refuses a player who is not a host."""
        if not any(isinstance(screen, HostScreen) for screen in self.screen_stack):
            self.push_screen(HostScreen())

    def action_settle_up(self) -> None:
        self.run_worker(self.send("settle_up"), group="send")

    def action_bet_sizes(self) -> None:
        """$: the player's bet sizes for keys 1-9 (tui.presets), at every table from the moment they are kept."""

        def chosen(texts: tuple[str, ...] | None) -> None:
            if texts is None:
                return
            try:
                warning = self.bet_presets.set_all(texts)
            except ValueError as problem:  # the window checked them: only a changed parser gets here
                self.notify(str(problem), title="bet sizes", severity="error")
                return
            for table_id in self.models:
                self._push(table_id)
            self.notify(warning or "Kept: keys 1–9 use them at every table.", title="bet sizes",
                        severity="warning" if warning else "information")

        self.push_screen(BetSizesScreen(self.bet_presets.texts()), chosen)

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    # --- the command palette -------------------------------------------------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield from palette_commands(self)

    def run_command(self, command: Command) -> None:
        """A key map command from the palette: where it acts (the current table, the app, the lobby's list)."""
        if command.where == TABLE:
            self.table_action(command.action, *command.arguments)
        elif command.where == TOURNAMENT:
            self.tournament_command(command)
        elif command.where == LOBBY:
            lobby = self.query_one(Lobby)
            self._in_lobby(partial(getattr(lobby, f"action_{command.action}"), *command.arguments))
        else:
            getattr(self, f"action_{command.action}")(*command.arguments)

    def action_set_theme(self, theme: str) -> None:
        self.theme = theme

