"""One asyncio task per table: the commit–reveal shuffle, then the hand, driven through ``engine.table.Table``.

The runner owns the table's clocks (DESIGN.md "room"): it waits until two players can play, runs the
fairness phases with their deadlines (DESIGN.md "Fairness"), derives the deck, starts the hand, turns every
engine event into the protocol's per-connection views (:func:`hosting.hand_codec.view_bodies`), calls
:meth:`Table.tick` at :meth:`Table.next_deadline`, and publishes the transcript when the hand ends.

Fairness phases, per hand (R-FAIR-1):

1. the host draws ``s0`` (``secrets.token_bytes(32)``) and sends ``commit_request`` (with its commitment) to
   every player about to be dealt in; a player without a ``commit`` before ``commit_seconds`` sits out
   (``sit_out`` then, not dealt in); the plan is made again without him;
2. the host publishes ``commitments`` (host and players) to the players and watchers, then ``reveal_request``;
3. a player whose ``reveal`` is missing or does not match by ``reveal_seconds`` forfeits: he is dealt in
   and folded at once, his forced bets stay in the pot (``forfeited`` in the transcript);
4. the deck is :func:`engine.fairness.derive_deck` over the revealed seeds; the dealer draw of a table's
   first hand uses the same seeds with the hand id suffixed ``/button``; a draw game's reshuffles of the
   discards use :func:`engine.fairness.reshuffle_key` and are recorded (:class:`ReshuffleRecorder`);
5. after the hand, ``seeds`` carries the whole transcript (with the draws and reshuffles of a hand that
   reshuffled); clients verify and answer ``verification``.

Bad-beat jackpot (R-JACK-1), at a table whose room file sets ``jackpot``: when a hand ends, its drop (a share of
its rake) and any bad beat it pays are settled on the pool of the table's game family
(:func:`settle_jackpot`), stored with the hand in the same transaction (:meth:`hosting.store.Store.hand_finished`),
and a bad beat is announced to the table with a public ``jackpot_paid`` event, then a ``balance`` message to
each player paid (jackpots go to the player's account, not his stack). The pool is kept by the store, so it
needs one: a room without a store plays no jackpot.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

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
    HandStarted,
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
from engine.jackpot import (
    JACKPOT_GAMES,
    QUALIFYING_QUADS,
    HandJackpot,
    settle_hand,
    settle_monte_carlo,
    smart_jackpot_active,
    table_is_eligible,
)
from engine.rake import Percentage
from engine.table_events import HandFinished, TurnStarted
from engine.variants import variant_by_id
from hosting import protocol
from hosting.config import TableConfig
from hosting.errors import NO_HAND, RoomError
from hosting.hand_codec import view_bodies
from hosting.protocol import ActionMessage, Commit, Inbound, Reveal, VerificationReport
from hosting.store import hand_start_of, table_settings

if TYPE_CHECKING:
    from engine.table import HandEngine
    from hosting.room import Room, Session, TableState

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


def jackpot_pool_name(config: TableConfig) -> str | None:
    """The jackpot pool a table plays for, or None: bad beat ``"bad_beat_holdem"``, ``"bad_beat_omaha"``,
    ``"bad_beat_five_card_draw"`` (one per game family), ``"monte_carlo_holdem"`` and ``"smart_holdem"``
    (R-JACK-2: one pool per jackpot type, shared by every such table of the room)."""
    game = JACKPOT_GAMES.get(config.game)
    return None if config.jackpot is None or game is None else f"{config.jackpot.kind}_{game}"


def jackpot_live(config: TableConfig) -> bool:
    """Whether the table's hands can feed and win its jackpot at all: one is configured, the table is not
    heads-up (more than 2 seats) and its big blind is at least the jackpot's ``minimum_big_blind``."""
    return jackpot_pool_name(config) is not None and config.jackpot is not None and config.seats > 2 \
        and config.big_blind >= config.jackpot.minimum_big_blind


