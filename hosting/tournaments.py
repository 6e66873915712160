"""A tournament in the room (issue 18): its director (:mod:`engine.tournament`) as the owner of its tables
(:class:`hosting.owner.TableOwner`; DESIGN.md "Owners, not special cases").

* **Tables.** The director decides seats, stacks, levels, moves and table breaks on its own
  :class:`~engine.tournament.table.TournamentTable` s; each has a room table ``<tournament>.<number>`` (a neutral
  engine table with :class:`~engine.table.tournament.TournamentPolicy`) whose runner deals its hands — the
  commit–reveal deal, the clocks, each player's view — exactly as at any table. After every step of the director
  the room's tables are made to mirror its tables (:meth:`TournamentOwner.sync`): players moved in and out with
  their stacks, tables added and removed while the room runs. A level up sets each table once
  (:meth:`TournamentOwner._set_level`): its ``LevelChanged`` is the one message players get of it.
* **Hands.** :meth:`may_start_hand` asks the director (breaks, hand-for-hand, a deal on the table);
  :meth:`hand_started` tells it who was dealt in (they move nowhere until the hand ends); :meth:`hand_finished`
  gives it the finishing stacks by seat: eliminations, prizes, balancing follow.
* **Time.** A :class:`TournamentClock` runs while the room runs; the room ticks every tournament each second
  (levels, breaks, late registration, a scheduled start). After a restart the clock continues where it stopped:
  levels pause while the room is down.
* **Money.** :mod:`hosting.tournament_money` turns the director's money events into ledger rows; each step's rows
  and what changed the director's state are one store transaction (:meth:`hosting.store.Store.tournament_step`),
  so a prize is paid exactly once whenever the room is killed.
* **State.** Not the director's whole state each step (at 3,000 entries that encoding was most of the room's
  work): the calls that changed it since the last step (:mod:`engine.tournament.journal`), and a snapshot of it
  when the calls written since the last one outweigh it (:meth:`_keep`); both typed, versioned records written and
  read back by :mod:`hosting.tournament_state`.
* **Messages.** :mod:`hosting.tournament_messages`: the lobby row, the tournament screen, and each director event
  as a typed ``tournament_event`` to the players it concerns.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from engine.errors import HandInProgress, InvalidAmount, NotSeated, TableRuleError
from engine.events import Event, HandEnded
from engine.fair_draw import DrawProof, Outcomes
from engine.fairness import Transcript
from engine.table import Stakes, Table
from engine.table.tournament import TournamentPolicy
from engine.table_events import HandPlanned
from engine.tournament.deals import DealKind
from engine.tournament.director import Phase, Tournament
from engine.tournament.events import Credited, LevelUp, RebuyOffered, TournamentStarted
from engine.tournament.formats import Format
from engine.tournament.journal import Journal
from engine.tournament.levels import Level
from engine.tournament.money import Balance, Free, Payment, Ticket
from engine.tournament.table import TournamentTable
from hosting import protocol
from hosting.config import TableConfig
from hosting.draw_round import DrawSeconds, proof_message
from hosting.engine_tables import build_engine_table
from hosting.errors import RoomError
from hosting.hand_records import TOURNAMENT_TAG, hand_outcome, tournament_tag
from hosting.owner import Mailroom, TableOwner
from hosting.spin_start import seats_draw_id, seats_outcomes, spin_draw_id, spin_outcomes, start_with_proof
from hosting.store import hand_start_of, table_settings
from hosting.tables import TableState
from hosting.tournament_config import TournamentConfig
from hosting.tournament_guard import DealGuard
from hosting.tournament_messages import event_messages, lobby_row, state_body
from hosting.tournament_money import MoneyBook
from hosting.tournament_state import encode_calls, encode_snapshot, load_director
from hosting.tournament_wakes import changed_tables

if TYPE_CHECKING:
    from hosting.store import Store

log = logging.getLogger("croupier.room")

Publish = Callable[[TableState, list[Event]], None]
"""Sends a table's events to its audience and wakes its runner (the room's)."""

TOURNAMENT_REFUSED = "tournament_rule"
ACTION_SECONDS = 20.0
TIME_BANK_SECONDS = 30.0
REBUY_DECISION_SECONDS = 15.0
"""How long a table waits for a busted player offered a rebuy to say yes or no (TDA: rebuys before the next hand);
unanswered, he is out when the next hand is dealt."""
FULL_SYNC_SECONDS = 30.0
"""Each step mirrors the tables it changed; every table is mirrored again this often, a safety net that finds
(and logs) a table a step missed. At 3,000 entries it touches 334 tables: every 5 s it was 1.5% of the steps
and the director's p99; every 30 s it stays out of the p99."""
SNAPSHOT_MIN_BYTES = 256 * 1024
SNAPSHOT_RATIO = 4
"""A snapshot of the director is written when the calls written since the last one weigh more than it
``SNAPSHOT_RATIO`` times (and at least ``SNAPSHOT_MIN_BYTES``): the snapshots' cost per step stays constant whatever
the field's size (at 3,000 entries ~5 ms, once in ~500 steps: ``tests/benchmarks/tournament_state.py``), and a
restart replays at most that many bytes of calls (~0.5 s)."""


