"""The Host screen (key Ctrl+O, palette "Host console") and the settle-up screen (palette "Settle up").

The Host screen shows the room as the host runs it — each table's level, pause, players, watchers, chat and
mutes, the pools and tournaments, who is online, the seat requests waiting — live: while it is open the room
pushes its status whenever it changes (hosting.live); a seat request also rings the bell. It takes the host's
commands in the words of ``croupier admin`` (the same parser: ``pause t1``, ``level t1 --blinds 2/4``,
``stack t1 bob 50 "misdeal"``, ``kick bob`` …). On the list of seat requests (Tab to it), A approves the
highlighted one with the stack asked for and D denies it. A key reset asks the host to confirm.
Whether the player is a host is the room's to say: a player who is not gets the room's refusal.

The settle-up screen shows a session's buy-ins, cash-outs, nets and who pays whom, to every player.

:func:`room_message` is the app's hook for the room's host messages (``host_reply``, ``seat_request``,
``seat_approved``, ``seat_denied``, ``settle_up``, ``room_closing``, a pending ``sit``).
"""

from __future__ import annotations

import argparse
import shlex
from typing import Any, ClassVar, NoReturn

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Input, Label, Static

from hosting.admin_parser import add_admin, request_of
from hosting.admin_status import hosts_words
from hosting.settle_up import COLUMN_LABELS, COLUMNS
from tui.tournament_book import STATUS_NAMES

CroupierApp = Any
"""tui.app.CroupierApp, which imports this module (so it is not imported back): ``send``, ``notify``,
``show_notice``, ``models``, the screens."""

HOST_MESSAGES = frozenset({"host_reply", "seat_request", "seat_approved", "seat_denied", "settle_up",
                           "room_closing"})
WAITING_FOR_HOST = "waiting for the host"
def command_hint(table: str = "TABLE") -> str:
    """The commands the Host screen shows under its box, with one of the room's own tables (or pools).

    >>> command_hint("home")[:58]
    'pause home · resume home · level home --blinds 2/4 --ante 1'
    """
    return (f"pause {table} · resume {table} · level {table} --blinds 2/4 --ante 1 · stack {table} bob 50 'misdeal' · "
            f"kick bob · ban --player bob · reset-key bob · make-host bob · spectators {table} nobody · "
            f"chat {table} off · mute {table} bob · close 60 'last hand' · night friday")


COMMAND_HINT = command_hint()
"""Until the room's status names its tables."""


class CommandError(ValueError):
    """A host command the parser refused (its words are shown on the screen)."""


class _Parser(argparse.ArgumentParser):
    """``croupier admin``'s parser inside the TUI: errors and help become text, never the terminal's."""

    def error(self, message: str) -> NoReturn:
        raise CommandError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise CommandError(message or "")

    def _print_message(self, message: str, file: Any = None) -> None:
        raise CommandError(message.strip().splitlines()[0] if message.strip() else "")


def parse_command(text: str) -> dict[str, Any]:
    """A host command in ``croupier admin``'s words → the request (hosting.admin_requests); CommandError."""
    try:
        words = shlex.split(text)
    except ValueError as problem:
        raise CommandError(str(problem)) from None
    if not words:
        raise CommandError("type a command, e.g. pause TABLE (the table's id, as in the list above)")
    parser = _Parser(prog="host", add_help=False)
    add_admin(parser.add_subparsers(dest="command"), "unused", lambda arguments: 0)
    arguments = parser.parse_args(["admin", *words])
    return request_of(arguments)


class ConfirmScreen(ModalScreen[bool]):
    """Yes or no (a key reset)."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 64; height: auto; border: thick $warning; background: $surface; padding: 1 2; }
    ConfirmScreen Horizontal { height: auto; margin-top: 1; }
    ConfirmScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,n", "answer(False)", "No"),
                                             Binding("y", "answer(True)", "Yes")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, id="question")
            with Horizontal():
                yield Button("Yes (Y)", id="yes", variant="warning")
                yield Button("No (N)", id="no")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class SeatRequests(DataTable[str]):
    """The seat requests waiting: A approves the highlighted one with the stack asked for, D denies it — only
    while the list has the focus (typed commands never reach it), and the focus goes back to the command box."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "decide('approve')", "Approve seat"),
        Binding("d", "decide('deny')", "Deny seat"),
    ]

    def action_decide(self, verdict: str) -> None:
        screen = self.screen
        if isinstance(screen, HostScreen):
            screen.decide(verdict)


