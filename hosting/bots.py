"""Bot players over real SSH: they register keys, sit, play, verify every hand's shuffle, and keep score.

Used by ``croupier bots`` (load and smoke runs) and by the integration tests. By default the strategy is
deliberately simple and fast (check or bet small, call most bets, sometimes fold or raise the minimum) for load
runs; with a ``style`` the bots play by equity, pot odds and bluffs (:mod:`hosting.strategy`). A bot plays only
legal moves from the room's ``legal`` options: ``illegal_rejected`` counts the moves the room refused anyway (a
bug, 0 expected). Tests may ask for probes (``illegal_rate``): deliberate out-of-hand actions the room must
refuse, counted apart in ``probes_refused``.

A quiet room is not a dead room: while a player thinks (an action clock plus a time bank can run for minutes),
a bot that hears nothing for ``silence`` seconds pings the room (protocol ``ping``/``pong``) and gives up only
when the ping gets no answer either. Whatever ends a bot's play (its hands done, an error, Ctrl+C), it sends
``leave`` for its seat before its connection closes, so no ghost player keeps a seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import statistics
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import asyncssh

from engine.events import BoardDealt, Event, HandEnded, HandStarted, HoleCardsDealt
from engine.table_events import HandFinished, TurnStarted
from hosting import protocol
from hosting.client import ConnectionClosed, RequestRefused, RoomClient
from hosting.strategy import STYLES, Tracker, decide


@dataclass
class BotReport:
    """What one bot saw. ``latencies``: seconds from sending an action to the room's first answer to it."""

    name: str
    hands: set[str] = field(default_factory=set)
    verified: int = 0
    failures: int = 0
    illegal_rejected: int = 0  # real moves the room refused: a bug somewhere (0 expected)
    probes_refused: int = 0  # deliberate bad actions (``illegal_rate``) the room refused, as it must
    latencies: list[float] = field(default_factory=list)
    latency_kinds: list[str] = field(default_factory=list)
    """Beside each latency: the move's kind, ``+street`` when it dealt a street (the room opened the board first),
    ``+end`` when it ended the hand (the load benchmark's tail by kind)."""
    chips_conserved: bool = True
    seated: bool = False  # the room took its sit
    violations: list[dict[str, Any]] = field(default_factory=list)
    refused_moves: list[dict[str, Any]] = field(default_factory=list)
    room_closed: str | None = None  # the room closed while the bot played (its ``bye`` reason)
    removed: str | None = None  # the host kicked or banned this bot (the room's reason); the room stays open
    top_ups: int = 0  # top-ups the room added (the ledger's top-up rows)
    top_ups_refused: int = 0  # top-ups the room refused (0 expected: a bot asks for what its bank holds)
    folds: int = 0
    fold_to_next_cards: list[float] = field(default_factory=list)
    """In a pool: seconds from each fold to the bot's next hand's cards."""
    tables: set[str] = field(default_factory=set)  # the tables it was dealt at (in a pool, many)
    dealt: set[str] = field(default_factory=set)  # in a pool: every hand it was dealt into (asked to reveal for)


