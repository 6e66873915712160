"""One asyncio task per table: the commit–reveal shuffle, then the hand, driven through ``engine.table.Table``.

The runner owns the table's clocks (DESIGN.md "room"): it waits until two players can play, runs the
fairness phases with their deadlines (DESIGN.md "Fairness"), derives the deck, starts the hand, turns every
engine event into the protocol's per-connection views (:class:`hosting.event_views.EventViews`: each message
encoded once), calls :meth:`Table.tick` at :meth:`Table.next_deadline`, and publishes the transcript when the
hand ends.

Fairness phases, per hand (R-FAIR-1):

1. the host draws ``s0`` (``secrets.token_bytes(32)``) and sends ``commit_request`` (with its commitment) to
   every player about to be dealt in; a player without a ``commit`` before ``commit_seconds`` sits out
   (``sit_out`` then, not dealt in); the plan is made again without him — except where the table's policy
   deals absent players in (a tournament, R-TOUR-6): he is dealt in without a seed (the deck is the host's and
   the committed players'), a disconnected one is not waited for, and the table acts for him at once;
2. the host publishes ``commitments`` (host and players) to the players and watchers, then ``reveal_request``;
3. a player whose ``reveal`` is missing or does not match by ``reveal_seconds`` forfeits: he is dealt in
   and folded at once, his forced bets stay in the pot (``forfeited`` in the transcript);
4. the deck is :func:`engine.fairness.derive_deck` over the revealed seeds; the dealer draw of a table's
   first hand uses the same seeds with the hand id suffixed ``/button``; a draw game's reshuffles of the
   discards use :func:`engine.fairness.reshuffle_key` and are recorded (:class:`ReshuffleRecorder`);
5. after the hand, ``seeds`` carries the whole transcript (with the draws and reshuffles of a hand that
   reshuffled); clients verify and answer ``verification``.

The runner talks to its table's owner through :class:`hosting.owner.TableOwner` (whether a hand may start,
what happens between hands, each hand's start and result, where chips leaving the table go: :mod:`hosting.cash`
for cash tables) and to the players through :class:`hosting.owner.Mailroom`; it imports neither the room nor
the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
from collections.abc import Awaitable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import (
    Action,
    BetOrRaise,
    BringIn,
    Call,
    Check,
    Draw,
    Fold,
    LegalActions,
    Muck,
    RunItTwice,
    Show,
    Split,
)
from engine.cards import Card
from engine.draw import seeded_reshuffle
from engine.errors import IllegalAction, InvalidAmount, NotYourTurn, TableRuleError
from engine.events import (
    CardsDrawn,
    Event,
    HandEnded,
    HandShown,
    PotAwarded,
)
from engine.fairness import (
    HOST,
    Committer,
    Deal,
    ReshuffleRecorder,
    Transcript,
    commit,
    dealt_by,
    derive_deck,
    reshuffle_key,
)
from engine.table import AFTER_HAND_EVENTS, HandEngine
from engine.table_events import HandFinished, PlayerMovedIn, PlayerSeated, TurnStarted
from hosting import protocol
from hosting.errors import NO_HAND, RoomError
from hosting.event_views import EventViews
from hosting.hand_codec import view_bodies
from hosting.missed_shuffles import MissedShuffles
from hosting.owner import Listener, Mailroom, TableOwner, release_chips
from hosting.protocol import ActionMessage, Commit, Inbound, Reveal, VerificationReport
from hosting.tables import TableState

log = logging.getLogger("croupier.room")


SHOWDOWN_HOLD_SECONDS = 3.0
"""How long a room leaves a showdown's result up (shown hands, winners) before the next deal starts."""


@dataclass(frozen=True)
class RunnerSettings:
    """Seconds: commit and reveal deadlines, the pause between hands, and the longer pause after a hand that
    went to a showdown (``None``: the same as any other hand — tests that pace tables fast)."""

    commit_seconds: float = 5.0
    reveal_seconds: float = 5.0
    pause_between_hands: float = 1.0
    showdown_pause: float | None = None

    def pause_after(self, showdown: bool) -> float:
        """The pause before the next hand's deal: a showdown's result stays up at least ``showdown_pause``.

        >>> RunnerSettings(pause_between_hands=1.0, showdown_pause=3.0).pause_after(True)
        3.0
        >>> ROOM_SETTINGS.pause_after(False), ROOM_SETTINGS.pause_after(True)
        (1.0, 3.0)
        """
        if not showdown or self.showdown_pause is None:
            return self.pause_between_hands
        return max(self.pause_between_hands, self.showdown_pause)