class HostScreen(Screen[None]):
    """The host console (see the module's docstring)."""

    DEFAULT_CSS = """
    HostScreen { layout: vertical; padding: 0 1; }
    HostScreen #host-title { text-style: bold; height: 1; }
    HostScreen #host-tables { height: auto; max-height: 50%; }
    HostScreen #seat-requests { height: auto; max-height: 8; }
    HostScreen #host-result { height: auto; min-height: 1; }
    HostScreen #host-result.-error { color: $error; }
    HostScreen #host-hint { color: $text-muted; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("ctrl+r", "refresh", "Refresh"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.status: dict[str, Any] = {}
        self.last_text = ""
        self.last_error = ""

    @property
    def croupier(self) -> CroupierApp:
        return self.app

    def compose(self) -> ComposeResult:
        yield Label("Host console", id="host-title")
        yield Static("asking the room…", id="host-tables")
        yield Label("Seat requests (Tab to the list, then A approves with the stack asked, D denies):")
        requests = SeatRequests(id="seat-requests", cursor_type="row")
        requests.add_columns("table", "player", "buy-in")
        yield requests
        yield Static("", id="host-result")
        yield Input(placeholder="a host command, as for croupier admin (Enter sends)", id="host-command")
        yield Static(COMMAND_HINT, id="host-hint")

    def on_mount(self) -> None:
        self.query_one("#host-command", Input).focus()
        self.send_request({"action": "status", "follow": True})  # pushed again whenever it changes

    # --- asking the room -------------------------------------------------------------------------------

    def send_request(self, request: dict[str, Any]) -> None:
        action = request.pop("action")
        self.croupier.run_worker(self.croupier.send("host", action=action, args=request), group="send")

    def action_refresh(self) -> None:
        self.send_request({"action": "status"})

    def action_close(self) -> None:
        self.send_request({"action": "status", "follow": False})
        self.dismiss()

    @on(Input.Submitted, "#host-command")
    def _command(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        try:
            request = parse_command(text)
        except CommandError as problem:
            self.show_error(str(problem) or "not a host command")
            return
        event.input.value = ""
        if request["action"] == "reset_key" and not request.get("confirm"):
            player = request["player"]

            def answered(yes: bool | None) -> None:
                if yes:
                    self.send_request({**request, "confirm": True})
                else:
                    self.show_result(f"{player}'s key kept")

            self.app.push_screen(ConfirmScreen(f"Reset {player}'s key? The next login as {player} takes the "
                                               "name with its key."), answered)
            return
        self.send_request(request)

    def _highlighted_request(self) -> tuple[str, str, int] | None:
        table = self.query_one("#seat-requests", DataTable)
        if table.row_count == 0:
            self.show_error("no seat request is waiting")
            return None
        row = table.get_row_at(table.cursor_row)
        return str(row[0]), str(row[1]), int(row[2])

    def decide(self, verdict: str) -> None:
        """Approve or deny the highlighted seat request, then give the focus back to the command box: what the
        host types next is a command, never another approval."""
        wanted = self._highlighted_request()
        if wanted is not None:
            request = {"action": verdict, "table": wanted[0], "player": wanted[1]}
            self.send_request({**request, "stack": wanted[2]} if verdict == "approve" else request)
        self.query_one("#host-command", Input).focus()

    # --- what the room said ----------------------------------------------------------------------------

    def show_result(self, text: str) -> None:
        self.last_text, self.last_error = text, ""
        result = self.query_one("#host-result", Static)
        result.update(text)
        result.remove_class("-error")

    def show_error(self, text: str) -> None:
        self.last_error = text
        result = self.query_one("#host-result", Static)
        result.update(text)
        result.add_class("-error")

    def reply(self, message: dict[str, Any]) -> None:
        if message.get("action") == "status":
            if not self.status and self.last_error:  # refused until a host made us one: the console is ours now
                self.show_result("You are a host now: this console is live.")
            self.status = message
            self._render_status()
            return
        self.show_result(str(message.get("text", "done")))
        self.action_refresh()

    def _render_status(self) -> None:
        places = [str(row.get("id")) for row in [*self.status.get("tables", []), *self.status.get("pools", [])]]
        self.query_one("#host-hint", Static).update(command_hint(places[0]) if places else COMMAND_HINT)
        lines = self._table_lines() + self._pool_lines() + self._tournament_lines()
        lines.append(f"hosts: {hosts_words(self.status)}   banned: "
                     f"{', '.join(self.status.get('banned', [])) or 'none'}   online: "
                     f"{', '.join(self.status.get('online', []))}")
        self.query_one("#host-tables", Static).update("\n".join(lines))
        requests = self.query_one("#seat-requests", DataTable)
        wanted = [(str(item["table"]), str(item["player"]), str(item["buy_in"]))
                  for item in self.status.get("seat_requests", [])]
        if wanted == [tuple(str(cell) for cell in requests.get_row_at(row)) for row in range(requests.row_count)]:
            return  # unchanged: the host's highlighted row stays where it is
        highlighted = requests.cursor_row
        requests.clear()
        for row in wanted:
            requests.add_row(*row)
        if wanted:
            requests.move_cursor(row=min(highlighted, len(wanted) - 1))

    def _table_lines(self) -> list[str]:
        lines = []
        for table in self.status.get("tables", []):
            small, big = table.get("stakes", [0, 0])
            players = ", ".join(f"{seat['name']} {seat['stack']}" for seat in table.get("players", [])) or "nobody"
            state = "PAUSED" if table.get("paused") else ("hand running" if table.get("hand_running") else "idle")
            muted = ", ".join(table.get("muted", [])) or "none"
            nextly = " from the next hand" if table.get("level_next_hand") else ""
            lines.append(f"{table['id']}  {table.get('name', '')}  blinds {small}/{big}{nextly}"
                         f"  ante {table.get('ante', 0)}"
                         f"  rake {table.get('rake')}  {state}\n    players: {players}\n    watchers: "
                         f"{table.get('spectators')}  chat: {'on' if table.get('chat') else 'off'}  muted: {muted}")
        return lines

    def _pool_lines(self) -> list[str]:
        lines = []
        for pool in self.status.get("pools", []):
            small, big = pool.get("stakes", [0, 0])
            members = ", ".join(pool.get("members", [])) or "nobody"
            lines.append(f"{pool.get('id')}  {pool.get('name', '')}  fast-fold pool  blinds {small}/{big}  "
                         f"{pool.get('playing', 0)} in a hand, {pool.get('tables', 0)} tables"
                         f"{'  PAUSED' if pool.get('paused') else ''}\n    players: {members}")
        return lines

    def _tournament_lines(self) -> list[str]:
        return [f"{row.get('id')}  {row.get('name', '')}  tournament  "
                f"{STATUS_NAMES.get(str(row.get('status')), row.get('status', ''))}  "
                f"{row.get('registered', 0)}/{row.get('max', '?')} registered"
                + (f", {row['players_left']} left" if row.get("players_left") is not None else "")
                for row in self.status.get("tournaments", [])]


class SettleUpScreen(ModalScreen[None]):
    """A session's settle-up: every player's line, then who pays whom."""

    DEFAULT_CSS = """
    SettleUpScreen { align: center middle; }
    SettleUpScreen > Vertical { width: 90; height: auto; max-height: 90%; border: thick $accent;
                                background: $surface; padding: 1 2; }
    SettleUpScreen DataTable { height: auto; max-height: 16; }
    SettleUpScreen #transfers { height: auto; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "dismiss", "Close")]

    def __init__(self, settle: dict[str, Any]) -> None:
        super().__init__()
        self.settle = settle

    def compose(self) -> ComposeResult:
        session = self.settle.get("session", {})
        state = "open" if session.get("closed_at") is None else "closed"
        with Vertical():
            yield Label(f"Settle-up: session {session.get('id')} \"{session.get('name')}\" ({state})")
            lines: DataTable[str] = DataTable(id="settle-lines", cursor_type="row")
            lines.add_columns(*COLUMN_LABELS)
            for row in self.settle.get("players", []):
                lines.add_row(*(str(row.get(column, "")) for column in COLUMNS))
            yield lines
            transfers = self.settle.get("transfers", [])
            words = [f"{item['payer']} pays {item['payee']} {item['amount']}" for item in transfers]
            yield Static("Who pays whom:\n  " + "\n  ".join(words) if words else "Nobody owes anything.",
                         id="transfers")


