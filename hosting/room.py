"""The room: lobby, tables, seats, watchers, waiting lists, chat and message routing (DESIGN.md "room").

Transport-free: a :class:`Session` is one logged-in connection seen through a :class:`Transport` (something
that can send a message and close); the SSH server (``hosting.server``) and tests both provide one. Time comes
in as an argument (seconds) or from the ``clock`` callable given to :class:`Room`.

Hands are played by a table runner behind the narrow :class:`HandDriver` interface: the room routes ``action``,
``commit``, ``reveal`` and ``verification`` messages of a table to its driver, and the driver reports finished
hands back with :meth:`TableState.record_hand` (lobby statistics, R-LOBBY-1). Until a driver is attached,
those messages get a ``no_hand`` error.
"""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from hosting import protocol
from hosting.config import RoomConfig, TableConfig
from hosting.identity import Gatekeeper, LoginDecision
from hosting.protocol import (
    ActionMessage,
    Auth,
    Chat,
    Commit,
    Hello,
    Inbound,
    Leave,
    LobbyRequest,
    Ping,
    Reveal,
    Sit,
    SitOut,
    TopUp,
    Unwatch,
    VerificationReport,
    WaitForBigBlind,
    WaitingList,
    Watch,
)

STATS_WINDOW_SECONDS = 3600.0

# Room-level error codes (PROTOCOL.md "Errors"), besides the protocol's validation codes.
AUTH_REQUIRED = "auth_required"
AUTH_FAILED = "auth_failed"
NO_SUCH_TABLE = "no_such_table"
TABLE_FULL = "table_full"
SEAT_TAKEN = "seat_taken"
ALREADY_SEATED = "already_seated"
NOT_SEATED = "not_seated"
BAD_AMOUNT = "bad_amount"
NO_HAND = "no_hand"