class SystemDraw:
    """The fair draw for seats, tables and buttons (:data:`engine.tournament.seating.Draw`): the system's secure
    random source. The director's stored state never holds its draw: a restored director gets a new one."""

    def __call__(self, choices: int) -> int:
        return secrets.randbelow(choices)


class TournamentClock:
    """Seconds that run while the room runs: the wall clock plus an ``offset``. A tournament restored after a
    restart continues from the time it was saved (:meth:`resume_from`): its levels paused while the room was
    down."""

    def __init__(self, wall: Callable[[], float] = time.time, offset: float = 0.0) -> None:
        self.wall = wall
        self.offset = offset

    def now(self) -> float:
        return self.wall() + self.offset

    def resume_from(self, saved: float) -> None:
        """Continue from ``saved`` (the tournament clock when its state was written)."""
        self.offset = saved - self.wall()


class TimedJournal(Journal):
    """The director's calls noted, and the time they took (:attr:`TournamentOwner.step_seconds` counts it)."""

    __slots__ = ("_began", "seconds")

    def __init__(self) -> None:
        super().__init__()
        self.seconds = 0.0
        self._began = 0.0

    def began(self) -> None:
        self._began = time.perf_counter()

    def ended(self) -> None:
        self.seconds += time.perf_counter() - self._began

    def take_seconds(self) -> float:
        """The time of the calls since the last take."""
        seconds, self.seconds = self.seconds, 0.0
        return seconds


class TournamentRoom(Mailroom, Protocol):
    """The room as a tournament sees it: a mailroom that adds and removes tables."""

    def add_table(self, config: TableConfig, owner: TableOwner | None = None, engine: Table | None = None,
                  ) -> TableState: ...

    def remove_table(self, table_id: str) -> Awaitable[list[Event]]: ...

    async def run_draw(self, draw_id: str, outcomes: Outcomes, players: Sequence[str],
                       seconds: DrawSeconds | None = None, *, publish: bool = True) -> DrawProof: ...


def stakes_of(level: Level) -> Stakes:
    """A director's level as the forced bets of a room table."""
    return Stakes(level.small_blind, level.big_blind, ante=level.ante, big_blind_ante=level.big_blind_ante,
                  bring_in=level.bring_in)