def room_message(app: CroupierApp, message: dict[str, Any]) -> None:
    """The app's hook for the host console's messages (see the module's docstring)."""
    kind = message.get("type")
    host = next((screen for screen in app.screen_stack if isinstance(screen, HostScreen)), None)
    if kind == "host_reply":
        if host is not None:
            host.reply(message)
        elif message.get("action") == "status":
            return  # a push that crossed the Host screen's closing: nothing to show
        else:
            app.notify(str(message.get("text", "done")), title="host")
    elif kind == "seat_request":
        app.bell()
        app.notify(f"{message.get('player')} asks to sit at {message.get('table')} with {message.get('buy_in')} "
                   "chips: Ctrl+O to approve or deny.", title="seat request", timeout=20)
    elif kind == "seat_approved":
        _seat_answered(app, str(message.get("table", "")), "")
        if message.get("pool"):  # in the fast-fold pool: its tables open as it deals (R-FAST-1)
            app.pool_ids.add(str(message.get("table")))
        where = "in pool" if message.get("pool") else "at"
        app.notify(f"The host seated you {where} {message.get('table')} with {message.get('stack')} chips.",
                   title="seat")
        app.run_worker(app.send("lobby"), group="send")
    elif kind == "seat_denied":
        _seat_answered(app, str(message.get("table", "")), f"the host did not seat you: {message.get('reason')}")
        app.notify(f"The host did not seat you at {message.get('table')}: {message.get('reason')}.",
                   title="seat", severity="warning")
    elif kind == "settle_up":
        app.push_screen(SettleUpScreen(message))
    elif kind == "room_closing":
        _count_down(app, int(message.get("seconds") or 0), str(message.get("text", "")))