def settle_jackpot(config: TableConfig, pool: int, events: Sequence[Event], players: Mapping[int, str],
                   hour: int | None = None) -> tuple[HandJackpot, dict[str, Any] | None]:
    """The jackpot side of a finished hand at ``config``'s table with ``pool`` chips in its pool (R-JACK-1):
    :func:`engine.jackpot.settle_hand`, with the table's share and conditions (cash tables; croupier's chips
    are all play chips, so the host's ``jackpot`` setting is what opts a table in), and the public
    ``jackpot_paid`` message's body when a bad beat paid (PROTOCOL.md), else None. ``players``: seat → name."""
    settings, game = config.jackpot, JACKPOT_GAMES.get(config.game)
    if settings is None or game is None:
        raise ValueError(f"table {config.id} has no jackpot")
    started = next(event for event in events if isinstance(event, HandStarted))
    eligible = table_is_eligible(play_money=False, tournament=False, table_seats=config.seats,
                                 players_dealt_in=len(started.stacks), big_blind=config.big_blind,
                                 minimum_big_blind=settings.minimum_big_blind)
    if settings.kind == "smart":  # R-JACK-2: live only in its hours; outside them it neither feeds nor wins
        eligible = eligible and hour is not None and smart_jackpot_active(hour, settings.hours)
    if settings.kind == "monte_carlo":
        return _settle_monte_carlo(config, pool, events, players, eligible)
    must_use_hole = (variant_by_id(config.game).must_use_hole or 2) if game == "omaha" else 2
    outcome = settle_hand(pool, events, game, share=Percentage(settings.share_percent, 100), eligible=eligible,
                          must_use_hole=must_use_hole, holdem_quads=QUALIFYING_QUADS[settings.qualifying_hand])
    if outcome.beat is None:
        return outcome, None
    beat = outcome.beat
    roles = {**{seat: "other" for seat in beat.others}, **{seat: "winner" for seat in beat.winners},
             **{seat: "loser" for seat in beat.losers}}
    body = {
        "jackpot": jackpot_pool_name(config), "pool": outcome.pool_before + outcome.drop,
        "losing_hand": beat.loser_hand.category, "losing_cards": [str(card) for card in beat.loser_hand.cards],
        "paid": [{"seat": seat, "name": players.get(seat, ""), "role": roles[seat], "amount": amount}
                 for seat, amount in sorted(outcome.paid.items(), key=lambda item: (-item[1], item[0]))],
        "next_pool": outcome.pool_after,
    }
    return outcome, body


def _settle_monte_carlo(config: TableConfig, pool: int, events: Sequence[Event], players: Mapping[int, str],
                        eligible: bool) -> tuple[HandJackpot, dict[str, Any] | None]:
    """:func:`settle_jackpot` for a Monte-Carlo table (R-JACK-2): the winner's shown hand is one of its hands."""
    settings = config.jackpot
    assert settings is not None
    outcome, hit = settle_monte_carlo(pool, events, settings.hands, share=Percentage(settings.share_percent, 100),
                                      eligible=eligible)
    if hit is None or not outcome.paid:
        return outcome, None
    body = {
        "jackpot": jackpot_pool_name(config), "pool": outcome.pool_before + outcome.drop,
        "winning_hand": hit.hand.category, "winning_cards": [str(card) for card in hit.hand.cards],
        "paid": [{"seat": seat, "name": players.get(seat, ""), "role": "winner", "amount": amount}
                 for seat, amount in sorted(outcome.paid.items())],
        "next_pool": outcome.pool_after,
    }
    return outcome, body


def legal_to_json(options: LegalActions) -> dict[str, Any]:
    return dataclasses.asdict(options)