class TournamentOwner:
    """One tournament of the room. ``room``: where its tables live and its messages go; ``store``: its money and
    state (None: nothing is kept — practice); ``publish``: table events out (the room's)."""

    kind = "tournament"

    def __init__(self, config: TournamentConfig, room: TournamentRoom, store: Store | None, publish: Publish, *,
                 clock: TournamentClock | None = None, director: Tournament | None = None) -> None:
        self.config = config
        self.room = room
        self.store = store
        self.publish = publish
        self.clock = clock if clock is not None else TournamentClock()
        self.on_started: Callable[[TournamentOwner], None] | None = None
        """Called once when the tournament starts (the room opens the next recurring Sit & Go)."""
        self.tables: dict[int, TableState] = {}
        self._closing: set[int] = set()
        self._held: set[int] = set()  # tables whose players are held for a hand about to be dealt
        self._offers: dict[int, float] = {}  # entry → when (room clock) he was offered a rebuy
        self.rebuy_decision_seconds = REBUY_DECISION_SECONDS
        self._after_hand: dict[int, list[tuple[str, str]]] = {}  # table → (player, rebuy/add_on) asked in a hand
        self._tasks: set[asyncio.Task[Any]] = set()
        self._hand_levels: dict[int, int] = {}  # table → the level its running hand was dealt at
        self._hand_heads: dict[int, dict[int, int]] = {}  # table → seat → bounty on him as its hand was dealt
        self._draw_attempts = 0
        self.drawing = False  # its start (a Spin's multiplier, the first seats) is being drawn with its players
        self.draw_seconds: DrawSeconds | None = None  # the draw's deadlines (None: a hand's)
        self.deals = DealGuard()  # a deal cannot hold the final table still (hosting.tournament_guard)
        if director is None:
            director = Tournament(config.settings, SystemDraw())
            director.open_registration(self.clock.now())
        self.director = director
        self.journal: TimedJournal | None = None
        """The calls that changed the director since its state was last kept (None: nothing is kept)."""
        if store is not None:
            self.journal = TimedJournal()
            director.journal = self.journal
            if director.phase is Phase.REGISTERING and not director.seats_by_draw:
                director.seat_by_draw()  # first seats by commit–reveal with the players (practice: no need)
        self._snapshot_due = True  # a tournament's first step kept (this run's) is a snapshot
        self._written_since_snapshot = 0
        self._snapshot_bytes = 0
        self._synced_all = 0.0
        self.money = MoneyBook(director, config.id)
        self.steps = 0
        self.step_seconds: list[float] = []
        """How long each director step took: the director's calls since the step before (timed by the journal,
        when one is kept), then its money and state kept, its sync and messages (the benchmark's
        ``director_step_ms``)."""
        self.step_cpu_seconds: list[float] = []
        """The same steps' CPU time in the room's thread (on a shared machine the wall time includes waiting; the
        director's calls before a step count by their wall time: a CPU clock read per call costs a system call)."""

    @property
    def id(self) -> str:
        return self.config.id

    def table_id(self, number: int) -> str:
        """The room table of the director's table ``number``."""
        return f"{self.id}.{number}"

    def number_of(self, table: TableState) -> int:
        return int(table.id.rsplit(".", 1)[1])

    @property
    def over(self) -> bool:
        return self.director.phase in (Phase.COMPLETE, Phase.CANCELLED)

    # --- restore (R-CRASH-1) ------------------------------------------------------------------------------

    @classmethod
    def restore(cls, config: TournamentConfig, room: TournamentRoom, store: Store | None, publish: Publish,
                state: bytes, saved_clock: float, steps: Sequence[bytes] = ()) -> TournamentOwner:
        """A tournament as the store kept it: its snapshot ``state`` with its ``steps`` since replayed
        (:func:`hosting.tournament_state.load_director`). The hand that ran at each of its tables is void (its
        chips are as before it: the director only takes a hand's stacks when it ends); its clock continues from
        ``saved_clock`` once it has started (its levels paused while the room was down)."""
        director = load_director(state, steps, name=f"tournament {config.id}", draw=SystemDraw())
        clock = TournamentClock()
        if director.started_at is not None:
            clock.resume_from(saved_clock)
        owner = cls(config, room, store, publish, clock=clock, director=director)
        for number in list(director.tables):
            director.hand_voided(number)  # noted: the first step kept (a snapshot) holds it
        return owner

    def saved_config(self) -> str:
        return json.dumps({"name": self.config.name, "recurring": self.config.recurring,
                           "cancel_refund": self.config.cancel_refund})

    # --- the room's ticks and players' requests ----------------------------------------------------------

    def start(self) -> None:
        """The room runs: open the director's tables (a restored tournament's) and keep the state."""
        self._step([])

    def tick(self) -> None:
        """The room's clock tick: what time brings (levels, breaks, late registration, a scheduled start)."""
        if self.over:
            return
        if self._spin_full() and not self.drawing:
            self._draw_spin()  # a restored Spin that was full (the room stopped during its draw), or a failed draw
        if self._seats_due() and not self.drawing:
            self._draw_seats()  # its start time came (or a failed draw, drawn again)
        self._expire_deal()
        events = self.director.tick(self.clock.now())
        if events:
            self._step(events)
        elif self.room.clock() - self._synced_all >= FULL_SYNC_SECONDS:
            self._sync_all()

    def _sync_all(self) -> None:
        """Every table mirrored again: steps mirror only the tables they changed; one missed would show here."""
        started = time.perf_counter()
        started_cpu = time.thread_time()
        changed = self.sync()
        if changed:
            log.warning("tournament %s: %d table(s) differed from the director's between steps", self.id, changed)
        self.step_seconds.append(time.perf_counter() - started)  # counted with the steps: the room's work
        self.step_cpu_seconds.append(time.thread_time() - started_cpu)

    def register(self, name: str, password: str | None, pay: str | None = None) -> dict[str, Any]:
        """``name`` takes an entry (a freeroll: free) paid by ``pay``: ``ticket`` (one he won for this
        tournament), ``balance``, or by default a ticket when he holds one; the ``ack``'s fields."""
        director = self.director
        if self.drawing and director.phase is Phase.REGISTERING:
            raise RoomError(TOURNAMENT_REFUSED, "the first seats are being drawn with the players in: try again "
                                                "in a few seconds")
        payment = self._payment(name, pay)
        events = self._ask(lambda: director.register(name, payment, self.clock.now(), password=password))
        self._step(events)
        if self._spin_full():
            self._draw_spin()  # the multiplier is drawn when the three are in, with them (commit–reveal)
        elif self._seats_due() and not self.drawing:
            self._draw_seats()  # a Sit & Go just filled: its first seats are drawn with its players
        paid = "ticket" if isinstance(payment, Ticket) else "free" if isinstance(payment, Free) else "balance"
        return {"tournament": self.id, "registered": len(director.entries), "paid": paid}

    def _payment(self, name: str, pay: str | None) -> Payment:
        director = self.director
        if director.settings.is_freeroll:
            return Free()
        price = director.settings.price.total
        held = self.store.tickets(name).get(self.id, 0) if self.store is not None else 0
        if pay == "ticket" or (pay is None and held >= price):
            if held < price:
                raise RoomError("bad_amount", f"the entry costs {price}; your tickets for {self.id} are worth {held}")
            return Ticket(price, f"{self.id}:{name}", self.id)  # one entry's worth of what he holds for it
        if self.store is not None and price > self.store.balance(name):
            raise RoomError("bad_amount", f"the entry costs {price}; you have {self.store.balance(name)} in the bank")
        return Balance()

    def _spin_full(self) -> bool:
        director = self.director
        return director.settings.format is Format.SPIN and director.phase is Phase.REGISTERING \
            and len(director.entries) == director.settings.sit_and_go_size

    def _seats_due(self) -> bool:
        director = self.director
        return director.seats_by_draw and director.due_to_start(self.clock.now())

    def _draw_spin(self) -> None:
        """Draw the multiplier (and the first seats) with the registered players' clients, then start: the
        proof kept with the tournament's state (:mod:`hosting.spin_start`). Registration is frozen meanwhile."""
        self._draw_start(spin_draw_id(self.id), spin_outcomes(self.director), self._spin_full)

    def _draw_seats(self) -> None:
        """Any other tournament: draw the first seats and button with the registered players' clients by the same
        commit–reveal, then start from the proof's key; the proof kept with the tournament and exported."""
        self._draw_start(seats_draw_id(self.id), seats_outcomes(self.director), self._seats_due)

    def _draw_start(self, base_id: str, outcomes: Outcomes, still_due: Callable[[], bool]) -> None:
        self.drawing = True
        self._draw_attempts += 1  # a draw again (after a failure) has its own id: clients commit afresh

        async def draw() -> None:
            try:
                director = self.director
                players = list(dict.fromkeys(entry.player for entry in director.entries.values()))
                draw_id = base_id + (f".{self._draw_attempts}" if self._draw_attempts > 1 else "")
                proof = await self.room.run_draw(draw_id, outcomes, players, self.draw_seconds, publish=False)
                if not still_due():
                    return  # cancelled meanwhile
                director.keep_proof(proof.to_json())
                kept = self._step(start_with_proof(director, proof, self.clock.now()))
                if kept is not None:
                    await kept  # stored with the start before anyone sees it: a restart cannot draw again
                for name in players:
                    self.room.send_to(name, proof_message(proof))
            except Exception:  # the next clock tick draws again: nobody saw this draw's result
                log.exception("tournament %s: the start's draw failed", self.id)
            finally:
                self.drawing = False

        task = asyncio.get_running_loop().create_task(draw())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def unregister(self, name: str) -> dict[str, Any]:
        if self.drawing:
            what = "the Spin is drawing its multiplier" if self.director.settings.format is Format.SPIN else \
                "the first seats are being drawn"
            raise RoomError(TOURNAMENT_REFUSED, f"{what}: its players are in")
        events = self._ask(lambda: self.director.unregister(name, self.clock.now()))
        self._step(events)
        ticket = any(isinstance(event, Credited) and event.as_ticket is not None for event in events)
        return {"tournament": self.id, "registered": len(self.director.entries),
                "refunded": "ticket" if ticket else "balance"}

    def rebuy(self, name: str) -> dict[str, Any]:
        return self._buy(name, "rebuy")

    def add_on(self, name: str) -> dict[str, Any]:
        return self._buy(name, "add_on")

    def _buy(self, name: str, what: str) -> dict[str, Any]:
        """A rebuy or the add-on; asked during his hand, it is made when the hand ends (TDA: chips are added
        between hands) — the ``ack`` says ``after_hand``, and a refusal then comes as an ``error``."""
        entry = self._live_entry(name)
        if (name, what) in self._after_hand.get(self.director.entries[entry].table or 0, ()):
            return {"tournament": self.id, "after_hand": True}  # asked again while it waits: the same request
        settings = self.director.settings
        extra = settings.rebuys if what == "rebuy" else settings.add_on
        self._check_balance(name, 0 if extra is None else extra.price + extra.fee)
        director = self.director
        buy = director.rebuy if what == "rebuy" else director.add_on
        try:
            events = buy(entry, Balance(), self.clock.now())
        except HandInProgress:
            table = director.entries[entry].table
            assert table is not None
            self._after_hand.setdefault(table, []).append((name, what))
            return {"tournament": self.id, "after_hand": True}
        except (TableRuleError, NotSeated, InvalidAmount, ValueError) as refusal:
            raise RoomError(TOURNAMENT_REFUSED, str(refusal)) from None
        self._step(events)
        return {"tournament": self.id, "stack": director.stack_of(entry)}

    def _buys_after_hand(self, number: int) -> None:
        for name, what in self._after_hand.pop(number, []):
            try:
                reply = self._buy(name, what)
            except RoomError as refusal:
                self.room.send_to(name, protocol.error(refusal.code, str(refusal), in_reply_to="tournament"))
            else:
                self.room.send_to(name, protocol.ack("tournament", action=what, **reply))

    def decline_rebuy(self, name: str) -> dict[str, Any]:
        entry = self._live_entry(name)
        self._step(self._ask(lambda: self.director.decline_rebuy(entry, self.clock.now())))
        return {"tournament": self.id}

    def propose_deal(self, name: str, kind: str) -> dict[str, Any]:
        try:
            deal_kind = DealKind(kind)
        except ValueError:
            raise RoomError("bad_value", f"a deal is {', '.join(item.value for item in DealKind)}, not {kind!r}") \
                from None
        self.deals.may_propose(name)
        self._step(self._ask(lambda: self.director.propose_deal(name, deal_kind)))
        self.deals.proposed(name, self.room.clock())
        return {"tournament": self.id}

    def _expire_deal(self) -> None:
        """A deal unanswered for ``deals.seconds`` is off: the first finalist who did not accept declines it."""
        deal = self.director.deal_on_table
        if not self.deals.expired(deal is not None, self.room.clock()) or deal is None:
            return
        silent = min(entry for entry in deal[1] if entry not in deal[2])
        player = self.director.entries[silent].player
        self._step(self._ask(lambda: self.director.decline_deal(player)))

    def answer_deal(self, name: str, accept: bool) -> dict[str, Any]:
        director = self.director
        self._step(self._ask(lambda: director.accept_deal(name) if accept else director.decline_deal(name)))
        return {"tournament": self.id}

    def cancel(self, how: str | None = None) -> list[Event]:
        """The host cancels: before the start every entry is refunded; once running, the pool left is split by
        the tournament's ``cancel_refund`` (or ``how``: ``equal`` / ``chips``)."""
        director = self.director
        if director.playing:
            events = self._ask(lambda: director.cancel_running(how or self.config.cancel_refund))
        else:
            events = self._ask(lambda: director.cancel("cancelled by the host"))
        self._step(events)
        return events

    def state(self, name: str | None) -> dict[str, Any]:
        """The tournament screen for ``name`` (:func:`hosting.tournament_messages.state_body`)."""
        return state_body(self, name, self.clock.now())

    def summary(self) -> dict[str, Any]:
        return lobby_row(self, self.clock.now())

    def _ask(self, change: Callable[[], list[Event]]) -> list[Event]:
        try:
            return change()
        except (TableRuleError, NotSeated, InvalidAmount, ValueError) as refusal:
            raise RoomError(TOURNAMENT_REFUSED, str(refusal)) from None

    def _live_entry(self, name: str) -> int:
        live = [entry.number for entry in self.director.entries_of(name) if entry.live]
        if not live:
            raise RoomError(TOURNAMENT_REFUSED, f"{name} has no entry in play in {self.id}")
        return live[-1]

    def _check_balance(self, name: str, cost: int) -> None:
        if self.store is not None and cost > self.store.balance(name):
            raise RoomError("bad_amount", f"that costs {cost}; you have {self.store.balance(name)} in the bank")

    # --- one step: money, tables, messages, the state kept ------------------------------------------------

    def _step(self, events: Sequence[Event], at: int | None = None) -> Awaitable[Any] | None:
        """After the director changed: its money to the ledger, the room's tables to mirror its tables, the
        players told, the state kept (one store transaction with the money). ``at``: the table whose hand ended
        (its players hear its busts in a large field: :func:`hosting.tournament_messages.event_messages`)."""
        started, started_cpu = time.perf_counter(), time.thread_time()
        directed = self.journal.take_seconds() if self.journal is not None else 0.0
        moves = self.money.moves(events)
        future = self._keep(moves)  # first: the money and the state of this moment, whatever follows
        for event in events:
            if isinstance(event, RebuyOffered):
                self._offers[event.entry] = self.room.clock()
        changed = changed_tables(self.director, events, at) if events else None  # none: a start, a restore
        self.sync(changed)
        if any(isinstance(event, LevelUp) for event in events):
            self._set_level()
        for name, message in event_messages(self, events, at):
            self.room.send_to(name, message)
        if self.store is not None:
            for name in sorted({item.player for item in moves if item.player is not None and "balance" in
                                (item.source, item.destination)}):
                self.room.send_to(name, protocol.balance(self.store.balance(name), "tournament"))
        for number in self.tables if changed is None else sorted(changed & self.tables.keys()):
            self.publish(self.tables[number], [])  # wakes its runner: a break, hand-for-hand or a deal may have ended
        self.steps += 1
        self.step_seconds.append(directed + time.perf_counter() - started)
        self.step_cpu_seconds.append(directed + time.thread_time() - started_cpu)
        if any(isinstance(event, TournamentStarted) for event in events) and self.on_started is not None:
            self.on_started(self)
        return future

    def _keep(self, moves: list[Any]) -> Awaitable[Any] | None:
        """This step's money and what changed the director since the last step: its calls, or a snapshot when
        due (the first step of this run, the end, or the calls since the last one outweigh it)."""
        if self.store is None or self.journal is None:
            return None
        director = self.director
        calls = self.journal.take()
        state: bytes | None = None
        packed: bytes | None = None
        if self._snapshot_due or self.over:
            state = self._snapshot()
        else:
            packed = encode_calls(calls)
            self._written_since_snapshot += len(packed)
            if self._written_since_snapshot > max(SNAPSHOT_MIN_BYTES, SNAPSHOT_RATIO * self._snapshot_bytes):
                state, packed = self._snapshot(), None
        cashier = director.cashier
        future = self.store.tournament_step(self.id, moves, status=director.phase.value, state=state, calls=packed,
                                            clock=self.clock.now(),
                                            money=(cashier.pool, cashier.fees, cashier.bounty_fund),
                                            config=self.saved_config())
        if future is not None:
            future.add_done_callback(self._kept)
        return future

    def _snapshot(self) -> bytes:
        state = encode_snapshot(self.director)
        self._snapshot_due = False
        self._written_since_snapshot = 0
        self._snapshot_bytes = len(state)
        return state

    def _kept(self, future: asyncio.Future[Any]) -> None:
        """A step that failed to be written leaves a gap in the calls: the next step is a snapshot."""
        if future.cancelled() or future.exception() is not None:
            self._snapshot_due = True

    # --- the room's tables mirror the director's ----------------------------------------------------------

    def sync(self, changed: set[int] | None = None) -> int:
        """Every director table (``changed``: those a step changed, :func:`hosting.tournament_wakes.changed_tables`)
        has its room table with the same players in the same seats with the same stacks (between their hands); a
        new one opens at the director's level; a table the director broke leaves the room. How many tables it
        changed."""
        if changed is None:
            self._synced_all = self.room.clock()
        director = self.director
        now = self.room.clock()
        numbers = director.tables.keys() if changed is None else sorted(changed & director.tables.keys())
        differed = 0
        for number in numbers:
            table = director.tables[number]
            state = self.tables.get(number)
            if state is None:
                state = self._open(number, stakes_of(director.level))
            events = _mirror(table, state.engine, now)
            events += self._absent_seated(state.engine, now)
            if events:  # nothing changed here: no table's events to send (:meth:`_step` wakes its runner)
                self.publish(state, events)
                differed += 1
        for number in [number for number in self.tables if number not in director.tables or self.over]:
            self._close(number)  # broken, or the tournament is over: its tables leave the room
        return differed

    def _set_level(self) -> None:
        """The director's clock reached a level (:class:`LevelUp`): each table is set to it once, for its next
        hand, and its one ``LevelChanged`` (naming the level) goes to the table's players and watchers — the only
        message of it (the tournament screen's clock reads it too). A table opened at this level is at it."""
        director = self.director
        stakes = stakes_of(director.level)
        for state in self.tables.values():
            if state.engine.stakes != stakes:
                self.publish(state, state.engine.set_level(stakes, level=director.level_number))

    def _absent_seated(self, engine: Table, now: float) -> list[Event]:
        """R-TOUR-6: a player seated (or moved) while disconnected is absent at that table too: dealt in and
        played for at once, never waited for."""
        events: list[Event] = []
        for seated in list(engine.players.values()):
            if not seated.disconnected and not self.room.connected(seated.player):
                events += engine.disconnect(seated.player, now)
        return events

    def _open(self, number: int, stakes: Stakes) -> TableState:
        settings = self.director.settings
        config = TableConfig(self.table_id(number), f"{self.config.name} — table {number}", settings.variant.id,
                             settings.structure.value, stakes.small_blind or 1, stakes.big_blind or 1,
                             settings.seats_per_table, min_buy_in=1, max_buy_in=1, rake="none",
                             clock={"action_seconds": ACTION_SECONDS, "time_bank_seconds": TIME_BANK_SECONDS},
                             ante=stakes.ante, bring_in=stakes.bring_in,
                             # host-blind: a hand opens only by its owner's choice (or turned up all in)
                             manual_showdown=self.config.host_blind, dealing=self.config.dealing)
        engine = Table(build_engine_table(config).config, policy=TournamentPolicy())
        state = self.room.add_table(config, owner=self, engine=engine)
        self.tables[number] = state
        return state

    def _close(self, number: int) -> None:
        state = self.tables.pop(number)
        state.closing = True
        self._closing.add(number)
        task = asyncio.get_running_loop().create_task(self._remove(number, state.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _remove(self, number: int, table_id: str) -> None:
        try:
            await self.room.remove_table(table_id)
        except Exception:  # the room's log has it; the tournament goes on
            log.exception("tournament %s: removing table %s failed", self.id, table_id)
        finally:
            self._closing.discard(number)

    # --- TableOwner ---------------------------------------------------------------------------------------

    def adopt(self, table: TableState) -> None:
        table.kind = self.kind

    def release(self, table: TableState) -> None:
        pass

    def _release_hold(self, table: TableState) -> None:
        number = self.number_of(table)
        if number in self._held and not table.engine.hand_running:
            self._held.discard(number)  # the last "yes" dealt nothing (someone missed his commitment …)
            self.director.hand_voided(number)

    def between_hands(self, table: TableState) -> None:
        number = self.number_of(table)
        self._release_hold(table)
        director = self.director
        if number in director.tables and not self.over:
            if self._waits_for_rebuy(table, director.tables[number]):
                events = director.tick(self.clock.now())  # a busted player here is still deciding
            else:
                events = director.prepare_hand(number, self.clock.now())
            if events:
                self._step(events, number)

    def may_start_hand(self, table: TableState) -> bool:
        """Yes when the director would deal there now; the table's players are then held for the hand (the
        director moves none of them during the commit–reveal), until it is dealt or given up."""
        number = self.number_of(table)
        director = self.director
        self._release_hold(table)
        if table.closing or number not in director.tables or self.tables.get(number) is not table:
            return False
        if not director.may_start_hand(number, self.clock.now()):
            return False
        mirrored = director.tables[number]
        if self._waits_for_rebuy(table, mirrored):
            return False
        if {seat: seated.player for seat, seated in mirrored.seats.items()} != \
                {seat: seated.player for seat, seated in table.engine.players.items()}:
            return False
        director.hand_dealt(number, [seated.entry for seated in mirrored.seats.values() if seated.stack > 0])
        self._held.add(number)
        return True

    def _waits_for_rebuy(self, table: TableState, mirrored: TournamentTable) -> bool:
        """Whether a busted player here still has time to answer his rebuy offer (the runner is woken then)."""
        now = self.room.clock()
        waiting = [self._offers[seated.entry] + self.rebuy_decision_seconds - now for seated in mirrored.seats.values()
                   if self.director.entries[seated.entry].pending_rebuy and seated.entry in self._offers]
        left = max((seconds for seconds in waiting if seconds > 0), default=0.0)
        if left <= 0:
            return False
        asyncio.get_running_loop().call_later(left, self.publish, table, [])
        return True

    def hand_started(self, table: TableState, hand_id: str, events: Sequence[Event]) -> None:
        """The players actually dealt in are the hand's (the held ones who were not are free again)."""
        number = self.number_of(table)
        self._held.discard(number)
        self.deals.hand_dealt()
        mirrored = self.director.tables.get(number)
        if mirrored is None:
            return
        planned = next((event for event in events if isinstance(event, HandPlanned)), None)
        dealt = set(planned.dealt_in) if planned is not None else set(mirrored.seats)
        self._hand_levels[number] = self.director.level_number  # PokerStars' header: the level it was dealt at
        heads = self.director.bounties.heads
        self._hand_heads[number] = {seat: heads[seated.entry] for seat, seated in mirrored.seats.items()
                                    if heads.get(seated.entry)}  # a knockout's seat lines: ", $5 bounty"
        self.director.hand_voided(number)
        self.director.hand_dealt(number, [seated.entry for seat, seated in mirrored.seats.items() if seat in dealt])

    def hand_finished(self, table: TableState, hand_id: str, events: Sequence[Event],
                      transcript: Transcript | Mapping[str, Any]) -> Awaitable[Any] | None:
        ended = events[-1]
        assert isinstance(ended, HandEnded)
        number = self.number_of(table)
        mirrored = self.director.tables.get(number)
        if mirrored is None or mirrored.external is None:
            log.warning("tournament %s: a hand at %s ended outside the director's play", self.id, table.id)
            return None
        players = {seated.player for seated in mirrored.seats.values()}
        heads = {mirrored.seats[seat].player: amount for seat, amount in self._hand_heads.get(number, {}).items()
                 if seat in mirrored.seats}
        changes = self.director.hand_played(number, dict(ended.stacks), events, self.clock.now(),
                                            table.engine.positions)
        self._keep_hand(table, hand_id, events, transcript, number, hand_outcome(changes, players, heads))
        future = self._step(changes, number)
        self._buys_after_hand(number)
        return future

    def _keep_hand(self, table: TableState, hand_id: str, events: Sequence[Event],
                   transcript: Transcript | Mapping[str, Any], number: int,
                   outcome: Mapping[str, Any] | None = None) -> None:
        """The finished hand to the store for its history and proof, tagged with its tournament and level
        (hosting.hand_records.TOURNAMENT_TAG: exported in PokerStars' tournament layout, no ledger rows) and what
        it decided (``outcome``: bounties taken, places finished, :func:`hosting.hand_records.hand_outcome`)."""
        if self.store is None:
            return
        price = self.director.settings.price
        settings = table_settings(table.config)
        level = self._hand_levels.pop(number, self.director.level_number)
        settings[TOURNAMENT_TAG] = tournament_tag(self.id, price.buy_in, price.fee, price.knockout, level, number,
                                                  self._hand_heads.pop(number, {}), outcome)
        try:
            start = hand_start_of(table.engine, table.id, hand_id, events, time.time(), settings)
            self.store.tournament_hand(start, events, transcript, self.id)
        except (ValueError, StopIteration):  # its history is lost, never the tournament's play
            log.exception("tournament %s: hand %s could not be kept", self.id, hand_id)

    def shuffle_missed(self, table: TableState, player: str) -> None:
        pass  # sat out at the table by its runner

    def commitment_ahead(self, table: TableState, player: str) -> tuple[tuple[str, str], bytes] | None:
        return None  # each hand's commitments are asked in its own commit round

    def events_published(self, table: TableState, events: Sequence[Event]) -> None:
        pass

    def chips_released(self, table: TableState, player: str, amount: int) -> None:
        """Tournament chips never go to a balance (DESIGN.md "Tournament chips are not money")."""
        log.debug("tournament %s: %d chips of %s left table %s (its table closed)", self.id, amount, player,
                    table.id)

    def refunds_at_restart(self, table_id: str) -> bool:
        return False

    def connected(self, name: str) -> None:
        """R-TOUR-6: a player back: he acts for himself again."""
        for entry in self.director.entries_of(name):
            if entry.live:
                self.director.reconnect(entry.number)


def _mirror(table: TournamentTable, engine: Table, now: float) -> list[Event]:
    """``engine`` (the room's table) made to hold ``table``'s players in their seats with their stacks; players
    in a running hand are left alone (the director moves none of them)."""
    events: list[Event] = []
    wanted = {seat: seated for seat, seated in table.seats.items()}
    for seat, seated in list(engine.players.items()):
        target = wanted.get(seat)
        if (target is None or target.player != seated.player) and not engine.in_hand(seated.player):
            events += engine.remove_player(seated.player, now, reason="moved")
    for seat, target in wanted.items():
        present = engine.players.get(seat)
        if present is None:
            if engine.seat_of(target.player) is None:
                events += engine.seat_with_stack(target.player, target.stack, now, seat=seat, reason="tournament")
        elif present.player == target.player and present.stack < target.stack and not engine.in_hand(target.player):
            events += engine.add_chips(target.player, target.stack - present.stack)
    return events