def _seat_answered(app: CroupierApp, table_id: str, words: str) -> None:
    """The host answered a seat request: the table's "waiting for the host" gives way to ``words``."""
    model = app.models.get(table_id)
    if model is not None and model.error == WAITING_FOR_HOST:
        model.error = words
        app._push(table_id)  # the table shows it at once


def _count_down(app: CroupierApp, seconds: int, text: str) -> None:
    """The room's closing countdown in the notice line, one second at a time (a later count replaces it)."""
    previous = getattr(app, "closing_timer", None)
    if previous is not None:
        previous.stop()
    app.closing_timer = None
    left = [seconds]
    app.show_notice(f"The room closes in {seconds} s: {text}")

    def tick() -> None:
        left[0] -= 1
        app.show_notice(f"The room closes in {max(0, left[0])} s: {text}")
        if left[0] <= 0 and app.closing_timer is not None:
            app.closing_timer.stop()

    if seconds > 0:
        app.closing_timer = app.set_interval(1.0, tick)


def host_refused(app: CroupierApp, message: dict[str, Any]) -> bool:
    """A refusal of a ``host`` or ``settle_up`` request: shown on the Host screen (or as a toast). Whether it
    was one."""
    if message.get("in_reply_to") not in ("host", "settle_up"):
        return False
    text = str(message.get("message") or message.get("code") or "refused")
    host = next((screen for screen in app.screen_stack if isinstance(screen, HostScreen)), None)
    if host is not None and message.get("in_reply_to") == "host":
        host.show_error(text)
    else:
        app.notify(text, title="host" if message.get("in_reply_to") == "host" else "settle-up", severity="warning")
    return True


def seat_pending(app: CroupierApp, message: dict[str, Any]) -> bool:
    """A ``sit`` the room made a request to the host: the player is told he waits. Whether it was one."""
    if message.get("in_reply_to") != "sit" or not message.get("pending"):
        return False
    table_id = str(message.get("table", ""))
    model = app.models.get(table_id)
    if model is not None:
        model.error = WAITING_FOR_HOST
        app._push(table_id)  # the table shows it at once
    app.notify(f"Seat asked at {table_id}: waiting for the host.", title="seat")
    return True
