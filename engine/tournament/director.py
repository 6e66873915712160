"""The tournament director (issue 17): one tournament from announcement to its last prize, pure.

The room calls it with the time (``now``, seconds of any monotonic clock), decks, and a fair
:data:`~engine.tournament.seating.Draw` given at construction; it returns events
(:mod:`engine.tournament.events`, interleaved with the hand events of its tables) and never reads a clock
or a random source. Each concept lives in its own module; this one only sequences them:

* lifecycle — :class:`Phase`: announced → registering → running (↔ break) → final table → complete, or
  cancelled with refunds when a scheduled start has too few players (R-TOUR-1);
* entries and money — :mod:`~engine.tournament.money` (R-TOUR-2);
* levels, breaks, late registration, rebuys, add-on — :mod:`~engine.tournament.levels` (R-TOUR-3);
* seating, balancing, breaking, hand-for-hand — :mod:`~engine.tournament.seating` and
  :mod:`~engine.tournament.table` (R-TOUR-4, TDA);
* places and prizes — :mod:`~engine.tournament.payouts` (R-TOUR-5); bounties —
  :mod:`~engine.tournament.bounties`; deals — :mod:`~engine.tournament.deals`; formats —
  :mod:`~engine.tournament.formats`; R-TOUR-6 — absent players are played for, never removed.

Decisions where RULES.md and the seed are silent (TDA 2022 unless said):

* Simultaneous eliminations at one table: the bigger starting stack finishes higher; equal stacks tie
  (Rule 21). During hand-for-hand, players out in the same round at different tables tie (Rule 21), and a
  round's places are given when every table has played its hand. Tied players share those places' prizes.
* Hand-for-hand starts when the entries left are the places paid + 1 and more than one table plays
  (Rule 22's "near the money"); it stops when the bubble bursts or one table is left.
* A busted player who may rebuy keeps his seat with no chips until he rebuys, declines, the rebuy period
  ends, or his table's next hand is dealt (he is then out: Rule 25, "rebuys before the next hand").
  Bounties are paid once, when the entry is finally out, to the players who busted him that last time.
* Late registration closes at its time, at the first elimination (seed 000) unless the tournament allows
  re-entry (re-entry only exists during late registration, seed 000), when the final table forms, or when
  the first prize is due. Entries out while it is open get their place when it closes (:class:`Ranked`).
* The prizes are fixed when late registration and the rebuy/add-on period are over (or, at the latest,
  when the first prize is due); the guarantee's overlay is added then.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from engine.actions import Action
from engine.button import Positions
from engine.cards import Card
from engine.errors import HandInProgress, InvalidAmount, NotSeated, TableRuleError
from engine.events import Event
from engine.table_events import PlayerDisconnected, PlayerReconnected
from engine.tournament.bounties import Bounties, BountyPayment, BountySettings, knockers
from engine.tournament.deals import DealKind, deal
from engine.tournament.events import (
    AddedOn,
    BountyWon,
    BreakEnded,
    BreakStarted,
    Completed,
    Credited,
    DealAccepted,
    DealDeclined,
    DealProposed,
    Eliminated,
    FinalTable,
    HandForHand,
    LateRegistrationClosed,
    LevelUp,
    PlayerMoved,
    PlayerSeatedAt,
    PrizeAwarded,
    Ranked,
    Rebought,
    RebuyOffered,
    Registered,
    ShootoutRound,
    SpinMultiplierDrawn,
    TableBroken,
    TableOpened,
    TournamentCancelled,
    TournamentStarted,
    Unregistered,
)
from engine.tournament.formats import Format, half_out_shares, rank_by_chips, spin_row
from engine.tournament.journal import Journal, journaled
from engine.tournament.levels import Level, StageAt, stage_at
from engine.tournament.money import Cashier, Payment
from engine.tournament.payouts import (
    Prize,
    default_payouts,
    for_entrants,
    split_tied_places,
    table_payouts,
    ticket_payouts,
    winner_takes_all,
    with_secondary_prize,
)
from engine.tournament.seating import (
    Draw,
    balance_move,
    breaking_target,
    initial_tables,
    shuffled,
    table_to_break,
)
from engine.tournament.settings import PayoutKind, TournamentSettings
from engine.tournament.shares import apportion, split_equally
from engine.tournament.table import HandResult, TournamentTable


class Phase(Enum):
    """Where a tournament stands (R-TOUR-1)."""

    ANNOUNCED = "announced"
    REGISTERING = "registering"
    RUNNING = "running"
    BREAK = "break"
    FINAL_TABLE = "final_table"
    COMPLETE = "complete"
    CANCELLED = "cancelled"


@dataclass(slots=True)
class Entry:
    """One entry: ``player``'s, at ``table`` (``None`` before seating or once out). ``busted_order``: the
    how-many-th entry out it was; ``place`` once known; ``pending_rebuy``: out of chips, may still rebuy."""

    number: int
    player: str
    table: int | None = None
    live: bool = True
    played: bool = False
    rebuys: int = 0
    added_on: bool = False
    place: int | None = None
    tied: int = 1
    busted_order: int | None = None
    pending_rebuy: bool = False
    knocked_by: tuple[int, ...] = ()
    prize: int = 0  # what its place paid (money or a ticket's value; not a secondary prize): the summary's


@dataclass(slots=True)
class _Deal:
    kind: DealKind
    shares: dict[int, int]
    accepted: set[int] = field(default_factory=set)


class Tournament:
    """One tournament. ``draw``: the fair draw for seats and tables (:mod:`engine.tournament.seating`);
    ``journal``: where the calls that change it are noted while a room keeps it (:mod:`engine.tournament.journal`;
    never part of its stored state)."""

    journal: Journal | None = None

    def __init__(self, settings: TournamentSettings, draw: Draw) -> None:
        self.settings = settings
        self.draw = draw
        self.phase = Phase.ANNOUNCED
        self.cashier = Cashier(settings.price, settings.excess_ticket_credit, settings.ticket_refund_as_money,
                               settings.tournament_id)
        self.bounties = Bounties(settings.bounties or BountySettings())
        self.entries: dict[int, Entry] = {}
        self.tables: dict[int, TournamentTable] = {}
        self.prizes: tuple[Prize, ...] | None = None
        self.started_at: float | None = None
        self.level_number = 0
        self.in_break = False
        self.late_registration_open = False
        self.hand_for_hand = False
        self.busted = 0
        self.chips_issued = 0
        self.chips_retired = 0
        self.moves = 0
        self.tables_broken = 0
        self.hands = 0
        self.shootout_round = 0
        self.spin_multiplier: int | None = None
        self.draw_proofs: list[dict[str, object]] = []  # its commit–reveal draws' proofs (a Spin's), kept with it
        self._next_table = 1
        self._clock_origin = 0.0
        self._hfh_played: set[int] = set()
        self._hfh_busts: list[tuple[int, int, int]] = []
        self._early_busts: list[int] = []
        self._deal: _Deal | None = None
        self._time_up = False
        self._current_level = stage_at(settings.schedule, 0.0).level
        self._next_entry = 1
        # Indexes kept in step with the entries: a 3,000-entry field is scanned per hand otherwise.
        self._live: dict[int, Entry] = {}
        self._by_player: dict[str, list[int]] = {}
        self._pending: set[int] = set()
        self._counts: dict[int, int] = {}  # table → entries seated there

    # --- questions ---------------------------------------------------------------------------------

    def live_entries(self) -> list[Entry]:
        """Entries still in (pending rebuys included), in entry order."""
        return list(self._live.values())

    @property
    def live_count(self) -> int:
        """How many entries are still in."""
        return len(self._live)

    def players(self) -> list[str]:
        """Every player with an entry (in play or out), in the order they first registered."""
        return list(self._by_player)

    def entries_of(self, player: str) -> list[Entry]:
        """All of ``player``'s entries, oldest first."""
        return [self.entries[number] for number in self._by_player.get(player, ()) if number in self.entries]

    def _out(self, state: Entry) -> None:
        """``state`` is no longer in the tournament."""
        state.live = False
        self._live.pop(state.number, None)
        self._set_pending(state, False)

    def _set_pending(self, state: Entry, pending: bool) -> None:
        if pending:
            self._pending.add(state.number)
        else:
            self._pending.discard(state.number)
        state.pending_rebuy = pending

    def stack_of(self, entry: int) -> int:
        """``entry``'s chips (0 when out or not seated)."""
        state = self.entries[entry]
        if state.table is None:
            return 0
        table = self.tables[state.table]
        seat = table.seat_of(entry)
        return 0 if seat is None else table.seats[seat].stack

    @property
    def playing(self) -> bool:
        """Whether the tournament has started and is not over."""
        return self.phase in (Phase.RUNNING, Phase.BREAK, Phase.FINAL_TABLE)

    def chips_in_play(self) -> int:
        """Chips at all tables."""
        return sum(table.chips() for table in self.tables.values())

    @property
    def level(self) -> Level:
        """The level the next hand is dealt at."""
        return self._current_level

    def elapsed(self, now: float) -> float:
        """Seconds on the tournament clock (since the start, or the start of the shootout round)."""
        return max(0.0, now - self._clock_origin)

    def _stage(self, now: float) -> StageAt:
        return stage_at(self.settings.schedule, self.elapsed(now))

    def projected_prizes(self) -> tuple[Prize, ...]:
        """The prizes: fixed once known, else the table for the entries and pool so far (a Spin before its
        draw: none yet)."""
        if self.prizes is not None:
            return self.prizes
        if not self.entries or (self.settings.format is Format.SPIN and self.spin_multiplier is None):
            return ()
        return self._prize_table_for(len(self.entries), max(self.cashier.pool, 1))

    @property
    def deal_on_table(self) -> tuple[str, dict[int, int], frozenset[int]] | None:
        """The deal proposed at the final table: its kind, each entry's share, the entries that accepted."""
        if self._deal is None:
            return None
        return self._deal.kind.value, dict(self._deal.shares), frozenset(self._deal.accepted)

    # --- registration (R-TOUR-2) ---------------------------------------------------------------------

    @journaled
    def open_registration(self, now: float) -> list[Event]:
        """Announced → registering."""
        if self.phase is not Phase.ANNOUNCED:
            raise TableRuleError(f"registration cannot open: the tournament is {self.phase.value}")
        self.phase = Phase.REGISTERING
        return []

    def verify_register(self, player: str, payment: Payment, password: str | None = None) -> None:
        """Raise the reason ``player`` may not take an entry now (nothing changes)."""
        settings = self.settings
        late = self.playing and self.late_registration_open
        if self.phase is not Phase.REGISTERING and not late:
            raise TableRuleError(f"registration is closed (the tournament is {self.phase.value})")
        if settings.password is not None and password != settings.password:
            raise TableRuleError("this tournament is private: wrong password")
        if len(self.entries) >= settings.max_players:
            raise TableRuleError(f"the tournament is full ({settings.max_players} entries)")
        if settings.sit_and_go_size is not None and len(self.entries) >= settings.sit_and_go_size:
            raise TableRuleError("the Sit & Go is full")
        mine = self.entries_of(player)
        live = sum(entry.live for entry in mine)
        if live >= settings.entries_per_player:
            raise TableRuleError(f"{player} already has {live} live entr{'y' if live == 1 else 'ies'}")
        if len(mine) >= settings.entries_per_player + settings.re_entries:
            raise TableRuleError(f"{player} has used every entry and re-entry")
        if mine and len(mine) >= settings.entries_per_player and self.phase is Phase.REGISTERING:
            raise TableRuleError("re-entry opens once the tournament runs")
        self.cashier.verify_payment(payment, settings.price.total)

    @journaled
    def register(self, player: str, payment: Payment, now: float, *, password: str | None = None) -> list[Event]:
        """``player`` takes an entry paid by ``payment``. Before the start; during late registration (seated at
        once, "como cualquier otro jugador nuevo"); a re-entry if he busted. A Sit & Go starts when full."""
        self.verify_register(player, payment, password)
        number = self._next_entry
        self._next_entry += 1
        re_entry = any(not entry.live for entry in self.entries_of(player))
        running = self.playing
        events: list[Event] = [Registered(player, number, late=running, re_entry=re_entry)]
        events += self.cashier.pay_entry(player, number, payment)
        self.entries[number] = self._live[number] = Entry(number, player)
        self._by_player.setdefault(player, []).append(number)
        self.bounties.add_head(number, player, self.settings.price.knockout)
        if running:
            events += self._seat_newcomer(number)
            events += self._rebalance()
        elif self.settings.sit_and_go_size is not None and len(self.entries) == self.settings.sit_and_go_size \
                and (self.settings.format is not Format.SPIN or self.spin_multiplier is not None) \
                and not self.seats_by_draw:
            events += self.start(now)
        return events

    @journaled
    def unregister(self, player: str, now: float) -> list[Event]:
        """``player`` gives back his entry before the start: refunded the way it was paid."""
        if self.phase is not Phase.REGISTERING:
            raise TableRuleError("unregistering is only possible before the start")
        mine = [entry for entry in self.entries_of(player) if entry.live]
        if not mine:
            raise NotSeated(f"{player} is not registered")
        entry = mine[-1]
        del self.entries[entry.number]
        del self._live[entry.number]
        self.bounties.heads.pop(entry.number, None)
        return [Unregistered(player, entry.number), *self.cashier.refund_entry(entry.number)]

    seats_by_draw = False
    """Whether the room draws the first seats by commit–reveal with the players (:meth:`seat_by_draw`). A class
    default: a state kept before it existed starts as it did."""

    @journaled
    def seat_by_draw(self) -> list[Event]:
        """The room draws the first seats (and button) by commit–reveal with the registered players, as a Spin's
        multiplier (hosting.spin_start): the director no longer starts by itself when a Sit & Go fills or its
        start time comes (:meth:`due_to_start` says when); the room starts it with the draw's key as its draw."""
        self.seats_by_draw = True
        return []

    def due_to_start(self, now: float) -> bool:
        """Whether a tournament that waits for its seat draw (:meth:`seat_by_draw`) should start now."""
        settings = self.settings
        if self.phase is not Phase.REGISTERING or settings.format is Format.SPIN:
            return False
        if settings.sit_and_go_size is not None and len(self.entries) == settings.sit_and_go_size:
            return True
        return settings.start_time is not None and now >= settings.start_time \
            and len(self.entries) >= settings.min_players

    @journaled
    def keep_proof(self, proof: dict[str, object]) -> list[Event]:
        """Keep a commit–reveal draw's proof (a Spin's multiplier and seats) with the tournament."""
        self.draw_proofs.append(proof)
        return []

    # --- start, cancel, clock ----------------------------------------------------------------------

    @journaled
    def start(self, now: float, *, spin_draw: int | None = None) -> list[Event]:
        """Registering → running: seat everyone by the draw and set level 1. A Spin needs ``spin_draw`` (the
        room's commit–reveal draw in ``0..SPIN_DRAW_RANGE-1``) unless given before (:meth:`draw_spin`)."""
        if self.phase is not Phase.REGISTERING:
            raise TableRuleError(f"the tournament cannot start: it is {self.phase.value}")
        settings = self.settings
        count = len(self.entries)
        if count < settings.min_players:
            raise TableRuleError(f"{count} registered; the tournament needs {settings.min_players}")
        events: list[Event] = []
        if settings.format is Format.SPIN and self.spin_multiplier is None:
            if spin_draw is None:
                raise TableRuleError("a Spin needs its multiplier draw to start")
            events += self.draw_spin(spin_draw)
        if settings.is_freeroll:
            self.cashier.fund(settings.freeroll_pool)
        self.phase = Phase.RUNNING
        self.started_at = now
        self._clock_origin = now
        self.late_registration_open = settings.late_registration_seconds > 0
        self._current_level = self._stage(now).level
        self.level_number = 1
        tables = initial_tables(sorted(self.entries), settings.seats_per_table, self.draw)
        events.append(TournamentStarted(count, len(tables), settings.starting_stack))
        for members in tables:
            events += self._open_table(members)
        events.append(self._level_event())
        if settings.format.plays_rounds:
            self.shootout_round = 1
            events.append(ShootoutRound(1, count, len(tables)))
        if not self.late_registration_open and settings.rebuys is None:
            events += self._fix_prizes()
        if len(self.tables) == 1 and not settings.format.plays_rounds:
            events += self._final_table(formed=False)
        return events

    @journaled
    def draw_spin(self, draw: int) -> list[Event]:
        """Spin: fix the multiplier from the published table with the room's ``draw``."""
        if self.settings.format is not Format.SPIN or self.spin_multiplier is not None:
            raise TableRuleError("the multiplier is drawn once, for a Spin")
        if len(self.entries) != self.settings.sit_and_go_size:
            raise TableRuleError("the multiplier is drawn when the three players are in")
        row = spin_row(draw, self.settings.spin_table)
        self.spin_multiplier = row.multiplier
        pool = self.settings.price.buy_in * row.multiplier
        # The pool is one buy-in × the multiplier: the house adds or keeps the difference.
        collected = self.cashier.pool
        if pool >= collected:
            self.cashier.fund(pool - collected)
        else:
            self.cashier.house_keeps(collected - pool)
        return [SpinMultiplierDrawn(row.multiplier, pool)]

    @journaled
    def tick(self, now: float) -> list[Event]:
        """Apply what time ``now`` brings: a scheduled start (or its cancellation), level changes and breaks,
        the end of late registration, of the rebuy period and of the add-on, the time limit."""
        settings = self.settings
        events: list[Event] = []
        if self.phase is Phase.REGISTERING and settings.start_time is not None and now >= settings.start_time:
            if len(self.entries) >= settings.min_players:
                return [] if self.seats_by_draw else self.start(now)  # the room's seat draw starts it
            return self.cancel(f"{len(self.entries)} registered, {settings.min_players} needed")
        if not self.playing:
            return events
        events += self._advance_clock(now)
        elapsed = self.elapsed(now)
        if self.late_registration_open and elapsed >= settings.late_registration_seconds:
            events += self._close_late_registration("time")
        if settings.rebuys is not None and elapsed >= settings.rebuys.until_seconds:
            for entry in [self.entries[number] for number in sorted(self._pending)]:
                events += self._eliminate_pending(entry.number, now)
            events += self._maybe_fix_prizes(now)
        if settings.time_limit_seconds is not None and elapsed >= settings.time_limit_seconds:
            self._time_up = True
            events += self._maybe_complete(now)
        return events

    @journaled
    def cancel(self, reason: str) -> list[Event]:
        """Cancel before the start: every entry refunded the way it was paid."""
        if self.phase not in (Phase.ANNOUNCED, Phase.REGISTERING):
            raise TableRuleError("a running tournament is not cancelled here (issue 18: the host's refund)")
        self.phase = Phase.CANCELLED
        events: list[Event] = [TournamentCancelled(reason)]
        for number in sorted(self.entries):
            events += self.cashier.refund_entry(number, "cancelled")
            self._out(self.entries[number])
        self.bounties.heads.clear()
        return events

    @journaled
    def cancel_running(self, how: str, reason: str = "cancelled by the host") -> list[Event]:
        """The host cancels a tournament that has started (issue 18). RULES.md and the seeds are silent; as
        online rooms' cancellation policies do, prizes already paid stay paid, and the pool not yet paid is
        shared by the entries still in: ``how`` ``"equal"`` (equal shares) or ``"chips"`` (in proportion to
        their stacks now); the remainder chip goes by :mod:`~engine.tournament.shares` (bigger stack first,
        then entry order). Each entry's own bounty goes back to him. The tables close."""
        if how not in ("equal", "chips"):
            raise ValueError(f"a cancelled tournament's pool is split 'equal' or 'chips', not {how!r}")
        if not self.playing:
            raise TableRuleError(f"only a running tournament is cancelled this way (it is {self.phase.value})")
        live = sorted(self.live_entries(), key=lambda entry: (-self.stack_of(entry.number), entry.number))
        pool = self.cashier.pool
        if how == "equal":
            shares = split_equally(pool, len(live))
        else:
            stacks = [self.stack_of(entry.number) for entry in live]
            shares = apportion(pool, stacks) if sum(stacks) else split_equally(pool, len(live))
        events: list[Event] = [TournamentCancelled(reason)]
        for entry, share in zip(live, shares, strict=True):
            if share:
                self.cashier.pay_prize(entry.player, share)
                events.append(Credited(entry.player, share, f"cancelled_{how}"))
        for entry in live:
            events += self._pay_bounties(self.bounties.collect_own(entry.number))
            self._out(entry)
        for number in list(self.tables):
            table = self.tables[number]
            self.chips_retired += table.chips()
            for seat in list(table.seats):
                self.entries[table.seats[seat].entry].table = None
                del table.seats[seat]
            self._drop_table(number)
        self.phase = Phase.CANCELLED
        return events

    def _advance_clock(self, now: float) -> list[Event]:
        stage = self._stage(now)
        events: list[Event] = []
        if stage.is_break and not self.in_break:
            self.in_break = True
            self.phase = Phase.BREAK if self.phase is Phase.RUNNING else self.phase
            assert stage.ends_at is not None
            events.append(BreakStarted(self._clock_origin + stage.ends_at))
        elif not stage.is_break and self.in_break:
            self.in_break = False
            if self.phase is Phase.BREAK:
                self.phase = Phase.RUNNING
            events.append(BreakEnded())
        if stage.level_number != self.level_number and not stage.is_break:
            self.level_number = stage.level_number
            self._current_level = stage.level
            events.append(self._level_event())  # the tables deal at ``self.level`` from their next hand
        return events

    def _level_event(self) -> LevelUp:
        level = self._current_level
        return LevelUp(self.level_number, level.small_blind, level.big_blind, level.ante, level.big_blind_ante,
                       level.bring_in)

    # --- tables and seats --------------------------------------------------------------------------

    def _open_table(self, members: Sequence[int]) -> list[Event]:
        number = self._next_table
        self._next_table += 1
        table = TournamentTable(number, self.settings.variant, seat_count=self.settings.seats_per_table,
                                structure=self.settings.structure)
        self.tables[number] = table
        self._counts[number] = 0
        if self.phase is Phase.FINAL_TABLE and len(self.tables) > 1:
            self.phase = Phase.BREAK if self.in_break else Phase.RUNNING  # a late entry needed a new table
        events: list[Event] = [TableOpened(number)]
        seats = shuffled(range(table.seat_count), self.draw)
        for entry, seat in zip(members, seats, strict=False):
            events += self._seat(entry, table, seat, self.settings.starting_stack)
        return events

    def _seat(self, entry: int, table: TournamentTable, seat: int, stack: int) -> list[Event]:
        state = self.entries[entry]
        table.seat_with_stack(entry, state.player, stack, seat=seat)
        self._counts[table.number] += 1
        state.table = table.number
        self.chips_issued += stack
        return [PlayerSeatedAt(state.player, entry, table.number, seat, stack)]

    def _seat_newcomer(self, entry: int) -> list[Event]:
        """A late entry or re-entry: a drawn seat at the table with the fewest players (a new table if all
        are full), TDA: "the same seat pool as new players"."""
        counts = self._counts
        open_tables = [n for n, count in counts.items() if count < self.settings.seats_per_table]
        if not open_tables or self.settings.format.plays_rounds:
            if self.settings.format.plays_rounds:
                raise TableRuleError("a shootout has no late registration")
            return self._open_table([entry])
        fewest = min(counts[n] for n in open_tables)
        table = self.tables[min(n for n in open_tables if counts[n] == fewest)]
        free = table.free_seats()
        return self._seat(entry, table, free[self.draw(len(free))], self.settings.starting_stack)

    def _move(self, entry: int, to: TournamentTable, seat: int, reason: str) -> list[Event]:
        state = self.entries[entry]
        assert state.table is not None
        source = self.tables[state.table]
        from_seat = source.seat_of(entry)
        assert from_seat is not None
        seated = source.remove_player(entry)
        to.seat_with_stack(entry, state.player, seated.stack, seat=seat, busted=seated.stack == 0)
        self._counts[source.number] -= 1
        self._counts[to.number] += 1
        if seated.absent:
            to.set_absent(entry, True)
        state.table = to.number
        self.moves += 1
        return [PlayerMoved(state.player, entry, source.number, from_seat, to.number, seat, seated.stack, reason)]

    def _rebalance(self) -> list[Event]:
        """Break tables and balance (TDA Rules 12–13) as far as tables between hands allow."""
        if self.settings.format.plays_rounds or self.phase is Phase.COMPLETE:
            return []
        events: list[Event] = []
        counts = self._counts
        for number in [n for n, count in counts.items() if count == 0 and not self.tables[n].hand_running]:
            self._drop_table(number)
            events.append(TableBroken(number))
        while True:
            breaking = table_to_break(counts, self.settings.seats_per_table)
            if breaking is None and max(counts.values()) - min(counts.values()) <= 1:
                break  # the common case after a hand, checked at C speed
            if breaking is not None and not self.tables[breaking].hand_running:
                events += self._break_table(breaking)
                continue
            smallest = min(count for number, count in counts.items() if number != breaking)
            busy = {n for n, count in counts.items() if count >= smallest + 2 and self.tables[n].hand_running}
            move = balance_move(counts, busy, not_to={breaking} if breaking is not None else ())
            if move is None:
                break
            source, target = self.tables[move[0]], self.tables[move[1]]
            seat = source.next_big_blind_seat()
            if seat is None:  # nobody there can play: move whoever sits last
                seat = max(source.seats)
            to_seat = target.worst_free_seat()
            assert to_seat is not None
            events += self._move(source.seats[seat].entry, target, to_seat, "balance")
        if len(self.tables) == 1 and self.phase in (Phase.RUNNING, Phase.BREAK):
            events += self._final_table()
        return events

    def _break_table(self, number: int) -> list[Event]:
        table = self.tables[number]
        events: list[Event] = []
        final = len(self.tables) == 2
        for seat in shuffled(sorted(table.seats), self.draw):
            entry = table.seats[seat].entry
            target = self.tables[breaking_target(self._counts, number)]
            free = target.free_seats()
            events += self._move(entry, target, free[self.draw(len(free))], "final_table" if final else "table_broken")
        self._drop_table(number)
        events.append(TableBroken(number))
        return events

    def _drop_table(self, number: int) -> None:
        del self.tables[number]
        del self._counts[number]
        self.tables_broken += 1

    def _final_table(self, *, formed: bool = True) -> list[Event]:
        """One table left. ``formed``: by breaking the others (late registration closes then; a tournament
        that starts on one table keeps its late registration)."""
        if self.phase is Phase.FINAL_TABLE:
            return []
        self.phase = Phase.FINAL_TABLE
        (table,) = self.tables.values()
        events: list[Event] = [FinalTable(table.number, table.player_count)]
        if self.late_registration_open and formed:
            events += self._close_late_registration("final_table")
        if self.hand_for_hand:
            # Tables broke before every table played the round: who is out is placed now.
            events += self._close_hfh_round(0.0)
            self.hand_for_hand = False
            events.append(HandForHand(False))
        return events

    # --- hands ---------------------------------------------------------------------------------------

    def may_start_hand(self, table_number: int, now: float | None = None) -> bool:
        """Whether :meth:`start_hand` would deal at ``table_number`` now: playing, not on a break, no deal on
        the table, no time-up, two players who can play, and in hand-for-hand this table's hand not played."""
        if self.phase not in (Phase.RUNNING, Phase.FINAL_TABLE) or self.in_break or self._time_up:
            return False
        if self._deal is not None or table_number not in self.tables:
            return False
        table = self.tables[table_number]
        if table.hand_running:
            return False
        if self.hand_for_hand and table_number in self._hfh_played:
            return False
        # A busted player offered a rebuy counts: start_hand settles his offer first.
        playable = sum(1 for s in table.seats.values() if s.stack > 0 or self.entries[s.entry].pending_rebuy)
        return playable >= 2

    @journaled
    def start_hand(self, table_number: int, deck: Sequence[Card], now: float) -> list[Event]:
        """Deal the next hand at ``table_number``. Busted players who did not rebuy are out first (which may
        move players or break this table: then no hand is dealt and the events say why)."""
        events = self.tick(now)
        if table_number not in self.tables:
            raise TableRuleError(f"there is no table {table_number}")
        for seated in list(self.tables[table_number].seats.values()):
            if self.entries[seated.entry].pending_rebuy:
                events += self._eliminate_pending(seated.entry, now)
        if not self.may_start_hand(table_number, now):
            if not events:
                raise TableRuleError(f"table {table_number} cannot deal now")
            return events
        table = self.tables[table_number]
        if sum(1 for s in table.seats.values() if s.stack > 0) < 2:
            return events
        first_button = None
        if table.positions is None:
            playable = sorted(seat for seat, s in table.seats.items() if s.stack > 0)
            first_button = playable[self.draw(len(playable))]
        events += table.start_hand(deck, self._current_level, first_button=first_button)
        for seated in table.seats.values():
            self.entries[seated.entry].played = True
        self.hands += 1
        if self.hand_for_hand:
            self._hfh_played.add(table_number)
        return events + self._after_action(table, now)

    @journaled
    def act(self, table_number: int, entry: int, action: Action, now: float) -> list[Event]:
        """``entry`` acts at his table; when the hand ends the director moves on (eliminations, prizes,
        balancing). Raises as the hand does, changing nothing."""
        table = self._table_of(table_number, entry)
        events = table.act(entry, action)
        return events + self._after_action(table, now)

    @journaled
    def time_out(self, table_number: int, entry: int, now: float) -> list[Event]:
        """R-TOUR-6: ``entry``'s clock ran out: he is absent, checked or folded at each turn until back."""
        table = self._table_of(table_number, entry)
        events = table.act_for_absent(entry)
        return events + self._after_action(table, now)

    # --- hands the room deals on its own tables (issue 18) -------------------------------------------------

    @journaled
    def prepare_hand(self, table_number: int, now: float) -> list[Event]:
        """Before the room deals at ``table_number`` on its own table (its runner: commit–reveal, clocks): what
        :meth:`start_hand` does first — the clock, and busted players there who did not rebuy are out."""
        events = self.tick(now)
        table = self.tables.get(table_number)
        if table is None or table.hand_running:
            return events
        for seated in list(table.seats.values()):
            if self.entries[seated.entry].pending_rebuy:
                events += self._eliminate_pending(seated.entry, now)
        return events

    @journaled
    def hand_dealt(self, table_number: int, entries: Iterable[int]) -> None:
        """The room dealt a hand at ``table_number`` to ``entries``: none of them moves until it ends."""
        table = self.tables[table_number]
        if table.hand_running:
            raise HandInProgress(f"a hand is running at table {table_number}")
        table.external = frozenset(entries)
        for entry in table.external:
            self.entries[entry].played = True
        self.hands += 1
        if self.hand_for_hand:
            self._hfh_played.add(table_number)

    @journaled
    def hand_played(self, table_number: int, final: Mapping[int, int], events: Sequence[Event], now: float,
                    positions: Positions | None = None) -> list[Event]:
        """The room's hand at ``table_number`` ended: ``final`` stacks by seat (the seats are the director's),
        ``events`` the hand's (to find who knocked out whom), ``positions`` its button and blinds. Then as
        after a hand of :meth:`act`: eliminations, prizes, balancing."""
        table = self.tables[table_number]
        if table.external is None:
            raise TableRuleError(f"no hand of the room runs at table {table_number}")
        starting = {seat: table.seats[seat].stack for seat in final}
        if sum(starting.values()) != sum(final.values()):
            raise RuntimeError(f"chip conservation broken at tournament table {table_number}")
        for seat, stack in final.items():
            table.seats[seat].stack = stack
        table.external = None
        if positions is not None:
            table.positions = positions
        table.hands_played += 1
        return self._hand_over(table, HandResult(table_number, starting, dict(final), tuple(events)), now)

    @journaled
    def hand_voided(self, table_number: int) -> None:
        """R-CRASH-1: the room's hand at ``table_number`` will never end (the room went down): every stack is as
        before it, and in hand-for-hand the table plays its hand of the round again."""
        table = self.tables.get(table_number)
        if table is not None and table.external is not None:
            table.external = None
            self.hands -= 1
            self._hfh_played.discard(table_number)

    @journaled
    def disconnect(self, entry: int) -> list[Event]:
        """R-TOUR-6: ``entry``'s player dropped: never removed; he is played for (see :meth:`time_out`)."""
        return self._set_absent(entry, True)

    @journaled
    def reconnect(self, entry: int) -> list[Event]:
        """``entry``'s player is back: he acts for himself again."""
        return self._set_absent(entry, False)

    def _set_absent(self, entry: int, absent: bool) -> list[Event]:
        state = self.entries[entry]
        if state.table is None:
            return []
        table = self.tables[state.table]
        seat = table.seat_of(entry)
        assert seat is not None
        table.set_absent(entry, absent)
        return [PlayerDisconnected(seat, state.player) if absent else PlayerReconnected(seat, state.player)]

    def _table_of(self, table_number: int, entry: int) -> TournamentTable:
        if table_number not in self.tables:
            raise TableRuleError(f"there is no table {table_number}")
        if self.entries.get(entry) is None or self.entries[entry].table != table_number:
            raise NotSeated(f"entry {entry} does not sit at table {table_number}")
        return self.tables[table_number]

    def _after_action(self, table: TournamentTable, now: float) -> list[Event]:
        if table.hand is None or not table.hand.is_over:
            return []
        result = table.finish_hand()
        return self._hand_over(table, result, now)

    def _hand_over(self, table: TournamentTable, result: HandResult, now: float) -> list[Event]:
        events: list[Event] = []
        busted = result.busted_seats
        if self.settings.format.plays_rounds:
            return self._shootout_hand_over(table, result, now)
        final: list[tuple[int, int, tuple[int, ...]]] = []
        dead_antes = self._current_level.big_blind_ante > 0
        for seat in busted:
            entry = table.seats[seat].entry
            by = tuple(table.seats[s].entry for s in knockers(result.events, seat, dead_antes=dead_antes))
            if self._may_rebuy_when_busted(entry, now):
                state = self.entries[entry]
                self._set_pending(state, True)
                state.knocked_by = by
                events.append(RebuyOffered(state.player, entry))
                continue
            final.append((entry, result.starting[seat], by))
        if self.hand_for_hand:
            for entry, starting, by in final:
                self._take_off(entry)
                self.entries[entry].knocked_by = by
                self._hfh_busts.append((entry, starting, table.number))
            if self._hfh_round_over():
                events += self._close_hfh_round(now)
        elif final:
            for entry, _starting, _by in final:
                self._take_off(entry)
            events += self._eliminate_group([(e, s, by) for e, s, by in final], now, across_tables=False)
        events += self._rebalance()
        events += self._maybe_complete(now)
        return events

    def _take_off(self, entry: int) -> None:
        state = self.entries[entry]
        assert state.table is not None
        self.tables[state.table].remove_player(entry)
        self._counts[state.table] -= 1
        state.table = None

    def _hfh_round_over(self) -> bool:
        for number, table in self.tables.items():
            if table.hand_running:
                return False
            playable = sum(1 for s in table.seats.values() if s.stack > 0)
            if number not in self._hfh_played and playable >= 2:
                return False
        return True

    def _close_hfh_round(self, now: float) -> list[Event]:
        busts = self._hfh_busts
        self._hfh_busts = []
        self._hfh_played = set()
        if not busts:
            return []
        tables = {table for _, _, table in busts}
        group = [(entry, starting, self.entries[entry].knocked_by) for entry, starting, _ in busts]
        return self._eliminate_group(group, now, across_tables=len(tables) > 1)

    # --- eliminations, places, prizes --------------------------------------------------------------

    def _may_rebuy_when_busted(self, entry: int, now: float) -> bool:
        rebuys = self.settings.rebuys
        if rebuys is None or self.elapsed(now) >= rebuys.until_seconds:
            return False
        state = self.entries[entry]
        return rebuys.max_rebuys is None or state.rebuys < rebuys.max_rebuys

    def _eliminate_pending(self, entry: int, now: float) -> list[Event]:
        state = self.entries[entry]
        self._set_pending(state, False)
        assert state.table is not None
        table = self.tables[state.table]
        seat = table.seat_of(entry)
        assert seat is not None
        if table.in_hand(entry):
            raise HandInProgress("a busted player is not in a hand")
        self._take_off(entry)
        events = self._eliminate_group([(entry, 0, state.knocked_by)], now, across_tables=False)
        events += self._rebalance()
        return events + self._maybe_complete(now)

    @journaled
    def decline_rebuy(self, entry: int, now: float) -> list[Event]:
        """``entry`` does not rebuy: he is out now."""
        if not self.entries[entry].pending_rebuy:
            raise TableRuleError(f"entry {entry} has no rebuy offer")
        return self._eliminate_pending(entry, now)

    def _eliminate_group(self, group: list[tuple[int, int, tuple[int, ...]]], now: float, *,
                         across_tables: bool) -> list[Event]:
        """Rank entries out together: by starting stack (bigger higher) unless across tables (all tie)."""
        events: list[Event] = []
        if self.late_registration_open and self.settings.late_registration_ends_at_first_elimination \
                and not self.settings.re_entries:
            events += self._close_late_registration("first_elimination")
        remaining = self.live_count
        ordered = sorted(group, key=lambda item: -item[1])
        ties: list[list[tuple[int, int, tuple[int, ...]]]] = []
        for item in ordered:
            if ties and (across_tables or ties[-1][0][1] == item[1]):
                ties[-1].append(item)
            else:
                ties.append([item])
        place = remaining - len(group) + 1
        for tie in ties:
            events += self._place_out(tie, place)
            place += len(tie)
        return events

    def _place_out(self, tie: list[tuple[int, int, tuple[int, ...]]], place: int) -> list[Event]:
        events: list[Event] = []
        known = not self.late_registration_open
        needs_prizes = known and not self.settings.format.ends_at_half
        if needs_prizes and self.prizes is None and place <= self._paid_places_estimate():
            events += self._fix_prizes()
        prizes = split_tied_places(self.prizes, place, len(tie)) if needs_prizes and self.prizes else []
        # Tied entries share one bust order (the group's last): ranked later, they all get the group's best place.
        self.busted += len(tie)
        for index, (entry, _starting, by) in enumerate(tie):
            state = self.entries[entry]
            self._out(state)
            state.busted_order = self.busted
            state.place = place if known else None
            state.tied = len(tie)
            if not known:
                self._early_busts.append(entry)
            events.append(Eliminated(state.player, entry, state.place, tuple(self.entries[b].player for b in by),
                                     len(tie)))
            events += self._pay_bounties(self.bounties.knock_out(entry, list(by)))
            if prizes:
                events += self._award(entry, place, prizes[index])
        return events

    def _paid_places_estimate(self) -> int:
        return len(self._prize_table_for(len(self.entries), max(self.cashier.pool, 1)))

    def _award(self, entry: int, place: int, prize: Prize) -> list[Event]:
        if prize.amount <= 0:
            return []
        state = self.entries[entry]
        if prize.secondary is not None:
            self.cashier.pay_secondary(state.player, prize.amount)
        else:
            self.cashier.pay_prize(state.player, prize.amount)
            state.prize += prize.amount
        return [PrizeAwarded(state.player, entry, place, prize.amount, prize.ticket_to, prize.secondary)]

    @property
    def bounties_won(self) -> dict[str, int]:
        """Each player's bounties collected so far, his own head included (the summary's list; a property:
        tournaments stored before it start from none)."""
        won: dict[str, int] = self.__dict__.setdefault("_bounties_won", {})
        return won

    def _pay_bounties(self, payments: list[BountyPayment]) -> list[Event]:
        events: list[Event] = []
        for payment in payments:
            if payment.room_funded:
                self.cashier.fund(payment.amount, to_pool=False)
            if payment.amount:
                self.cashier.pay_bounty(payment.winner, payment.amount)
                self.bounties_won[payment.winner] = self.bounties_won.get(payment.winner, 0) + payment.amount
            events.append(BountyWon(payment.winner, payment.loser, payment.amount, payment.kind,
                                    payment.added_to_own))
        return events

    def _prize_table_for(self, entrants: int, pool: int) -> tuple[Prize, ...]:
        settings = self.settings
        weights: Sequence[int] | None = None
        if settings.format is Format.SPIN:
            assert self.spin_multiplier is not None
            row = next(row for row in settings.spin_table if row.multiplier == self.spin_multiplier)
            prizes, weights = table_payouts(pool, row.percentages), row.percentages
        elif settings.payout is PayoutKind.WINNER_TAKES_ALL:
            prizes = winner_takes_all(pool)
        elif settings.payout is PayoutKind.TABLE:
            prizes, weights = table_payouts(pool, settings.payout_percentages), settings.payout_percentages
        elif settings.payout is PayoutKind.TICKETS:
            prizes = ticket_payouts(pool, settings.ticket_value, settings.ticket_to)
        else:
            prizes = default_payouts(entrants, pool)
        # More places than entrants: the places that exist share the whole pool (decision of turn 3).
        prizes = for_entrants(prizes, entrants, weights)
        if settings.secondary_places:
            prizes = with_secondary_prize(prizes, settings.secondary_places, settings.secondary_amount,
                                          settings.secondary_description)
        return prizes[:entrants]

    def _fix_prizes(self) -> list[Event]:
        """Fix the prize table: late registration, rebuys and add-ons are over (or a prize is due)."""
        if self.prizes is not None:
            return []
        events: list[Event] = []
        if self.late_registration_open:
            events += self._close_late_registration("in_the_money")
        if self.settings.guarantee:
            self.cashier.guarantee(self.settings.guarantee)
        self.prizes = self._prize_table_for(len(self.entries), self.cashier.pool)
        return events

    def _maybe_fix_prizes(self, now: float) -> list[Event]:
        settings = self.settings
        elapsed = self.elapsed(now)
        if self.late_registration_open:
            return []
        if settings.rebuys is not None and elapsed < settings.rebuys.until_seconds:
            return []
        if settings.add_on is not None and settings.rebuys is not None and \
                elapsed < settings.rebuys.until_seconds + settings.add_on.window_seconds:
            return []
        return self._fix_prizes()

    def _close_late_registration(self, reason: str) -> list[Event]:
        self.late_registration_open = False
        events: list[Event] = [LateRegistrationClosed(reason, len(self.entries))]
        total = len(self.entries)
        for entry in self._early_busts:
            state = self.entries[entry]
            assert state.busted_order is not None
            state.place = total - state.busted_order + 1
            events.append(Ranked(state.player, entry, state.place))
        self._early_busts = []
        return events

    def _check_hand_for_hand(self) -> list[Event]:
        if not self.settings.hand_for_hand or self.prizes is None or self.settings.format.ends_at_half:
            return []
        paid = len([p for p in self.prizes if p.secondary is None])
        live = self.live_count
        should = len(self.tables) > 1 and live == paid + 1 and not self.late_registration_open
        if should and not self.hand_for_hand:
            self.hand_for_hand = True
            self._hfh_played = {n for n, t in self.tables.items() if t.hand_running}
            return [HandForHand(True)]
        if self.hand_for_hand and (live <= paid or len(self.tables) <= 1) and not self._hfh_busts:
            self.hand_for_hand = False
            self._hfh_played = set()
            return [HandForHand(False)]
        return []

    def _maybe_complete(self, now: float) -> list[Event]:
        events = self._check_hand_for_hand()
        if self.phase in (Phase.COMPLETE, Phase.CANCELLED):
            return events
        if self._pending:
            return events
        live_count = self.live_count
        settings = self.settings
        if settings.format.ends_at_half:
            survivors = len(self.entries) // 2
            if live_count <= survivors:
                return events + self._complete_half_out(now)
            return events
        if self._time_up:
            if any(table.hand_running for table in self.tables.values()):
                return events
            return events + self._complete_by_chips("time")
        if live_count == 1:
            return events + self._complete_by_chips("last_player")
        return events

    def _complete_by_chips(self, how: str) -> list[Event]:
        """Place the entries still in by chips (ties share), pay them, collect own bounties, complete."""
        events: list[Event] = []
        if self.prizes is None:
            events += self._fix_prizes()
        assert self.prizes is not None
        live = [entry.number for entry in self.live_entries()]
        groups = rank_by_chips({entry: self.stack_of(entry) for entry in live})
        place = 1
        for group in groups:
            prizes = split_tied_places(self.prizes, place, len(group))
            for index, entry in enumerate(group):
                state = self.entries[entry]
                self._out(state)
                state.place = place
                state.tied = len(group)
                events += self._award(entry, place, prizes[index])
                events += self._pay_bounties(self.bounties.collect_own(entry))
            place += len(group)
        winner = self.entries[groups[0][0]].player if how == "last_player" else None
        return events + self._finish(how, winner)

    def _complete_half_out(self, now: float) -> list[Event]:
        """Fifty50 / Double-or-Nothing: the paid places are the survivors by chips, then the last out."""
        events: list[Event] = []
        paid = len(self.entries) // 2
        if self.prizes is None:
            events += self._fix_prizes()
        live = [entry.number for entry in self.live_entries()]
        place = 1
        for group in rank_by_chips({entry: self.stack_of(entry) for entry in live}):
            for entry in group:
                state = self.entries[entry]
                self._out(state)
                state.place, state.tied = place, len(group)
            place += len(group)
        # Places 1..paid: the survivors by chips, then a group busted in the last hand that ties across the
        # cut (it shares the paid places it covers, and only those: decision of turn 3).
        in_money = sorted((e for e in self.entries.values() if e.place is not None and e.place <= paid),
                          key=lambda e: (e.place or 0, -self.stack_of(e.number), e.number))
        places: list[list[Entry]] = []
        for state in in_money:
            if places and places[-1][0].place == state.place:
                places[-1].append(state)
            else:
                places.append([state])
        shares = half_out_shares(self.cashier.pool, paid, [[self.stack_of(e.number) for e in tied]
                                                           for tied in places],
                                 fifty50=self.settings.format is Format.FIFTY50)
        for tied, amounts in zip(places, shares, strict=True):
            for winner, share in zip(tied, amounts, strict=True):
                assert winner.place is not None
                events += self._award(winner.number, winner.place, Prize(share))
        for state in in_money:
            events += self._pay_bounties(self.bounties.collect_own(state.number))
        return events + self._finish("half_out", None)

    def _finish(self, how: str, winner: str | None) -> list[Event]:
        self.phase = Phase.COMPLETE
        for number in list(self.tables):
            table = self.tables[number]
            self.chips_retired += table.chips()
            for seat in list(table.seats):
                self.entries[table.seats[seat].entry].table = None
                del table.seats[seat]
            self._counts[number] = 0
        # Heads left on entries out of the money (e.g. a deal or a time limit) go to their owners.
        events: list[Event] = []
        for entry in sorted(self.bounties.heads):
            events += self._pay_bounties(self.bounties.collect_own(entry))
        return [*events, Completed(winner, how)]

    # --- rebuys and add-on (R-TOUR-3) --------------------------------------------------------------

    def verify_rebuy(self, entry: int, now: float) -> None:
        """Raise why ``entry`` may not rebuy now (period over, above the threshold, in a hand, none left)."""
        rebuys = self.settings.rebuys
        if rebuys is None:
            raise TableRuleError("this tournament has no rebuys (freezeout)")
        state = self.entries.get(entry)
        if state is None or not state.live or state.table is None:
            raise NotSeated(f"entry {entry} is not in the tournament")
        if self.elapsed(now) >= rebuys.until_seconds:
            raise TableRuleError("the rebuy period is over")
        if rebuys.max_rebuys is not None and state.rebuys >= rebuys.max_rebuys:
            raise TableRuleError(f"entry {entry} has used all {rebuys.max_rebuys} rebuys")
        stack = self.stack_of(entry)
        if stack > rebuys.threshold:
            raise InvalidAmount(f"a rebuy needs {rebuys.threshold} chips or fewer; entry {entry} has {stack}")
        if self.tables[state.table].in_hand(entry):
            raise HandInProgress("rebuy between hands")

    @journaled
    def rebuy(self, entry: int, payment: Payment, now: float) -> list[Event]:
        """``entry`` rebuys: ``chips`` more for the rebuy price (R-TOUR-3)."""
        self.verify_rebuy(entry, now)
        rebuys = self.settings.rebuys
        assert rebuys is not None
        state = self.entries[entry]
        events = self.cashier.pay_extra(state.player, entry, "rebuy", rebuys.price, rebuys.fee, payment)
        assert state.table is not None
        self.tables[state.table].add_chips(entry, rebuys.chips)
        self.chips_issued += rebuys.chips
        state.rebuys += 1
        self._set_pending(state, False)
        return [*events, Rebought(state.player, entry, rebuys.chips, state.rebuys)]

    @journaled
    def add_on(self, entry: int, payment: Payment, now: float) -> list[Event]:
        """``entry`` takes the one add-on, in its window after the rebuy period."""
        add_on, rebuys = self.settings.add_on, self.settings.rebuys
        if add_on is None or rebuys is None:
            raise TableRuleError("this tournament has no add-on")
        state = self.entries.get(entry)
        if state is None or not state.live or state.table is None or state.pending_rebuy:
            raise NotSeated(f"entry {entry} is not in the tournament")
        elapsed = self.elapsed(now)
        if not rebuys.until_seconds <= elapsed < rebuys.until_seconds + add_on.window_seconds:
            raise TableRuleError("the add-on is offered once, at the end of the rebuy period")
        if state.added_on:
            raise TableRuleError(f"entry {entry} already took the add-on")
        if self.tables[state.table].in_hand(entry):
            raise HandInProgress("add-on between hands")
        events = self.cashier.pay_extra(state.player, entry, "add_on", add_on.price, add_on.fee, payment)
        self.tables[state.table].add_chips(entry, add_on.chips)
        self.chips_issued += add_on.chips
        state.added_on = True
        return [*events, AddedOn(state.player, entry, add_on.chips)]

    # --- deals (R-TOUR-5) --------------------------------------------------------------------------

    def remaining_prizes(self) -> list[int]:
        """The prizes of places 1..n still to pay, n = entries left (money only)."""
        if self.prizes is None:
            return []
        live = self.live_count
        # Secondary prizes are the house's, not the pool's: a deal divides the pool only.
        money = [prize.amount for prize in self.prizes if prize.secondary is None][:live]
        return money + [0] * (live - len(money))

    def deal_offers(self) -> dict[str, list[tuple[str, int]]]:
        """Every named deal (R-TOUR-5, decision of turn 3) with every finalist's number, before anyone proposes:
        ``{kind: [(player, share), …]}`` in entry order; empty where no deal can be proposed now."""
        if not self.settings.deals_allowed or self.phase is not Phase.FINAL_TABLE or self.prizes is None \
                or len(self.tables) != 1:
            return {}
        live = sorted(self.live_entries(), key=lambda e: e.number)
        stacks = [self.stack_of(e.number) for e in live]
        if len(live) < 2 or min(stacks) <= 0:
            return {}
        prizes = self.remaining_prizes()
        return {kind.value: [(e.player, share) for e, share in zip(live, deal(kind, stacks, prizes), strict=True)]
                for kind in DealKind}

    @journaled
    def propose_deal(self, player: str, kind: DealKind) -> list[Event]:
        """At the final table, between hands, ``player`` proposes a deal of ``kind``; he accepts it himself."""
        if not self.settings.deals_allowed:
            raise TableRuleError("this tournament has no deals")
        if self.phase is not Phase.FINAL_TABLE or self._deal is not None:
            raise TableRuleError("a deal is proposed at the final table, one at a time")
        (table,) = self.tables.values()
        if table.hand_running:
            raise HandInProgress("deals are made between hands")
        live = sorted(self.live_entries(), key=lambda e: e.number)
        proposer = [e for e in live if e.player == player]
        if not proposer:
            raise NotSeated(f"{player} is not at the final table")
        if self.prizes is None:
            self._fix_prizes()
        stacks = [self.stack_of(e.number) for e in live]
        shares = deal(kind, stacks, self.remaining_prizes())
        self._deal = _Deal(kind, {e.number: share for e, share in zip(live, shares, strict=True)})
        self._deal.accepted.add(proposer[0].number)
        return [DealProposed(player, kind.value, tuple((e.player, s) for e, s in zip(live, shares, strict=True))),
                DealAccepted(player)]

    @journaled
    def accept_deal(self, player: str) -> list[Event]:
        """``player`` accepts; when all have, the shares are paid and the tournament is complete."""
        current = self._deal
        if current is None:
            raise TableRuleError("no deal is on the table")
        mine = [n for n in current.shares if self.entries[n].player == player]
        if not mine:
            raise NotSeated(f"{player} is not part of the deal")
        if current.accepted.issuperset(mine):
            raise TableRuleError(f"{player} already accepted the deal")  # once: each accept is told to the table
        current.accepted.update(mine)
        events: list[Event] = [DealAccepted(player)]
        if current.accepted != set(current.shares):
            return events
        self._deal = None
        groups = rank_by_chips({entry: self.stack_of(entry) for entry in current.shares})
        place = 1
        for group in groups:
            for entry in group:
                state = self.entries[entry]
                self._out(state)
                state.place, state.tied = place, len(group)
                events += self._award(entry, place, Prize(current.shares[entry]))
            place += len(group)
        return events + self._finish("deal", None)

    @journaled
    def decline_deal(self, player: str) -> list[Event]:
        """``player`` refuses: the deal is off, play goes on."""
        if self._deal is None:
            raise TableRuleError("no deal is on the table")
        if not any(self.entries[entry].player == player for entry in self._deal.shares):
            raise NotSeated(f"{player} is not part of the deal")  # nobody else may call a deal off
        self._deal = None
        return [DealDeclined(player)]

    # --- shootout and heads-up rounds --------------------------------------------------------------

    def _shootout_hand_over(self, table: TournamentTable, result: HandResult, now: float) -> list[Event]:
        final: list[tuple[int, int, tuple[int, ...]]] = []
        dead_antes = self._current_level.big_blind_ante > 0
        for seat in result.busted_seats:
            entry = table.seats[seat].entry
            by = tuple(table.seats[s].entry for s in knockers(result.events, seat, dead_antes=dead_antes))
            final.append((entry, result.starting[seat], by))
        for entry, _, _ in final:
            self._take_off(entry)
        if len(self.tables) == 1:  # the last round's one table: places as at any final table
            events = self._eliminate_group(final, now, across_tables=False) if final else []
            return events + self._maybe_complete(now) if self.live_count == 1 else events
        events = self._out_of_round(table, final)
        if all(t.player_count == 1 and not t.hand_running for t in self.tables.values()):
            events += self._rank_round()
            events += self._next_round(now)
        return events

    @property
    def _round_out(self) -> list[tuple[int, int]]:
        """Entries out in this shootout round with the place each reached at his own table (a property:
        tournaments stored before it have none)."""
        out: list[tuple[int, int]] = self.__dict__.setdefault("_round_out_entries", [])
        return out

    def _out_of_round(self, table: TournamentTable, final: list[tuple[int, int, tuple[int, ...]]]) -> list[Event]:
        """Shootout, several tables: who busts is out with the place he reached at his table (bigger starting
        stack higher, equal stacks tie); his place in the tournament waits for the round's end."""
        events: list[Event] = []
        place = table.player_count + 1
        ordered = sorted(final, key=lambda item: -item[1])
        for starting in sorted({item[1] for item in ordered}, reverse=True):
            tie = [item for item in ordered if item[1] == starting]
            self.busted += len(tie)
            for entry, _starting, by in tie:
                state = self.entries[entry]
                self._out(state)
                state.busted_order, state.place, state.tied = self.busted, None, len(tie)
                self._round_out.append((entry, place))
                events.append(Eliminated(state.player, entry, None, tuple(self.entries[b].player for b in by),
                                         len(tie)))
                events += self._pay_bounties(self.bounties.knock_out(entry, list(by)))
            place += len(tie)
        return events

    def _rank_round(self) -> list[Event]:
        """The round is over: its players out rank by the place reached at their own table; equal places
        across tables tie and share those places' prizes (decision of turn 3)."""
        out, self.__dict__["_round_out_entries"] = self._round_out, []
        events: list[Event] = []
        if self.prizes is None:
            events += self._fix_prizes()
        assert self.prizes is not None
        place = len(self.tables) + 1  # each table's winner plays on
        for table_place in sorted({reached for _, reached in out}):
            group = sorted(entry for entry, reached in out if reached == table_place)
            prizes = split_tied_places(self.prizes, place, len(group))
            for index, entry in enumerate(group):
                state = self.entries[entry]
                state.place, state.tied = place, len(group)
                events.append(Ranked(state.player, entry, place))
                events += self._award(entry, place, prizes[index])
            place += len(group)
        return events

    def _next_round(self, now: float) -> list[Event]:
        """Every table has its winner: they sit at new tables, starting stack and level 1 again (seed)."""
        winners = [seated.entry for t in self.tables.values() for seated in t.seats.values()]
        for table in list(self.tables.values()):
            self.chips_retired += table.chips()
            for seat in list(table.seats):
                self.entries[table.seats[seat].entry].table = None
                del table.seats[seat]
            self._drop_table(table.number)
        self.shootout_round += 1
        self._clock_origin = now
        self.level_number = 1
        self._current_level = self._stage(now).level
        groups = initial_tables(sorted(winners), self.settings.seats_per_table, self.draw)
        events: list[Event] = [ShootoutRound(self.shootout_round, len(winners), len(groups)), self._level_event()]
        for members in groups:
            events += self._open_table(members)
        if len(self.tables) == 1:
            events += self._final_table()
        return events

