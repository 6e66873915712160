"""Bots that play a tournament (issue 18): register, play every hand at whatever table the director seats them
(a move is just the next table's ``action_request``), push or fold when short (:mod:`hosting.push_fold` through
:func:`hosting.strategy.decide`), and stay until the tournament is over.

One loop for every transport: over SSH (:class:`hosting.client.RoomClient`, ``croupier bots --tournament ID``),
in the room's process (:class:`tui.connection.LocalConnection`: ``croupier play --tournament``, the benchmark).
A bot declines a rebuy and an add-on (it plays the chips it has; the room's tests exercise those paths), accepts
an ICM deal and declines the others (ICM pays each his equity; equal and chip deals overpay the short stacks).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.events import Event, HoleCardsDealt
from engine.tournament.events import Completed, TournamentCancelled
from hosting.bots import fairness_tally
from hosting.hand_codec import EVENT_KEY, kind_of
from hosting.strategy import STYLES, HandView, Style, Tracker, decide, short_stack_move

END_EVENTS = (kind_of(Completed), kind_of(TournamentCancelled))
"""The events after which nothing is left to play."""


Chooser = Callable[[dict[str, Any], HandView, random.Random], dict[str, Any]]
"""A bot's move for an ``action_request``'s ``legal`` options (default: :func:`hosting.strategy.decide`)."""


def quick_move(legal: dict[str, Any], view: HandView, rng: random.Random) -> dict[str, Any]:
    """A cheap chooser (benchmarks: measure the room, not the bots' equity sums): push or fold when short
    (:func:`hosting.strategy.short_stack_move`), else :func:`hosting.bots.choose_action`'s simple play."""
    from hosting.bots import choose_action

    return short_stack_move(legal, view) or choose_action(legal, rng)


class Connection(Protocol):
    """What a tournament bot needs of a connection (``RoomClient`` and ``LocalConnection`` both have it)."""

    async def send(self, message_type: str, **fields: Any) -> None: ...


@dataclass
class TournamentReport:
    """What one bot saw of its tournament: the hands it was dealt, its place and prize (``None``: the winner has
    no elimination; his prize is still counted), bounties won, moves, and refusals of its real moves (0 expected)."""

    name: str
    registered: bool = False
    hands: set[tuple[str, str]] = field(default_factory=set)  # (table, hand)
    tables: set[str] = field(default_factory=set)
    place: int | None = None
    prize: int = 0
    bounties: int = 0
    moved: int = 0
    refused: int = 0
    refusals: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False
    winner: str | None = None  # as the tournament's end said (None after a deal or a time limit)


def event_name(message: dict[str, Any]) -> str:
    """The wire name of a ``tournament_event`` message's event (``""`` for other messages)."""
    if message.get("type") != "tournament_event":
        return ""
    body = message.get("event")
    return str(body.get(EVENT_KEY, "")) if isinstance(body, dict) else ""


class TournamentBot:
    """One bot in ``tournament``. ``receive``: the next message (raises when the connection ends); ``think``: a
    pause before each move, in seconds (a range), for a human opponent's sake."""

    def __init__(self, name: str, connection: Connection, receive: Callable[[], Awaitable[dict[str, Any]]],
                 tournament: str, *, style: Style | None = None, rng: random.Random | None = None,
                 think: tuple[float, float] = (0.0, 0.0), chooser: Chooser | None = None) -> None:
        self.connection = connection
        self.receive = receive
        self.tournament = tournament
        self.style = style or STYLES["steady"]
        self.rng = rng or random.Random()
        self.think = think
        self.chooser = chooser
        self.report = TournamentReport(name)
        self._seats: dict[str, int] = {}
        self.tracker = Tracker(self._seats.get, self._game_of)
        self._pending: dict[str, Any] | None = None
        self.task: asyncio.Task[TournamentReport] | None = None
        """The bot's :meth:`play`, when its owner runs it as a task."""

    @property
    def name(self) -> str:
        return self.report.name

    def _game_of(self, table: str) -> str:
        hand = self.tracker.hands.get(table)
        return hand.variant if hand is not None and hand.variant else "texas_holdem"

    async def register(self) -> None:
        await self.connection.send("tournament", action="register", tournament=self.tournament)

    async def play(self) -> TournamentReport:
        """Act on every message until the tournament is over (or cancelled); the report."""
        while not self.report.finished:
            await self.on_message(await self.receive())
        return self.report

    async def on_message(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "event":
            self._on_table_event(str(message["table"]), str(message.get("hand")), message["event"])
        elif kind == "action_request" and message.get("seat") is not None:
            await self._act(message)
        elif kind == "tournament_event" and message.get("tournament") == self.tournament:
            await self._on_tournament_event(event_name(message), message["event"])
        elif kind == "ack" and message.get("in_reply_to") == "tournament" and message.get("action") == "register":
            self.report.registered = True
        elif kind == "error" and message.get("in_reply_to") == "action" and self._pending is not None:
            # a real move refused (a bug somewhere): note it, and fold or check so the table goes on
            self.report.refused += 1
            self.report.refusals.append({"sent": self._pending, "reply": message})
            pending, self._pending = self._pending, None
            fallback = "check" if pending["legal"].get("can_check") else "fold"
            await self.connection.send("action", table=pending["table"], hand=pending["hand"], kind=fallback)

    def _on_table_event(self, table: str, hand: str, event: Event) -> None:
        if isinstance(event, HoleCardsDealt):
            self._seats[table] = event.seat  # only our own cards reach us
            self.report.hands.add((table, hand))
            self.report.tables.add(table)
        self.tracker.on_event(table, event)
        self._pending = None

    async def _act(self, request: dict[str, Any]) -> None:
        table = str(request["table"])
        self._seats[table] = int(request["seat"])
        view = self.tracker.view(table)
        if self.chooser is not None:
            move = self.chooser(request["legal"], view, self.rng)
        else:
            move = decide(request["legal"], view, self.style, self.rng, samples=40)
        if self.think[1] > 0:
            await asyncio.sleep(self.rng.uniform(*self.think))
        self._pending = {"table": table, "hand": request["hand"], "legal": request["legal"]} | move
        await self.connection.send("action", table=table, hand=request["hand"], **move)

    async def _on_tournament_event(self, name: str, body: dict[str, Any]) -> None:
        report = self.report
        mine = body.get("player") == report.name
        if name == "registered" and mine:
            report.registered = True
        elif name == "player_moved" and mine:
            report.moved += 1
        elif name in ("eliminated", "ranked") and mine:
            report.place = body.get("place")
        elif name == "prize_awarded" and mine:
            report.prize += int(body.get("amount", 0))
        elif name == "bounty_won" and body.get("winner") == report.name:
            report.bounties += int(body.get("amount", 0))
        elif name == "rebuy_offered" and mine:
            await self._send_tournament("decline_rebuy")
        elif name == "deal_proposed" and body.get("proposer") != report.name:
            await self._send_tournament("accept_deal" if body.get("kind") == "icm" else "decline_deal")
        elif name in END_EVENTS:
            report.finished = True
            report.winner = body.get("winner")

    async def _send_tournament(self, action: str) -> None:
        await self.connection.send("tournament", action=action, tournament=self.tournament)


# --- over SSH: ``croupier bots --tournament ID`` ---------------------------------------------------------------


async def run_tournament_bots(host: str, port: int, count: int, tournament: str, *, seed: int | None = None,
                              style: str | None = None, silence: float = 60.0, password: str | None = None,
                              invite: str | None = None, names: str = "bot", think: tuple[float, float] = (0.0, 0.0),
                              chooser: Chooser | None = None) -> dict[str, Any]:
    """Connect ``count`` bots (fresh keys), register each for ``tournament`` and play it to its end; the summary
    (:func:`summarize_tournament`). ``style``: a name of :data:`hosting.strategy.STYLES` or ``mixed`` (default:
    mixed). ``think``/``chooser``: as :class:`TournamentBot` takes them. Raises as :func:`hosting.bots.run_bots`
    does; ``RuntimeError`` (in words) when the room has no such tournament."""
    import secrets

    import asyncssh

    from hosting.bots import next_message, stop_all
    from hosting.client import ConnectionClosed, RoomClient

    styles = list(STYLES.values()) if style in (None, "mixed") else [STYLES[str(style)]]
    rng = random.Random(seed)
    token = secrets.token_hex(3)
    clients: list[RoomClient] = []
    bots: list[TournamentBot] = []
    room_closed: str | None = None
    try:
        for index in range(count):
            client = await RoomClient.connect(host, port, f"{names}{index}-{token}", host_blind=True, keep=False,
                                              client_keys=[asyncssh.generate_private_key("ssh-ed25519")])
            clients.append(client)
            await client.pass_gates(password=password, invite=invite)
        lobby = await clients[0].request("lobby")
        known = [str(row["id"]) for row in lobby.get("tournaments", [])]
        if tournament not in known:
            raise RuntimeError(f"the room has no open tournament {tournament!r}; its tournaments: "
                               f"{', '.join(known) or 'none'}")
        for index, client in enumerate(clients):
            bot = TournamentBot(str(client.hello.get("name", "?")), client, _receiver(client, silence, next_message),
                                tournament, style=styles[index % len(styles)], rng=random.Random(rng.random()),
                                think=think, chooser=chooser)
            bots.append(bot)
            await bot.register()
        tasks = [asyncio.ensure_future(bot.play()) for bot in bots]
        try:
            await asyncio.shield(asyncio.gather(*tasks))
        finally:
            await stop_all(tasks)
        for bot, client in zip(bots, clients, strict=True):
            await _last_transcripts(bot, client)
    except ConnectionClosed as closed:
        if not any(client.closed_reason is not None for client in clients):
            raise RuntimeError(f"the room closed a bot's connection: {closed}") from None
        room_closed = str(closed)  # the room said why (its host stopped it): the summary all the same
    finally:
        for client in clients:
            with contextlib.suppress(OSError, asyncssh.Error):
                await client.close()
    return summarize_tournament(bots, [client.fairness for client in clients], room_closed,
                                [client.host_blind for client in clients])


def _receiver(client: Any, silence: float, next_message: Callable[[Any, float], Awaitable[dict[str, Any]]],
              ) -> Callable[[], Awaitable[dict[str, Any]]]:
    return lambda: next_message(client, silence)


async def _last_transcripts(bot: TournamentBot, client: Any, timeout: float = 5.0) -> None:
    """Each hand's transcript follows its end: wait (a little) for those of the bot's last hands."""
    verified = set(client.fairness.results) | set(client.fairness.unverified) if client.fairness is not None else set()
    if getattr(client, "host_blind", None) is not None:
        verified |= set(client.host_blind.results)
    with contextlib.suppress(TimeoutError):
        while not bot.report.hands <= verified:
            message = await client.wait_for("seeds", "blind_end", timeout=timeout, limit=timeout)
            verified.add((str(message["table"]), str(message["hand"])))


def summarize_tournament(bots: list[TournamentBot], fairness: list[Any],
                         room_closed: str | None = None, host_blind: list[Any] | None = None) -> dict[str, Any]:
    """The one-line JSON summary of ``croupier bots --tournament``: hands dealt to the bots, verifications (every
    hand a bot was dealt must be verified by its own client: ``unverified`` counts those that were not; a
    host-blind hand by the client's own referee: ``host_blind_verified``, ``host_blind_failures``), places,
    prizes and bounties won, whether every bot saw the tournament's end, and ``room_closed``: the room's reason
    when it closed under them (None otherwise)."""
    unverified = 0
    blind = host_blind if host_blind is not None else [None] * len(bots)
    blind_verified = blind_failures = 0
    for bot, participant, referee in zip(bots, fairness, blind, strict=True):
        checked = set(participant.results) | set(participant.unverified) if participant is not None else set()
        if referee is not None:
            checked |= set(referee.results)
            blind_verified += sum(not violations for violations in referee.results.values())
            blind_failures += sum(bool(violations) for violations in referee.results.values())
        unverified += len(bot.report.hands - checked)
    winners = {bot.report.winner for bot in bots if bot.report.finished}
    return {
        "players": len(bots),
        "hands": len({hand for bot in bots for hand in bot.report.hands}),
        # verified, failures (violation kinds, the first's evidence), not verified for a slow connection (reasons)
        **fairness_tally((bot.report.name, participant) for bot, participant in zip(bots, fairness, strict=True)),
        "unverified": unverified,
        "host_blind_verified": blind_verified,
        "host_blind_failures": blind_failures,
        "illegal_rejected": sum(bot.report.refused for bot in bots),
        "completed": all(bot.report.finished for bot in bots),
        "winner": winners.pop() if len(winners) == 1 else None,
        "prizes": sum(bot.report.prize for bot in bots),
        "bounties": sum(bot.report.bounties for bot in bots),
        "moved": sum(bot.report.moved for bot in bots),
        "room_closed": room_closed,
    }
