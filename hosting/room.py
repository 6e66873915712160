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

import asyncio
import logging
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine.bankroll import PlayMoneyAccount, PlayMoneyPolicy
from engine.errors import (
    AlreadySeated,
    BankrollError,
    HandInProgress,
    InvalidAmount,
    NotSeated,
    TableFull,
    TableRuleError,
)
from engine.events import Event
from engine.fair_draw import DrawProof, Outcomes
from engine.seating import BlindChoice
from engine.table import Table
from engine.table.cash import AutoTopUp
from engine.table_events import ChipsReturned, SeatFreed
from engine.text import clean_text
from hosting import protocol
from hosting.admin import ADMIN, HostConsole
from hosting.admin_requests import AdminRefusal, AdminRequest, parse_request
from hosting.budgets import BudgetBook
from hosting.cash import CashTables
from hosting.config import RoomConfig, TableConfig
from hosting.draw_round import DrawRound, DrawSeconds
from hosting.engine_tables import build_engine_table
from hosting.errors import (
    ALREADY_SEATED,
    AUTH_REQUIRED,
    BAD_AMOUNT,
    NO_HAND,
    NO_SUCH_TABLE,
    NOT_SEATED,
    TABLE_FULL,
    RoomError,
)
from hosting.identity import WRONG_ANSWERS_PER_CONNECTION, Gatekeeper, Login, normalize_key, twin_of
from hosting.late_answers import DRAWS_ASKED, ShufflesAsked
from hosting.live import LiveViews
from hosting.owner import TableOwner, release_chips
from hosting.player_notes import RoomNotes
from hosting.pools import PoolOwner
from hosting.protocol import (
    ActionMessage,
    Auth,
    AutoMuck,
    AutoTopUpRequest,
    BlindComplaint,
    BlindEntry,
    BlindSeat,
    Chat,
    ChooseGame,
    Commit,
    DrawCommit,
    DrawReveal,
    Hello,
    HostRequest,
    Inbound,
    InboundStream,
    Leave,
    Limits,
    LobbyRequest,
    Ping,
    PlayerNotesRequest,
    ProtocolError,
    RabbitHunt,
    Refill,
    ReportHand,
    Reveal,
    SettleUpRequest,
    ShowCards,
    Sit,
    SitOut,
    TokenBucket,
    TopUp,
    TournamentRequest,
    Unwatch,
    VerificationReport,
    WaitForBigBlind,
    WaitingList,
    Watch,
)
from hosting.settle_up import read_settle_up
from hosting.settle_up_answers import SettleUpAnswers
from hosting.store import ReportRefused, connect
from hosting.tables import TableState
from hosting.tournament_desk import TournamentDesk
from hosting.verdicts import FinishedHands, Verdict, VerdictBook, typed_violations

if TYPE_CHECKING:
    from hosting.store import Store

security_log = logging.getLogger("croupier.security")
log = logging.getLogger("croupier.room")
"""The room's comings and goings at info (joins, leaves, seats, freed seats) and its errors, for host.log."""
INTERNAL_ERROR = "internal_error"
"""Abuse and refusals (wrong keys, guessing, floods, kicks), at warning level in ``host.log``."""

MESSAGE_LIMITS: dict[str, tuple[float, float]] = {
    "lobby_chat": (5.0, 0.5), "table_chat": (10.0, 1.0), "report_hand": (5.0, 1 / 60), "settle_up": (5.0, 0.2),
    "seat_request": (5.0, 0.2), "sit": (10.0, 0.2),
}
"""Per name (all its channels together, :mod:`hosting.budgets`), ``(burst, per second)`` of the messages that cost
everyone else or the disk, far below the connection's overall rate: lobby chat reaches every player in the room,
table chat a whole table, and a report writes a hand's whole history to the database; a settle-up reads the ledger
and searches transfers in a worker thread (unlimited, a flood queued work without end); a seat request
(``approve_seats``) reaches every host's screen; a sit (at a table or a pool) and its leave are two ledger rows on
disk. Past it the message is refused (``rate_limited``)."""

class Transport(Protocol):
    """One client connection as the room sees it."""

    def send(self, message: Mapping[str, Any]) -> None: ...

    def close(self, reason: str) -> None: ...


@dataclass
class Session:
    """One connection (one channel) asking for a name: its key, address, transport, pending gates, and what it
    watches. It holds the name (``bound``) only once its key is the name's key and every gate is passed; until
    then it sees nothing of the name (balance, seats, cards, requests) and displaces nobody."""

    name: str
    public_key: str
    transport: Transport
    new_name: bool = False
    needs: tuple[str, ...] = ()
    watching: set[str] = field(default_factory=set)
    address: str = "unknown"
    bound: bool = False
    """In :attr:`Room.sessions` under its name: the room and the table runners send it the name's messages."""
    ended: bool = False
    """Closed, refused or displaced: whatever it still sends is dropped."""
    wrong_answers: int = 0
    invite: str | None = None
    """The invite code its ``auth`` gave (a new name's registration counts against it)."""
    wants_host_status: bool = False
    """No host yet, it asked to follow the host's status (its Host screen is open, refused): a host making him one
    starts it at once (:meth:`Room._host_made`)."""
    served: bool = False
    """A plain-ssh player's screen: his client runs on the host's machine (:mod:`hosting.pty_session`)."""
    features: frozenset[str] = frozenset()
    """What the client said it can do in its ``hello`` (``"host-blind"``)."""
    limits: dict[str, TokenBucket] = field(default_factory=dict)
    """The buckets of the messages with a limit of their own (:data:`MESSAGE_LIMITS`): the name's, shared by
    all its channels (:class:`hosting.budgets.Budget`)."""

    @property
    def authenticated(self) -> bool:
        return self.bound

    @property
    def login(self) -> Login:
        return Login(self.name, self.public_key, self.address)

    def send(self, message: Mapping[str, Any]) -> None:
        self.transport.send(message)


class HandDriver(Protocol):
    """What a table runner offers the room (``hosting.table_runner.TableRunner``)."""

    def handle(self, session: Session, message: Inbound, now: float) -> None:
        """Act on ``action``/``commit``/``reveal``/``verification``; raise :class:`RoomError` to refuse."""

    def publish(self, events: Iterable[Event]) -> None:
        """Send table events (from a seat change the room made) to the table's audience, as views."""

    def wake(self) -> None:
        """Something changed (a player sat down, sat in): look again whether a hand can start."""

    def dealt_in(self, hand_id: str) -> frozenset[str] | None:
        """Who was dealt into finished hand ``hand_id`` (None: no such recent finished hand here)."""

    def player_returned(self, name: str) -> None:
        """``name`` connected again (e.g. back in if sat out for a shuffle step missed while he was gone)."""

    def player_chose(self, name: str) -> None:
        """``name`` sat out or in himself: his own choice from now on."""

    def sit_in_refusal(self, name: str, now: float) -> str | None:
        """Why ``name`` may not sit in yet (he keeps missing the shuffle), else ``None``."""

    def leave_in_hand(self, name: str) -> bool:
        """Whether the driver takes ``name``'s leave during his hand itself (host-blind: his fold goes through
        the hand's transcript); the room then acknowledges it as a leave after the hand."""

    def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def finish(self) -> None:
        """Stop once the hand in play (its shuffle included) has ended."""