def choose_action(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A simple legal move from an ``action_request``'s ``legal`` options."""
    roll = rng.random()
    can_raise = legal.get("min_raise_to") is not None
    if legal.get("can_show") or legal.get("can_muck"):
        return {"kind": "show" if legal.get("can_show") else "muck"}
    if legal.get("can_run_twice"):  # R-HOME-1
        return {"kind": "run_it_twice"}
    if legal.get("max_discards"):  # a draw game's draw (a mixed table deals them too): stand pat
        return {"kind": "draw", "discard": []}
    if legal.get("bring_in_amount") is not None and not legal.get("can_check"):  # stud's first street
        return {"kind": "bring_in"}
    if legal.get("can_check"):
        if can_raise and roll < 0.25:
            return {"kind": "bet" if legal.get("is_bet") else "raise_to", "amount": legal["min_raise_to"]}
        return {"kind": "check"}
    if legal.get("call_amount") is not None:
        if roll < 0.15:
            return {"kind": "fold"}
        if can_raise and roll > 0.9:
            return {"kind": "raise_to", "amount": legal["min_raise_to"]}
        return {"kind": "call"}
    return {"kind": "fold"}


def parse_think(text: str) -> tuple[float, float]:
    """``--think``: ``"1-4"`` -> ``(1.0, 4.0)`` (seconds, a uniform pause before each move), ``"0"`` or ``"2"``
    -> that fixed pause. ``ValueError`` with a one-line message for anything else."""
    low, dash, high = text.strip().partition("-")
    try:
        bounds = (float(low), float(high) if dash else float(low))
    except ValueError:
        bounds = (-1.0, -1.0)
    if not all(0 <= bound <= MAX_THINK_SECONDS for bound in bounds) or bounds[0] > bounds[1]:
        raise ValueError(f"--think expects seconds MIN-MAX (e.g. 1-4, or 0 for no pause), 0 to "
                         f"{MAX_THINK_SECONDS:g} with MIN <= MAX, got {text!r}")
    return bounds


MAX_THINK_SECONDS = 600.0  # a pause longer than any table's clock and time bank would only get the bot timed out
SILENCE_SECONDS = 60.0  # without any message for this long, a bot pings the room (and as long for the pong)
LEAVE_SECONDS = 5.0  # how long a bot waits for the room to acknowledge its leave on the way out


class Mover:
    """How a bot picks and paces its moves, at a table or in a pool: the simple random strategy (``style`` None)
    or a style's play by equity and pot odds (:mod:`hosting.strategy`, following what it sees at each table),
    after ``think`` seconds (uniform between the two) as a person would take."""

    def __init__(self, game: str, style: str | None = None, think: tuple[float, float] = (0.0, 0.0)) -> None:
        self.style = style
        self.think = think
        self._seats: dict[str, int] = {}
        self._tracker = Tracker(self._seats.get, lambda _: game) if style is not None else None

    def saw(self, table: str, event: Any) -> None:
        """An event of ``table`` as this bot sees it (its own cards tell its seat there)."""
        if self._tracker is None or isinstance(event, dict):  # an event the client could not type: not followed
            return
        if isinstance(event, HoleCardsDealt):
            self._seats[table] = event.seat
        self._tracker.on_event(table, event)

    async def move(self, table: str, request: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """The move for ``request`` (an ``action_request`` at ``table``), once the bot has thought."""
        if self._tracker is not None and self.style is not None:
            self._seats[table] = int(request["seat"])
            action = decide(request["legal"], self._tracker.view(table), STYLES[self.style], rng, samples=40)
        else:
            action = choose_action(request["legal"], rng)
        if self.think[1] > 0:
            await asyncio.sleep(rng.uniform(*self.think))
        return action


class RoomSilent(TimeoutError):
    """The room answered nothing, not even a ``ping``, for twice the silence timeout."""


class Listener:
    """How a bot reads the room: a quiet room is not a dead room. After ``silence`` seconds without a message it
    pings the room: any message in the next ``silence`` seconds (its ``pong`` at least) shows it is alive."""

    def __init__(self, client: RoomClient, silence: float = SILENCE_SECONDS) -> None:
        self.client = client
        self.silence = silence
        self.heard = time.monotonic()  # the room's last message
        self.pinged: float | None = None  # the ping not answered yet

    async def next(self, wait: float | None = None) -> dict[str, Any] | None:
        """The room's next message, or None after ``wait`` seconds without one (None: until one comes).

        Raises :class:`RoomSilent` when the ping goes unanswered too, ``ConnectionClosed`` when the channel ends.
        """
        until = None if wait is None else time.monotonic() + wait
        while True:
            quiet_until = (self.heard if self.pinged is None else self.pinged) + self.silence
            limit = quiet_until if until is None else min(until, quiet_until)
            try:
                message = await self.client.receive(max(0.001, limit - time.monotonic()))
            except TimeoutError:
                now = time.monotonic()
                if now >= quiet_until and self.pinged is not None:
                    raise RoomSilent(f"the room stopped answering (no reply to a ping for {self.silence:g} s)") \
                        from None
                if now >= quiet_until:
                    self.pinged = now
                    await self.client.send("ping")
                if until is not None and now >= until:
                    return None
                continue
            self.heard, self.pinged = time.monotonic(), None
            return message


async def next_message(client: RoomClient, silence: float = SILENCE_SECONDS) -> dict[str, Any]:
    """The next message from the room (:class:`Listener`: a ping after ``silence`` seconds of quiet).

    Raises :class:`RoomSilent` when that ping goes unanswered too, ``ConnectionClosed`` when the channel ends.
    """
    message = await Listener(client, silence).next()
    assert message is not None  # without a wait, only a message or an exception ends it
    return message


async def leave_seat(client: RoomClient, table: str, timeout: float = LEAVE_SECONDS) -> bool:
    """Send ``leave`` for ``table`` and wait for its ``ack``; False when the room refused or could not answer
    (already gone, connection closed). During a hand the seat is freed once the hand ends (PROTOCOL.md)."""
    try:
        await client.request("leave", table=table, timeout=timeout, limit=timeout)  # on the way out: bounded
    except (RequestRefused, ConnectionClosed, TimeoutError, OSError, asyncssh.Error):
        return False
    return True


@dataclass(frozen=True)
class Place:
    """Where a bot plays: a cash table of the lobby, or a fast-fold pool (``pool``: each hand at one of its
    tables, ``zoom.N``, which the bot leaves when it folds)."""

    id: str
    game: str
    minimum: int
    maximum: int
    pool: bool = False

    @classmethod
    def find(cls, lobby: dict[str, Any], table: str) -> Place:
        """``table`` among the lobby's tables and pools; ``RuntimeError`` (in words) when it is neither."""
        for rows, pool in ((lobby.get("tables", []), False), (lobby.get("pools", []), True)):
            for row in rows:
                if row["id"] == table:
                    minimum, maximum = (int(limit) for limit in row["buy_in"])
                    return cls(table, str(row.get("game", "texas_holdem")), minimum, maximum, pool)
        raise RuntimeError(f"the room has no table or pool {table!r}")


async def play(client: RoomClient, table: str, hands: int, rng: random.Random, *,
               illegal_rate: float = 0.0, buy_in: int | None = None, timeout: float = SILENCE_SECONDS,
               done: asyncio.Event | None = None, style: str | None = None,
               think: tuple[float, float] = (0.0, 0.0), report: BotReport | None = None,
               fold_rate: float = 0.0, proof_seconds: float = 15.0) -> BotReport:
    """Sit at ``table`` (a cash table, or a fast-fold pool of the lobby) and play until ``hands`` hands are done,
    then leave. Returns the report.

    At a table a hand is done when it finished there; bots sharing a table share ``done``: the first to count
    ``hands`` sets it and the others leave too, so nobody is left alone waiting for a hand that cannot start. In
    a pool a hand is done once its proof (``seeds``) arrived and checked, or at a host-blind pool once the bot's
    own referee judged it (``blind_end``), so a hand it folded early counts too; once ``done`` it leaves and
    plays on what it is dealt until the pool lets it go, then waits (``proof_seconds`` at most) for the proofs
    of the hands still running. ``fold_rate``: share of turns folded outright (a fast folder).

    The seat is left however play ends (cancelled, an error). ``timeout``: the silence after which the bot pings
    the room (:class:`RoomSilent` when the ping gets no answer either). ``think``: seconds (uniform between the
    two) before each move, as a person would take (:class:`Mover`). It tops up to the maximum buy-in when below
    half of it, with what its :class:`Bank` holds. ``report``: filled as play goes (a benchmark reads it live).
    """
    done = done if done is not None else asyncio.Event()
    report = report if report is not None else BotReport(client.hello.get("name", "?"))
    lobby = await client.request("lobby")
    place = Place.find(lobby, table)
    amount = buy_in or place.maximum
    bank = Bank(None if lobby.get("balance") is None else int(lobby["balance"]) - amount)
    player = _Player(client, place, hands, rng, report, done, Mover(place.game, style, think), bank,
                     illegal_rate, fold_rate)
    try:
        await client.request("sit", table=table, buy_in=amount)
        report.seated = True
        try:
            await player.run(timeout, proof_seconds)
        except ConnectionClosed as closed:
            if client.closed_reason is None:
                raise  # the connection broke: not the room closing
            if client.closed_code in REMOVED:  # this bot alone: its table-mates play on
                report.removed = str(closed)
            else:
                report.room_closed = str(closed)  # the room closed (the host stopped it): a summary all the same
                done.set()
    finally:
        report.top_ups, report.top_ups_refused = bank.added, bank.refused
        if not player.left:
            await leave_seat(client, table)  # on every way out (Ctrl+C included): no ghost left at the table
    if not place.pool:  # a pool's hands were counted one by one, as their proofs came
        assert client.fairness is not None
        for result in client.fairness.results.values():
            report.verified += result.ok
            report.failures += not result.ok
        if client.host_blind is not None:  # host-blind hands: the client's own referee of each
            for violations in client.host_blind.results.values():
                report.verified += not violations
                report.failures += bool(violations)
    report.dealt = {hand for _, hand in player.dealt}
    return report


REMOVED: Final = (protocol.KICKED, protocol.BANNED)
"""``bye`` codes that end one bot's play (the host removed it), not the room's: the others play on."""

LATE_MOVE: Final = ("no_hand", "not_your_turn")  # a pool's answer to a move for a hand it has moved the bot from


class _Player:
    """One bot's play at its :class:`Place` (:func:`play`): it reads the room, moves, tops up, keeps score."""

    def __init__(self, client: RoomClient, place: Place, hands: int, rng: random.Random, report: BotReport,
                 done: asyncio.Event, mover: Mover, bank: Bank, illegal_rate: float, fold_rate: float) -> None:
        self.client, self.place, self.hands, self.rng, self.report = client, place, hands, rng, report
        self.done, self.mover, self.bank = done, mover, bank
        self.illegal_rate, self.fold_rate = illegal_rate, fold_rate
        self.sent_at: float | None = None  # when the last move went: the round-trip to the room's answer
        self.sent_kind = ""  # that move's kind
        self.tagging: int | None = None  # the latency whose move's outcome (a street dealt, the end) is still to see
        self.pending: dict[str, Any] | None = None  # the real move last sent, retried as check/fold if refused
        self.probes = 0  # probes sent and not yet refused
        self.started_stacks: dict[str, int] = {}
        self.finished = 0  # hands finished at the table
        self.folded_at: float | None = None  # in a pool: the fold waiting for the next hand's cards
        self.dealt: set[tuple[str, str]] = set()  # in a pool: the hands it was dealt into (asked its secret)
        self.leaving = False  # in a pool: its leave sent
        self.left = False  # in a pool: the pool let it go

    def over(self) -> bool:
        if self.place.pool:
            return self.left and len(self.report.hands) >= len(self.dealt)
        return self.done.is_set()

    async def run(self, silence: float, proof_seconds: float) -> None:
        """Act on what the room sends until :meth:`over`, then wait for the last proofs."""
        proofs_until: float | None = None
        listener = Listener(self.client, silence)
        while not self.over():
            if self.place.pool and self.done.is_set() and not self.leaving:
                self.leaving = True  # leave, and play on what is dealt until the pool lets it go
                await self.client.send("leave", table=self.place.id)
            if self.left and proofs_until is None:
                proofs_until = time.monotonic() + proof_seconds
            if proofs_until is not None and time.monotonic() > proofs_until:
                break  # a proof that never came: the caller sees it missing from ``hands``
            message = await listener.next(0.5)  # None after half a second: a look at ``done`` and the proofs
            if message is not None:
                await self.on(message)
        if not self.place.pool:
            await self.last_transcripts()

    async def on(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        place, report = self.place, self.report
        key = (str(message.get("table")), str(message.get("hand")))
        if self.sent_at is not None and kind in ("event", "error", "ack"):
            report.latencies.append(time.perf_counter() - self.sent_at)
            report.latency_kinds.append(self.sent_kind)
            self.tagging = len(report.latency_kinds) - 1 if kind == "event" else None
            self.sent_at = None
        elif self.tagging is not None and kind == "event":  # what followed the move's own event
            event = message["event"]
            if isinstance(event, BoardDealt | HandEnded) and self.tagging < len(report.latency_kinds):
                report.latency_kinds[self.tagging] += "+street" if isinstance(event, BoardDealt) else "+end"
            if isinstance(event, BoardDealt | HandEnded | TurnStarted):
                self.tagging = None
        if kind == "action_request" and message.get("seat") is not None:
            await self.move(message)
        elif kind == "error" and message.get("code") == "rate_limited" and self.pending is not None:
            await asyncio.sleep(0.05)  # our move was dropped by the room's rate limit: send it again
            move = {name: value for name, value in self.pending.items() if name not in ("table", "hand", "legal")}
            await self.client.send("action", table=self.pending["table"], hand=self.pending["hand"], **move)
        elif kind == "error" and message.get("in_reply_to") == "action":
            await self.refused(message)
        elif kind == "event":
            self.saw(key, message["event"])
        elif kind == ("pool" if place.pool else "table") and message.get(kind) == place.id:
            await self.top_up(message)  # its chips between hands
        elif kind in ("ack", "error") and message.get("in_reply_to") == "top_up":
            self.bank.answered(message)
        elif kind == "verification_result" and not message.get("ok"):
            report.violations.append(message)
        elif kind == "pool_left" and message.get("pool") == place.id:
            self.left = True
        elif kind in ("reveal_request", "blind_header") and place.pool:  # dealt in (a host-blind hand: its header)
            self.dealt.add(key)
        elif kind == "blind_end" and key in self.dealt:
            judged = self.client.host_blind.results if self.client.host_blind is not None else {}
            if message.get("void") and key not in judged:
                self.dealt.discard(key)  # given up before it started: no hand to count
            elif key in judged:
                self.count(key[1], not judged[key])
        elif kind == "seeds" and key in self.dealt:
            assert self.client.fairness is not None
            result = self.client.fairness.results.get(key)
            if result is not None:
                self.count(key[1], result.ok)

    async def move(self, request: dict[str, Any]) -> None:
        """Answer an ``action_request`` at the bot's turn (and, now and then, a probe the room must refuse)."""
        table, hand = str(request["table"]), str(request["hand"])
        if self.illegal_rate and self.rng.random() < self.illegal_rate:  # a hand that does not exist
            self.probes += 1
            await self.client.send("action", table=table, hand=hand + "x", kind="fold")
        if self.fold_rate and request["legal"].get("can_fold") and self.rng.random() < self.fold_rate:
            action: dict[str, Any] = {"kind": "fold"}
        else:
            action = await self.mover.move(table, request, self.rng)  # the round-trip is timed from the send
        if action["kind"] == "fold":
            self.report.folds += 1
            self.folded_at = time.perf_counter()
        self.sent_at, self.sent_kind, self.tagging = time.perf_counter(), str(action["kind"]), None
        self.pending = {"table": table, "hand": hand, "legal": request["legal"]} | action
        await self.client.send("action", table=table, hand=hand, **action)

    async def refused(self, reply: dict[str, Any]) -> None:
        """The room refused a move: a probe's refusal, a late move in a pool, or a real move (a bug somewhere:
        noted, and the safest move sent instead)."""
        code = reply.get("code")
        if self.probes and code == "no_hand":
            self.probes -= 1  # replies come in the order sent: a probe's refusal comes before the real move's answer
            self.report.probes_refused += 1
            return
        if self.place.pool and code in LATE_MOVE:
            return
        self.report.illegal_rejected += 1
        if code != "no_hand" and self.pending is not None:
            self.report.refused_moves.append({"sent": self.pending, "reply": reply})
            fallback = "check" if self.pending["legal"].get("can_check") else "fold"
            await self.client.send("action", table=self.pending["table"], hand=self.pending["hand"], kind=fallback)
            self.pending = None

    def saw(self, key: tuple[str, str], event: Event | dict[str, Any]) -> None:
        """An event of a hand at ``key`` (table, hand): the move went through, the hand's chips, its end."""
        report = self.report
        if not isinstance(event, TurnStarted):
            self.pending = None  # the move went through
        self.mover.saw(key[0], event)
        if self.place.pool:
            if _own_cards(event):
                report.tables.add(key[0])
                if self.folded_at is not None:
                    report.fold_to_next_cards.append(time.perf_counter() - self.folded_at)
                    self.folded_at = None
        elif isinstance(event, HandStarted):
            self.started_stacks[key[1]] = sum(stack for _, stack in event.stacks)
        elif isinstance(event, HandEnded):  # in a pool the folders' chips leave the table during the hand
            before = self.started_stacks.pop(key[1], None)
            if before is not None and before != sum(stack for _, stack in event.stacks) + event.rake:
                report.chips_conserved = False
        elif isinstance(event, HandFinished):
            self.finished += 1
            report.hands.add(key[1])
            if self.finished >= self.hands:
                self.done.set()

    def count(self, hand: str, ok: bool) -> None:
        """A pool hand the bot was dealt into, judged (its proof checked, or its host-blind referee's verdict)."""
        self.report.hands.add(hand)
        self.report.verified += ok
        self.report.failures += not ok
        if len(self.report.hands) >= self.hands:
            self.done.set()

    async def top_up(self, state: dict[str, Any]) -> None:
        """On each ``table`` or ``pool`` message (``state``): buy back to the maximum when below half of it, with
        what the bank holds, and at a table sit in again when sat out (broke, or a missed commitment). Nothing is
        sent that the room would refuse: no top-up during a hand it is in at a table (a pool keeps one asked
        during its hand and adds it after: ``added``), none short of the minimum buy-in for an empty stack, none
        the bank cannot pay, none twice at once, no sitting in without chips."""
        if self.done.is_set() and not self.place.pool:
            return
        if self.place.pool:
            if state.get("added") is not None:  # the top-up kept during its hand, added as far as it fit
                self.bank.landed(int(state["added"]))
            if not self.leaving:
                await self.ask(int(state.get("stack", 0)))
            return
        me = next((seat for seat in state.get("seats", []) if seat["name"] == self.client.hello["name"]), None)
        if me is None:
            return
        out = bool(me.get("sitting_out") or me.get("away"))  # not dealt in: a top-up is fine mid-hand
        if not (state.get("hand_running") and not out):
            await self.ask(int(me["stack"]))
        if out and (int(me["stack"]) > 0 or self.bank.asked):
            await self.client.send("sit_out", table=self.place.id, on=False)

    async def ask(self, stack: int) -> None:
        amount = self.bank.top_up(stack, self.place.minimum, self.place.maximum)
        if amount:
            await self.client.send("top_up", table=self.place.id, amount=amount)

    async def last_transcripts(self) -> None:
        """At a table: wait for the transcripts of the hands it counted (they follow each hand's end)."""
        assert self.client.fairness is not None
        verified = {hand for _, hand in [*self.client.fairness.results, *self.client.fairness.unverified]}
        blind = self.client.host_blind.results if self.client.host_blind is not None else {}
        with contextlib.suppress(TimeoutError):
            while not self.report.hands <= verified | {hand for _, hand in blind}:
                message = await self.client.wait_for("seeds", "blind_end", timeout=5.0, limit=5.0)
                verified.add(message["hand"])


def _own_cards(event: Event | dict[str, Any]) -> bool:
    """Whether an ``event`` body is this player's own hole cards (the typed event or its JSON)."""
    if isinstance(event, dict):
        return event.get("kind") == "hole_cards_dealt" and bool(event.get("cards"))
    return isinstance(event, HoleCardsDealt) and bool(event.cards)


@dataclass
class Bank:
    """A bot's chips off the table (``None``: the room keeps no balances, top-ups are free), its top-up in flight
    and the top-ups the room ``added`` (the ledger's top-up rows) or ``refused``: a bot asks only for what the
    room will grant, since every refusal spends its connection's budget."""

    chips: int | None
    asked: int = 0
    added: int = 0
    refused: int = 0

    def top_up(self, stack: int, minimum: int, maximum: int) -> int:
        """The top-up to ask for with ``stack`` (0: none), now asked: back to ``maximum`` when below half of it,
        as far as the bank pays; none while one is in flight, none short of ``minimum`` for an empty stack
        (broke for good)."""
        if stack >= maximum // 2 or self.asked:
            return 0
        amount = maximum - stack if self.chips is None else min(maximum - stack, self.chips)
        if amount <= 0 or (stack == 0 and amount < minimum):
            return 0
        self.asked = amount
        return amount

    def answered(self, message: dict[str, Any]) -> None:
        """The room's ``ack`` or ``error`` to the top-up asked. An ack ``after_hand`` (a pool, during the bot's
        hand) is kept until :meth:`landed` says how much was added."""
        if message["type"] == "error":
            self.refused += 1
            self.asked = 0
        elif not message.get("after_hand"):
            self.landed(int(message.get("amount", self.asked)))

    def landed(self, amount: int) -> None:
        if amount > 0:
            self.added += 1
            if self.chips is not None:
                self.chips -= amount
        self.asked = 0


def fairness_tally(participants: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """The verdicts of many bots' clients (``(name, participant)``), for a benchmark's line: hands verified, the
    violations apart (``fairness_failures``, their ``violation_kinds``, the first with its evidence) from the
    hands a slow connection kept from a full check (``fairness_unverified``: reason → hands) and the verified
    hands with a note (``fairness_notes``: a late commit or reveal, dealt without the bot's seed)."""
    verified = failures = 0
    kinds: Counter[str] = Counter()
    unverified: Counter[str] = Counter()
    notes: Counter[str] = Counter()
    first: dict[str, Any] | None = None
    for name, participant in participants:
        if participant is None:
            continue
        for (table, hand), result in participant.results.items():
            verified += result.ok
            failures += not result.ok
            kinds.update(violation.kind.value for violation in result.violations)
            if first is None and not result.ok:
                first = {"bot": name, "table": table, "hand": hand,
                         "violations": [violation.to_json() for violation in result.violations]}
        unverified.update(participant.unverified.values())
        notes.update(participant.notes.values())
    return {"fairness_verified": verified, "fairness_failures": failures, "violation_kinds": dict(kinds),
            "first_violation": first, "fairness_unverified": dict(unverified), "fairness_notes": dict(notes)}


def summarize(reports: Sequence[BotReport]) -> dict[str, Any]:
    """The one-line JSON summary of ``croupier bots``."""
    latencies = sorted(latency for report in reports for latency in report.latencies)

    def percentile(share: float) -> float | None:
        if not latencies:
            return None
        return round(1000 * latencies[min(len(latencies) - 1, int(share * len(latencies)))], 2)

    return {
        "players": len(reports),
        "hands": len(set().union(*(report.hands for report in reports))) if reports else 0,
        "fairness_verified": sum(report.verified for report in reports),
        "fairness_failures": sum(report.failures for report in reports),
        "illegal_rejected": sum(report.illegal_rejected for report in reports),
        "probes_refused": sum(report.probes_refused for report in reports),
        "p50_ms": percentile(0.5),
        "p99_ms": percentile(0.99),
        "mean_ms": round(1000 * statistics.fmean(latencies), 2) if latencies else None,
        "chips_conserved": all(report.chips_conserved for report in reports),
        "top_ups": sum(report.top_ups for report in reports),
        "top_ups_refused": sum(report.top_ups_refused for report in reports),
        "room_closed": next((report.room_closed for report in reports if report.room_closed), None),
        "removed": {report.name: report.removed for report in reports if report.removed is not None},
    }


async def run_bots(host: str, port: int, count: int, hands: int, *, seed: int | None = None,
                   table: str | None = None, style: str | None = None, silence: float = SILENCE_SECONDS,
                   password: str | None = None, invite: str | None = None,
                   think: tuple[float, float] = (0.0, 0.0)) -> dict[str, Any]:
    """Connect ``count`` bots (fresh keys, fresh names), seat them, play ``hands`` hands; the summary.

    ``style``: ``None`` plays the simple random strategy (load tests); a name of
    :data:`hosting.strategy.STYLES` or ``"mixed"`` (each bot its own) plays by equity and pot odds. ``think``:
    seconds before each move (:func:`play`). ``table`` may name a fast-fold pool of the lobby: the bots join it
    and play its hands (:func:`play` too).
    ``silence``: see :func:`next_message`. ``password`` / ``invite``: the room's gates, when it has them (each
    bot is a new name: an invite code is needed where the room asks new names for one). When one bot fails (or
    this is cancelled: Ctrl+C), every bot still playing stops and leaves its seat before the connections close.
    Raises :class:`RoomSilent`, :class:`~hosting.client.GatesRefused`, :class:`~hosting.client.RequestRefused`,
    ``RuntimeError`` (in words) and the connection's ``OSError``/``asyncssh.Error``.
    """
    styles = list(STYLES) if style == "mixed" else [style]
    rng = random.Random(seed)
    token = secrets.token_hex(3)
    clients: list[RoomClient] = []
    try:
        for index in range(count):
            clients.append(await RoomClient.connect(host, port, f"bot{index}-{token}", host_blind=True, keep=False,
                                                    client_keys=[asyncssh.generate_private_key("ssh-ed25519")]))
            await clients[-1].pass_gates(password=password, invite=invite)
        reply = await clients[0].request("lobby")
        pools = [str(row["id"]) for row in reply.get("pools", [])]
        # a pool deals each hand afresh: every bot joins it; else free seats at the hold'em tables (or ``table``)
        seating = [table] * count if table is not None and table in pools else \
            _assign_tables(reply["tables"], count, table, pools)
        finished = {name: asyncio.Event() for name in set(seating)}
        tasks = [
            asyncio.ensure_future(play(client, seat_table, hands, random.Random(rng.random()),
                                       done=finished[seat_table], style=styles[index % len(styles)],
                                       timeout=silence, think=think))
            for index, (client, seat_table) in enumerate(zip(clients, seating, strict=True))
        ]
        gathered = asyncio.gather(*tasks)
        try:
            # shielded: Ctrl+C (this task cancelled) stops waiting at once, even if a bot misses its cancel
            reports = await asyncio.shield(gathered)
        finally:
            await stop_all(tasks)  # one bot failed, or Ctrl+C: stop the others too (each leaves its seat)
            if gathered.done() and not gathered.cancelled():
                gathered.exception()  # retrieved here; the failure itself is raised by the await above
    except ConnectionClosed as closed:
        raise RuntimeError(f"the room closed a bot's connection: {closed}") from None
    finally:
        for client in clients:
            with contextlib.suppress(OSError, asyncssh.Error):
                await client.close()
    return summarize(reports)


async def stop_all(tasks: Sequence[asyncio.Future[Any]], every: float = 1.0) -> None:
    """Cancel ``tasks`` until every one has ended, again every ``every`` seconds: on Python 3.11 a cancel that
    lands as an ``asyncio.wait_for`` inside the task completes can be lost, and the bot would play on."""
    while pending := [task for task in tasks if not task.done()]:
        for task in pending:
            task.cancel()
        await asyncio.wait(pending, timeout=every)
    for task in tasks:
        if not task.cancelled():
            task.exception()  # each failure was seen (the first is raised by the caller); no "never retrieved"


def _assign_tables(lobby: Sequence[dict[str, Any]], count: int, table: str | None,
                   pools: Sequence[str] = ()) -> list[str]:
    """Fill the free seats of hold'em tables (or ``table``) in lobby order, at least two bots per table."""
    rows = [row for row in lobby if (row["id"] == table if table else row["game"] == "texas_holdem")]
    if table and not rows:
        listed = ", ".join([*(row["id"] for row in lobby), *(f"{pool} (a fast-fold pool)" for pool in pools)])
        raise RuntimeError(f"the room has no table {table!r}; its tables: {listed}")
    seating: list[str] = []
    for row in rows:
        free = row["seats"] - row["players"]
        take = min(free, count - len(seating))
        if take >= 2 or (take == 1 and row["players"] >= 1):
            seating += [row["id"]] * take
        if len(seating) == count:
            return seating
    raise RuntimeError(f"the room has seats for {len(seating)} of {count} bots at its hold'em tables")
