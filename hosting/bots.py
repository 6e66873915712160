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
from collections.abc import Awaitable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import asyncssh

from engine.events import HandEnded, HandStarted, HoleCardsDealt
from engine.table_events import HandFinished, TurnStarted
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
    chips_conserved: bool = True
    seated: bool = False  # the room took its sit
    violations: list[dict[str, Any]] = field(default_factory=list)
    refused_moves: list[dict[str, Any]] = field(default_factory=list)
    room_closed: str | None = None  # the room closed while the bot played (its ``bye`` reason)


class PoolPlay(Protocol):
    """How a bot plays a fast-fold pool (:func:`hosting.pool_bots.play_pool`)."""

    def __call__(self, client: RoomClient, pool: str, hands: int, rng: random.Random, *,
                 done: asyncio.Event | None = None, silence: float = ..., style: str | None = ...,
                 think: tuple[float, float] = ...) -> Awaitable[BotReport]: ...


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


async def next_message(client: RoomClient, silence: float = SILENCE_SECONDS) -> dict[str, Any]:
    """The next message from the room. After ``silence`` seconds without one, ``ping`` it: any message in the
    next ``silence`` seconds (its ``pong`` at least) shows it is alive, and the caller just reads on.

    Raises :class:`RoomSilent` when that ping goes unanswered too, ``ConnectionClosed`` when the channel ends.
    """
    try:
        return await client.receive(silence)
    except TimeoutError:
        pass
    await client.send("ping")
    try:
        return await client.receive(silence)
    except TimeoutError:
        raise RoomSilent(f"the room stopped answering (no reply to a ping for {silence:g} s)") from None


async def leave_seat(client: RoomClient, table: str, timeout: float = LEAVE_SECONDS) -> bool:
    """Send ``leave`` for ``table`` and wait for its ``ack``; False when the room refused or could not answer
    (already gone, connection closed). During a hand the seat is freed once the hand ends (PROTOCOL.md)."""
    try:
        await client.request("leave", table=table, timeout=timeout)
    except (RequestRefused, ConnectionClosed, TimeoutError, OSError, asyncssh.Error):
        return False
    return True


async def play(client: RoomClient, table: str, hands: int, rng: random.Random, *,
               illegal_rate: float = 0.0, buy_in: int | None = None, timeout: float = SILENCE_SECONDS,
               done: asyncio.Event | None = None, style: str | None = None,
               think: tuple[float, float] = (0.0, 0.0), report: BotReport | None = None) -> BotReport:
    """Sit at ``table`` and play until ``hands`` hands have finished there, then leave. Returns the report.

    Bots sharing a table share ``done``: the first to count ``hands`` sets it and the others leave too (they
    wake on the seat change), so nobody is left alone waiting for a hand that cannot start. The seat is left
    however play ends (cancelled, an error). ``timeout``: the silence of :func:`next_message` (raises
    :class:`RoomSilent` when the room no longer answers a ping). ``think``: seconds (uniform between the two)
    before each move, as a person would take. ``report``: filled as play goes (a benchmark reads it live).
    """
    done = done if done is not None else asyncio.Event()
    report = report if report is not None else BotReport(client.hello.get("name", "?"))
    lobby = await client.request("lobby")
    info = next(row for row in lobby["tables"] if row["id"] == table)
    try:
        amount = buy_in or info["buy_in"][1]
        await client.request("sit", table=table, buy_in=amount)
        report.seated = True
        bank = Bank(None if lobby.get("balance") is None else int(lobby["balance"]) - amount)
        try:
            await _play_seated(client, table, hands, rng, report, info, illegal_rate, done, style, timeout, bank,
                               think)
        except ConnectionClosed as closed:
            if client.closed_reason is None:
                raise  # the connection broke: not the room closing
            report.room_closed = str(closed)  # the room closed (the host stopped it): a summary all the same
            done.set()
    finally:
        await leave_seat(client, table)  # on every way out (Ctrl+C included): no ghost left at the table
    assert client.fairness is not None
    for result in client.fairness.results.values():
        report.verified += result.ok
        report.failures += not result.ok
    if client.host_blind is not None:  # host-blind hands: the client's own referee of each
        for violations in client.host_blind.results.values():
            report.verified += not violations
            report.failures += bool(violations)
    return report


