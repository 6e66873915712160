"""``RoomClient``: the protocol v1 client over the ``croupier`` SSH subsystem, for bots, ``croupier join`` and tests,
and over the served TUI's local socket (:class:`tui.connection.StreamConnection`): the one read loop of every
client.

    client = await RoomClient.connect("localhost", 2222, "ana", client_keys=[key])
    print(client.hello["room"])
    tables = (await client.request("lobby"))["tables"]
    await client.request("sit", table=tables[0]["id"], buy_in=200)      # → the ack, or raises RequestRefused

Every received message is kept in :attr:`RoomClient.received` (tests inspect them; ``keep=False``: not) and queued for
:meth:`RoomClient.receive` / :meth:`RoomClient.wait_for`. The client takes part in the commit–reveal shuffle
itself (:class:`FairnessParticipant`): it draws its own secret, commits, reveals to the host only, and checks
every published transcript against the cards it saw, sending its ``verification`` back; a draw that is not a
deck (a Spin's multiplier) the same way (:class:`hosting.draw_round.DrawParticipant`, :attr:`RoomClient.draws`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import asyncssh

from engine.events import (
    CardsDealtFaceDown,
    CardsDrawn,
    DrawnCardsDealt,
    Event,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    UpCardsDealt,
)
from engine.fairness import (
    Committer,
    FairnessError,
    Observation,
    ObservedDraw,
    SeenCard,
    Transcript,
    Verification,
    commit,
    dealt_by,
    parse_committer,
    verify,
)
from engine.home.rabbit_hunt import RabbitHuntShown, rabbit_problem
from engine.table import AFTER_HAND_EVENTS
from engine.text import clean_text
from hosting import protocol
from hosting.draw_round import DrawParticipant
from hosting.hand_codec import event_from_json
from hosting.host_blind_client import HostBlindParticipant
from hosting.protocol import SUBSYSTEM


class RequestRefused(Exception):
    """The room answered a request with an ``error``; ``reply`` is that message."""

    def __init__(self, reply: dict[str, Any]) -> None:
        super().__init__(f"{reply.get('code')}: {reply.get('message')}")
        self.reply = reply


class GatesRefused(Exception):
    """The room's gates after the key login (``hello.needs``: its password, an invite code for a new name) were
    not passed. ``missing``: the gates nothing was given for (then nothing was sent)."""

    def __init__(self, reason: str, missing: tuple[str, ...] = ()) -> None:
        super().__init__(reason)
        self.missing = missing


GATE_WORDS = {"password": "the room password", "invite": "an invite code"}


class _BannerKeeper(asyncssh.SSHClient):
    """Keeps the SSH auth banners the room sends: its refusal of a login is said there (``croupier: …``)."""

    def __init__(self, banners: list[str]) -> None:
        self.banners = banners

    def auth_banner_received(self, msg: str, lang: str) -> None:
        if len(self.banners) < 8:
            self.banners.append(msg[:500])


def room_refusal(banners: Sequence[str]) -> str | None:
    """The room's reason in its auth banners (the last ``croupier: …`` line), cleaned for a terminal.

    >>> room_refusal(["Welcome\\r\\n", "croupier: bob is not on this room's allow-list\\r\\n"])
    "bob is not on this room's allow-list"
    """
    reasons = [line.strip()[len("croupier:"):].strip() for banner in banners for line in banner.splitlines()
               if line.strip().startswith("croupier:")]
    return clean_text(reasons[-1])[:300] if reasons else None


class LoginRefused(asyncssh.PermissionDenied):
    """The room refused the login and said why (banned, not on its allow-list, the name held by another key…):
    ``reason`` is its words, cleaned. Not a network failure: connecting again gets the same answer."""


async def open_ssh(host: str, port: int, timeout: float, **settings: Any) -> asyncssh.SSHClientConnection:
    """``asyncssh.connect`` that keeps the room's auth banners: a refused login raises :class:`LoginRefused` with
    the room's reason when it gave one (``asyncssh.PermissionDenied`` when it did not)."""
    banners: list[str] = []
    try:
        return await asyncio.wait_for(asyncssh.connect(host, port, client_factory=lambda: _BannerKeeper(banners),
                                                       **settings), timeout)
    except asyncssh.PermissionDenied as refused:
        reason = room_refusal(banners)  # the room's words (not on its allow-list, banned, …), not ssh's
        if reason is None:
            raise
        raise LoginRefused(reason) from refused


