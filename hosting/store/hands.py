"""Tables and hands in the store: each table's settings, each hand's start snapshot, then its events, result,
fairness transcript and ledger rows in one transaction; hand reports (R-AUDIT-1); and the glue a table runner
uses to describe a hand it starts (:func:`hand_start_of`, :func:`table_settings`).
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.events import Event, HandEnded, HandStarted, HandVoided, PotAwarded, SevenDeuceBountyPaid
from engine.fairness import Transcript
from engine.hand import ForcedBets
from engine.jackpot import HandJackpot
from engine.table import Table
from hosting.config import TableConfig
from hosting.hand_codec import encode_events, forced_bets_to_json
from hosting.store.db import StoreError
from hosting.store.ledger import ChipLedger, move
from hosting.store.writer import Written


@dataclass(frozen=True)
class HandStart:
    """What the store keeps when a hand starts (the snapshot). Chips; ``started_at`` in epoch seconds.

    ``players``/``stacks``: seat → name / stack before any forced bet, for the seats dealt in.
    ``settings``: the table's settings at that moment (JSON-ready; see :meth:`Store.save_table`).
    """

    hand_id: str
    table_id: str
    number: int
    started_at: float
    players: Mapping[int, str]
    stacks: Mapping[int, int]
    forced_bets: ForcedBets
    settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class HandResult:
    """Where a finished hand's chips went, per seat: ``put_in`` (table → pot, net of uncalled bets returned),
    ``awarded`` (pot → table), ``final`` stacks and the ``rake`` taken from the pot. ``put_in`` sums to
    ``awarded`` + ``rake`` (chip conservation, asserted by :func:`hand_result`).

    Jackpot (R-JACK-1): ``jackpot`` chips of the rake are the drop into ``jackpot_pool`` (pot → jackpot; the
    other ``rake - jackpot`` go pot → rake), and ``jackpot_paid`` (seat → chips) is a bad beat paid out of that
    pool to the players' balances (jackpot → balance); ``jackpot_event`` is the public ``jackpot_paid`` event
    body sent to the table (PROTOCOL.md), kept with the hand."""

    put_in: Mapping[int, int]
    awarded: Mapping[int, int]
    final: Mapping[int, int]
    rake: int
    jackpot: int = 0
    jackpot_pool: str | None = None
    jackpot_paid: Mapping[int, int] = field(default_factory=dict)
    jackpot_event: Mapping[str, Any] | None = None
    voided: bool = False
    """The hand was void (R-CRASH-1, :class:`~engine.events.HandVoided`): ``awarded`` is what went back."""

    def to_json(self) -> dict[str, Any]:
        body = {"put_in": {str(seat): amount for seat, amount in self.put_in.items()},
                "awarded": {str(seat): amount for seat, amount in self.awarded.items()},
                "final": {str(seat): amount for seat, amount in self.final.items()},
                "rake": self.rake, "jackpot": self.jackpot}
        if self.voided:
            body["voided"] = True
        if self.jackpot_pool is not None:
            body.update(jackpot_pool=self.jackpot_pool,
                        jackpot_paid={str(seat): amount for seat, amount in self.jackpot_paid.items()},
                        jackpot_event=None if self.jackpot_event is None else dict(self.jackpot_event))
        return body

    @staticmethod
    def from_json(body: Mapping[str, Any]) -> HandResult:
        def seats(name: str) -> dict[int, int]:
            return {int(seat): int(amount) for seat, amount in body[name].items()}

        return HandResult(seats("put_in"), seats("awarded"), seats("final"), int(body["rake"]),
                          int(body.get("jackpot", 0)), body.get("jackpot_pool"),
                          {int(seat): int(amount) for seat, amount in (body.get("jackpot_paid") or {}).items()},
                          body.get("jackpot_event"), bool(body.get("voided", False)))


def hand_result(stacks: Mapping[int, int], events: Sequence[Event]) -> HandResult:
    """The chip movements of a finished hand from its start ``stacks`` and its events.

    Raises ``ValueError`` when the events are not a whole hand or chips are not conserved
    (start stacks = final stacks + rake).

    >>> from engine.events import HandEnded, HandStarted, PotAwarded
    >>> events = [HandStarted("texas_holdem", "no_limit", 0, ((1, 1000), (0, 1000))),
    ...           PotAwarded(0, 0, 195), HandEnded(((1, 900), (0, 1095)), rake=5)]
    >>> result = hand_result({0: 1000, 1: 1000}, events)
    >>> dict(result.put_in), dict(result.awarded), result.rake
    ({1: 100, 0: 100}, {0: 195}, 5)
    """
    started = next((event for event in events if isinstance(event, HandStarted)), None)
    ended = events[-1] if events else None
    if started is None or not isinstance(ended, HandEnded):
        raise ValueError("a hand result needs a whole hand: HandStarted, then HandEnded last")
    if dict(started.stacks) != dict(stacks):
        raise ValueError(f"the hand started with stacks {dict(started.stacks)}, the snapshot says {dict(stacks)}")
    awarded: dict[int, int] = defaultdict(int)
    for event in events:
        if isinstance(event, PotAwarded):
            awarded[event.seat] += event.amount
        elif isinstance(event, SevenDeuceBountyPaid):  # R-HOME-4: paid in like a bet, collected like a pot
            awarded[event.seat] += event.total
        elif isinstance(event, HandVoided):  # R-CRASH-1: what each got back from the pot
            for seat, chips in event.returned:
                awarded[seat] += chips
    final = dict(ended.stacks)
    put_in = {seat: stacks[seat] - final[seat] + awarded.get(seat, 0) for seat, _ in started.stacks}
    if any(amount < 0 for amount in put_in.values()):
        raise ValueError(f"a seat ended with more than it started with plus its winnings: {put_in}")
    if sum(put_in.values()) != sum(awarded.values()) + ended.rake:
        raise ValueError(f"chip conservation broken: {sum(put_in.values())} put in, "
                         f"{sum(awarded.values())} awarded + {ended.rake} rake")
    return HandResult({seat: amount for seat, amount in put_in.items() if amount},
                      dict(awarded), final, ended.rake,
                      voided=any(isinstance(event, HandVoided) for event in events))


class ReportRefused(KeyError):
    """A hand report the store will not keep: ``code`` is ``no_hand`` (unknown, running or voided hand),
    ``not_dealt_in`` (the reporter did not play it) or ``already_reported`` (one report per player per hand)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class HandBook(ChipLedger):
    """Tables and hands: the hands running now in memory, every hand kept with its result."""

    def __init__(self, connection: sqlite3.Connection, data_dir: Path, clock: Callable[[], float]) -> None:
        super().__init__(connection, data_dir, clock)
        self._running: dict[str, HandStart] = {}
        self._unsettled: dict[str, list[str]] = {}
        """Tournament hands written as ``running``, by tournament: its next step marks them finished
        (:meth:`tournament_hand`)."""

    # --- tables and hands ----------------------------------------------------------------------------

    def save_table(self, table_id: str, settings: Mapping[str, Any]) -> Written:
        """Record a table's settings (JSON-ready: game, structure, blinds, seats, buy-ins, rake…)."""
        text = json.dumps(dict(settings), sort_keys=True)
        now = self.clock()
        return self._submit(lambda connection: connection.execute(
            "INSERT INTO tables (id, settings, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
            (table_id, text, now)))

    def hand_started(self, start: HandStart) -> Written:
        """Keep a hand's start snapshot. Raises ``ValueError`` if a stack differs from the store's (the room and
        the store disagree about chips: conservation would break) or the hand id is already running."""
        if start.hand_id in self._running:
            raise ValueError(f"hand {start.hand_id} is already running")
        for seat, name in start.players.items():
            if self.stack(start.table_id, name) != start.stacks[seat]:
                raise ValueError(f"{name} starts hand {start.hand_id} with {start.stacks[seat]} chips, but the store "
                                 f"has {self.stack(start.table_id, name)} at {start.table_id}")
        self._running[start.hand_id] = start
        players, snapshot = _start_json(start)
        return self._submit(lambda connection: connection.execute(
            "INSERT INTO hands (id, table_id, number, status, started_at, players, snapshot) "
            "VALUES (?, ?, ?, 'running', ?, ?, ?)",
            (start.hand_id, start.table_id, start.number, start.started_at, players, snapshot)))

    def tournament_hand(self, start: HandStart, events: Sequence[Event], transcript: Transcript | Mapping[str, Any],
                        tournament: str) -> Written:
        """A tournament's finished hand, kept for its history and its proof (export, verify, audit): no ledger
        rows — its chips are the tournament's, not the room's (DESIGN.md "Tournament chips are not money").
        It is written ``running`` and becomes ``finished`` in the transaction of ``tournament``'s next step (the
        one that takes its stacks: :meth:`tournament_step`), so a kill between the two leaves it voided at the
        restart (R-CRASH-1: :func:`hosting.store.recovery.recover`), as the director's state, restored from
        before the hand, has it. ``ValueError`` when the events do not conserve chips."""
        result = hand_result(start.stacks, events)
        players, snapshot = _start_json(start)
        transcript_json = transcript.to_json() if isinstance(transcript, Transcript) else transcript  # host-blind
        body = (encode_events(events), json.dumps(result.to_json()), json.dumps(transcript_json, sort_keys=True))
        now = self.clock()
        self._unsettled.setdefault(tournament, []).append(start.hand_id)
        return self._submit(lambda connection: connection.execute(
            "INSERT INTO hands (id, table_id, number, status, started_at, finished_at, players, snapshot, events, "
            "result, transcript) VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?)",
            (start.hand_id, start.table_id, start.number, start.started_at, now, players, snapshot, *body)))

    def hand_finished(self, hand_id: str, events: Sequence[Event], transcript: Transcript | Mapping[str, Any] | None,
                      *, jackpot_pool: str | None = None, jackpot: HandJackpot | None = None,
                      jackpot_event: Mapping[str, Any] | None = None) -> Written:
        """Store a finished hand: events, result, transcript and its ledger rows, in one transaction.

        ``events``: the hand's whole log (HandStarted … HandEnded, every card). ``jackpot``: what the hand did to
        ``jackpot_pool`` (:func:`engine.jackpot.settle_hand` on :meth:`jackpot_pool`'s amount): its drop moves
        pot → jackpot instead of pot → rake, its bad-beat payout moves jackpot → each player's balance (the
        player's account, as card rooms pay jackpots), and the pool is updated at once; ``jackpot_event`` is
        kept with the result. Raises ``KeyError`` for a hand that was not started here, ``ValueError`` when the
        events do not conserve chips or the jackpot does not fit the pool or the hand (nothing changed)."""
        start = self._running[hand_id]
        result = hand_result(start.stacks, events)
        if jackpot is not None:
            result = self._with_jackpot(start, result, jackpot_pool, jackpot, jackpot_event)
        now = self.clock()
        transcript_json = transcript.to_json() if isinstance(transcript, Transcript) else transcript
        body = (encode_events(events), json.dumps(result.to_json()),
                None if transcript_json is None else json.dumps(transcript_json, sort_keys=True))

        def write(connection: sqlite3.Connection) -> None:
            updated = connection.execute(
                "UPDATE hands SET status = 'finished', finished_at = ?, events = ?, result = ?, transcript = ? "
                "WHERE id = ? AND status = 'running'", (now, *body, hand_id)).rowcount
            if updated != 1:
                raise StoreError(f"hand {hand_id} is not running in the store")
            table_id = start.table_id
            for seat, amount in sorted(result.put_in.items()):
                move(connection, now, "table", "pot", amount, "hand", player=start.players[seat],
                     table_id=table_id, hand_id=hand_id)
            move(connection, now, "pot", "rake", result.rake - result.jackpot, "rake", table_id=table_id,
                 hand_id=hand_id)
            move(connection, now, "pot", "jackpot", result.jackpot, "jackpot drop", table_id=table_id,
                 hand_id=hand_id, pool=result.jackpot_pool)
            for seat, amount in sorted(result.awarded.items()):
                move(connection, now, "pot", "table", amount, "hand voided" if result.voided else "pot won",
                     player=start.players[seat],
                     table_id=table_id, hand_id=hand_id)
            for seat, amount in sorted(result.jackpot_paid.items()):
                reason = "monte carlo jackpot" if str(result.jackpot_pool).startswith("monte_carlo") \
                    else "bad beat jackpot"
                move(connection, now, "jackpot", "balance", amount, reason, player=start.players[seat],
                     table_id=table_id, hand_id=hand_id, pool=result.jackpot_pool)

        future = self._submit(write)
        del self._running[hand_id]
        if result.jackpot_pool is not None and jackpot is not None:
            self._pools[result.jackpot_pool] = jackpot.pool_after
            for seat, amount in result.jackpot_paid.items():
                name = start.players[seat]
                self._balances[name] = self._balances.get(name, 0) + amount
        for seat, name in start.players.items():
            # by difference: chips a player took off during the hand (a fast-fold player's chips behind after
            # his fold, on to his next hand, R-FAST-1) already left his stack here
            key = (start.table_id, name)
            self._stacks[key] = self._stacks.get(key, 0) + result.final[seat] - start.stacks[seat]
            if self._stacks[key] == 0:
                del self._stacks[key]
        return future

    def _with_jackpot(self, start: HandStart, result: HandResult, pool: str | None, jackpot: HandJackpot,
                      event: Mapping[str, Any] | None) -> HandResult:
        """``result`` with the hand's jackpot drop and payout, after checking they fit (``ValueError``)."""
        if not pool:
            raise ValueError("a hand's jackpot needs the name of its pool")
        if jackpot.pool_before != self.jackpot_pool(pool):
            raise ValueError(f"the jackpot was settled on a pool of {jackpot.pool_before} chips, but {pool} holds "
                             f"{self.jackpot_pool(pool)}")
        if not 0 <= jackpot.drop <= result.rake:
            raise ValueError(f"a jackpot drop of {jackpot.drop} chips does not fit a rake of {result.rake}")
        if any(seat not in start.players or amount < 0 for seat, amount in jackpot.paid.items()):
            raise ValueError(f"jackpot paid to seats not dealt in: {jackpot.paid}")
        if jackpot.pool_after != jackpot.pool_before + jackpot.drop - jackpot.payout_total or jackpot.pool_after < 0:
            raise ValueError(f"jackpot pool {pool} would not conserve chips: {jackpot}")
        return dataclasses.replace(result, jackpot=jackpot.drop, jackpot_pool=pool, jackpot_paid=dict(jackpot.paid),
                                   jackpot_event=event)

    def running_hands(self) -> list[str]:
        return sorted(self._running)

    def report_hand(self, reporter: str, hand_id: str, reason: str) -> Written:
        """Flag a stored hand for the host (R-AUDIT-1): the report keeps the full history (PokerStars-style text
        when the game allows, else PHH) and the hand's whole record (events, result, transcript) as JSON.

        The future's result is the report id; it fails with :class:`ReportRefused` (a ``KeyError``) for a hand the
        store does not have finished (unknown, still running or voided), a reporter who was not dealt into it,
        or his second report of it: nothing is written then."""
        from hosting.hand_records import load_hand, render_history

        now = self.clock()

        def write(connection: sqlite3.Connection) -> int:
            hand = load_hand(connection, hand_id)
            if hand is None or hand.status != "finished":
                state = "unknown" if hand is None else hand.status
                raise ReportRefused("no_hand", f"hand {hand_id} cannot be reported: it is {state}")
            if reporter not in hand.players.values():
                raise ReportRefused("not_dealt_in", f"only its players report a hand: you were not in {hand_id}")
            if connection.execute("SELECT 1 FROM reports WHERE hand_id = ? AND reporter = ?",
                                  (hand_id, reporter)).fetchone() is not None:
                raise ReportRefused("already_reported", f"you already reported hand {hand_id}")
            history = render_history(hand)
            record = json.dumps(hand.to_json(), sort_keys=True)
            cursor = connection.execute(
                "INSERT INTO reports (at, reporter, hand_id, reason, history, record) VALUES (?, ?, ?, ?, ?, ?)",
                (now, reporter, hand_id, reason, history, record))
            return int(cursor.lastrowid or 0)

        return self._submit(write)