async def _play_seated(client: RoomClient, table: str, hands: int, rng: random.Random, report: BotReport,
                       info: dict[str, Any], illegal_rate: float, done: asyncio.Event, style: str | None,
                       silence: float, bank: Bank | None = None, think: tuple[float, float] = (0.0, 0.0)) -> None:
    """The seated part of :func:`play`: act on requests until ``done``, then wait for the last transcripts."""
    mover = Mover(str(info["game"]), style, think)
    sent_at: float | None = None
    started_stacks: dict[str, int] = {}
    finished = 0
    pending: dict[str, Any] | None = None  # the real move last sent, retried as check/fold if refused
    probes = 0  # probes sent and not yet refused
    while not done.is_set():
        message = await next_message(client, silence)
        kind = message["type"]
        if sent_at is not None and kind in ("event", "error", "ack"):
            report.latencies.append(time.perf_counter() - sent_at)
            sent_at = None
        if kind == "action_request" and message["seat"] is not None:
            if rng.random() < illegal_rate:  # a probe for a hand that does not exist: the room must refuse it
                probes += 1
                await client.send("action", table=table, hand=message["hand"] + "x", kind="fold")
            action = await mover.move(table, message, rng)  # the round-trip is timed from the send, not before
            sent_at = time.perf_counter()
            pending = {"table": table, "hand": message["hand"], "legal": message["legal"]} | action
            await client.send("action", table=table, hand=message["hand"], **action)
        elif kind == "error" and message.get("code") == "rate_limited" and pending is not None:
            await asyncio.sleep(0.05)  # our move was dropped by the room's rate limit: send it again
            move = {key: value for key, value in pending.items() if key not in ("table", "hand", "legal")}
            await client.send("action", table=table, hand=pending["hand"], **move)
        elif kind == "error" and message.get("in_reply_to") == "action" and probes and message["code"] == "no_hand":
            probes -= 1  # replies come in the order sent: a probe's refusal comes before the real move's answer
            report.probes_refused += 1
        elif kind == "error" and message.get("in_reply_to") == "action":
            report.illegal_rejected += 1
            if message.get("code") != "no_hand" and pending is not None:
                # our real move was refused (a bug somewhere): note it and fall back to the safest move
                report.refused_moves.append({"sent": pending, "reply": message})
                fallback = "check" if pending["legal"].get("can_check") else "fold"
                await client.send("action", table=table, hand=pending["hand"], kind=fallback)
                pending = None
        elif kind == "event":
            event = message["event"]
            if not isinstance(event, TurnStarted):
                pending = None  # the move went through
            mover.saw(table, event)
            if isinstance(event, HandStarted):
                started_stacks[message["hand"]] = sum(stack for _, stack in event.stacks)
            elif isinstance(event, HandEnded):
                before = started_stacks.pop(message["hand"], None)
                after = sum(stack for _, stack in event.stacks) + event.rake
                if before is not None and before != after:
                    report.chips_conserved = False
            elif isinstance(event, HandFinished):
                finished += 1
                report.hands.add(message["hand"])
                if finished >= hands:
                    done.set()
        elif kind == "table" and message.get("table") == table and not done.is_set():
            await _top_up_if_short(client, table, info, bank or Bank(None), message)
        elif kind in ("ack", "error") and message.get("in_reply_to") == "top_up" and bank is not None:
            bank.answered(message)
        elif kind == "verification_result" and not message["ok"]:
            report.violations.append(message)
    assert client.fairness is not None
    verified = {hand for _, hand in [*client.fairness.results, *client.fairness.unverified]}
    blind = client.host_blind.results if client.host_blind is not None else {}
    with contextlib.suppress(TimeoutError):  # the transcript follows the hand's end: wait for the last ones
        while not report.hands <= verified | {hand for _, hand in blind}:
            message = await client.wait_for("seeds", "blind_end", timeout=5.0)
            verified.add(message["hand"])