class ConnectionClosed(Exception):
    """The room closed the channel (``reason`` from its ``bye``, if any)."""


@dataclass
class _HandRecord:
    seat: int | None = None
    secret: bytes | None = None
    commitments: dict[Committer, bytes] = field(default_factory=dict)
    seen: list[tuple[SeenCard, int]] = field(default_factory=list)  # with each card's place in the deal
    shown: list[tuple[SeenCard, int]] = field(default_factory=list)  # others' cards turned up at showdown
    dealt: int = 0  # cards dealt so far, counted from public events (draw games: past the deck = reshuffled)
    places: dict[int, int] = field(default_factory=dict)  # seat → cards dealt to it so far
    drew: bool = False  # a draw game: someone drew this hand
    draws: list[ObservedDraw] = field(default_factory=list)  # every draw seen, my own with its discards
    saw_start: bool = False  # saw hand_started: the counts above cover the whole hand
    published: bool = False  # saw the ``commitments`` since my ``commit_request``: only then do I reveal
    reveal_acked: bool = False  # the room took my reveal in time (so a forfeit of my seat is the room's doing)




MISSED_COMMITMENTS = "not verified: missed the commitments (connection too slow or dropped)"
LATE_COMMIT = "my commitment arrived late; dealt without it"
LATE_REVEAL = "my reveal arrived late; folded, dealt without my seed"