class TableRunner:
    """Drives one table. ``room`` routes ``action``/``commit``/``reveal``/``verification`` here (HandDriver)."""

    def __init__(self, room: Room, state: TableState, settings: RunnerSettings | None = None) -> None:
        self.room = room
        self.state = state
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
        self._seeds: dict[Committer, bytes] = {}
        self._stored_hand: Any = None  # the engine hand whose result the store still awaits
        self._hand_players: dict[int, str] = {}
        self._jackpot_paid: tuple[dict[str, Any], dict[str, int]] | None = None  # event body, name → chips
        if self.room.store is not None and jackpot_live(state.config):
            state.jackpot = self.jackpot_summary
        self._store_future: asyncio.Future[Any] | None = None
        self._run_token = secrets.token_hex(3)
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

    def dealt_in(self, hand_id: str) -> frozenset[str] | None:
        """The players dealt into ``hand_id`` once its seeds are published; ``None`` for a hand not (or no
        longer) known here: running, never played, or older than the last :data:`RECENT_HANDS`."""
        return self._finished.get(hand_id)

    def player_returned(self, name: str) -> None:
        """``name`` connected again: if we sat him out for a shuffle step he missed while he was disconnected,
        he is back in for the next hand — he never asked to sit out. One who missed it while connected stays
        out until he sits in himself (:meth:`sit_out_for_missing`)."""
        table = self.state.engine
        fairness = self._fairness
        if fairness is not None and fairness.phase == "commit" and name in fairness.expected \
                and fairness.expected[name] not in fairness.commitments:  # asked on the old connection: again
            self._send_to(name, protocol.commit_request(
                self.state.config.id, fairness.hand_id, fairness.expected[name], fairness.commitments[HOST].hex(),
                self.settings.commit_seconds))
        if name in self.sat_out_while_away and table.seat_of(name) is not None:
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
            while True:
                table = self.state.engine
                console = self.room.console  # the host's changes wait for the end of a hand (hosting.admin)
                console.between_hands(self.state.config.id)
                if console.is_paused(self.state.config.id) or not table.can_start_hand():
                    # no hand yet, but held seats still expire on time (R-DISC-1)
                    await self._sleep(table.next_deadline())
                    self.publish(table.tick(self.room.clock()))
                    continue
                self._showdown = False
                await self._play_hand()
                await asyncio.sleep(self.settings.pause_after(self._showdown))
        except asyncio.CancelledError:
            raise
        except BaseException as problem:  # a runner must never die silently: the room reports it
            self.failure = problem
            log.exception("table %s stopped: its runner failed", self.state.config.id)
            raise

    async def _sleep(self, until: float | None) -> None:
        """Wait for a wake-up, or until the room clock reaches ``until``."""
        self._wake.clear()
        timeout = None if until is None else max(0.0, until - self.room.clock())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout)

    # --- one hand ------------------------------------------------------------------------------------

    async def _play_hand(self) -> None:
        table = self.state.engine
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
        self._hand = table.hand
        store = self.room.store
        if store is not None:  # the start snapshot; the result follows in one transaction (hosting.store)
            self._stored_hand = table.hand
            start = hand_start_of(table, self.state.config.id, hand_id, events, time.time(),
                                  table_settings(self.state.config))
            self._hand_players = dict(start.players)
            store.hand_started(start)
        self.publish(events)
        for name in forfeited:  # committed but never revealed: folded, forced bets forfeited (never a re-deal)
            if table.seat_of(name) is not None and table.in_hand(name):
                self.publish(table.fold_out(name, self.room.clock()))
            self.sit_out_for_missing(name)
        while table.hand_running:
            await self._sleep(table.next_deadline())
            if table.hand_running:
                self.publish(table.tick(self.room.clock()))
        transcript = self._transcript()
        if self._store_future is not None:  # the result is committed before the next hand: never lost
            future, self._store_future = self._store_future, None
            await future
        self._finished[hand_id] = frozenset(dealt_in)
        while len(self._finished) > RECENT_HANDS:
            del self._finished[next(iter(self._finished))]
        self._send_to_audience(protocol.seeds(self.state.config.id, hand_id, transcript.to_json()))
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
                          self._seeds, self._deals(), forfeited_seats, draws, reshuffles)

    def jackpot_summary(self) -> dict[str, Any] | None:
        """The ``jackpot`` field of the lobby row and the table message: ``{"pool": name, "amount": chips,
        "share_percent": …, "minimum_big_blind": …}`` (PROTOCOL.md), None when the table plays no jackpot."""
        store, config, pool = self.room.store, self.state.config, jackpot_pool_name(self.state.config)
        if store is None or pool is None or config.jackpot is None or not jackpot_live(config):
            return None
        summary = {"pool": pool, "amount": store.jackpot_pool(pool), "share_percent": config.jackpot.share_percent,
                   "minimum_big_blind": config.jackpot.minimum_big_blind}
        if JACKPOT_GAMES.get(config.game) == "holdem" and config.jackpot.kind != "monte_carlo":
            summary["qualifying_hand"] = config.jackpot.qualifying_hand
        if config.jackpot.kind != "bad_beat":
            summary["kind"] = config.jackpot.kind
        if config.jackpot.kind == "monte_carlo":
            summary["hands"] = list(config.jackpot.hands)
        if config.jackpot.kind == "smart":
            summary["hours"] = list(config.jackpot.hours)
            summary["live"] = smart_jackpot_active(time.localtime().tm_hour, config.jackpot.hours)
        return summary

    def _store_result(self) -> None:
        """The finished hand's events, result and transcript to the store (one transaction, with its ledger
        rows and its jackpot drop and payout), before any chips it returned to a leaving player are settled."""
        store = self.room.store
        hand, self._stored_hand = self._stored_hand, None
        if store is None or hand is None or self._hand_id is None:
            return
        events = list(hand.events)
        pool = jackpot_pool_name(self.state.config)
        if pool is None or not jackpot_live(self.state.config):
            self._store_future = store.hand_finished(self._hand_id, events, self._transcript())
            return
        players = self._hand_players  # as dealt in: a player paid may have left with the hand's end
        outcome, body = settle_jackpot(self.state.config, store.jackpot_pool(pool), events, players,
                                       hour=time.localtime().tm_hour)  # a smart jackpot's hours: the room's
        self._store_future = store.hand_finished(self._hand_id, events, self._transcript(), jackpot_pool=pool,
                                                 jackpot=outcome, jackpot_event=body)
        if body is not None:
            self._jackpot_paid = (body, {players[seat]: amount for seat, amount in outcome.paid.items()})

    def _announce_jackpot(self) -> None:
        """A jackpot paid: the public ``jackpot_paid`` message to the whole table, then each paid player's new
        ``balance`` (the jackpot went to his account)."""
        paid, self._jackpot_paid = self._jackpot_paid, None
        store = self.room.store
        if paid is None or store is None:
            return
        body, amounts = paid
        message = protocol.jackpot_paid(self.state.config.id, self._hand_id or "", body)
        for session in self.room.audience(self.state):
            session.send(message)
        for name in sorted(amounts):
            self._send_to(name, protocol.balance(store.balance(name), "jackpot"))
        pool = jackpot_pool_name(self.state.config)
        for other in self.room.tables.values():  # the pool they show just dropped to its seed
            if other is not self.state and jackpot_pool_name(other.config) == pool:
                self.room.broadcast_table(other)

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
            for name, seat in wanted.items():
                if name not in fairness.expected:
                    fairness.expected[name] = seat
                    self._send_to(name, protocol.commit_request(
                        self.state.config.id, fairness.hand_id, seat, fairness.commitments[HOST].hex(),
                        self.settings.commit_seconds))
            deadline = self.room.clock() + self.settings.commit_seconds
            while not all(seat in fairness.commitments for seat in wanted.values()):
                if self.room.clock() >= deadline:
                    break
                fairness.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(fairness.changed.wait(), deadline - self.room.clock())
            missing = [name for name, seat in wanted.items() if seat not in fairness.commitments]
            if not missing:
                break
            for name in missing:  # DESIGN.md step 2: a player missing the commit deadline sits the hand out
                self.sit_out_for_missing(name)
        # commitments of seats no longer dealt in are dropped: the deck key uses exactly the dealt-in seats
        for seat in [seat for seat in fairness.commitments if seat != HOST and seat not in wanted.values()]:
            del fairness.commitments[seat]
        fairness.phase = "reveal"
        by_seat = {("host" if seat == HOST else str(seat)): digest.hex()
                   for seat, digest in fairness.commitments.items()}
        self._send_to_audience(protocol.commitments(self.state.config.id, fairness.hand_id, by_seat))
        return wanted

    def sit_out_for_missing(self, name: str) -> None:
        """``name`` missed his commit or reveal deadline: sat out until he acts himself (sits in), so that a
        silent client cannot add the deadline to every hand. Missed while disconnected: back when he returns."""
        table = self.state.engine
        if table.seat_of(name) is None:
            return
        self.publish(table.sit_out(name, self.room.clock()))
        if name not in self.room.sessions:
            self.sat_out_while_away.add(name)

    async def _collect_reveals(self, fairness: _Fairness, dealt_in: dict[str, int]) -> list[str]:
        for name, seat in dealt_in.items():
            self._send_to(name, protocol.reveal_request(self.state.config.id, fairness.hand_id, seat,
                                                        self.settings.reveal_seconds))
        deadline = self.room.clock() + self.settings.reveal_seconds
        while not all(seat in fairness.seeds for seat in dealt_in.values()) and self.room.clock() < deadline:
            fairness.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(fairness.changed.wait(), deadline - self.room.clock())
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
        if any(isinstance(event, HandFinished) for event in events):
            self._store_result()
        self.room.settle_chips(self.state, events)
        table = self.state.engine
        hand_id = self._hand_id or ""
        audience = list(self.room.audience(self.state))
        for session in audience:
            seat = table.seat_of(session.name)
            seat = seat if seat is not None and table.in_hand(session.name) else None
            for body in view_bodies(events, seat):
                session.send(protocol.event(self.state.config.id, hand_id, body))
        for event in events:
            if isinstance(event, TurnStarted) and table.hand is not None:
                options = table.hand.legal_actions()
                if options is not None:
                    self._send_to(event.player, protocol.action_request(
                        self.state.config.id, hand_id, event.seat, legal_to_json(options),
                        round(event.deadline - self.room.clock(), 3)))
            elif isinstance(event, HandFinished):
                self.state.record_hand(self.room.clock(), self._pot_of(events))
        self._announce_jackpot()
        self.room.broadcast_table(self.state)

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
        session = self.room.sessions.get(name)
        if session is not None:
            session.send(message)

    def _send_to_audience(self, message: dict[str, Any]) -> None:
        for session in self.room.audience(self.state):
            session.send(message)

    # --- messages in (HandDriver) --------------------------------------------------------------------

    def handle(self, session: Session, message: Inbound, now: float) -> None:
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

    def _fairness_message(self, session: Session, message: Commit | Reveal) -> None:
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
            if fairness.commitments.get(seat) != self._commit(fairness.hand_id, seat, secret):
                raise RoomError("bad_reveal", "this secret does not match your commitment")
            fairness.seeds[seat] = secret
        session.send(protocol.ack(message.type, table=self.state.config.id, hand=message.hand))
        fairness.changed.set()