@dataclass
class Bank:
    """A bot's chips off the table (``None``: the room keeps no balances, top-ups are free) and its top-up in
    flight: a bot asks only for what the room will grant, since every refusal spends its connection's budget."""

    chips: int | None
    asked: int = 0

    def answered(self, message: dict[str, Any]) -> None:
        if message["type"] == "ack" and self.chips is not None:
            self.chips -= self.asked
        self.asked = 0


async def _top_up_if_short(client: RoomClient, table: str, info: dict[str, Any], bank: Bank,
                           state: dict[str, Any]) -> None:
    """On each ``table`` message (``state``): buy back to the maximum when below half of it, with what the bank
    holds, and sit in again when sat out (broke, or a missed commitment). Nothing is sent that the room would
    refuse: no top-up during a hand it is in, none short of the minimum buy-in for an empty stack, none twice
    at once, no sitting in without chips."""
    me = next((seat for seat in state.get("seats", []) if seat["name"] == client.hello["name"]), None)
    if me is None:
        return
    minimum, maximum = info["buy_in"]
    out = bool(me.get("sitting_out") or me.get("away"))  # not dealt in: a top-up is fine mid-hand
    stack = int(me["stack"])
    if stack < maximum // 2 and not bank.asked and not (state.get("hand_running") and not out):
        amount = maximum - stack if bank.chips is None else min(maximum - stack, bank.chips)
        if amount > 0 and not (stack == 0 and amount < minimum):  # else broke for good: it stays out
            bank.asked = amount
            await client.send("top_up", table=table, amount=amount)
    if out and (stack > 0 or bank.asked):
        await client.send("sit_out", table=table, on=False)


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
        "room_closed": next((report.room_closed for report in reports if report.room_closed), None),
    }


async def run_bots(host: str, port: int, count: int, hands: int, *, seed: int | None = None,
                   table: str | None = None, style: str | None = None, silence: float = SILENCE_SECONDS,
                   password: str | None = None, invite: str | None = None,
                   think: tuple[float, float] = (0.0, 0.0), pool_play: PoolPlay | None = None) -> dict[str, Any]:
    """Connect ``count`` bots (fresh keys, fresh names), seat them, play ``hands`` hands; the summary.

    ``style``: ``None`` plays the simple random strategy (load tests); a name of
    :data:`hosting.strategy.STYLES` or ``"mixed"`` (each bot its own) plays by equity and pot odds. ``think``:
    seconds before each move (:func:`play`). ``table`` may name a fast-fold pool of the lobby: the bots join it
    and play its hands with ``pool_play`` (:func:`hosting.pool_bots.play_pool`, given by the command).
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
            clients.append(await RoomClient.connect(host, port, f"bot{index}-{token}", host_blind=True,
                                                    client_keys=[asyncssh.generate_private_key("ssh-ed25519")]))
            await clients[-1].pass_gates(password=password, invite=invite)
        reply = await clients[0].request("lobby")
        pools = [str(row["id"]) for row in reply.get("pools", [])]
        if table is not None and table in pools and pool_play is not None:  # a pool deals each hand afresh
            everyone_done = asyncio.Event()
            tasks = [asyncio.ensure_future(pool_play(client, table, hands, random.Random(rng.random()),
                                                     done=everyone_done, silence=silence,
                                                     style=styles[index % len(styles)], think=think))
                     for index, client in enumerate(clients)]
        else:
            seating = _assign_tables(reply["tables"], count, table, pools)
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