class RoomError(Exception):
    """A request the room refuses; ``code`` goes in the ``error`` reply, the message is for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Transport(Protocol):
    """One client connection as the room sees it."""

    def send(self, message: Mapping[str, Any]) -> None: ...

    def close(self, reason: str) -> None: ...


@dataclass
class Session:
    """A logged-in connection: its name, key, transport, pending gates and what it watches."""

    name: str
    public_key: str
    transport: Transport
    new_name: bool = False
    needs: tuple[str, ...] = ()
    watching: set[str] = field(default_factory=set)

    @property
    def authenticated(self) -> bool:
        return not self.needs

    def send(self, message: Mapping[str, Any]) -> None:
        self.transport.send(message)


class HandDriver(Protocol):
    """What a table runner offers the room: it receives the in-hand messages of one table."""

    def handle(self, session: Session, message: Inbound, now: float) -> None:
        """Act on ``action``/``commit``/``reveal``/``verification``; raise :class:`RoomError` to refuse."""


@dataclass
class SeatState:
    """A seated player between hands. ``stack`` in chips."""

    name: str
    stack: int
    sitting_out: bool = False
    wait_for_big_blind: bool = False


@dataclass
class TableState:
    """One table's seats, watchers, waiting list and recent hands (for R-LOBBY-1 statistics)."""

    config: TableConfig
    seats: dict[int, SeatState] = field(default_factory=dict)
    watchers: set[str] = field(default_factory=set)
    waiting: list[str] = field(default_factory=list)
    recent_hands: deque[tuple[float, int]] = field(default_factory=deque)

    def seat_of(self, name: str) -> int | None:
        return next((seat for seat, state in self.seats.items() if state.name == name), None)

    def free_seats(self) -> list[int]:
        return [seat for seat in range(self.config.seats) if seat not in self.seats]

    def sit(self, name: str, buy_in: int, seat: int | None) -> int:
        """Seat ``name`` with ``buy_in`` chips (R-BUYIN-1); the seat taken. :class:`RoomError` if refused."""
        config = self.config
        if self.seat_of(name) is not None:
            raise RoomError(ALREADY_SEATED, f"you are already seated at {config.id}")
        if not config.min_buy_in <= buy_in <= config.max_buy_in:
            raise RoomError(BAD_AMOUNT, f"buy-in at {config.id} is {config.min_buy_in} to {config.max_buy_in} "
                                        f"chips, not {buy_in}")
        free = self.free_seats()
        if not free:
            raise RoomError(TABLE_FULL, f"{config.id} is full ({config.seats} seats): join its waiting list")
        if seat is None:
            seat = free[0]
        elif seat >= config.seats:
            raise RoomError(SEAT_TAKEN, f"{config.id} has seats 0 to {config.seats - 1}, not {seat}")
        elif seat not in free:
            raise RoomError(SEAT_TAKEN, f"seat {seat} at {config.id} is taken")
        self.seats[seat] = SeatState(name, buy_in)
        if name in self.waiting:
            self.waiting.remove(name)
        return seat

    def leave(self, name: str) -> tuple[int, int]:
        """Free ``name``'s seat; (seat, chips returned). :class:`RoomError` if not seated."""
        seat = self._require_seat(name)
        state = self.seats.pop(seat)
        return seat, state.stack

    def top_up(self, name: str, amount: int) -> int:
        """Add chips up to the maximum buy-in (R-BUYIN-1); the new stack."""
        state = self.seats[self._require_seat(name)]
        if state.stack + amount > self.config.max_buy_in:
            raise RoomError(BAD_AMOUNT, f"a top-up may bring the stack to at most {self.config.max_buy_in} "
                                        f"chips; you have {state.stack}")
        state.stack += amount
        return state.stack

    def _require_seat(self, name: str) -> int:
        seat = self.seat_of(name)
        if seat is None:
            raise RoomError(NOT_SEATED, f"you are not seated at {self.config.id}")
        return seat

    def record_hand(self, now: float, pot: int) -> None:
        """A hand finished with ``pot`` chips in total (for the lobby's average pot and hands per hour)."""
        self.recent_hands.append((now, pot))

    def _prune(self, now: float) -> None:
        while self.recent_hands and self.recent_hands[0][0] < now - STATS_WINDOW_SECONDS:
            self.recent_hands.popleft()

    def summary(self, now: float) -> dict[str, Any]:
        """The lobby row (R-LOBBY-1). ``average_pot`` and ``hands_per_hour`` count the last hour."""
        self._prune(now)
        config = self.config
        hands = len(self.recent_hands)
        return {
            "id": config.id, "name": config.name, "game": config.game, "structure": config.structure,
            "stakes": [config.small_blind, config.big_blind], "buy_in": [config.min_buy_in, config.max_buy_in],
            "players": len(self.seats), "seats": config.seats,
            "average_pot": sum(pot for _, pot in self.recent_hands) // hands if hands else 0,
            "hands_per_hour": hands,
            "waiting": len(self.waiting), "watchers": len(self.watchers),
        }

    def snapshot(self) -> dict[str, Any]:
        """The ``table`` message body: seats with names and stacks, and the waiting list."""
        return {
            "table": self.config.id,
            "seats": [
                {"seat": seat, "name": state.name, "stack": state.stack, "sitting_out": state.sitting_out,
                 "wait_for_big_blind": state.wait_for_big_blind}
                for seat, state in sorted(self.seats.items())
            ],
            "max_seats": self.config.seats,
            "waiting": list(self.waiting),
        }


def clean_text(text: str) -> str:
    """Chat text with control characters removed: a terminal must never receive escape sequences from a player."""
    return "".join(character for character in text if unicodedata.category(character)[0] != "C").strip()