DriverFactory = Callable[["Room", "TableState"], HandDriver | None]


def _refill_refusal(account: PlayMoneyAccount, refusal: BankrollError, now: float) -> str:
    """The bankroll's refusal in words a player can use (its times are the room clock's, not his)."""
    if account.pending_refills:
        minutes = max(1, round((account.pending_refills[0][0] - now) / 60))
        return f"a refill is already on its way: it arrives in about {minutes} min"
    if account.refills_left_today(now) == 0:
        return f"at most {account.policy.max_refills_per_day} refills a day: try again tomorrow"
    return str(refusal)


HOST_BLIND_ONLY = "host_blind_only"


def refuse_host_blind_seat(table: TableState, session: Session | None) -> None:
    """At a host-blind table only a ``croupier join`` client that takes part in the dealing may sit: a plain-ssh
    player's screen runs on the host's machine, so his cards would show there (the promise cannot hold)."""
    if table.config.host_blind:
        refuse_host_blind_player(table.config.id, "sit there", session)


def refuse_host_blind_player(place: str, what: str, session: Session | None) -> None:
    """At a host-blind table, pool or tournament (``place``) only a ``croupier join`` client that takes part in
    the dealing may ``what`` (sit there, join it, register)."""
    if session is None or session.served:
        raise RoomError(HOST_BLIND_ONLY, f"{place} deals host-blind: only players connected with "
                                         f"'croupier join' can {what} (with plain ssh your cards would be "
                                         "drawn on the host's machine)")
    if protocol.HOST_BLIND_FEATURE not in session.features:
        raise RoomError(HOST_BLIND_ONLY, f"{place} deals host-blind: your client cannot take part; "
                                         "update croupier and connect with 'croupier join'")


def engine_refusal(problem: Exception) -> RoomError:
    """An engine exception as the room's refusal, with a code a client can branch on."""
    codes = [(AlreadySeated, ALREADY_SEATED), (TableFull, TABLE_FULL), (NotSeated, NOT_SEATED),
             (HandInProgress, "hand_in_progress"), (InvalidAmount, BAD_AMOUNT), (TableRuleError, "table_rule")]
    code = next((code for kind, code in codes if isinstance(problem, kind)), "table_rule")
    return RoomError(code, str(problem))