ROOM_SETTINGS = RunnerSettings(showdown_pause=SHOWDOWN_HOLD_SECONDS)
"""A hosted room's pacing when nothing else is asked for."""


RECENT_HANDS = 32
"""Finished hands whose dealt-in players a runner remembers: a client's ``verification`` of one of them is
accepted from those players only (:meth:`TableRunner.dealt_in`); an older hand is past reporting."""


@dataclass
class _Fairness:
    hand_id: str
    host_secret: bytes
    commitments: dict[Committer, bytes] = field(default_factory=dict)
    seeds: dict[Committer, bytes] = field(default_factory=dict)
    expected: dict[str, int] = field(default_factory=dict)  # player → seat asked to commit
    tickets: dict[int, tuple[str, str]] = field(default_factory=dict)  # seat → (pool, ticket) committed ahead
    phase: str = "commit"
    changed: asyncio.Event = field(default_factory=asyncio.Event)


def to_engine_action(message: ActionMessage, options: LegalActions | None) -> Action:
    """The protocol's action as an engine action; ``all_in`` becomes the largest bet or a call for the stack."""
    kind = message.kind
    if kind == "fold":
        return Fold()
    if kind == "check":
        return Check()
    if kind == "call":
        return Call()
    if kind in ("bet", "raise_to", "complete"):
        assert message.amount is not None
        return BetOrRaise(message.amount)
    if kind == "all_in":
        if options is not None and options.max_raise_to is not None:
            return BetOrRaise(options.max_raise_to)
        return Call()
    if kind == "bring_in":
        return BringIn()
    if kind == "draw":
        return Draw(message.discard_cards())
    if kind in ("run_it_twice", "run_it_once"):  # R-HOME-1: the answer to the run-it-twice question
        return RunItTwice(kind == "run_it_twice")
    if kind == "split":
        return Split()
    return Show() if kind == "show" else Muck()


async def cancel_and_wait(task: asyncio.Task[Any]) -> None:
    """Cancel ``task`` until it is done: on Python 3.11 ``asyncio.wait_for`` can swallow a cancellation that
    arrives just as its inner wait completes, so one ``cancel()`` is not always enough."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=0.1)
    if not task.cancelled() and task.exception() is not None:
        with contextlib.suppress(Exception):
            task.result()


async def wait_event(event: asyncio.Event, timeout: float | None) -> bool:
    """Wait for ``event`` at most ``timeout`` seconds (None: no limit); whether it was set. Not
    ``asyncio.wait_for``: on Python 3.11 it can swallow a cancellation that arrives as the event is set, and a
    runner's loop then runs on after the room (or the test's event loop) cancelled it; ``asyncio.timeout``
    tells its own expiry from an outside cancellation, which always propagates."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(None if timeout is None else max(0.0, timeout)):
            await event.wait()
    return event.is_set()


_LEGAL_FIELDS = tuple(field.name for field in dataclasses.fields(LegalActions))


def legal_to_json(options: LegalActions) -> dict[str, Any]:
    # its fields are plain values: no deep copy (dataclasses.asdict took 2 % of a busy host's time)
    return {name: getattr(options, name) for name in _LEGAL_FIELDS}