class Room:
    """The room's state and its message handlers. One instance per ``croupier host``."""

    def __init__(self, config: RoomConfig, room_id: str, gatekeeper: Gatekeeper,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.room_id = room_id
        self.gatekeeper = gatekeeper
        self.clock = clock
        self.tables = {table.id: TableState(table) for table in config.tables}
        self.sessions: dict[str, Session] = {}
        self.drivers: dict[str, HandDriver] = {}
        self.verification_reports: list[dict[str, Any]] = []

    # --- connections -------------------------------------------------------------------------------------

    def connect(self, name: str, public_key: str, decision: LoginDecision, transport: Transport) -> Session:
        """A client passed the SSH login: greet it (``hello``); register its key if no gate remains."""
        previous = self.sessions.get(name)
        if previous is not None:
            previous.send(protocol.bye("logged in from another connection"))
            previous.transport.close("logged in from another connection")
            self.disconnect(previous)
        session = Session(name, public_key, transport, new_name=decision.new_name, needs=decision.needs)
        self.sessions[name] = session
        registered = self._register_if_ready(session)
        session.send(protocol.hello(room=self.config.name, room_id=self.room_id, name=name, registered=registered,
                                    needs=session.needs))
        return session

    def _register_if_ready(self, session: Session) -> bool:
        if session.authenticated and session.new_name:
            self.gatekeeper.accounts.register(session.name, session.public_key, time.time())
            session.new_name = False
            return True
        return False

    def disconnect(self, session: Session) -> None:
        """Forget a closed connection (its seats stay: the table runner decides about away players, R-DISC-1)."""
        if self.sessions.get(session.name) is session:
            del self.sessions[session.name]
        for table_id in list(session.watching):
            self.tables[table_id].watchers.discard(session.name)
        session.watching.clear()

    # --- routing -----------------------------------------------------------------------------------------

    def receive(self, session: Session, message: Inbound) -> None:
        """Handle one validated inbound message; refusals become ``error`` replies."""
        now = self.clock()
        try:
            if not session.authenticated and not isinstance(message, Hello | Auth | Ping):
                raise RoomError(AUTH_REQUIRED, f"send \"auth\" first: this room needs {', '.join(session.needs)}")
            handler = self._handlers().get(type(message))
            if handler is None:  # pragma: no cover - every inbound type has a handler
                raise RoomError(protocol.UNKNOWN_TYPE, f"no handler for {message.type}")
            handler(session, message, now)
        except RoomError as refusal:
            session.send(protocol.error(refusal.code, str(refusal), in_reply_to=message.type))

    def _handlers(self) -> dict[type[Inbound], Callable[[Session, Any, float], None]]:
        return {
            Hello: self._hello, Auth: self._auth, Ping: self._ping, LobbyRequest: self._lobby,
            Watch: self._watch, Unwatch: self._unwatch, Sit: self._sit, Leave: self._leave,
            SitOut: self._sit_out, WaitForBigBlind: self._wait_for_big_blind, TopUp: self._top_up,
            WaitingList: self._waiting_list, Chat: self._chat,
            ActionMessage: self._to_driver, Commit: self._to_driver, Reveal: self._to_driver,
            VerificationReport: self._verification,
        }

    def table(self, table_id: str) -> TableState:
        table = self.tables.get(table_id)
        if table is None:
            raise RoomError(NO_SUCH_TABLE, f"there is no table {table_id!r}; ask for the lobby to see the tables")
        return table

    def audience(self, table: TableState) -> Iterator[Session]:
        """Everyone who hears a table: its seated players and its watchers, once each."""
        names = {state.name for state in table.seats.values()} | table.watchers
        for name in sorted(names):
            session = self.sessions.get(name)
            if session is not None:
                yield session

    def broadcast_table(self, table: TableState) -> None:
        message = protocol.table_state(table.snapshot())
        for session in self.audience(table):
            session.send(message)

    # --- handlers ----------------------------------------------------------------------------------------

    def _hello(self, session: Session, message: Hello, now: float) -> None:
        session.send(protocol.ack("hello", name=session.name))

    def _ping(self, session: Session, message: Ping, now: float) -> None:
        session.send(protocol.pong(message.id))

    def _auth(self, session: Session, message: Auth, now: float) -> None:
        if session.authenticated:
            session.send(protocol.auth_result(True))
            return
        problem = self.gatekeeper.check_gates(message.password, message.invite, session.needs)
        if problem is not None:
            session.send(protocol.auth_result(False, problem))
            return
        session.needs = ()
        registered = self._register_if_ready(session)
        session.send(protocol.auth_result(True, "your key is now registered for this name" if registered else None))

    def _lobby(self, session: Session, message: LobbyRequest, now: float) -> None:
        session.send(protocol.lobby([table.summary(now) for table in self.tables.values()]))

    def _watch(self, session: Session, message: Watch, now: float) -> None:
        table = self.table(message.table)
        table.watchers.add(session.name)
        session.watching.add(table.config.id)
        session.send(protocol.ack("watch", table=table.config.id))
        session.send(protocol.table_state(table.snapshot()))

    def _unwatch(self, session: Session, message: Unwatch, now: float) -> None:
        table = self.table(message.table)
        table.watchers.discard(session.name)
        session.watching.discard(table.config.id)
        session.send(protocol.ack("unwatch", table=table.config.id))

    def _sit(self, session: Session, message: Sit, now: float) -> None:
        table = self.table(message.table)
        seat = table.sit(session.name, message.buy_in, message.seat)
        session.send(protocol.ack("sit", table=table.config.id, seat=seat, stack=message.buy_in))
        self.broadcast_table(table)

    def _leave(self, session: Session, message: Leave, now: float) -> None:
        table = self.table(message.table)
        seat, chips = table.leave(session.name)
        session.send(protocol.ack("leave", table=table.config.id, seat=seat, chips=chips))
        self.broadcast_table(table)
        if table.waiting:
            first = self.sessions.get(table.waiting[0])
            if first is not None:
                first.send(protocol.message("seat_available", table=table.config.id, seat=seat))

    def _sit_out(self, session: Session, message: SitOut, now: float) -> None:
        table = self.table(message.table)
        table.seats[table._require_seat(session.name)].sitting_out = message.on
        session.send(protocol.ack("sit_out", table=table.config.id, on=message.on))
        self.broadcast_table(table)

    def _wait_for_big_blind(self, session: Session, message: WaitForBigBlind, now: float) -> None:
        table = self.table(message.table)
        table.seats[table._require_seat(session.name)].wait_for_big_blind = message.on
        session.send(protocol.ack("wait_for_big_blind", table=table.config.id, on=message.on))
        self.broadcast_table(table)

    def _top_up(self, session: Session, message: TopUp, now: float) -> None:
        table = self.table(message.table)
        stack = table.top_up(session.name, message.amount)
        session.send(protocol.ack("top_up", table=table.config.id, stack=stack))
        self.broadcast_table(table)

    def _waiting_list(self, session: Session, message: WaitingList, now: float) -> None:
        table = self.table(message.table)
        if message.on:
            if table.seat_of(session.name) is not None:
                raise RoomError(ALREADY_SEATED, f"you are already seated at {table.config.id}")
            if session.name not in table.waiting:
                table.waiting.append(session.name)
        elif session.name in table.waiting:
            table.waiting.remove(session.name)
        position = table.waiting.index(session.name) + 1 if session.name in table.waiting else None
        session.send(protocol.ack("waiting_list", table=table.config.id, on=message.on, position=position))
        self.broadcast_table(table)

    def _chat(self, session: Session, message: Chat, now: float) -> None:
        text = clean_text(message.text)
        if not text:
            raise RoomError(protocol.BAD_FIELD, "chat text is empty once control characters are removed")
        outbound = protocol.chat(sender=session.name, text=text, table=message.table, at=round(time.time(), 3))
        if message.table is None:
            listeners: list[Session] = [other for other in self.sessions.values() if other.authenticated]
        else:
            table = self.table(message.table)
            if table.seat_of(session.name) is None and session.name not in table.watchers:
                raise RoomError(NOT_SEATED, f"sit at or watch {table.config.id} to chat there")
            listeners = list(self.audience(table))
        for listener in listeners:
            listener.send(outbound)

    def _to_driver(self, session: Session, message: ActionMessage | Commit | Reveal, now: float) -> None:
        table = self.table(message.table)
        driver = self.drivers.get(table.config.id)
        if driver is None:
            raise RoomError(NO_HAND, f"no hand is running at {table.config.id}")
        driver.handle(session, message, now)

    def _verification(self, session: Session, message: VerificationReport, now: float) -> None:
        table = self.table(message.table)
        report = {"table": table.config.id, "hand": message.hand, "name": session.name, "ok": message.ok,
                  "violations": message.violations}
        self.verification_reports.append(report)
        if not message.ok:  # a failed check is everyone's business: tell the whole table (DESIGN.md step 5)
            alarm = protocol.verification_result(table.config.id, message.hand, session.name, False,
                                                 message.violations)
            for listener in self.audience(table):
                listener.send(alarm)
        driver = self.drivers.get(table.config.id)
        if driver is not None:
            driver.handle(session, message, now)
        session.send(protocol.ack("verification", table=table.config.id, hand=message.hand))