class Room:
    """The room's state and its message handlers. One instance per ``croupier host``."""

    def __init__(self, config: RoomConfig, room_id: str, gatekeeper: Gatekeeper,
                 clock: Callable[[], float] = time.monotonic, driver_factory: DriverFactory | None = None,
                 store: Store | None = None) -> None:
        self.config = config
        self._store = store
        self.room_id = room_id
        self.gatekeeper = gatekeeper
        self.clock = clock
        self.sessions: dict[str, Session] = {}
        self.live = LiveViews(self._lobby_view, self.balance_of, self._status_view)
        """The lobby and the host's status, pushed to their followers when they change (hosting.live)."""
        self.cash = CashTables(store, self, self._publish)  # the owner of the room file's tables
        self.tables: dict[str, TableState] = {}
        self.owners: dict[str, TableOwner] = {}
        self.drivers: dict[str, HandDriver] = {}
        self._driver_factory = driver_factory
        self._started = False
        for table in config.tables:
            self.add_table(table)
        self.draws: dict[str, DrawRound] = {}  # commit–reveal draws running with players (a Spin's multiplier)
        self.pools: dict[str, PoolOwner] = {}  # fast-fold pools (R-FAST-1): they add their tables as they need
        if driver_factory is not None:
            for pool in config.pools:
                self.pools[pool.id] = PoolOwner(pool, self, store, self.cash, self._publish)
        self.verification_reports = VerdictBook()  # clients' verdicts, bounded (hosting.verdicts)
        self.finished_hands = FinishedHands()  # who may give a verdict on which hand, tables closed or not
        self.shuffles_asked = ShufflesAsked()  # whose late commits and reveals are a slow link's, not abuse
        self.budgets = BudgetBook()  # what each name may spend, across its channels (hosting.budgets)
        self.settle_ups: SettleUpAnswers | None = None  # made with the first request (the store's directory)
        self.play_money = PlayMoneyPolicy()  # refills (R-PLAY-1); the rulebook's numbers
        self._bank_accounts: dict[str, PlayMoneyAccount] = {}  # refill history per player (this run)
        self.registered_tonight: set[str] = set()  # names registered since the room opened (spectator control)
        self.console = HostConsole(self, hosts=config.hosts, approve_seats=config.approve_seats,
                                   data_dir=store.data_dir if store is not None else None,
                                   pinned=frozenset(config.access.pinned_keys))
        self.room_file_tables = {table.id: table for table in (*config.tables, *(pool.table for pool in config.pools))}
        """The tables (and fast-fold pools) as room.toml describes them (the host's changes since are their
        configs)."""
        self.console.restore_levels(self.room_file_tables)
        gatekeeper.banned = self.console.ban_reason
        gatekeeper.host_names = self.console.hosts
        gatekeeper.host_key_confirmed = self.console.is_host
        gatekeeper.host_key_refused = self.console.host_key_refused
        gatekeeper.reset_code_matches = self.console.reset_code_matches
        self.cash.waiting_changes = self.console.between_hands
        self.tournaments = TournamentDesk(config.tournaments, self, lambda: self._store, self._publish)
        """The room's tournaments (issue 18): they add and remove their tables while the room runs."""
        self.console.on_change = self.live.changed
        self.console.on_host_made = self._host_made

    @property
    def store(self) -> Store | None:
        """Balances, ledger, hands, chat, reports (hosting.store); None: nothing is kept."""
        return self._store

    @store.setter
    def store(self, store: Store | None) -> None:
        self._store = store
        self.cash.store = store  # the cash tables keep their hands and chips there too

    def start(self) -> None:
        """Start every table's runner (inside the event loop)."""
        self._started = True
        self.live.start()
        for driver in self.drivers.values():
            driver.start()
        if self._driver_factory is not None:  # tournaments deal through runners
            self.tournaments.start()

    async def stop(self) -> None:
        if self.settle_ups is not None:
            self.settle_ups.close()
        await self.live.stop()
        await self.tournaments.stop()
        for driver in list(self.drivers.values()):  # a tournament's finished tables may leave meanwhile
            await driver.stop()

    # --- tables come and go --------------------------------------------------------------------------------

    def add_table(self, config: TableConfig, owner: TableOwner | None = None, engine: Table | None = None,
                  ) -> TableState:
        """A table joins the room (at start-up, or while it runs: a tournament's new table, a host's new game):
        owned by ``owner`` (default: the room's cash tables), its engine table built from ``config`` unless
        given (another policy), its runner started if the room is running. :class:`RoomError`
        (``table_exists``, ``bad_config``)."""
        if config.id in self.tables:
            raise RoomError("table_exists", f"there is already a table {config.id!r}")
        state = TableState(config, engine if engine is not None else build_engine_table(config))
        owner = owner if owner is not None else self.cash
        owner.adopt(state)
        state.kind = owner.kind
        self.tables[config.id], self.owners[config.id] = state, owner
        driver = self._driver_factory(self, state) if self._driver_factory is not None else None
        if driver is not None:
            self.drivers[config.id] = driver
            if self._started:
                driver.start()
        log.info("table added: %s (%s)", config.id, owner.kind)
        self.live.changed()
        return state

    async def remove_table(self, table_id: str) -> list[Event]:
        """Take ``table_id`` away: no new hand starts, the hand in play (its shuffle included) ends first, then
        every player left is stood up with his stack (to where its owner sends chips: a cash table's balance),
        and its watchers and players are told (``table_closed``). Returns the seat events. :class:`RoomError`
        (``no_such_table``)."""
        state = self.table(table_id)
        state.closing = True
        driver = self.drivers.get(table_id)
        if driver is not None:
            await driver.finish()
        audience = list(self.audience(state))
        events: list[Event] = []
        for seated in sorted(state.engine.players.values(), key=lambda seated: seated.seat):
            events += state.engine.leave(seated.player, self.clock())
        owner = self.owners[table_id]
        release_chips(owner, state, events)
        del self.tables[table_id], self.owners[table_id]
        self.drivers.pop(table_id, None)
        owner.release(state)
        closed = protocol.message("table_closed", table=table_id)
        for listener in audience:
            listener.watching.discard(table_id)
            listener.send(closed)
        log.info("table removed: %s", table_id)
        self.live.changed()
        return events

    # --- the runners' mailroom (hosting.owner.Mailroom) -----------------------------------------------------

    def send_to(self, name: str, message: Mapping[str, Any]) -> None:
        """``message`` to ``name``'s connection, if he is connected."""
        session = self.sessions.get(name)
        if session is not None:
            session.send(message)

    def connected(self, name: str) -> bool:
        return name in self.sessions

    def tell_chips_kept(self) -> None:
        """The room is closing: each player connected is told, before his ``bye``, the chips he still has at a
        cash table (``table_left``) or a fast-fold pool (``pool_left``, its tables' chips included). The store
        keeps them (a hand in play counts at its start) and the next start gives them back to his balance
        (R-CRASH-1); the ledger counts them as cashed out, and so does his result."""
        if self.store is None:
            return
        for name, session in list(self.sessions.items()):
            kept: dict[tuple[str, str], int] = {}
            for table_id, chips in self.store.stacks_of(name).items():
                pool = self.pool_of(table_id)
                if pool is not None:
                    kept[("pool_left", pool.id)] = kept.get(("pool_left", pool.id), 0) + chips
                elif self.owners.get(table_id) is self.cash:
                    kept[("table_left", table_id)] = chips
            for (kind, place), chips in sorted(kept.items()):
                session.send(protocol.message(kind, **{"pool" if kind == "pool_left" else "table": place},
                                              chips=chips))

    def hand_finished(self, table: str, hand: str, dealt_in: Iterable[str]) -> None:
        self.finished_hands.add(table, hand, dealt_in)

    def shuffle_asked(self, table: str, hand: str, players: Iterable[str]) -> None:
        self.shuffles_asked.asked(table, hand, players)

    def owner_of(self, table: TableState) -> TableOwner:
        return self.owners[table.config.id]

    def names_with_key(self, public_key: str) -> list[str]:
        """Every name registered to ``public_key`` (one player's names: a ban of his key reaches them all)."""
        try:
            return self.gatekeeper.accounts.names_with_key(public_key)
        except ValueError:
            return []

    @staticmethod
    def _player_id(session: Session) -> str:
        """Who ``session`` is beyond its name, for a pool's one-seat-per-hand rule: its key (one key's names are
        one player)."""
        try:
            return f"key:{normalize_key(session.public_key)}"
        except ValueError:
            return ""

    def _refuse_banned(self, name: str) -> None:
        """A banned name sits nowhere (a seat, a pool, a waiting list, a tournament, an approved request)."""
        session = self.sessions.get(name)
        if self.console.ban_reason(name, session.public_key if session is not None else "") is not None:
            raise RoomError("banned", "the host banned you from this room")

    # --- connections -------------------------------------------------------------------------------------

    def connect(self, login: Login, transport: Transport) -> Session:
        """A channel opened on an SSH login: check its key against the name again (it may have been registered
        since the login), greet it (``hello``), and let it hold the name at once if no gate remains. Its
        per-kind limits are the name's (:mod:`hosting.budgets`), whatever channel or login it comes on."""
        decision = self.gatekeeper.check_key(login.name, login.public_key)
        session = Session(login.name, login.public_key, transport, new_name=decision.new_name,
                          needs=decision.needs, address=login.address,
                          limits=self.budgets.of(login.name, login.public_key, self.clock()).limits)
        if not decision.allowed:
            security_log.warning("refused a channel: %s: %s", login.describe(), decision.reason)
            self._refuse(session, decision.reason)
            return session
        refusal = self.gatekeeper.registration_refusal(decision, login.address, None, self.clock())
        if refusal is not None:  # the address registered its hour's new names since its login
            security_log.warning("refused a channel: %s: %s", login.describe(), refusal)
            self._refuse(session, refusal)
            return session
        if session.needs:  # nothing of the name until every gate is passed
            session.send(protocol.hello(room=self.config.name, room_id=self.room_id, name=login.name,
                                        registered=False, needs=session.needs))
            return session
        registered = self._claim(session)
        if registered is None:
            return session
        session.send(protocol.hello(room=self.config.name, room_id=self.room_id, name=login.name,
                                    registered=registered, balance=self.balance_of(login.name)))
        self._welcome(session)
        return session

    def inbound_stream(self, session: Session, limits: Limits) -> InboundStream:
        """The reader of one of ``session``'s channels: its message rate and error budget are the name's, shared
        by all its channels (a new channel is no new budget, issue 25 item 3)."""
        now = self.clock()
        budget = self.budgets.of(session.name, session.public_key, now)
        return InboundStream(now, limits, messages=budget.messages, errors=budget.errors)

    def holds_name(self, login: Login) -> bool:
        """Whether ``login``'s key holds its name here now (a session of it passed every gate)."""
        session = self.sessions.get(login.name)
        return session is not None and session.bound and session.public_key == login.public_key

    def _refuse(self, session: Session, reason: str, code: str | None = None) -> None:
        session.ended = True
        session.send(protocol.bye(reason, code))
        session.transport.close(reason)

    def _claim(self, session: Session) -> bool | None:
        """Every gate passed: check the key once more, register a new name, displace the name's previous
        session, and bind this one. Whether it registered the name; ``None`` if refused (session closed)."""
        decision = self.gatekeeper.check_key(session.name, session.public_key)
        registered = False
        try:
            if not decision.allowed:
                raise ValueError(decision.reason)
            if decision.new_name:
                was_reset = self.gatekeeper.accounts.key_was_reset(session.name)
                self.gatekeeper.register(session.name, session.public_key, time.time(), address=session.address,
                                         invite=session.invite, at=self.clock())
                registered = True
                self.registered_tonight.add(session.name)
                if was_reset:  # its owner gave the reset's code (a gate): spent
                    self.console.reset_code_used(session.name)
        except ValueError as refusal:
            security_log.warning("refused a login: %s: %s", session.login.describe(), refusal)
            if session.needs:  # its auth is answered, then the bye
                session.send(protocol.auth_result(False, str(refusal)))
            self._refuse(session, str(refusal))
            return None
        previous = self.sessions.get(session.name)
        if previous is not None:
            security_log.warning("kicked the previous session of %s (from %s): logged in again",
                                 session.login.describe(), previous.address)
            previous.send(protocol.bye("logged in from another connection"))
            previous.transport.close("logged in from another connection")
            self.disconnect(previous)
        session.new_name = False
        session.bound = True
        self.sessions[session.name] = session
        self.live.changed()
        log.info("joined: %s%s", session.login.describe(), " (a new name, its key registered)" if registered else "")
        return registered

    def pool_of(self, table_id: str) -> PoolOwner | None:
        """The pool ``table_id`` names (its id, or one of its tables), or None."""
        return next((pool for pool in self.pools.values() if pool.owns(table_id)), None)

    def _welcome(self, session: Session) -> None:
        """A session just bound to its name: notices kept for it, and its seats back (reconnected)."""
        name = session.name
        self.console.remember_pinned_host(session)
        if self.console.unconfirmed_host(session):
            self.console.ask_to_vouch(session)
        for pool in self.pools.values():
            pool.connected(name)
        self.tournaments.connected(name)
        if self.store is not None:  # e.g. hands voided by a restart (R-CRASH-1)
            for text in self.store.pending_notices(name):
                session.send(protocol.message("notice", text=text))
            for control in self.store.pending_messages(name):  # what the words say, as fields to act on
                session.send(control)
            self.store.notices_delivered(name)
        for table in self.tables.values():
            if table.engine.seat_of(name) is not None:
                self._publish(table, table.engine.reconnect(name, self.clock()))
                driver = self.drivers.get(table.config.id)
                if driver is not None:  # e.g. sat out for a commitment missed while he was gone
                    driver.player_returned(name)

    def disconnect(self, session: Session) -> None:
        """Forget a closed connection (its seats stay: the table runner decides about away players, R-DISC-1)."""
        session.ended = True
        self.live.forget(session)
        self.live.changed()
        if self.sessions.get(session.name) is session:
            log.info("left: %s from %s (connection closed)", session.name, session.address)
            del self.sessions[session.name]
            self.console.forget_requests(session.name)  # a seat request dies with its asker's connection
            for pool in self.pools.values():
                pool.disconnected(session.name)
            for table in self.tables.values():
                if table.engine.seat_of(session.name) is not None:
                    self._publish(table, table.engine.disconnect(session.name, self.clock()))
        session.bound = False
        for table_id in list(session.watching):
            self.tables[table_id].watchers.discard(session.name)
        session.watching.clear()

    # --- routing -----------------------------------------------------------------------------------------

    def feed(self, session: Session, stream: InboundStream, data: bytes) -> None:
        """One read of a connection's bytes: each message to :meth:`receive`, each bad line answered. Refusals
        spend the connection's error budget like bad lines; when it runs out, ``bye`` and the channel closes."""
        now = self.clock()
        for item in stream.feed(data, now).items:
            if isinstance(item, ProtocolError):
                session.send(item.reply())
            elif self.receive(session, item) and stream.refused(now, item.type):
                break  # the budget ran out: the rest of the read is not handled
            if session.ended:
                break
        if protocol.HOST_BLIND_FEATURE in session.features and not session.served:
            stream.allow_long_lines(protocol.HOST_BLIND_LINE_BYTES)  # a shuffle with its proof is one long line
        if stream.disconnect_reason is not None and not session.ended:
            security_log.warning("disconnected %s: %s", session.login.describe(), stream.disconnect_reason)
            self._refuse(session, stream.disconnect_reason)

    def receive(self, session: Session, message: Inbound) -> bool:
        """Handle one validated inbound message; refusals become ``error`` replies. Whether it was refused (a
        refusal or a wrong ``auth``: they count against the connection's error budget) — a slow link's late commit
        or reveal for a shuffle that asked this player is refused but not counted (:mod:`hosting.late_answers`)."""
        if session.ended:
            return False  # displaced or closed: it speaks for nobody any more
        now = self.clock()
        try:
            if not session.bound and not isinstance(message, Hello | Auth | Ping):
                raise RoomError(AUTH_REQUIRED, f"send \"auth\" first: this room needs {', '.join(session.needs)}")
            handler = self._handlers().get(type(message))
            if handler is None:  # pragma: no cover - every inbound type has a handler
                raise RoomError(protocol.UNKNOWN_TYPE, f"no handler for {message.type}")
            handler(session, message, now)
            if not isinstance(message, Ping | LobbyRequest):
                self.live.changed()  # a seat, a watcher, a request, a registration: the lobby may show it
        except RoomError as refusal:
            session.send(protocol.error(refusal.code, str(refusal), in_reply_to=message.type))
            return not self._late_answer(session, message, refusal.code, now)
        except Exception:  # a bug: the host's log gets the traceback, the player a line, the room goes on
            log.exception("error handling %s from %s", message.type, session.name)
            session.send(protocol.error(INTERNAL_ERROR, "the room could not do that (an error on the host's side, in "
                                        "its log)", in_reply_to=message.type))
            return False
        return isinstance(message, Auth) and not session.bound

    def _late_answer(self, session: Session, message: Inbound, code: str, now: float) -> bool:
        """Whether a refused commit or reveal is a slow link's late answer to a shuffle or a draw that asked this
        player, within his allowance (hosting.late_answers): then it does not spend his error budget."""
        if isinstance(message, Commit | Reveal):
            table, hand = message.table, message.hand
        elif isinstance(message, DrawCommit | DrawReveal):
            table, hand = DRAWS_ASKED, message.draw
        else:
            return False
        return self.shuffles_asked.forgiven(session.limits, table, hand, session.name, code, now)

    def _handlers(self) -> dict[type[Inbound], Callable[[Session, Any, float], None]]:
        return {
            Hello: self._hello, Auth: self._auth, Ping: self._ping, LobbyRequest: self._lobby,
            Watch: self._watch, Unwatch: self._unwatch, Sit: self._sit, Leave: self._leave,
            SitOut: self._sit_out, WaitForBigBlind: self._wait_for_big_blind, AutoMuck: self._auto_muck,
            ShowCards: self._show_cards, TopUp: self._top_up, AutoTopUpRequest: self._auto_top_up,
            WaitingList: self._waiting_list, Chat: self._chat,
            ActionMessage: self._to_driver, Commit: self._to_driver, Reveal: self._to_driver,
            BlindSeat: self._to_driver, BlindEntry: self._to_driver, BlindComplaint: self._to_driver,
            DrawCommit: self._to_draw, DrawReveal: self._to_draw,
            VerificationReport: self._verification, ReportHand: self._report_hand, Refill: self._refill,
            HostRequest: self._host, SettleUpRequest: self._settle_up, RabbitHunt: self._rabbit_hunt,
            ChooseGame: self._choose_game, PlayerNotesRequest: self._player_notes,
            TournamentRequest: self._tournament,
        }

    def table(self, table_id: str) -> TableState:
        table = self.tables.get(table_id)
        if table is None:
            raise RoomError(NO_SUCH_TABLE, f"there is no table {table_id!r}; ask for the lobby to see the tables")
        return table

    def audience(self, table: TableState) -> Iterator[Session]:
        """Everyone who hears a table: its seated players and its watchers, once each."""
        names = {seated.player for seated in table.engine.players.values()} | table.watchers
        for name in sorted(names):
            session = self.sessions.get(name)
            if session is not None:
                yield session

    def _publish(self, table: TableState, events: list[Event]) -> None:
        driver = self.drivers.get(table.config.id)
        if driver is not None:
            driver.publish(events)  # the runner gives returned chips to the table's owner
            driver.wake()
        else:
            release_chips(self.owners[table.config.id], table, events)
            self.broadcast_table(table)

    def _check_balance(self, name: str, amount: int) -> None:
        if self.store is not None and amount > self.store.balance(name):
            raise RoomError(BAD_AMOUNT, f"you have {self.store.balance(name)} chips in the bank, not {amount}")

    def _engine(self, table: TableState, change: Callable[[Table], list[Event]]) -> list[Event]:
        """Apply a seat change to the engine's table; engine refusals become :class:`RoomError`."""
        try:
            events = change(table.engine)
        except (TableRuleError, InvalidAmount) as problem:
            raise engine_refusal(problem) from None
        self._publish(table, events)
        return events

    def broadcast_table(self, table: TableState) -> None:
        message = protocol.shared(protocol.table_state(table.snapshot()))
        for session in self.audience(table):
            session.send(message)
        self.live.changed()  # its lobby row and the host's status show it too

    def publish_seat_change(self, table: TableState, events: list[Event]) -> None:
        """Seat changes the host made (a kick): published, chips settled, as a player's own."""
        self._publish(table, events)

    def publish_level_change(self, table: TableState, events: list[Event]) -> None:
        """The host's new forced bets (``level_changed``): to the table as typed events, like its own."""
        self._publish(table, events)

    def close_session(self, session: Session, reason: str, code: str | None = None) -> None:
        """End ``session`` (kicked, banned, its key reset): ``bye`` with ``reason`` (and ``code``), then
        forgotten."""
        self._refuse(session, reason, code)
        self.disconnect(session)

    # --- the host console (hosting.admin) and the settle-up (hosting.settle_up) ---------------------------

    def _host(self, session: Session, message: HostRequest, now: float) -> None:
        if not self.console.is_host(session.name, session.public_key):
            security_log.warning("refused a host action (%s) from a player who is no host: %s", message.action,
                                 session.login.describe())
            if message.action == "status" and "follow" in message.args:  # his Host screen opened, or closed
                session.wants_host_status = message.args["follow"] is True
            raise RoomError("not_host", "only the room's hosts can do that")
        try:
            request = parse_request({**message.args, "action": message.action})
            if request.action == "status":  # the Host screen follows it while open (hosting.live)
                self.live.send_status(session, request.get("follow"))
                return
            reply = self.console.perform(session.name, request, now)
        except AdminRefusal as refusal:
            raise RoomError(refusal.code, str(refusal)) from None
        session.send(protocol.message("host_reply", action=message.action, **reply))

    def _host_made(self, name: str) -> None:
        """A host made ``name`` one: his Host screen, if it is open (refused so far), gets the status and follows
        it from now on, as if just opened."""
        session = self.sessions.get(name)
        if session is not None and session.wants_host_status and self.console.is_host(name, session.public_key):
            session.wants_host_status = False
            self.live.send_status(session, True)

    def _settle_up(self, session: Session, message: SettleUpRequest, now: float) -> None:
        """Every player may see the settle-up of a session (it is the table's own business, as at home). The room
        computes one at a time and shares a fresh one (hosting.settle_up_answers): it costs a worker thread."""
        if self.store is None:
            raise RoomError("no_bank", "this room keeps no ledger")
        self._spend(session, "settle_up", now)
        if self.settle_ups is None:
            data_dir = self.store.data_dir
            self.settle_ups = SettleUpAnswers(lambda wanted, at: _read_settle_up(data_dir, wanted, at), self.clock)

        def answer(result: dict[str, Any] | None, problem: BaseException | None) -> None:
            if result is not None:
                session.send(protocol.message("settle_up", **result))
            else:
                session.send(protocol.error("no_session", str(problem).strip("'\""), in_reply_to="settle_up"))

        self.settle_ups.ask(message.session, answer)

    # --- handlers ----------------------------------------------------------------------------------------

    def _hello(self, session: Session, message: Hello, now: float) -> None:
        session.features = frozenset(message.features)
        session.send(protocol.ack("hello", name=session.name))

    def _ping(self, session: Session, message: Ping, now: float) -> None:
        session.send(protocol.pong(message.id))

    def _auth(self, session: Session, message: Auth, now: float) -> None:
        """The room's gates (password, invite code), against online guessing: a wrong answer counts for the
        connection (closed after :data:`WRONG_ANSWERS_PER_CONNECTION`) and for its address (a growing wait)."""
        if session.bound:
            session.send(protocol.auth_result(True))
            return
        guesses = self.gatekeeper.guesses
        # a registered name's key has passed the gates before: its wrong answers are counted for that key, not
        # for its address, so a stranger guessing behind the same NAT or tunnel does not lock its owner out
        guesser, whose = (session.address, "address") if session.new_name else (f"key {session.public_key}", "key")
        wait = guesses.wait(guesser, now)
        if wait > 0:
            session.send(protocol.auth_result(False, f"too many wrong answers from your {whose}: try again in "
                                                     f"{math.ceil(wait)} s"))
            return
        problem = self.gatekeeper.check_gates(message.password, message.invite, session.needs, session.name)
        session.invite = message.invite if "invite" in session.needs else None
        if problem is not None:
            session.wrong_answers += 1
            count = guesses.wrong(guesser, now)
            security_log.warning("wrong room gate answer (%s; %d from this %s, %d on this connection): %s",
                                 problem, count, whose,
                                 session.wrong_answers, session.login.describe())
            session.send(protocol.auth_result(False, problem))
            if session.wrong_answers >= WRONG_ANSWERS_PER_CONNECTION:
                security_log.warning("closed after %d wrong answers: %s", session.wrong_answers,
                                     session.login.describe())
                self._refuse(session, f"{session.wrong_answers} wrong answers: connect again to try again")
            return
        guesses.right(guesser)
        registered = self._claim(session)
        if registered is None:
            return
        session.needs = ()
        session.send(protocol.auth_result(True, "your key is now registered for this name" if registered else None))
        balance = self.balance_of(session.name)
        if balance is not None:  # kept from the hello until now
            session.send(protocol.balance(balance, "login"))
        self._welcome(session)

    def _lobby(self, session: Session, message: LobbyRequest, now: float) -> None:
        """The lobby (:meth:`_lobby_view`, with the player's balance); ``follow``: pushed again whenever it
        changes (hosting.live)."""
        self.live.send_lobby(session, message.follow)

    def _lobby_view(self) -> dict[str, Any]:
        """Tables (a pool's own tables are not listed: players join the pool; a tournament's are listed under
        it), pools (R-FAST-1) and tournaments (R-LOBBY-1)."""
        now = self.clock()
        reply = protocol.lobby([table.summary(now) for table in self.tables.values()
                                if self.pool_of(table.id) is None and table.kind != "tournament"])
        reply["tournaments"] = self.tournaments.rows()
        if self.pools:
            reply["pools"] = [pool.summary(now) for pool in self.pools.values()]
        return reply

    def _status_view(self) -> dict[str, Any]:
        """The host console's status as the Host screen gets it (``host_reply``, ``action: status``)."""
        reply = self.console.perform(ADMIN, AdminRequest("status", {}), self.clock())
        return protocol.message("host_reply", action="status", **reply)

    def _tournament(self, session: Session, message: TournamentRequest, now: float) -> None:
        """A tournament request (hosting.tournament_desk): ``state`` answers with the ``tournament`` message,
        the others with an ``ack``."""
        if message.action == "state" and not self.tournaments.state_now(session.name, message.tournament, now):
            return  # asked too often: answered once, a little later
        if message.action == "register":
            self._refuse_banned(session.name)
            owner = self.tournaments.owners.get(message.tournament)
            if owner is not None and owner.config.host_blind:
                refuse_host_blind_player(message.tournament, "register", session)
        key_names = self.gatekeeper.accounts.names_with_key(session.public_key) if message.action == "register" else []
        reply = self.tournaments.handle(session.name, message.action, message.tournament, message.password,
                                        message.deal, message.pay, key=session.public_key, now=now,
                                        key_names=key_names, address=session.address,
                                        host=self.console.is_host(session.name, session.public_key))
        session.send(reply if message.action == "state" else protocol.ack("tournament", action=message.action,
                                                                          **reply))

    def _refuse_tournament_table(self, table: TableState, what: str) -> None:
        """A tournament's seats are the director's: nobody sits, leaves or tops up there himself."""
        if table.kind == "tournament":
            raise RoomError("table_rule", f"{table.id} is a tournament table: {what} (the tournament seats you)")

    # --- the bank: balance and play-money refills (R-PLAY-1) -----------------------------------------

    def balance_of(self, name: str) -> int | None:
        """``name``'s chips in the bank (not at tables); ``None`` when the room keeps no balances."""
        return self.store.balance(name) if self.store is not None else None

    def _refill(self, session: Session, message: Refill, now: float) -> None:
        if self.store is None:
            raise RoomError("no_bank", "this room keeps no balances: there is nothing to refill")
        name = session.name
        account = self._bank_accounts.setdefault(name, PlayMoneyAccount(name, self.play_money, 0))
        account.balance = self.store.balance(name)
        at_tables = sum(table.engine.player(name).stack for table in self.tables.values()
                        if table.engine.seat_of(name) is not None)
        try:
            requested = account.request_refill(now, chips_at_tables=at_tables)
        except BankrollError as refusal:
            raise RoomError("refill_refused", _refill_refusal(account, refusal, now)) from None
        delay = requested.arrives_at - now
        asyncio.get_running_loop().call_later(delay, self._refill_arrives, name)
        session.send(protocol.ack("refill", amount=requested.amount, arrives_in=round(delay, 3)))

    def _refill_arrives(self, name: str) -> None:
        account = self._bank_accounts.get(name)
        if account is None or self.store is None:
            return
        account.balance = self.store.balance(name)
        for arrived in account.collect_refills(self.clock()):
            self.store.issue(name, arrived.amount, "refill")
            session = self.sessions.get(name)
            if session is not None:
                session.send(protocol.balance(self.store.balance(name), "refill"))

    def _watch(self, session: Session, message: Watch, now: float) -> None:
        table = self.table(message.table)
        refusal = self.console.may_watch(session, table.config.id)
        if refusal is not None:
            raise RoomError("not_allowed", refusal)
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
        self._spend(session, "sit", now)
        self._refuse_banned(session.name)
        pool = self.pool_of(message.table)
        if pool is not None:  # join the pool (a seat at one of its tables is the pool's to give)
            if message.table != pool.id:
                raise RoomError("table_rule", f"{message.table} is a table of pool {pool.id}: join the pool")
            if self.console.wants_approval(session):  # approve_seats: the host lets him into the pool (or not)
                self._check_balance(session.name, message.buy_in)
                pool.verify_join(session.name, message.buy_in)
                self._spend(session, "seat_request", now)
                try:
                    self.console.request_seat(session, pool.id, message.buy_in, None, now)
                except AdminRefusal as refusal:
                    raise RoomError(refusal.code, str(refusal)) from None
                return
            session.send(protocol.ack("sit", **self.join_pool(session.name, pool, message.buy_in, now)))
            return
        table = self.table(message.table)
        self._refuse_tournament_table(table, "register for the tournament instead")
        refuse_host_blind_seat(table, session)
        twin = twin_of(session.name, self.names_with_key(session.public_key),
                       lambda other: table.engine.seat_of(other) is not None
                       or (table.id, other) in self.console.seat_requests)
        if twin is not None:  # one player with two seats would see two hands at one table
            raise RoomError("table_rule", f"{twin}, a name of the same key, sits at {table.id}: one player, one seat")
        if self.console.wants_approval(session):  # approve_seats: the host says yes (with a stack) or no
            self._check_balance(session.name, message.buy_in)
            try:
                table.engine.verify_sit(session.name, message.buy_in, seat=message.seat)
            except (TableRuleError, InvalidAmount) as problem:
                raise engine_refusal(problem) from None
            self._spend(session, "seat_request", now)
            try:
                self.console.request_seat(session, table.config.id, message.buy_in, message.seat, now)
            except AdminRefusal as refusal:
                raise RoomError(refusal.code, str(refusal)) from None
            return
        seat = self.seat_player(session.name, table, message.buy_in, message.seat, now)
        session.send(protocol.ack("sit", table=table.config.id, seat=seat, stack=message.buy_in))

    def join_pool(self, name: str, pool: PoolOwner, buy_in: int, now: float) -> dict[str, Any]:
        """``name`` joins ``pool`` with ``buy_in`` chips from his bank (his sit, or the host's approval); the
        ``sit`` ack's fields. :class:`RoomError` when he cannot (nothing changed)."""
        self._refuse_banned(name)
        session = self.sessions.get(name)
        if pool.config.table.host_blind:
            refuse_host_blind_player(pool.id, "join it", session)
        return pool.join(name, buy_in, now, player_id=self._player_id(session) if session is not None else "")

    def seat_player(self, name: str, table: TableState, buy_in: int, seat: int | None, now: float) -> int:
        """Seat ``name`` with ``buy_in`` chips from his bank (his sit, or the host's approval); his seat.
        :class:`RoomError` when he cannot sit (nothing changed)."""
        self._refuse_banned(name)
        refuse_host_blind_seat(table, self.sessions.get(name))
        self._check_balance(name, buy_in)
        self._engine(table, lambda engine: engine.sit(name, buy_in, now, seat=seat))
        if self.store is not None:
            self.store.buy_in(table.config.id, name, buy_in)
        chosen = table.engine.seat_of(name)
        assert chosen is not None
        return chosen

    def _leave(self, session: Session, message: Leave, now: float) -> None:
        pool = self.pool_of(message.table)
        if pool is not None:  # leaving a pool's table is leaving the pool
            session.send(protocol.ack("leave", **pool.leave(session.name)))
            return
        table = self.table(message.table)
        self._refuse_tournament_table(table, "your seat is kept until you are out (R-TOUR-6)")
        seat = table.engine.seat_of(session.name)
        driver = self.drivers.get(table.config.id)
        if driver is not None and driver.leave_in_hand(session.name):  # host-blind: his fold goes through the hand
            session.send(protocol.ack("leave", table=table.config.id, seat=seat, chips=None, after_hand=True))
            return
        events = self._engine(table, lambda engine: engine.leave(session.name, now))
        chips = sum(event.amount for event in events
                    if isinstance(event, ChipsReturned) and event.player == session.name)
        # "after the hand" only while the seat is still his: a leave in his hand whose fold ended it (one player
        # left) freed the seat at once, and a client told otherwise waits for a seat change that came already
        after_hand = table.engine.seat_of(session.name) is not None
        session.send(protocol.ack("leave", table=table.config.id, seat=seat, chips=None if after_hand else chips,
                                  after_hand=after_hand))
        for event in events:
            if isinstance(event, SeatFreed) and event.offered_to is not None:
                waiting = self.sessions.get(event.offered_to)
                if waiting is not None:
                    waiting.send(protocol.message("seat_available", table=table.config.id, seat=event.seat))

    def _sit_out(self, session: Session, message: SitOut, now: float) -> None:
        pool = self.pool_of(message.table)
        if pool is not None:
            pool.sit_out(session.name, message.on, now)
            session.send(protocol.ack("sit_out", table=pool.id, on=message.on))
            return
        table = self.table(message.table)
        name = session.name
        driver = self.drivers.get(table.config.id)
        refusal = None if message.on or driver is None else driver.sit_in_refusal(name, now)
        if refusal is not None and table.engine.seat_of(name) is not None:
            raise RoomError("too_soon", refusal)
        self._engine(table, lambda engine: engine.sit_out(name, now) if message.on else engine.sit_in(name, now))
        if driver is not None:
            driver.player_chose(name)
        session.send(protocol.ack("sit_out", table=table.config.id, on=message.on))

    def _wait_for_big_blind(self, session: Session, message: WaitForBigBlind, now: float) -> None:
        table = self.table(message.table)
        choice = BlindChoice.WAIT_FOR_BIG_BLIND if message.on else BlindChoice.POST
        self._engine(table, lambda engine: engine.set_blind_choice(session.name, choice))
        session.send(protocol.ack("wait_for_big_blind", table=table.config.id, on=message.on))

    def _auto_muck(self, session: Session, message: AutoMuck, now: float) -> None:
        table = self.table(message.table)
        self._engine(table, lambda engine: engine.set_auto_muck(session.name, message.on))
        session.send(protocol.ack("auto_muck", table=table.config.id, on=message.on))

    def _show_cards(self, session: Session, message: ShowCards, now: float) -> None:
        table = self.table(message.table)
        self._engine(table, lambda engine: engine.show_after_win(session.name, message.parsed()))
        session.send(protocol.ack("show_cards", table=table.config.id))

    def _rabbit_hunt(self, session: Session, message: RabbitHunt, now: float) -> None:
        table = self.table(message.table)  # R-HOME-2: the engine's table says whether and what
        self._engine(table, lambda engine: engine.rabbit_hunt(session.name))
        session.send(protocol.ack("rabbit_hunt", table=table.config.id))

    def _choose_game(self, session: Session, message: ChooseGame, now: float) -> None:
        table = self.table(message.table)  # R-MIX-2: the mixed tables say whether it is his pick
        name = self.cash.mixed.pick(table, message.game, session.name, host=False)
        session.send(protocol.ack("choose_game", table=table.config.id, game=name))

    def _player_notes(self, session: Session, message: PlayerNotesRequest, now: float) -> None:
        """A player's own notes on others (hosting.player_notes): his file, by his session's name, never another's."""
        if self.store is None:
            raise RoomError("no_notes", "this room keeps no notes (it has no data directory)")
        try:
            notes = RoomNotes(self.store.data_dir / "player-notes").of(session.name)
            if message.player is not None:
                notes.set(message.player, message.tag, message.note)
        except ValueError as problem:
            raise RoomError("bad_note", str(problem)) from None
        session.send(protocol.message("notes", notes=notes.to_json()))

    def _top_up(self, session: Session, message: TopUp, now: float) -> None:
        pool = self.pool_of(message.table)
        if pool is not None:
            session.send(protocol.ack("top_up", **pool.top_up(session.name, message.amount)))
            return
        table = self.table(message.table)
        self._refuse_tournament_table(table, "chips come by rebuy or add-on")
        self._check_balance(session.name, message.amount)
        self._engine(table, lambda engine: engine.top_up(session.name, message.amount, now))
        if self.store is not None:
            self.store.buy_in(table.config.id, session.name, message.amount, "top-up")
        session.send(protocol.ack("top_up", table=table.config.id, stack=table.engine.player(session.name).stack))

    def _auto_top_up(self, session: Session, message: AutoTopUpRequest, now: float) -> None:
        """The player's auto top-up / auto rebuy order at a cash table he sits at (R-BUYIN-1): checked against the
        table's buy-in limits, carried out by its owner between his hands (:meth:`CashTables.set_order`)."""
        if self.pool_of(message.table) is not None:
            raise RoomError("table_rule", "auto top-up is for cash tables; a fast-fold pool asks at each buy-in")
        table = self.table(message.table)
        self._refuse_tournament_table(table, "chips come by rebuy or add-on")
        if self.owners[table.config.id] is not self.cash:
            raise RoomError("table_rule", "auto top-up is for the room's cash tables")
        order = AutoTopUp(below=message.below, rebuy=message.rebuy, to=message.to)
        try:
            self.cash.set_order(table, session.name, order)
        except (TableRuleError, InvalidAmount) as problem:
            raise engine_refusal(problem) from None
        session.send(protocol.ack("auto_top_up", table=table.config.id, below=order.below, rebuy=order.rebuy,
                                  to=order.to))

    def _waiting_list(self, session: Session, message: WaitingList, now: float) -> None:
        table = self.table(message.table)
        name = session.name
        if message.on:
            self._refuse_banned(name)
            self._engine(table, lambda engine: engine.join_waiting_list(name))
        else:
            self._engine(table, lambda engine: engine.leave_waiting_list(name))
        waiting = table.engine.waiting_list.players
        position = waiting.index(name) + 1 if name in waiting else None
        session.send(protocol.ack("waiting_list", table=table.config.id, on=message.on, position=position))

    def _spend(self, session: Session, kind: str, now: float) -> None:
        """One ``kind`` message (:data:`MESSAGE_LIMITS`) from ``session``, or a ``rate_limited`` refusal."""
        burst, rate = MESSAGE_LIMITS[kind]
        bucket = session.limits.setdefault(kind, TokenBucket(burst, rate, now))
        if not bucket.take(now):
            wait = max(1, round((1 - bucket.tokens(now)) / rate))
            what = {"report_hand": "reports", "settle_up": "settle-up requests",
                    "seat_request": "seat requests", "sit": "sits"}.get(kind, "chat messages")
            raise RoomError(protocol.RATE_LIMITED, f"too many {what}: wait {wait} s")

    def _chat(self, session: Session, message: Chat, now: float) -> None:
        self._spend(session, "lobby_chat" if message.table is None else "table_chat", now)
        if message.table is not None:
            self.table(message.table)
        refusal = self.console.may_chat(session.name, message.table, session.public_key)
        if refusal is not None:
            raise RoomError("chat_off", refusal)
        text = clean_text(message.text)
        if not text:
            raise RoomError(protocol.BAD_FIELD, "chat text is empty once control characters are removed")
        outbound = protocol.shared(protocol.chat(sender=session.name, text=text, table=message.table,
                                                 at=round(time.time(), 3)))
        if message.table is None:
            listeners: list[Session] = [other for other in self.sessions.values() if other.authenticated]
        else:
            table = self.table(message.table)
            if table.engine.seat_of(session.name) is None and session.name not in table.watchers:
                raise RoomError(NOT_SEATED, f"sit at or watch {table.config.id} to chat there")
            listeners = list(self.audience(table))
        if self.store is not None:
            self.store.chat(session.name, message.table, text)
        for listener in listeners:
            listener.send(outbound)

    def _to_driver(self, session: Session,
                   message: ActionMessage | Commit | Reveal | BlindSeat | BlindEntry | BlindComplaint,
                   now: float) -> None:
        pool = self.pools.get(message.table)
        if pool is not None and isinstance(message, Commit):  # a commitment made ahead for the next hand
            pool.commit(session.name, message.hand, message.commitment)
            session.send(protocol.ack("commit", table=pool.id, hand=message.hand))
            return
        table = self.table(message.table)
        driver = self.drivers.get(table.config.id)
        if driver is None:
            raise RoomError(NO_HAND, f"no hand is running at {table.config.id}")
        driver.handle(session, message, now)

    def _to_draw(self, session: Session, message: DrawCommit | DrawReveal, now: float) -> None:
        draw = self.draws.get(message.draw)
        if draw is None:
            raise RoomError(NO_HAND, f"no draw {message.draw} is running")
        part = {"commitment": message.commitment} if isinstance(message, DrawCommit) else {"secret": message.secret}
        draw.receive(session.name, {"type": message.type, "draw": message.draw, **part})
        session.send(protocol.ack(message.type, draw=message.draw))

    async def run_draw(self, draw_id: str, outcomes: Outcomes, players: Sequence[str],
                       seconds: DrawSeconds | None = None, *, publish: bool = True) -> DrawProof:
        """A commit–reveal draw from ``outcomes`` with ``players`` (hosting.draw_round: a Spin's multiplier when
        it fills); the proof, for the tournament's record (``publish``: false to keep it before the players are sent
        it, :meth:`hosting.draw_round.DrawRound.run`). ``ValueError`` if that draw is already running."""
        if draw_id in self.draws:
            raise ValueError(f"draw {draw_id} is already running")
        self.draws[draw_id] = DrawRound(self, draw_id, outcomes, players, seconds=seconds or DrawSeconds())
        self.shuffles_asked.asked(DRAWS_ASKED, draw_id, players)
        try:
            return await self.draws[draw_id].run(publish=publish)
        finally:
            del self.draws[draw_id]

    def _verification(self, session: Session, message: VerificationReport, now: float) -> None:
        """A client's verdict on a finished hand: accepted once, from a player dealt into it — also when its
        table has closed since (a tournament's, broken or finished: the verdict follows the proof over the
        network); kept typed and, when the check failed, relayed typed to the table if it is still here
        (hosting.verdicts: never the client's words)."""
        dealt_in = self.finished_hands.dealt_in(message.table, message.hand)
        if dealt_in is None:
            raise RoomError(NO_HAND, f"hand {message.hand} is not a recent finished hand of {message.table}")
        table = self.tables.get(message.table)
        if session.name not in dealt_in:
            raise RoomError("not_dealt_in", f"you were not dealt into hand {message.hand}: only its players report")
        violations = typed_violations(message.violations)
        verdict = Verdict(message.table, message.hand, session.name, message.ok and not violations,
                          tuple(violations))
        if not self.verification_reports.add(verdict):
            raise RoomError("already_reported", f"you already sent your verdict on hand {message.hand}")
        if not verdict.ok:  # a failed check is everyone's business: tell the whole table (DESIGN.md step 5)
            security_log.warning("fairness check failed: %s reports hand %s at %s: %s", session.name,
                                 message.hand, message.table,
                                 ", ".join(item["kind"] for item in violations) or "no detail")
            alarm = protocol.verification_result(message.table, message.hand, session.name, False, violations)
            for listener in self.audience(table) if table is not None else ():
                listener.send(alarm)
        driver = self.drivers.get(message.table)
        if driver is not None:
            driver.handle(session, message, now)
        session.send(protocol.ack("verification", table=message.table, hand=message.hand))

    def _report_hand(self, session: Session, message: ReportHand, now: float) -> None:
        """R-AUDIT-1: store the report with the hand's full history; ack with the report id once it is kept."""
        if self.store is None:
            raise RoomError(NO_HAND, "this room keeps no hand records, so hands cannot be reported here")
        self._spend(session, "report_hand", now)
        future = self.store.report_hand(session.name, message.hand, clean_text(message.reason))
        if future is None:  # written at once (no writer task running)
            session.send(protocol.ack("report_hand", hand=message.hand))
            return

        def reported(done: Any) -> None:
            problem = done.exception()
            if problem is None:
                session.send(protocol.ack("report_hand", hand=message.hand, report=done.result()))
            else:
                code = problem.code if isinstance(problem, ReportRefused) else NO_HAND
                session.send(protocol.error(code, str(problem).strip("'\""), in_reply_to="report_hand"))

        future.add_done_callback(reported)


def _read_settle_up(data_dir: Path, wanted: str | None, now: float) -> dict[str, Any]:
    """A session's settle-up from its own read-only connection (in a worker thread: the room never waits)."""
    connection = connect(data_dir, read_only=True)
    try:
        return read_settle_up(connection, wanted, now)
    finally:
        connection.close()