class TableRunner:
    """Drives one table. ``room`` (a :class:`Mailroom`) routes ``action``/``commit``/``reveal``/``verification``
    here (HandDriver) and carries the runner's messages; ``owner`` (default: the room's owner of the table)
    decides when hands start, what happens between them and where chips go."""

    def __init__(self, room: Mailroom, state: TableState, settings: RunnerSettings | None = None, *,
                 owner: TableOwner | None = None) -> None:
        self.room = room
        self.state = state
        self.owner = owner if owner is not None else room.owner_of(state)
        self.settings = settings or ROOM_SETTINGS
        self._showdown = False  # the last hand's hands were shown: its result stays up longer
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._fairness: _Fairness | None = None
        self._hand_id: str | None = None
        self._deck: tuple[Card, ...] = ()
        self._hand: HandEngine | None = None  # the hand being dealt: it knows its deals (R-FAIR-1)
        self._card_events: list[Event] = []  # the hand's dealing and drawing events, for its reshuffle records
        self._reshuffles: ReshuffleRecorder | None = None
        self.sat_out_while_away: set[str] = set()  # sat out by us for a shuffle step missed while disconnected
        self.missed_shuffles = MissedShuffles()  # who keeps missing: a growing wait before he may sit in again
        self._seeds: dict[Committer, bytes] = {}
        self._hand_log: HandEngine | None = None  # the running engine hand, for its owner at its end
        self._owner_future: Awaitable[Any] | None = None  # the owner keeping the last result: awaited before seeds
        self._closing = False
        self._last_hand: str | None = None  # the last hand played to its end here
        self._finished_hand: str = ""  # the hand that ended last: a rabbit or a show asked after it is its own
        self._arrived: set[str] = set()  # seated since the running (or last) hand was dealt: a pool's next group
        self._run_token = secrets.token_hex(3)
        self._shuffled_number: int | None = None  # the hand number the last shuffle was for
        self._finished: dict[str, frozenset[str]] = {}  # the last RECENT_HANDS hands' dealt-in players, by hand id
        self.hands_played = 0
        self.failure: BaseException | None = None

    # --- lifecycle -----------------------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table {self.state.config.id}")

    async def stop(self) -> None:
        if self._task is not None:
            await cancel_and_wait(self._task)
            self._task = None

    def wake(self) -> None:
        self._wake.set()

    async def finish(self) -> None:
        """Stop after the hand in play (its shuffle included) has ended: the room is taking the table away."""
        self._closing = True
        self.wake()
        task = self._task
        if task is not None:
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:
                if not task.cancelled():  # we were cancelled, not the runner: pass it on, never swallow it
                    raise
            self._task = None

    @property
    def between_hands(self) -> bool:
        """No hand is being shuffled or played here now."""
        return self._fairness is None and not self.state.engine.hand_running

    def player_chose(self, name: str) -> None:
        """``name`` sat out or in himself: his choice now, not ours (:meth:`player_returned` leaves it)."""
        self.sat_out_while_away.discard(name)

    def dealt_in(self, hand_id: str) -> frozenset[str] | None:
        """The players dealt into ``hand_id`` once its seeds are published; ``None`` for a hand not (or no
        longer) known here: running, never played, or older than the last :data:`RECENT_HANDS`."""
        return self._finished.get(hand_id)

    def player_returned(self, name: str) -> None:
        """``name`` connected again: if we sat him out for a shuffle step he missed while he was disconnected,
        he is back in for the next hand — he never asked to sit out. One who missed it while connected stays
        out until he sits in himself (:meth:`sit_out_for_missing`). At a tournament table a player Away (he ran
        out of time) acts for himself again from his return (R-TOUR-6: played for "until they return")."""
        table = self.state.engine
        fairness = self._fairness
        if fairness is not None and fairness.phase == "commit" and name in fairness.expected \
                and fairness.expected[name] not in fairness.commitments:  # asked on the old connection: again
            self._send_to(name, protocol.commit_request(
                self.state.config.id, fairness.hand_id, fairness.expected[name], fairness.commitments[HOST].hex(),
                self.settings.commit_seconds))
        seat = table.seat_of(name)
        back = name in self.sat_out_while_away or (
            table.policy.deals_in_absent and seat is not None and table.players[seat].away)
        if back and seat is not None:  # a tournament player Away (timed out) is back with his connection (R-TOUR-6)
            self.sat_out_while_away.discard(name)
            with contextlib.suppress(TableRuleError):  # no chips: he stays out, as anyone would
                self.publish(table.sit_in(name, self.room.clock()))
        self.resync(name)
        self.wake()

    def resync(self, name: str) -> None:
        """Bring ``name``'s new connection up to the running hand: the published commitments (so his client
        can still verify the hand), the hand's events so far as his seat sees them (board, his cards, the
        bets), and the action request if it is his turn."""
        table, fairness, hand_id = self.state.engine, self._fairness, self._hand_id
        table_id = self.state.config.id
        if fairness is None or fairness.phase == "commit":
            return
        by_seat = {("host" if seat == HOST else str(seat)): digest.hex()
                   for seat, digest in fairness.commitments.items()}
        self._send_to(name, protocol.commitments(table_id, fairness.hand_id, by_seat))
        if table.hand is None or hand_id is None or not table.in_hand(name):
            return
        seat = table.seat_of(name)
        for body in view_bodies(list(table.hand.events), seat):
            self._send_to(name, protocol.event(table_id, hand_id, body))
        turn = table.to_act()
        options = table.hand.legal_actions()
        if turn is not None and options is not None and turn[0] == options.seat == seat:
            self._send_to(name, protocol.action_request(
                table_id, hand_id, seat, legal_to_json(options), round(max(0.0, turn[1] - self.room.clock()), 3)))

    async def _run(self) -> None:
        try:
            while not self._closing:
                table = self.state.engine
                self.owner.between_hands(self.state)  # e.g. the host's changes that waited for the hand's end
                # no hand yet (or the owner says wait), but held seats still expire on time (R-DISC-1)
                if not self.owner.may_start_hand(self.state) or not table.can_start_hand():
                    await self._sleep(table.next_deadline())
                    self.publish(table.tick(self.room.clock()))
                    continue
                self._showdown = False
                await self._play_hand()
                if self._players_stayed():  # the result stays up for those who played it
                    await asyncio.sleep(self.settings.pause_after(self._showdown))
        except asyncio.CancelledError:
            raise
        except BaseException as problem:  # a runner must never die silently: the room reports it
            self.failure = problem
            log.exception("table %s stopped: its runner failed", self.state.config.id)
            raise

    def _players_stayed(self) -> bool:
        """Whether a player of the last hand still sits here (a pool moves them all on: no pause then, the
        group it seated since never saw that hand)."""
        played = self._finished.get(self._last_hand or "", frozenset())
        return any(self.state.engine.seat_of(name) is not None for name in played - self._arrived)

    async def _sleep(self, until: float | None) -> None:
        """Wait for a wake-up, or until the room clock reaches ``until``."""
        self._wake.clear()
        timeout = None if until is None else max(0.0, until - self.room.clock())
        await wait_event(self._wake, timeout)

    # --- one hand ------------------------------------------------------------------------------------

    async def _play_hand(self) -> None:
        table = self.state.engine
        if self._shuffled_number == table.hand_number + 1:
            # the last shuffle for this number was given up (someone sat down or left): a new hand id, so that a
            # commitment on its way for it cannot count in this one (the client drew a new secret since)
            self._run_token = secrets.token_hex(3)
        self._shuffled_number = table.hand_number + 1
        hand_id = f"{self.state.config.id}-{self._run_token}-{table.hand_number + 1}"
        fairness = _Fairness(hand_id, secrets.token_bytes(32))
        self._fairness = fairness
        fairness.commitments[HOST] = self._commit(hand_id, HOST, fairness.host_secret)
        try:
            dealt_in = await self._collect_commitments(fairness)
            if dealt_in is None:
                return
            forfeited = await self._collect_reveals(fairness, dealt_in)
        finally:
            fairness.phase = "dealing"
        plan = table.plan_next_hand()
        if plan is None or not set(plan.dealt_in) <= set(dealt_in.values()):
            # someone sat down during the phases (a tournament moved him here): he committed nothing, and the
            # deck must be the committed players' (R-FAIR-1): shuffle again with him
            return
        seeds = dict(fairness.seeds)
        seeds[HOST] = fairness.host_secret
        cards = table.config.hand.variant.deck
        self._deck = derive_deck(hand_id, seeds, cards)
        self._hand = None
        self._card_events = []
        self._hand_id = hand_id
        self._seeds = seeds
        button_deck = derive_deck(hand_id + "/button", seeds, cards) if table.positions is None else None
        self._reshuffles = None
        if table.config.hand.variant.has_draws:  # discards reshuffled from the deck key: reproducible (R-DRAW-1)
            self._reshuffles = ReshuffleRecorder(seeded_reshuffle(reshuffle_key(hand_id, seeds)))
        try:
            events = table.start_hand(self._deck, self.room.clock(), button_draw_deck=button_deck,
                                      reshuffle=self._reshuffles)
        except TableRuleError:
            self._hand_id = None
            return  # someone left during the phases; try again
        # a hand that ended as it started (every blind all in) is the table's last hand already
        self._hand = table.hand if table.hand is not None else table.last_hand
        self._hand_log = self._hand
        self._arrived = set()
        self.owner.hand_started(self.state, hand_id, events)  # e.g. the start snapshot; the result follows
        self.publish(events)
        for name in forfeited:  # committed but never revealed: folded, forced bets forfeited (never a re-deal)
            if not table.policy.deals_in_absent:  # a tournament deals him in again next hand (R-TOUR-6)
                self.sit_out_for_missing(name)  # before the fold: a pool's fold sends him back to its line
            if table.seat_of(name) is not None and table.in_hand(name):
                self.publish(table.fold_out(name, self.room.clock()))
        while table.hand_running:
            await self._sleep(table.next_deadline())
            if table.hand_running:
                self.publish(table.tick(self.room.clock()))
        transcript = self._transcript()
        if self._owner_future is not None:  # the result is kept before the next hand: never lost
            future, self._owner_future = self._owner_future, None
            await future
        self._finished[hand_id] = frozenset(dealt_in)
        self.room.hand_finished(self.state.config.id, hand_id, dealt_in)  # verdicts may come after the table
        self._last_hand = hand_id
        while len(self._finished) > RECENT_HANDS:
            del self._finished[next(iter(self._finished))]
        proof = protocol.seeds(self.state.config.id, hand_id, transcript.to_json())
        self._send_to_audience(proof, dealt_in)  # gone before the end (a pool moved him on): his proof too
        self._fairness = None
        self._hand_id = None
        self.hands_played += 1

    def _transcript(self) -> Transcript:
        fairness = self._fairness
        assert fairness is not None and self._hand_id is not None
        forfeited_seats = tuple(sorted(int(seat) for seat in fairness.commitments
                                       if seat != HOST and seat not in fairness.seeds))
        draws, reshuffles = ((), ()) if self._reshuffles is None else \
            self._reshuffles.records(self._card_events, len(self._deck))
        return Transcript(self.room.room_id, self.state.config.id, self._hand_id,
                          tuple(self.state.engine.config.hand.variant.deck), dict(fairness.commitments),
                          self._seeds, self._deals(), forfeited_seats, draws, reshuffles,
                          {seat: ticket for seat, ticket in fairness.tickets.items() if seat in fairness.commitments})

    def _commit(self, hand_id: str, committer: Committer, secret: bytes) -> bytes:
        return commit(self.room.room_id, self.state.config.id, hand_id, committer, secret)

    async def _collect_commitments(self, fairness: _Fairness) -> dict[str, int] | None:
        """Ask each player about to be dealt in for a commitment; sit out those who miss the deadline."""
        table = self.state.engine
        while True:
            plan = table.plan_next_hand()
            if plan is None or not table.can_start_hand():
                return None
            wanted = {table.players[seat].player: seat for seat in plan.dealt_in}
            self._use_commitments_ahead(fairness, wanted)
            for name, seat in wanted.items():
                if name not in fairness.expected:
                    fairness.expected[name] = seat
                    self._send_to(name, protocol.commit_request(
                        self.state.config.id, fairness.hand_id, seat, fairness.commitments[HOST].hex(),
                        self.settings.commit_seconds))
            self.room.shuffle_asked(self.state.config.id, fairness.hand_id, fairness.expected)
            deadline = self.room.clock() + self.settings.commit_seconds
            while not all(seat in fairness.commitments for name, seat in wanted.items()
                          if not self._dealt_in_absent(name)):
                if self.room.clock() >= deadline:
                    break
                fairness.changed.clear()
                await wait_event(fairness.changed, deadline - self.room.clock())
            missing = [name for name, seat in wanted.items() if seat not in fairness.commitments]
            if not missing or table.policy.deals_in_absent:
                # R-TOUR-6: a tournament deals him in without his seed; the deck is the host's and the committed
                # players' (a seat with no commitment is in neither list of the transcript: every client checks it)
                break
            for name in missing:  # DESIGN.md step 2: a player missing the commit deadline sits the hand out
                self.sit_out_for_missing(name)
        # commitments of seats no longer dealt in are dropped: the deck key uses exactly the dealt-in seats
        for seat in [seat for seat in fairness.commitments if seat != HOST and seat not in wanted.values()]:
            del fairness.commitments[seat]
        fairness.phase = "reveal"
        by_seat = {("host" if seat == HOST else str(seat)): digest.hex()
                   for seat, digest in fairness.commitments.items()}
        # to the audience, and to a dealt-in player who left his seat meanwhile (his reveal and the proof reach
        # him by name: without the commitments he could not check the proof)
        self._send_to_audience(protocol.commitments(self.state.config.id, fairness.hand_id, by_seat), wanted)
        return wanted

    def _use_commitments_ahead(self, fairness: _Fairness, wanted: Mapping[str, int]) -> None:
        """Players who committed ahead (a fast-fold pool, R-FAST-1) are not asked again: their ticket's
        commitment stands for their seat, and the reveal and the transcript name the ticket."""
        for name, seat in wanted.items():
            if name in fairness.expected:
                continue
            ahead = self.owner.commitment_ahead(self.state, name)
            if ahead is not None:
                fairness.expected[name] = seat
                fairness.tickets[seat], fairness.commitments[seat] = ahead

    def _dealt_in_absent(self, name: str) -> bool:
        """Whether ``name`` is dealt in without waiting for his commitment: disconnected, Away or sitting out, at a
        table whose policy deals absent players in (R-TOUR-6). He does not answer: the hand does not wait for him
        (his commitment counts if it comes in time)."""
        table = self.state.engine
        if not table.policy.deals_in_absent:
            return False
        seat = table.seat_of(name)
        away = seat is not None and (table.players[seat].away or table.players[seat].sitting_out)
        return away or not self.room.connected(name)

    def sit_out_for_missing(self, name: str) -> None:
        """``name`` missed his commit or reveal deadline: sat out until he acts himself (sits in), so that a
        silent client cannot add the deadline to every hand. Missed while disconnected: back when he returns."""
        table, now = self.state.engine, self.room.clock()
        self.missed_shuffles.missed(name, now)
        self.owner.shuffle_missed(self.state, name)
        if table.seat_of(name) is None:
            return
        self.publish(table.sit_out(name, now))
        if not self.room.connected(name):
            self.sat_out_while_away.add(name)

    def leave_in_hand(self, name: str) -> bool:
        """A commit–reveal table folds a leaving player at once (the room does): nothing to take here."""
        return False

    def sit_in_refusal(self, name: str, now: float) -> str | None:
        """Why ``name`` may not sit in yet: the growing wait of one who keeps missing the shuffle
        (:mod:`hosting.missed_shuffles`), else ``None``."""
        return self.missed_shuffles.refusal(name, now)

    async def _collect_reveals(self, fairness: _Fairness, dealt_in: dict[str, int]) -> list[str]:
        """Ask every committed player for his secret; the committed players who did not reveal in time."""
        dealt_in = {name: seat for name, seat in dealt_in.items() if seat in fairness.commitments}
        for name, seat in dealt_in.items():
            self._send_to(name, protocol.reveal_request(self.state.config.id, fairness.hand_id, seat,
                                                        self.settings.reveal_seconds, fairness.tickets.get(seat)))
        deadline = self.room.clock() + self.settings.reveal_seconds
        while not all(seat in fairness.seeds for seat in dealt_in.values()) and self.room.clock() < deadline:
            fairness.changed.clear()
            await wait_event(fairness.changed, deadline - self.room.clock())
        return [name for name, seat in dealt_in.items() if seat not in fairness.seeds]

    def _deals(self) -> tuple[Deal, ...]:
        """Deck positions in deck order and who got each, as the hand knows them (:attr:`engine.hand.Hand.deals`);
        cards dealt again from reshuffled discards are the transcript's ``reshuffles``."""
        return self._hand.deals if self._hand is not None else ()

    # --- events out ----------------------------------------------------------------------------------

    def publish(self, events: Iterable[Event]) -> None:
        """Send each event to everyone who hears the table, as their view; action requests to the player."""
        events = list(events)
        if not events:
            return
        self._note_dealt(events)
        self._showdown = self._showdown or any(isinstance(event, HandShown) for event in events)
        self._arrived.update(event.player for event in events if isinstance(event, PlayerMovedIn | PlayerSeated))
        table = self.state.engine
        hand_id = self._hand_id or ""
        if all(isinstance(event, AFTER_HAND_EVENTS) for event in events):
            hand_id = self._finished_hand  # asked for during the next deal too: still the finished hand's
        views = EventViews(self.state.config.id, hand_id, events)  # each message encoded once for all
        for listener in self.room.audience(self.state):
            seat = table.seat_of(listener.name)
            for message in views.for_seat(seat if seat is not None and table.in_hand(listener.name) else None):
                listener.send(message)
        for event in events:
            if isinstance(event, TurnStarted) and table.hand is not None:
                options = table.hand.legal_actions()
                if options is not None:
                    self._send_to(event.player, protocol.action_request(
                        self.state.config.id, hand_id, event.seat, legal_to_json(options),
                        round(event.deadline - self.room.clock(), 3)))
            elif isinstance(event, HandFinished):
                self._finished_hand = hand_id
                self.state.record_hand(self.room.clock(), self._pot_of(events))
                self._hand_finished()
        release_chips(self.owner, self.state, events)  # after the result of the hand that freed them is kept
        self.room.broadcast_table(self.state)
        self.owner.events_published(self.state, events)

    def _hand_finished(self) -> None:
        """The finished hand's whole log and transcript to the owner (who keeps its result)."""
        hand, self._hand_log = self._hand_log, None
        if hand is None or self._hand_id is None:
            return
        self._owner_future = self.owner.hand_finished(self.state, self._hand_id, list(hand.events),
                                                      self._transcript())

    def _note_dealt(self, events: Sequence[Event]) -> None:
        """Keep the hand's dealing and drawing events: a draw game's reshuffle records are made of them."""
        self._card_events += [event for event in events
                              if dealt_by(event) is not None or isinstance(event, CardsDrawn)]

    @staticmethod
    def _pot_of(events: Sequence[Event]) -> int:
        awarded = sum(event.amount for event in events if isinstance(event, PotAwarded))
        rake = sum(event.rake for event in events if isinstance(event, HandEnded))
        return awarded + rake

    def _send_to(self, name: str, message: dict[str, Any]) -> None:
        self.room.send_to(name, message)

    def _send_to_audience(self, message: dict[str, Any], dealt_in: Iterable[str] = ()) -> None:
        """``message`` to the table's audience, and to those of ``dealt_in`` no longer in it."""
        shared = protocol.shared(message)
        listening: set[str] = set()
        for listener in self.room.audience(self.state):
            listener.send(shared)
            listening.add(listener.name)
        for name in sorted(set(dealt_in) - listening):
            self._send_to(name, shared)

    # --- messages in (HandDriver) --------------------------------------------------------------------

    def handle(self, session: Listener, message: Inbound, now: float) -> None:
        if isinstance(message, Commit | Reveal):
            self._fairness_message(session, message)
        elif isinstance(message, ActionMessage):
            table = self.state.engine
            if self._hand_id is None or message.hand != self._hand_id or table.hand is None:
                raise RoomError(NO_HAND, f"hand {message.hand!r} is not being played at {self.state.config.id}")
            try:
                events = table.act(session.name, to_engine_action(message, table.hand.legal_actions()), now)
            except NotYourTurn as problem:
                raise RoomError("not_your_turn", str(problem)) from None
            except InvalidAmount as problem:
                raise RoomError("invalid_amount", str(problem)) from None
            except (IllegalAction, TableRuleError, ValueError) as problem:
                raise RoomError("illegal_action", str(problem)) from None
            self.publish(events)
            self.wake()
        elif isinstance(message, VerificationReport):
            pass  # checked (dealt_in), kept and relayed by the room

    def _fairness_message(self, session: Listener, message: Commit | Reveal) -> None:
        fairness = self._fairness
        if fairness is None or message.hand != fairness.hand_id:
            raise RoomError(NO_HAND, f"no shuffle is open for hand {message.hand!r} at {self.state.config.id}")
        seat = fairness.expected.get(session.name)
        if seat is None:
            raise RoomError("not_dealt_in", f"you are not being dealt into hand {message.hand}")
        if isinstance(message, Commit):
            if fairness.phase != "commit":
                raise RoomError("too_late", "the commitments are already published")
            if seat in fairness.commitments:
                raise RoomError("already_committed", "you already committed for this hand")
            fairness.commitments[seat] = bytes.fromhex(message.commitment)
        else:
            if fairness.phase != "reveal":
                raise RoomError("too_late" if fairness.phase == "dealing" else "too_early",
                                f"reveals are not open (phase: {fairness.phase})")
            secret = bytes.fromhex(message.secret)
            ticket = fairness.tickets.get(seat)
            expected = self._commit(fairness.hand_id, seat, secret) if ticket is None else \
                commit(self.room.room_id, ticket[0], ticket[1], 0, secret)
            if fairness.commitments.get(seat) != expected:
                raise RoomError("bad_reveal", "this secret does not match your commitment")
            fairness.seeds[seat] = secret
        session.send(protocol.ack(message.type, table=self.state.config.id, hand=message.hand))
        fairness.changed.set()