class FairnessParticipant:
    """The client's side of commit–reveal v1 (DESIGN.md "Fairness"), fed every inbound message.

    Returns the messages to send (a ``commit``, a ``reveal``, a ``verification``). ``results`` keeps each
    finished hand's :class:`~engine.fairness.Verification`. Secrets come from ``draw_secret`` (CSPRNG).
    Draw games: ``reshuffles_checked`` counts the reshuffles of verified transcripts (each replayed from the
    published discards), ``reshuffled_cards_checked`` this client's own cards dealt from them and checked
    against the recomputed reshuffle (R-DRAW-1).
    """

    def __init__(self, room_id: str, draw_secret: Callable[[], bytes] = lambda: secrets.token_bytes(32)) -> None:
        self.room_id = room_id
        self._draw = draw_secret
        self._hands: dict[tuple[str, str], _HandRecord] = {}
        self.results: dict[tuple[str, str], Verification] = {}
        # hands this client could not fully check, and why (not violations: what a slow connection costs)
        self.unverified: dict[tuple[str, str], str] = {}
        self.notes: dict[tuple[str, str], str] = {}  # verified hands with a note (my late commit, my late reveal)
        self.reshuffles_checked = 0
        self.reshuffled_cards_checked = 0
        self._last_deal: dict[str, tuple[Transcript, int]] = {}  # table → its last verified hand, dealt cards
        self.rabbits_checked = 0
        self.rabbit_problems: list[str] = []
        self._early_rabbits: dict[str, tuple[str, RabbitHuntShown]] = {}  # table → a rabbit shown before its seeds

    def _check_rabbit(self, table: str, hand: str, event: RabbitHuntShown) -> None:
        """R-HOME-2: the rabbit must be the deck's next cards after the deal of its hand (``hand``; its seeds
        published). Shown before they came (asked at once after the hand), it is checked when they do."""
        last = self._last_deal.get(table)
        if hand and (last is None or last[0].hand_id != hand):
            self._early_rabbits[table] = (hand, event)  # one a table: the hand that ended last
            return
        if last is None:
            return  # the hand was not verified here (watched from after the deal): nothing to check against
        transcript, dealt = last
        try:
            cards = [card for _, street in event.streets for card in street]
            problem = rabbit_problem(transcript.deck(), dealt, cards) if event.first_position == dealt \
                else f"rabbit hunt starts at deck position {event.first_position}, the deal ended at {dealt}"
        except (ValueError, TypeError, FairnessError) as error:
            problem = f"rabbit hunt: {error}"
        self.rabbits_checked += 1
        if problem is not None:
            self.rabbit_problems.append(f"{table} {transcript.hand_id}: {problem}")

    def handle(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        kind = message.get("type")
        key = (str(message.get("table")), str(message.get("hand")))
        if kind == "commit_request":
            record = self._hands.setdefault(key, _HandRecord())
            # asked again for the same hand (its shuffle started over): the commitments seen before are stale
            record.commitments, record.published, record.reveal_acked = {}, False, False
            record.seat = int(message["seat"])
            record.secret = self._draw()
            digest = commit(self.room_id, key[0], key[1], record.seat, record.secret)
            return [protocol.message("commit", table=key[0], hand=key[1], commitment=digest.hex())]
        if kind == "commitments":
            record = self._hands.setdefault(key, _HandRecord())
            record.commitments = {parse_committer(label): bytes.fromhex(text)
                                  for label, text in message["commitments"].items()}
            record.published = True
            return []
        if kind == "reveal_request":
            if "ticket" in message:
                self._use_ticket(key, message)
            pending = self._hands.get(key)
            if pending is None or pending.secret is None or not pending.published:
                # never reveal before seeing every commitment: a host hiding them could pick its own seed after
                # ours (DESIGN.md step 2); the room folds this seat, and the hand is reported not verified
                return []
            return [protocol.message("reveal", table=key[0], hand=key[1], secret=pending.secret.hex())]
        if kind == "ack" and message.get("in_reply_to") == "reveal" and key in self._hands:
            self._hands[key].reveal_acked = True
            return []
        if kind == "event":
            event = message["event"]
            if not isinstance(event, Event):  # a body not yet decoded (a test's hand-made message)
                event = event_from_json(event)
            if isinstance(event, AFTER_HAND_EVENTS):  # asked after the hand: nothing dealt, the rabbit checked apart
                if isinstance(event, RabbitHuntShown):
                    self._check_rabbit(key[0], key[1], event)
                return []
            self._observe(self._hands.setdefault(key, _HandRecord()), event)
            return []
        if kind == "seeds":
            return self._verify(key, message["transcript"])
        return []

    def _use_ticket(self, key: tuple[str, str], message: dict[str, Any]) -> None:
        """A fast-fold pool deals this client a hand on the commitment it made ahead (R-FAST-1): the secret
        committed to ticket ``(pool, ticket)`` becomes this hand's, once — a ticket is never revealed twice (a
        host reusing it would know the secret before the next deal), nor moved onto a hand already holding one."""
        ticket = self._hands.pop((str(message.get("pool")), str(message.get("ticket"))), None)
        record = self._hands.setdefault(key, _HandRecord())
        if ticket is None or ticket.secret is None or record.secret is not None:
            return
        record.secret, record.seat = ticket.secret, int(message["seat"])

    def _observe(self, record: _HandRecord, event: Event) -> None:
        """Note the cards this client saw, each with its place among its recipient's cards and in the deal."""
        if isinstance(event, HandStarted):
            record.saw_start = True
            return
        if not record.saw_start:
            # watched from after the deal (a table opened or a seat taken mid-hand): the cards dealt before are
            # unknown to us, so these cannot be placed in the deal; the seeds are still checked at the end
            return
        if isinstance(event, CardsDrawn):
            record.draws.append(ObservedDraw(event.seat, event.count,
                                             () if event.seat == record.seat and event.count == 0 else None))
        elif isinstance(event, DrawnCardsDealt) and record.draws and record.draws[-1].seat == event.seat:
            record.draws[-1] = ObservedDraw(record.draws[-1].seat, record.draws[-1].count, event.discarded)
        if isinstance(event, HandShown):
            seat = event.seat
            if seat != record.seat and not any(item.recipient == seat for item, _ in record.seen + record.shown):
                # a draw-game hand is not in deal order after the draws: its cards are checked by recipient
                record.shown += [(SeenCard(seat, card, anywhere=record.drew), 0) for card in event.cards]
            return
        dealt = dealt_by(event)  # which cards went to whom: the one place that says so (engine.fairness)
        recipient, cards = dealt if dealt is not None else (None, ())
        if recipient == "board":  # either board of a hand run twice (R-HOME-1): the second follows the first
            record.seen += [(SeenCard("board", card), record.dealt + offset) for offset, card in enumerate(cards)]
            record.dealt += len(cards)
            return
        if isinstance(event, DrawnCardsDealt):  # my replacements: cards_drawn (just before) already counted them
            seat = event.seat
            place, first = record.places.get(seat, 0) - len(cards), record.dealt - len(cards)
        elif isinstance(event, HoleCardsDealt | UpCardsDealt | CardsDealtFaceDown | CardsDrawn):
            # the cards I see, and the places of those I do not (another seat's face-down cards, a draw's count)
            seat = event.seat
            count = event.count if isinstance(event, CardsDealtFaceDown | CardsDrawn) else len(cards)
            place, first = record.places.get(seat, 0), record.dealt
            record.places[seat] = place + count
            record.dealt += count
            record.drew = record.drew or isinstance(event, CardsDrawn)
        else:
            return
        record.seen += [(SeenCard(seat, card, index=place + offset), first + offset)
                        for offset, card in enumerate(cards)]

    def _verify(self, key: tuple[str, str], data: dict[str, Any]) -> list[dict[str, Any]]:
        record = self._hands.pop(key, _HandRecord())
        try:
            transcript = Transcript.from_json(data)
        except FairnessError as problem:
            violations = [{"kind": "bad_transcript", "message": str(problem), "evidence": {}}]
            return self._report(key, record, False, violations)
        # draw games: cards dealt past the deck come from reshuffled discards, checked against the transcript's
        # reshuffles (recomputed from the seeds and the published discards); a shown hand against the replay
        seen = [item for item, _ in record.seen] + [item for item, _ in record.shown]
        commitments = record.commitments
        if not commitments and record.secret is None:
            # Watched from after the commitments were published (joined or opened the table mid-hand): this
            # client cannot tell whether they came before the deal, but seeds and seen cards still get checked.
            commitments = dict(transcript.commitments)
        draws = tuple(record.draws) if record.saw_start else None
        seat, secret, lag = self._lag(key, record, transcript)
        if lag == MISSED_COMMITMENTS:
            commitments = dict(transcript.commitments)  # what can still be checked: seeds and cards
        observation = Observation(seat, secret, commitments, tuple(seen), draws,
                                  record.dealt if record.saw_start and record.drew else None)
        result = verify(transcript, observation)
        if lag == MISSED_COMMITMENTS and result.ok:
            self.unverified[key] = lag  # no violation found, but the commitments were not seen before the deal
            return []
        if lag is not None and lag != MISSED_COMMITMENTS:
            self.notes[key] = lag
        self.results[key] = result
        self._last_deal[key[0]] = (transcript, len(transcript.deals))
        early = self._early_rabbits.get(key[0])
        if early is not None and early[0] == key[1]:
            del self._early_rabbits[key[0]]
            self._check_rabbit(key[0], key[1], early[1])
        if transcript.reshuffles:
            self.reshuffles_checked += len(transcript.reshuffles)
            from_deck = sum(deal.recipient == record.seat for deal in transcript.deals)
            self.reshuffled_cards_checked += sum(
                1 for item, _ in record.seen
                if item.recipient == record.seat and item.index is not None and item.index >= from_deck)
        return self._report(key, record, result.ok, [violation.to_json() for violation in result.violations])

    @staticmethod
    def _lag(key: tuple[str, str], record: _HandRecord,
             transcript: Transcript) -> tuple[int | None, bytes | None, str | None]:
        """The seat and secret to check this client's own seed with, and what its slowness cost (``None``: all
        in time). My seed is not looked for when the room had it by no fault of its own: I missed the published
        commitments (I did not reveal), my commitment is not in them (it came after the deadline), or my seat
        was forfeited and my reveal never acknowledged. A seed the room published, then dropped, stays a
        violation: the published list and an acknowledged reveal are what a client holds against the room."""
        if record.secret is None:
            return record.seat, record.secret, None
        if not record.published:
            return None, None, MISSED_COMMITMENTS
        if record.seat not in record.commitments:
            return None, None, LATE_COMMIT
        if record.seat in transcript.forfeited and not record.reveal_acked:
            return None, None, LATE_REVEAL
        return record.seat, record.secret, None

    @staticmethod
    def _report(key: tuple[str, str], record: _HandRecord, ok: bool,
                violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The ``verification`` to send: only for a hand this client was dealt into (the room accepts verdicts
        from its players only); a watcher keeps its verdict for its own badge."""
        if record.secret is None:
            return []
        return [protocol.message("verification", table=key[0], hand=key[1], ok=ok, violations=violations)]


class ShuffleParticipant(Protocol):
    """What :class:`RoomClient` needs of a client's side of the shuffle: :class:`FairnessParticipant`, or the
    TUI's wrapper around it (``tui.connection.Participant``)."""

    @property
    def results(self) -> dict[tuple[str, str], Verification]: ...

    @property
    def unverified(self) -> dict[tuple[str, str], str]: ...

    @property
    def notes(self) -> dict[tuple[str, str], str]: ...

    def handle(self, message: dict[str, Any]) -> list[dict[str, Any]]: ...


class LineReader(Protocol):
    """Where the room's lines come from: an SSH channel's reader, or an asyncio stream's (a served TUI's socket).
    Its bound on a line is the transport's (the SSH channel's window; the stream's ``limit``)."""

    async def readline(self) -> bytes: ...


class LineWriter(Protocol):
    def write(self, data: bytes) -> None: ...

    async def drain(self) -> None: ...

    def close(self) -> None: ...


class Closable(Protocol):
    """What the connection under the channel is closed with (an SSH connection; a stream's writer)."""

    def close(self) -> None: ...

    async def wait_closed(self) -> None: ...


PATIENCE = 10.0
"""Seconds of silence from the room a client's wait takes by default (:attr:`RoomClient.patience`)."""


class RoomClient:
    """One player's connection to a room: protocol lines from an SSH channel (the ``croupier`` subsystem) or any
    stream pair, read by the one read loop of every client (bots, ``croupier join``, the served TUI)."""

    def __init__(self, connection: Closable, writer: LineWriter, reader: LineReader,
                 fairness: Callable[[str], ShuffleParticipant | None] | None = None, *, keep: bool = True,
                 patience: float = PATIENCE) -> None:
        """``fairness``: builds this client's participant from the room id when the ``hello`` is read (not
        later: a reconnecting player's hand resync follows the hello at once). ``keep``: keep every message in
        :attr:`received` (bots and tests; a player's client that runs all night does not). ``patience``: the
        seconds of silence a wait (:meth:`receive`, :meth:`wait_for`, :meth:`request`) takes when its caller
        names none."""
        self.patience = patience
        self._make_fairness = fairness
        self._connection = connection
        self._writer = writer
        self._reader = reader
        self._keep = keep
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.received: list[dict[str, Any]] = []
        self.hello: dict[str, Any] = {}
        self.fairness: ShuffleParticipant | None = None
        self.draws: DrawParticipant | None = None  # draws that are not decks (a Spin's multiplier), with fairness
        self.host_blind: HostBlindParticipant | None = None  # its part in host-blind hands (said in its hello)
        self.closed_reason: str | None = None
        self.closed_code: str | None = None  # the room's ``bye`` code (protocol.ROOM_CLOSED, KICKED, BANNED…)
        self._tables: dict[str, dict[str, Any]] = {}
        self._reading = asyncio.get_running_loop().create_task(self._read_loop())

    @classmethod
    async def connect(cls, host: str, port: int, name: str, *, client_keys: Sequence[asyncssh.SSHKey | str],
                      known_hosts: Any = None, fairness: bool = True, timeout: float = PATIENCE,
                      host_blind: bool = False, participant: HostBlindParticipant | None = None,
                      keep: bool = True) -> RoomClient:
        """Log in as ``name`` with ``client_keys`` and open the subsystem; waits for the room's ``hello``.

        ``known_hosts``: as asyncssh's option (``None`` accepts any host key: tests and loopback only).
        Raises ``asyncssh.PermissionDenied`` when the room refuses the key or the name. ``host_blind``: take
        part in host-blind dealing (the ``hello`` offers it; :mod:`hosting.host_blind_client`). ``participant``:
        the one of an earlier connection, so that a hand it is dealt into goes on after a reconnect (its keys).
        ``timeout``: for the login and the ``hello``, and the client's :attr:`patience` after. ``keep``: keep
        every message in :attr:`received` (tests); a client that runs for hours (``croupier bots``) does not.
        """
        return await cls.open(
            host, port, timeout, fairness=FairnessParticipant if fairness else None, host_blind=host_blind,
            participant=participant, wait=participant is None, keep=keep,
            username=name, client_keys=list(client_keys), known_hosts=known_hosts, agent_path=None, config=[],
            password=None, kbdint_auth=False, gss_auth=False,
            # AES-GCM runs in OpenSSL's hardware-accelerated code: far cheaper per packet than ChaCha20 here
            encryption_algs=["aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com"])

    @classmethod
    async def open(cls, host: str, port: int, timeout: float, *,
                   fairness: Callable[[str], ShuffleParticipant | None] | None, host_blind: bool = False,
                   participant: HostBlindParticipant | None = None, client: str = "croupier", wait: bool = True,
                   keep: bool = True, **settings: Any) -> RoomClient:
        """Open the ``croupier`` subsystem over SSH (``settings``: ``asyncssh.connect``'s options, ``username``
        among them; a refused login raises :class:`LoginRefused` in the room's words) and wait for the ``hello``.
        ``host_blind``/``participant``: as :meth:`connect`; the feature ``hello`` (as ``client``) is sent, and its
        ack waited for only when ``wait`` (never on a reconnect: the room resends a running hand at once, which
        waiting would skip)."""
        connection = await open_ssh(host, port, timeout, **settings)
        writer, reader, _ = await connection.open_session(subsystem=SUBSYSTEM, encoding=None)
        room = cls(connection, writer, reader, fairness, keep=keep, patience=timeout)
        room.host_blind = participant  # before the room's first messages: it resends a running hand at once
        room.hello = await room.wait_for("hello", timeout=timeout)
        if host_blind or participant is not None:
            if room.host_blind is None:
                room.host_blind = HostBlindParticipant(str(room.hello.get("name", settings.get("username", ""))))
            if wait and participant is None:
                await room.request("hello", timeout=timeout, client=client, features=[protocol.HOST_BLIND_FEATURE])
            else:
                await room.send("hello", client=client, features=[protocol.HOST_BLIND_FEATURE])
        return room

    async def _read_loop(self) -> None:
        try:
            while True:
                line = await self._reader.readline()
                if not line:
                    break
                message = protocol.read_room_message(line)  # an ``event`` carries a typed engine event
                if self._keep:
                    self.received.append(message)
                if message.get("type") == "table":
                    self._tables[str(message.get("table"))] = message
                if message.get("type") == "bye":
                    self.closed_reason = str(message.get("reason") or "the room closed the connection")
                    self.closed_code = str(message.get("code") or "")
                if message.get("type") == "hello" and self._make_fairness is not None and self.fairness is None:
                    self.fairness = self._make_fairness(str(message.get("room_id", "")))
                    if not hasattr(self.fairness, "draws"):  # the TUI's participant takes part in draws itself
                        self.draws = DrawParticipant(str(message.get("room_id", "")), str(message.get("name", "")))
                if self.fairness is not None:
                    for reply in self.fairness.handle(message):
                        self._answer(reply)
                if self.draws is not None:
                    for reply in self.draws.handle(message):
                        self._answer(reply)
                if self.host_blind is not None:
                    for reply in self.host_blind.handle(message):
                        self._answer(reply)
                    message = self.host_blind.rewrite(message)
                self._queue.put_nowait(message)
        except (asyncssh.Error, ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass  # the channel ended, broke, or sent a line over its bound (a stream's ValueError)
        finally:
            self._queue.put_nowait(None)

    def last_table_state(self, table: str) -> dict[str, Any]:
        """The latest ``table`` message received for ``table`` (``{}`` if none yet)."""
        return self._tables.get(table, {})

    def _write(self, message: dict[str, Any]) -> None:
        self._writer.write(protocol.encode(message))

    def _answer(self, message: dict[str, Any]) -> None:
        """A reply the read loop sends by itself (a commitment, a reveal): once the room has closed the channel it
        cannot go, but reading goes on to the room's ``bye`` still on its way (its reason), then the end."""
        with contextlib.suppress(ConnectionError):
            self._write(message)

    async def send(self, message_type: str, **fields: Any) -> None:
        """Send one message (``v`` and ``type`` added). An action at a host-blind table goes as the signed entry
        the table takes instead. :class:`ConnectionClosed` when the channel has ended (as :meth:`receive`)."""
        signed = self.host_blind.action(fields) if self.host_blind is not None and message_type == "action" else None
        try:
            self._write(signed if signed is not None else protocol.message(message_type, **fields))
            await self._writer.drain()
        except ConnectionError:  # the room closed the channel: say so as a read would, with its reason if it gave one
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._reading), 5.0)  # its ``bye``, read before the end
            raise ConnectionClosed(self.closed_reason or "the room closed the connection") from None

    async def send_raw(self, data: bytes) -> None:
        """Send bytes as they are (tests of malformed input)."""
        self._writer.write(data)
        await self._writer.drain()

    async def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message (``TimeoutError`` after ``timeout`` seconds, by default :attr:`patience`, without one);
        :class:`ConnectionClosed` when the channel ended."""
        message = await asyncio.wait_for(self._queue.get(), self.patience if timeout is None else timeout)
        if message is None:
            self._queue.put_nowait(None)
            raise ConnectionClosed(self.closed_reason or "the room closed the connection")
        return message

    async def wait_for(self, *types: str, timeout: float | None = None, limit: float | None = None,
                       where: Callable[[dict[str, Any]], bool] = lambda message: True) -> dict[str, Any]:
        """Skip messages until one of ``types`` (matching ``where``) arrives. The wait measures the room's progress,
        not the clock: ``TimeoutError`` once no message at all has come for ``timeout`` seconds (by default
        :attr:`patience`; each message starts it again, so a slow room that keeps talking is waited for), or
        after ``limit`` seconds in all when the caller gives one."""

        async def scan() -> dict[str, Any]:
            while True:
                message = await self.receive(timeout)
                if message.get("type") in types and where(message):
                    return message

        return await asyncio.wait_for(asyncio.ensure_future(scan()), limit)

    async def request(self, message_type: str, *, timeout: float | None = None, limit: float | None = None,
                      **fields: Any) -> dict[str, Any]:
        """Send a request and return its answer (``ack``, ``lobby``, ``pong``, ``auth_result``);
        :class:`RequestRefused` on an ``error`` reply. ``timeout``, ``limit``: as :meth:`wait_for`."""
        answers = {"lobby": ("lobby",), "ping": ("pong",), "auth": ("auth_result",)}.get(message_type, ("ack",))
        await self.send(message_type, **fields)

        def answers_this(message: dict[str, Any]) -> bool:
            if message["type"] == "ack":
                return bool(message.get("in_reply_to") == message_type)
            if message["type"] == "error":
                return message.get("in_reply_to") in (message_type, None)
            return True

        reply = await self.wait_for(*answers, "error", timeout=timeout, limit=limit, where=answers_this)
        if reply["type"] == "error":
            raise RequestRefused(reply)
        return reply

    async def pass_gates(self, *, password: str | None = None, invite: str | None = None,
                         timeout: float | None = None) -> None:
        """Answer the gates the ``hello`` named (``needs``) with ``auth``; nothing to do when there are none.
        Raises :class:`GatesRefused` (in words) when a gate has no answer or the room refuses one."""
        needs = [str(gate) for gate in self.hello.get("needs") or []]
        if not needs:
            return
        given = {"password": password, "invite": invite}
        missing = tuple(gate for gate in needs if not given.get(gate))
        if missing:
            words = " and ".join(GATE_WORDS.get(gate, gate) for gate in missing)
            raise GatesRefused(f"{self.hello.get('room') or 'the room'} needs {words}", missing)
        answers: dict[str, Any] = {gate: given[gate] for gate in needs}
        result = await self.request("auth", timeout=timeout, **answers)
        if not result.get("ok"):
            raise GatesRefused(f"the room refused: {result.get('reason') or 'auth failed'}")

    async def close(self) -> None:
        self._writer.close()
        self._connection.close()
        with contextlib.suppress(TimeoutError, ConnectionError):
            await asyncio.wait_for(self._connection.wait_closed(), 5.0)
        self._reading.cancel()