# --- glue for table runners ------------------------------------------------------------------------------


def _start_json(start: HandStart) -> tuple[str, str]:
    """A hand's players and snapshot as the ``hands`` table keeps them."""
    snapshot = json.dumps({"stacks": {str(seat): stack for seat, stack in start.stacks.items()},
                           "forced_bets": forced_bets_to_json(start.forced_bets),
                           "settings": dict(start.settings)}, sort_keys=True)
    return json.dumps({str(seat): name for seat, name in start.players.items()}, sort_keys=True), snapshot


def table_settings(config: TableConfig) -> dict[str, Any]:
    """A :class:`hosting.config.TableConfig` as the JSON-ready settings the store keeps with tables and hands."""
    import dataclasses

    settings = dataclasses.asdict(config)
    settings["clock"] = dict(settings.get("clock", {}))
    settings.pop("mixed", None)  # a mixed table's hand is its game's: game, structure and stakes say it all
    return settings


def forced_bets_of(table: Table) -> ForcedBets:
    """The forced bets of the hand ``table`` (an ``engine.table.Table``) just started, from its public plan."""
    forced_bets = table.last_forced_bets
    if forced_bets is not None:
        # The table's own record: right for stud (antes and bring-in) as well as blind games.
        return forced_bets
    plan = table.last_plan
    config = table.config
    if plan is None:
        raise ValueError("the table has not planned a hand")
    return ForcedBets(
        button_seat=plan.button_seat, small_blind_seat=plan.small_blind_seat, small_blind=config.small_blind,
        big_blind_seat=plan.big_blind_seat, big_blind=config.big_blind, straddle_seat=plan.straddle_seat,
        straddle=2 * config.big_blind if plan.straddle_seat is not None else 0, ante=config.ante,
        dead_small_blinds=plan.dead_small_blinds, big_blinds_out_of_position=plan.out_of_position_big_blinds)


def hand_start_of(table: Table, table_id: str, hand_id: str, events: Sequence[Event], started_at: float,
                  settings: Mapping[str, Any]) -> HandStart:
    """The :class:`HandStart` of the hand ``table.start_hand`` just began (``events``: what it returned)."""
    started = next(event for event in events if isinstance(event, HandStarted))
    stacks = dict(started.stacks)
    return HandStart(hand_id, table_id, table.hand_number, started_at,
                     {seat: table.players[seat].player for seat in stacks}, stacks, forced_bets_of(table), settings)
