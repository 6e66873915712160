"""Commit–reveal shuffle, protocol v1 (R-FAIR-1, R-FAIR-2; DESIGN.md "Fairness").

Pure functions: the secrets come in as arguments (``hosting`` draws them with ``secrets.token_bytes(32)``,
a ``join`` client draws its own); nothing here reads a clock or a random source.

**Encoding.** Every hash input is a sequence of *fields*; each field is written as its length in bytes
(4 bytes, big-endian, unsigned) followed by its bytes. Text (the domain tag, room, table and hand ids) is
UTF-8; a seat is the ASCII text ``"host"`` for the host or the decimal seat index (``"0"``, ``"7"``);
secrets are their raw 32 bytes. Length prefixes make the concatenation unambiguous: no two different
field lists give the same bytes (``("ab", "c")`` and ``("a", "bc")`` differ).

- commitment of a seat: ``SHA-256(F("croupier/v1/commit") F(room_id) F(table_id) F(hand_id) F(seat) F(secret))``
- commitment made ahead, for a fast-fold pool (R-FAST-1): a pool player commits for his *next* hand before
  its table, hand and seat exist, to a **ticket** the pool gave him; the same hash binds the pool's id in
  place of the table, the ticket id in place of the hand and seat ``"0"``. The transcript names each such
  seat's ``(pool, ticket)``; a ticket is used for one hand only (the client reveals its secret once).
- deck key: ``SHA-256(F("croupier/v1/deck") F(hand_id) F(s0) F(s_1) … F(s_n))``, the host's secret first,
  then each committed player's secret by ascending seat index.
- deck: Fisher–Yates over the table's canonical card list (``engine.cards.full_deck()`` or ``short_deck()``),
  for ``i`` from ``n-1`` down to ``1`` swap positions ``i`` and ``j``, ``j`` uniform in ``0..i``. ``j`` comes from
  the SHAKE-256(key) output stream, read in order, by rejection sampling: take the smallest number of bytes
  ``k`` with ``256**k >= i+1``, read them big-endian as ``r``; if ``r >= 256**k - (256**k mod (i+1))`` read
  again, else ``j = r mod (i+1)``. Every ``j`` is exactly uniform (no modulo bias).

>>> from engine.cards import full_deck
>>> host_secret, player_secret = bytes(32), bytes([1]) * 32
>>> commit("room", "t1", "h1", HOST, host_secret).hex()[:16]
'28403f18db5352fd'
>>> deck = derive_deck("h1", {HOST: host_secret, 0: player_secret}, full_deck())
>>> len(deck), sorted(deck) == sorted(full_deck())
(52, True)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Final, Literal

from engine.cards import Card
from engine.draw import Reshuffle, seeded_reshuffle
from engine.events import (
    BoardDealt,
    CardsDrawn,
    DrawnCardsDealt,
    Event,
    HoleCardsDealt,
    SecondBoardDealt,
    UpCardsDealt,
)

HOST: Final = "host"
"""The seat label of the host in commitments and seeds."""

Committer = int | Literal["host"]
"""Who committed: ``HOST`` or a seat index (0-based)."""

Recipient = int | Literal["board", "burn"]
"""Where a dealt deck position went: a seat index, the community board, or burned (face down, unseen)."""

SECRET_BYTES: Final = 32
DIGEST_BYTES: Final = 32
COMMIT_TAG: Final = "croupier/v1/commit"
DECK_TAG: Final = "croupier/v1/deck"
RESHUFFLE_TAG: Final = b"reshuffle"


class FairnessError(ValueError):
    """A fairness input is malformed (wrong secret length, unknown seat label, an empty card list …)."""


def field_bytes(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def _seat_label(committer: Committer) -> str:
    if committer == HOST:
        return HOST
    if isinstance(committer, int) and not isinstance(committer, bool) and committer >= 0:
        return str(committer)
    raise FairnessError(f"a committer is 'host' or a seat index >= 0, got {committer!r}")


def _check_secret(secret: bytes) -> None:
    if not isinstance(secret, bytes) or len(secret) != SECRET_BYTES:
        size = len(secret) if isinstance(secret, bytes) else type(secret).__name__
        raise FairnessError(f"a shuffle secret is exactly {SECRET_BYTES} bytes, got {size}")


def commit(room_id: str, table_id: str, hand_id: str, committer: Committer, secret: bytes) -> bytes:
    """The 32-byte commitment of ``committer`` (``HOST`` or a seat index) to ``secret`` for one hand. R-FAIR-1.

    Binding the room, table, hand and seat into the hash stops a commitment being replayed elsewhere.
    Raises :class:`FairnessError` if the secret is not 32 bytes or the committer is not a seat label.

    >>> commit("room", "t1", "h1", 3, bytes(32)) == commit("room", "t1", "h1", 4, bytes(32))
    False
    """
    _check_secret(secret)
    parts = (COMMIT_TAG, room_id, table_id, hand_id, _seat_label(committer))
    data = b"".join(field_bytes(part.encode()) for part in parts) + field_bytes(secret)
    return hashlib.sha256(data).digest()


def _seed_order(seeds: Mapping[Committer, bytes]) -> list[bytes]:
    if HOST not in seeds:
        raise FairnessError("the host's secret is missing: the deck key needs it first")
    for committer, secret in seeds.items():
        _seat_label(committer)
        _check_secret(secret)
    players = sorted(committer for committer in seeds if committer != HOST)
    return [seeds[HOST]] + [seeds[seat] for seat in players]


def deck_key(hand_id: str, seeds: Mapping[Committer, bytes]) -> bytes:
    """The 32-byte deck key: SHA-256 over the hand id and the secrets, host first then by seat. R-FAIR-1.

    ``seeds`` maps ``HOST`` and each committed seat to its 32-byte secret. Hashing (never XOR) means no
    party can cancel another's secret. Raises :class:`FairnessError` if the host's secret is missing.
    """
    data = field_bytes(DECK_TAG.encode()) + field_bytes(hand_id.encode())
    data += b"".join(field_bytes(secret) for secret in _seed_order(seeds))
    return hashlib.sha256(data).digest()


class ShakeStream:
    """The SHAKE-256 output of a key, read as a byte stream (SHAKE is an XOF: a longer digest extends a shorter)."""

    def __init__(self, key: bytes) -> None:
        self._hash = hashlib.shake_256(key)
        self._buffer = self._hash.digest(256)
        self._offset = 0

    @property
    def position(self) -> int:
        """How many bytes were read (a reader restored elsewhere skips this many: :meth:`skip`)."""
        return self._offset

    def skip(self, count: int) -> None:
        self._offset += count

    def read(self, count: int) -> bytes:
        while self._offset + count > len(self._buffer):
            self._buffer = self._hash.digest(2 * len(self._buffer) + count)
        chunk = self._buffer[self._offset:self._offset + count]
        self._offset += count
        return chunk


def uniform_below(stream: ShakeStream, bound: int) -> int:
    """An exactly uniform integer in ``0..bound-1`` by rejection sampling (no modulo bias). R-FAIR-2."""
    width = max(1, (bound - 1).bit_length() + 7 >> 3)
    span = 256 ** width
    limit = span - span % bound
    while True:
        value = int.from_bytes(stream.read(width), "big")
        if value < limit:
            return value % bound


def shuffle(key: bytes, cards: Sequence[Card]) -> tuple[Card, ...]:
    """Fisher–Yates shuffle of ``cards`` driven by SHAKE-256(``key``). R-FAIR-2.

    Deterministic in ``key`` and the order of ``cards``; every permutation is equally likely for a random
    key. Raises :class:`FairnessError` on an empty card list or a key that is not bytes.

    >>> from engine.cards import short_deck
    >>> shuffle(bytes(32), short_deck()) == shuffle(bytes(32), short_deck())
    True
    """
    if not isinstance(key, bytes) or not key:
        raise FairnessError("the shuffle key must be non-empty bytes")
    if not cards:
        raise FairnessError("cannot shuffle an empty card list")
    deck = list(cards)
    stream = ShakeStream(key)
    for index in range(len(deck) - 1, 0, -1):
        other = uniform_below(stream, index + 1)
        deck[index], deck[other] = deck[other], deck[index]
    return tuple(deck)


def derive_deck(hand_id: str, seeds: Mapping[Committer, bytes], cards: Sequence[Card]) -> tuple[Card, ...]:
    """The hand's deck: :func:`shuffle` of ``cards`` under :func:`deck_key`. R-FAIR-1."""
    return shuffle(deck_key(hand_id, seeds), cards)


def reshuffle_key(hand_id: str, seeds: Mapping[Committer, bytes]) -> bytes:
    """The key of a draw game's reshuffles: ``HMAC-SHA256(deck key, "reshuffle")``. R-DRAW-1, R-FAIR-1.

    The host hands it to :func:`engine.draw.seeded_reshuffle`; once the seeds are published anyone recomputes
    every reshuffle from it. Raises :class:`FairnessError` like :func:`deck_key`.
    """
    return hmac.new(deck_key(hand_id, seeds), RESHUFFLE_TAG, hashlib.sha256).digest()


def reshuffle_order(key: bytes, pool: Sequence[Card], number: int) -> tuple[Card, ...]:
    """The order reshuffle ``number`` (0 = the hand's first) deals ``pool`` in, under ``key``. R-DRAW-1.

    >>> from engine.cards import parse_cards
    >>> pool = parse_cards("2c 3d 4h 5s 6c")
    >>> sorted(reshuffle_order(bytes(32), pool, 0)) == sorted(pool)
    True
    """
    return tuple(seeded_reshuffle(key)(tuple(pool), number))


@dataclass(frozen=True)
class Deal:
    """Deck position ``position`` (0 = top) went to ``recipient`` (a seat index, ``"board"`` or ``"burn"``)."""

    position: int
    recipient: Recipient


def dealt_by(event: Event) -> tuple[Recipient, tuple[Card, ...]] | None:
    """Which cards ``event`` deals, and to whom: hole, up and drawn cards to their seat, board cards (either board
    of a hand run twice, R-HOME-1) to the board; ``None`` for an event that shows no card dealt. The one place
    that says which card went to whom: the hand's deals (:attr:`engine.hand.Hand.deals`), the auditor, every
    client's check.

    >>> from engine.cards import parse_cards
    >>> dealt_by(HoleCardsDealt(3, parse_cards("As Kd")))
    (3, (Card('As'), Card('Kd')))
    """
    if isinstance(event, HoleCardsDealt | UpCardsDealt | DrawnCardsDealt):
        return event.seat, event.cards
    if isinstance(event, BoardDealt | SecondBoardDealt):
        return "board", event.cards
    return None


def cards_dealt(events: Iterable[Event]) -> list[tuple[Card, Recipient]]:
    """Every card the events show dealt, ``(card, recipient)`` in the order dealt (:func:`dealt_by`)."""
    dealt: list[tuple[Card, Recipient]] = []
    for event in events:
        found = dealt_by(event)
        if found is not None:
            dealt += [(card, found[0]) for card in found[1]]
    return dealt


def deck_deals(deck: Sequence[Card], dealt: Sequence[tuple[Card, Recipient]]) -> tuple[Deal, ...]:
    """The transcript's ``deals`` from every card dealt, ``(card, recipient)`` in the order dealt: each deck
    card's position and who got it, gaps as burns.

    Only the first ``len(deck)`` cards dealt are the deck's own (a draw game deals its stub before any
    reshuffled discard); the rest go in the transcript's ``reshuffles``.

    >>> from engine.cards import parse_cards
    >>> deck = parse_cards("2c 3d 4h 5s")
    >>> deck_deals(deck, [(deck[1], 0), (deck[0], 1), (deck[3], "board")])
    (Deal(position=0, recipient=1), Deal(position=1, recipient=0), Deal(position=2, recipient='burn'), \
Deal(position=3, recipient='board'))
    """
    where: dict[Card, Recipient] = {}
    for card, recipient in dealt[:len(deck)]:
        where.setdefault(card, recipient)
    positions = {deck.index(card): recipient for card, recipient in where.items() if card in deck}
    last = max(positions, default=-1)
    return tuple(Deal(position, positions.get(position, "burn")) for position in range(last + 1))


@dataclass(frozen=True)
class DrawRecord:
    """One draw of a draw game, in the hand's order: ``seat`` threw ``discards`` (in the order it named them;
    empty: stood pat). Published only for a hand that reshuffled (R-DRAW-1): its reshuffles are made of them."""

    seat: int
    discards: tuple[Card, ...]


@dataclass(frozen=True)
class ReshuffleRecord:
    """One reshuffle of the discards (R-DRAW-1), in the hand's order (its number is its place in the list).

    ``draw``: the index in :attr:`Transcript.draws` of the draw that ran out of cards and triggered it.
    ``pool``: the cards handed to :func:`reshuffle_order`, in that order — the previous reshuffle's cards not
    dealt yet, then every discard thrown since it (since the hand began, for the first), in the order thrown;
    never the triggering draw's own discards. ``deals``: positions of the reshuffled order, dealt top-down, and
    who received them (always the drawing seat).
    """

    draw: int
    pool: tuple[Card, ...]
    deals: tuple[Deal, ...]


class ReshuffleRecorder:
    """Wraps a hand's :data:`engine.draw.Reshuffle` and writes down every reshuffle, for the transcript.

    The host passes the recorder to the engine as its reshuffle; after the hand :meth:`records` turns the calls
    and the hand's events into the transcript's ``draws`` and ``reshuffles``. R-DRAW-1, R-FAIR-1.
    """

    def __init__(self, reshuffle: Reshuffle) -> None:
        self._reshuffle = reshuffle
        self.calls: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []  # (pool, order) per reshuffle

    def __call__(self, discards: tuple[Card, ...], reshuffle_number: int) -> Sequence[Card]:
        order = tuple(self._reshuffle(discards, reshuffle_number))
        self.calls.append((tuple(discards), order))
        return order

    def records(self, events: Iterable[Event], deck_size: int) -> tuple[tuple[DrawRecord, ...],
                                                                        tuple[ReshuffleRecord, ...]]:
        """The hand's draws and reshuffles from its (host-side) events; ``((), ())`` when it never reshuffled:
        the discards of such a hand are nobody's business and stay private.

        The engine deals a draw's replacements from the stub first, then from the current reshuffle's order,
        and reshuffles exactly when that order has too few cards left: the same rule places each call here.
        """
        if not self.calls:
            return (), ()
        draws: list[DrawRecord] = []
        reshuffles: list[tuple[int, tuple[Card, ...], list[Deal]]] = []
        dealt = 0
        left = 0  # cards of the latest reshuffle not dealt yet
        for event in events:
            if isinstance(event, HoleCardsDealt | UpCardsDealt | BoardDealt):
                dealt += len(event.cards)
            elif isinstance(event, CardsDrawn) and event.count == 0:
                draws.append(DrawRecord(event.seat, ()))
            elif isinstance(event, DrawnCardsDealt):
                draws.append(DrawRecord(event.seat, tuple(event.discarded)))
                from_stub = min(len(event.cards), max(0, deck_size - dealt))
                dealt += len(event.cards)
                rest = len(event.cards) - from_stub
                if rest and left < rest and len(reshuffles) < len(self.calls):
                    pool, order = self.calls[len(reshuffles)]
                    reshuffles.append((len(draws) - 1, pool, []))
                    left = len(order)
                if rest and reshuffles:
                    deals = reshuffles[-1][2]
                    deals += [Deal(len(deals) + offset, event.seat) for offset in range(rest)]
                    left -= rest
        return tuple(draws), tuple(ReshuffleRecord(draw, pool, tuple(deals)) for draw, pool, deals in reshuffles)


@dataclass(frozen=True)
class Transcript:
    """What the host publishes after a hand so anyone can re-check its deck. R-FAIR-1.

    ``cards`` is the canonical (unshuffled) card list of the game, ``commitments`` and ``seeds`` map
    ``HOST`` and each committed seat to 32 bytes, ``deals`` lists the deck positions in the order they were
    dealt. ``forfeited``: seats that committed but did not reveal in time; the deck key leaves them out and
    they were folded (DESIGN.md "Fairness" step 3). ``draws`` and ``reshuffles``: a draw game's hand that ran
    out of cards and reshuffled its discards (R-DRAW-1) also publishes every draw's discards and each reshuffle
    (:class:`DrawRecord`, :class:`ReshuffleRecord`); empty otherwise. JSON shape (:meth:`to_json`): ``{"room",
    "table", "hand", "cards": ["2c", …], "commitments": {"host": hex, "0": hex, …}, "seeds": {…}, "deals":
    [[position, recipient], …], "forfeited": [seat, …]}``, plus, only when the hand reshuffled, ``"draws":
    [[seat, ["2c", …]], …]`` and ``"reshuffles": [{"draw": index, "pool": ["2c", …], "deals": [[position,
    seat], …]}, …]``, and only at a fast-fold pool ``"tickets": {"3": [pool, ticket], …}`` (seats that committed
    ahead, see the module's encoding).
    """

    room_id: str
    table_id: str
    hand_id: str
    cards: tuple[Card, ...]
    commitments: Mapping[Committer, bytes]
    seeds: Mapping[Committer, bytes]
    deals: tuple[Deal, ...]
    forfeited: tuple[int, ...] = ()
    draws: tuple[DrawRecord, ...] = ()
    reshuffles: tuple[ReshuffleRecord, ...] = ()
    tickets: Mapping[int, tuple[str, str]] = field(default_factory=dict)
    """Seats that committed ahead (fast-fold pools): seat → ``(pool id, ticket id)`` their commitment binds."""

    def commitment_of(self, committer: Committer, secret: bytes) -> bytes:
        """What ``committer``'s commitment to ``secret`` is for this hand: bound to the table, hand and seat,
        or to the seat's ticket when it committed ahead (:class:`FairnessError` as :func:`commit`)."""
        ticket = self.tickets.get(committer) if committer != HOST else None
        if ticket is not None:
            return commit(self.room_id, ticket[0], ticket[1], 0, secret)
        return commit(self.room_id, self.table_id, self.hand_id, committer, secret)

    def deck(self) -> tuple[Card, ...]:
        """The deck these seeds derive (:class:`FairnessError` if the host's seed is missing)."""
        return derive_deck(self.hand_id, self.seeds, self.cards)

    def reshuffled(self) -> tuple[tuple[Card, ...], ...]:
        """Each recorded reshuffle's order, recomputed from the seeds and its pool (:class:`FairnessError` as
        :meth:`deck`)."""
        if not self.reshuffles:
            return ()
        key = reshuffle_key(self.hand_id, self.seeds)
        return tuple(reshuffle_order(key, record.pool, number) for number, record in enumerate(self.reshuffles))

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict (bytes as lowercase hex, seats as text keys)."""
        data: dict[str, object] = {
            "room": self.room_id,
            "table": self.table_id,
            "hand": self.hand_id,
            "cards": [str(card) for card in self.cards],
            "commitments": {_seat_label(seat): digest.hex() for seat, digest in self.commitments.items()},
            "seeds": {_seat_label(seat): secret.hex() for seat, secret in self.seeds.items()},
            "deals": [[deal.position, deal.recipient] for deal in self.deals],
            "forfeited": list(self.forfeited),
        }
        if self.draws or self.reshuffles:  # only a hand that reshuffled: others keep the shape they always had
            data["draws"] = [[draw.seat, [str(card) for card in draw.discards]] for draw in self.draws]
            data["reshuffles"] = [{"draw": record.draw, "pool": [str(card) for card in record.pool],
                                   "deals": [[deal.position, deal.recipient] for deal in record.deals]}
                                  for record in self.reshuffles]
        if self.tickets:
            data["tickets"] = {str(seat): [pool, ticket] for seat, (pool, ticket) in sorted(self.tickets.items())}
        return data

    @staticmethod
    def from_json(data: Mapping[str, object]) -> Transcript:
        """Read :meth:`to_json`'s shape; :class:`FairnessError` names the first bad part."""
        try:
            cards = tuple(Card.parse(str(text)) for text in _as_list(data["cards"], "cards"))
            deals = tuple(_read_deal(item) for item in _as_list(data["deals"], "deals"))
            return Transcript(
                room_id=_as_text(data["room"], "room"),
                table_id=_as_text(data["table"], "table"),
                hand_id=_as_text(data["hand"], "hand"),
                cards=cards,
                commitments=_read_bytes_map(data["commitments"], "commitments"),
                seeds=_read_bytes_map(data["seeds"], "seeds"),
                deals=deals,
                forfeited=_read_seats(data.get("forfeited", [])),
                draws=tuple(_read_draw(item) for item in _as_list(data.get("draws", []), "draws")),
                reshuffles=tuple(_read_reshuffle(item) for item in _as_list(data.get("reshuffles", []),
                                                                            "reshuffles")),
                tickets=_read_tickets(data.get("tickets", {})),
            )
        except KeyError as missing:
            raise FairnessError(f"transcript: missing field {missing}") from None
        except ValueError as error:
            if isinstance(error, FairnessError):
                raise
            raise FairnessError(f"transcript: {error}") from None


def _as_text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise FairnessError(f"transcript: {name} must be text")
    return value


def _as_list(value: object, name: str) -> list[object]:
    if not isinstance(value, list):
        raise FairnessError(f"transcript: {name} must be a list")
    return value


def parse_committer(label: str) -> Committer:
    """``"host"`` → ``HOST``, ``"3"`` → 3; :class:`FairnessError` otherwise."""
    if label == HOST:
        return HOST
    if label.isascii() and label.isdigit() and len(label) <= 3:
        return int(label)
    raise FairnessError(f"{label!r} is not a seat label ('host' or a seat index)")


def _read_bytes_map(value: object, name: str) -> dict[Committer, bytes]:
    if not isinstance(value, dict):
        raise FairnessError(f"transcript: {name} must be an object")
    result: dict[Committer, bytes] = {}
    for label, text in value.items():
        if not isinstance(text, str) or len(text) != 2 * DIGEST_BYTES:
            raise FairnessError(f"transcript: {name}[{label}] must be {DIGEST_BYTES} bytes of hex")
        result[parse_committer(str(label))] = bytes.fromhex(text)
    return result


def _read_tickets(value: object) -> dict[int, tuple[str, str]]:
    if not isinstance(value, Mapping):
        raise FairnessError("transcript: tickets must be an object")
    tickets: dict[int, tuple[str, str]] = {}
    for label, pair in value.items():
        seat = parse_committer(str(label))
        if isinstance(seat, str) or not isinstance(pair, list) or len(pair) != 2 \
                or not all(isinstance(part, str) and part for part in pair):
            raise FairnessError("transcript: a ticket is a seat and [pool, ticket]")
        tickets[seat] = (pair[0], pair[1])
    return tickets


def _read_seats(value: object) -> tuple[int, ...]:
    seats = _as_list(value, "forfeited")
    if not all(isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0 for seat in seats):
        raise FairnessError("transcript: forfeited must list seat indexes")
    return tuple(int(str(seat)) for seat in seats)


def _read_deal(item: object) -> Deal:
    if not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], int) or isinstance(item[0], bool):
        raise FairnessError(f"transcript: a deal is [position, recipient], got {item!r}")
    recipient = item[1]
    if recipient in ("board", "burn") or (isinstance(recipient, int) and not isinstance(recipient, bool)
                                          and recipient >= 0):
        return Deal(item[0], recipient)
    raise FairnessError(f"transcript: a deal's recipient is a seat, 'board' or 'burn', got {recipient!r}")


def _read_cards(value: object, name: str) -> tuple[Card, ...]:
    return tuple(Card.parse(_as_text(text, name)) for text in _as_list(value, name))


def _read_draw(item: object) -> DrawRecord:
    if not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], int) or isinstance(item[0], bool) \
            or item[0] < 0:
        raise FairnessError(f"transcript: a draw is [seat, [discards]], got {item!r}")
    return DrawRecord(item[0], _read_cards(item[1], "a draw's discards"))


def _read_reshuffle(item: object) -> ReshuffleRecord:
    if not isinstance(item, dict):
        raise FairnessError(f"transcript: a reshuffle is {{draw, pool, deals}}, got {item!r}")
    draw = item.get("draw")
    if not isinstance(draw, int) or isinstance(draw, bool) or draw < 0:
        raise FairnessError(f"transcript: a reshuffle's draw is a draw index, got {draw!r}")
    deals = tuple(_read_deal(deal) for deal in _as_list(item.get("deals"), "a reshuffle's deals"))
    return ReshuffleRecord(draw, _read_cards(item.get("pool"), "a reshuffle's pool"), deals)


@dataclass(frozen=True)
class SeenCard:
    """A card one client saw dealt to ``recipient`` (its own seat, the board, or a hand shown at showdown).

    Cards for one recipient are listed in the order they were dealt to it. ``index``: the card's place among
    all cards dealt to ``recipient`` (0 = first), when the client also saw cards go face down before it (a
    stud up card); ``None``: the next place after the previous card seen for ``recipient``. ``anywhere``: the
    card must be one of those dealt to ``recipient``, place unknown (a draw-game hand shown at showdown).
    """

    recipient: Recipient
    card: Card
    index: int | None = None
    anywhere: bool = False


@dataclass(frozen=True)
class ObservedDraw:
    """A draw one client saw: ``seat`` threw ``count`` cards (the public ``cards_drawn``); ``discards``: which
    ones, in the order thrown, when the client knows them (its own draw, or the host's full view), else ``None``."""

    seat: int
    count: int
    discards: tuple[Card, ...] | None = None


@dataclass(frozen=True)
class Observation:
    """What one client knows, to check a :class:`Transcript` against. R-FAIR-1.

    ``seat`` and ``secret`` are ``None`` for a spectator (or a seat that was not dealt in);
    ``commitments`` is the list the host published before anyone revealed; ``seen`` every card the client saw.
    Draw games, for a client that saw the hand from its start (else ``None``): ``draws`` every draw in order,
    ``cards_dealt`` how many cards it saw dealt in all (face up or down, to anyone): past the deck's size,
    the rest must be the transcript's reshuffle deals.
    """

    seat: int | None
    secret: bytes | None
    commitments: Mapping[Committer, bytes]
    seen: tuple[SeenCard, ...]
    draws: tuple[ObservedDraw, ...] | None = None
    cards_dealt: int | None = None


class ViolationKind(Enum):
    COMMITMENT_MISMATCH = "commitment_mismatch"
    """A published seed does not hash to its commitment."""
    COMMITMENT_REPLACED = "commitment_replaced"
    """The transcript's commitments differ from those published before the reveals."""
    SEED_MISSING = "seed_missing"
    """A commitment has no published seed, or a seed has no commitment."""
    OWN_SEED_MISSING = "own_seed_missing"
    """This client's own secret is absent from the seeds, or replaced."""
    CARD_MISMATCH = "card_mismatch"
    """A card the client saw is not where the derived deck puts it."""
    DEALT_OUT_OF_ORDER = "dealt_out_of_order"
    """Deck positions were not dealt top-down, once each (skipped, repeated or reordered)."""
    BAD_TRANSCRIPT = "bad_transcript"
    """The transcript cannot be checked at all (no host seed, malformed seed)."""
    RESHUFFLE_CARD_MISMATCH = "reshuffle_card_mismatch"
    """A card the client saw dealt from reshuffled discards is not where the recomputed reshuffle puts it."""
    RESHUFFLE_MISMATCH = "reshuffle_mismatch"
    """A recorded reshuffle does not follow from the draws: wrong pool or pool order, at the wrong draw, its
    cards dealt to another seat than the drawer, or one too many/too few."""
    RESHUFFLE_MISSING = "reshuffle_missing"
    """Cards were dealt past the deck, but the transcript records fewer (or more) reshuffled cards."""
    DISCARD_MISMATCH = "discard_mismatch"
    """The published discards differ from the draws the client saw (seat, count, its own cards), or name a card
    the seat did not hold."""


@dataclass(frozen=True)
class Violation:
    """One failed check, with the evidence a human (or ``croupier verify``) can re-check by hand."""

    kind: ViolationKind
    message: str
    evidence: Mapping[str, str | int] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind.value, "message": self.message, "evidence": dict(self.evidence)}


@dataclass(frozen=True)
class Verification:
    """The outcome of :func:`verify`: ``ok`` when there is no violation."""

    violations: tuple[Violation, ...]

    @property
    def ok(self) -> bool:
        return not self.violations


def verify(transcript: Transcript, observation: Observation) -> Verification:
    """Check a finished hand's transcript against what one client saw. R-FAIR-1.

    Checks, in order: the commitments equal those published before the reveals; every committer has a seed
    and every seed hashes to its commitment; the client's own seed is in, unchanged; deck positions were
    dealt top-down, each once; every seen card sits in the derived deck where the deals say. Returns every
    violation found (never raises on a bad transcript: that is itself a violation).
    """
    violations: list[Violation] = []
    violations += _check_commitments_unchanged(transcript, observation)
    violations += _check_seeds(transcript)
    violations += _check_own_seed(transcript, observation)
    violations += _check_deal_order(transcript.deals)
    for number, record in enumerate(transcript.reshuffles):
        violations += _check_deal_order(record.deals, number)
    violations += _check_observed_draws(transcript, observation)
    try:
        deck = transcript.deck()
        orders = transcript.reshuffled()
    except FairnessError as error:
        violations.append(Violation(ViolationKind.BAD_TRANSCRIPT, f"cannot derive the deck: {error}"))
        return Verification(tuple(violations))
    replay = _DrawReplay(transcript, deck, orders)
    violations += replay.violations
    violations += _check_seen_cards(deck, orders, transcript, observation.seen, replay.holdings)
    return Verification(tuple(violations))


def _label(committer: Committer) -> str:
    return HOST if committer == HOST else f"seat {committer}"


def _who(recipient: object) -> str:
    """A deal's recipient in a message: ``seat N`` (the seat index, as :func:`_label` says it), else its
    name (``board``, ``burn``); ``croupier verify`` puts the players' names in place of ``seat N``."""
    return f"seat {recipient}" if isinstance(recipient, int) and not isinstance(recipient, bool) else str(recipient)


def _check_commitments_unchanged(transcript: Transcript, observation: Observation) -> Iterable[Violation]:
    for committer in sorted(set(transcript.commitments) | set(observation.commitments), key=_sort_key):
        before = observation.commitments.get(committer)
        after = transcript.commitments.get(committer)
        if before != after:
            yield Violation(
                ViolationKind.COMMITMENT_REPLACED,
                f"the commitment of {_label(committer)} changed after it was published",
                {"committer": _seat_label(committer), "published": before.hex() if before else "none",
                 "transcript": after.hex() if after else "none"},
            )


def _sort_key(committer: Committer) -> int:
    return -1 if committer == HOST else int(committer)


def _check_seeds(transcript: Transcript) -> Iterable[Violation]:
    for committer in sorted(set(transcript.commitments) | set(transcript.seeds), key=_sort_key):
        digest = transcript.commitments.get(committer)
        secret = transcript.seeds.get(committer)
        if secret is None and digest is not None and committer in transcript.forfeited:
            continue  # committed, never revealed, folded: left out of the deck key by design
        if digest is None or secret is None:
            missing = "seed" if secret is None else "commitment"
            yield Violation(ViolationKind.SEED_MISSING, f"{_label(committer)} has no {missing}",
                            {"committer": _seat_label(committer)})
            continue
        try:
            recomputed = transcript.commitment_of(committer, secret)
        except FairnessError as error:
            yield Violation(ViolationKind.BAD_TRANSCRIPT, f"seed of {_label(committer)}: {error}",
                            {"committer": _seat_label(committer)})
            continue
        if recomputed != digest:
            yield Violation(
                ViolationKind.COMMITMENT_MISMATCH,
                f"the seed of {_label(committer)} does not match its commitment",
                {"committer": _seat_label(committer), "seed": secret.hex(), "commitment": digest.hex(),
                 "hash_of_seed": recomputed.hex()},
            )


def _check_own_seed(transcript: Transcript, observation: Observation) -> Iterable[Violation]:
    if observation.seat is None or observation.secret is None:
        return
    published = transcript.seeds.get(observation.seat)
    if published != observation.secret:
        yield Violation(
            ViolationKind.OWN_SEED_MISSING,
            f"my seed (seat {observation.seat}) is {'missing from' if published is None else 'replaced in'} "
            "the deck key",
            {"seat": observation.seat, "mine": observation.secret.hex(),
             "published": published.hex() if published else "none"},
        )


def _check_deal_order(deals: Sequence[Deal], reshuffle: int | None = None) -> Iterable[Violation]:
    source = "deck" if reshuffle is None else f"reshuffle {reshuffle}"
    for index, deal in enumerate(deals):
        if deal.position != index:
            evidence: dict[str, str | int] = {"deal": index, "position": deal.position,
                                              "recipient": str(deal.recipient)}
            if reshuffle is not None:
                evidence["reshuffle"] = reshuffle
            yield Violation(
                ViolationKind.DEALT_OUT_OF_ORDER,
                f"deal number {index} took {source} position {deal.position}, expected {index} "
                "(top-down, once each)",
                evidence,
            )


def _cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


def _check_observed_draws(transcript: Transcript, observation: Observation) -> Iterable[Violation]:
    """The published draws against those the client saw; the reshuffled cards against those it saw dealt."""
    recorded = sum(len(record.deals) for record in transcript.reshuffles)
    if observation.cards_dealt is not None:
        past_deck = max(0, observation.cards_dealt - len(transcript.cards))
        if past_deck != recorded:
            yield Violation(
                ViolationKind.RESHUFFLE_MISSING,
                f"{past_deck} card(s) were dealt past the {len(transcript.cards)}-card deck, but the transcript "
                f"records {recorded} dealt from reshuffled discards",
                {"cards_dealt": observation.cards_dealt, "deck": len(transcript.cards), "reshuffled": recorded},
            )
    if observation.draws is None or not transcript.draws:
        return
    if len(observation.draws) != len(transcript.draws):
        yield Violation(
            ViolationKind.DISCARD_MISMATCH,
            f"I saw {len(observation.draws)} draws, the transcript publishes {len(transcript.draws)}",
            {"seen": len(observation.draws), "published": len(transcript.draws)},
        )
        return
    for index, (seen, published) in enumerate(zip(observation.draws, transcript.draws, strict=True)):
        known = seen.discards is not None and seen.discards != published.discards
        if seen.seat != published.seat or seen.count != len(published.discards) or known:
            evidence: dict[str, str | int] = {
                "draw": index, "seat": seen.seat, "count": seen.count,
                "published_seat": published.seat, "published": _cards_text(published.discards)}
            if seen.discards is not None:
                evidence["discarded"] = _cards_text(seen.discards)
            yield Violation(
                ViolationKind.DISCARD_MISMATCH,
                f"draw {index}: seat {seen.seat} threw {seen.count} card(s)"
                + (f" ({_cards_text(seen.discards)})" if seen.discards is not None else "")
                + f", the transcript says seat {published.seat} threw [{_cards_text(published.discards)}]",
                evidence,
            )


class _DrawReplay:
    """Replays a reshuffled hand's draws from the deck, the published discards and the recomputed reshuffles,
    the way the engine deals them (R-DRAW-1): replacements from the stub first, then from the current
    reshuffle; a reshuffle exactly when that runs short, of its undealt cards then the discards since.

    ``violations``: the first place the record does not replay (the replay stops there). ``holdings``: every
    seat's cards after the last draw (``None`` when the hand published no draws, or the replay stopped).
    """

    def __init__(self, transcript: Transcript, deck: Sequence[Card], orders: Sequence[tuple[Card, ...]]) -> None:
        self.violations: list[Violation] = []
        self.holdings: dict[int, list[Card]] | None = None
        if transcript.draws or transcript.reshuffles:
            self._replay(transcript, deck, orders)

    def _fail(self, kind: ViolationKind, message: str, evidence: Mapping[str, str | int]) -> None:
        self.violations.append(Violation(kind, message, evidence))

    def _replay(self, transcript: Transcript, deck: Sequence[Card], orders: Sequence[tuple[Card, ...]]) -> None:
        deals, draws, records = transcript.deals, transcript.draws, transcript.reshuffles
        # every discard is replaced (croupier's seat limits leave enough cards): what the draws took from the deck
        # is their total less the reshuffled cards, and the deals before it are the hand's first deal
        from_deck = sum(len(draw.discards) for draw in draws) - sum(len(record.deals) for record in records)
        first = len(deals) - from_deck
        if not 0 <= first <= len(deals) or len(deals) > len(deck):
            self._fail(ViolationKind.RESHUFFLE_MISMATCH,
                       f"the draws replace {from_deck} card(s) from the deck, but it deals {len(deals)} in all",
                       {"from_deck": from_deck, "deals": len(deals)})
            return
        holdings: dict[int, list[Card]] = {}
        for deal in deals[:first]:
            if not isinstance(deal.recipient, str):
                holdings.setdefault(deal.recipient, []).append(deck[deal.position])
        next_deal = first  # the next deck deal a draw takes from the stub
        current = -1  # the latest reshuffle
        muck: list[Card] = []  # discards thrown since it
        recycled: list[Card] = []  # its cards not dealt yet
        taken = 0  # its cards dealt so far
        for index, draw in enumerate(draws):
            held = holdings.setdefault(draw.seat, [])
            stray = [card for card in draw.discards if card not in held]
            if stray or len(set(draw.discards)) != len(draw.discards):
                self._fail(ViolationKind.DISCARD_MISMATCH,
                           f"draw {index}: seat {draw.seat} throws {_cards_text(draw.discards)}, but holds "
                           f"{_cards_text(held)}", {"draw": index, "seat": draw.seat,
                                                     "discards": _cards_text(draw.discards),
                                                     "held": _cards_text(held)})
                return
            need = len(draw.discards)
            from_stub = min(need, len(deck) - next_deal)
            stub = deals[next_deal:next_deal + from_stub]
            if any(deal.recipient != draw.seat for deal in stub):
                wrong = next(deal for deal in stub if deal.recipient != draw.seat)
                self._fail(ViolationKind.RESHUFFLE_MISMATCH,
                           f"draw {index}: seat {draw.seat} draws, but deck position {wrong.position} goes to "
                           f"{_who(wrong.recipient)}", {"draw": index, "seat": draw.seat, "position": wrong.position,
                                                  "recipient": str(wrong.recipient)})
                return
            replacements = [deck[deal.position] for deal in stub]
            next_deal += from_stub
            rest = need - from_stub
            due = current + 1 < len(records) and records[current + 1].draw == index
            if rest and len(recycled) < rest:
                if not due:
                    self._fail(ViolationKind.RESHUFFLE_MISMATCH,
                               f"draw {index}: the stub and the reshuffled cards left run out, but no reshuffle "
                               "is recorded there", {"draw": index, "seat": draw.seat})
                    return
                current += 1
                expected = tuple(recycled) + tuple(muck)
                record = records[current]
                if record.pool != expected:
                    self._fail(ViolationKind.RESHUFFLE_MISMATCH,
                               f"reshuffle {current} at draw {index}: its pool is [{_cards_text(record.pool)}], "
                               f"the discards say [{_cards_text(expected)}]",
                               {"reshuffle": current, "draw": index, "pool": _cards_text(record.pool),
                                "expected_pool": _cards_text(expected)})
                    return
                recycled, muck, taken = list(orders[current]), [], 0
            elif due:
                self._fail(ViolationKind.RESHUFFLE_MISMATCH,
                           f"reshuffle {current + 1} is recorded at draw {index}, but that draw did not run out",
                           {"reshuffle": current + 1, "draw": index})
                return
            if rest:
                count = min(rest, len(recycled))
                dealt = records[current].deals[taken:taken + count]
                if len(dealt) != count or any(deal.recipient != draw.seat for deal in dealt):
                    self._fail(ViolationKind.RESHUFFLE_MISMATCH,
                               f"draw {index}: seat {draw.seat} takes {count} reshuffled card(s), reshuffle "
                               f"{current} deals {[deal.recipient for deal in dealt]} there",
                               {"reshuffle": current, "draw": index, "seat": draw.seat})
                    return
                replacements += recycled[:count]
                del recycled[:count]
                taken += count
            for card in draw.discards:
                held.remove(card)
            held += replacements
            muck += draw.discards
        leftover = [number for number, record in enumerate(records)
                    if number > current or (number == current and len(record.deals) != taken)]
        if leftover:
            self._fail(ViolationKind.RESHUFFLE_MISMATCH,
                       f"reshuffle {leftover[0]} records cards the draws never took",
                       {"reshuffle": leftover[0]})
            return
        self.holdings = holdings


Source = tuple[int | None, int]
"""Where a dealt card came from: ``(None, deck position)`` or ``(reshuffle number, position in its order)``."""


def _sources(transcript: Transcript) -> dict[Recipient, list[Source]]:
    """Each recipient's cards in the order dealt: deck deals first (the deck runs out before any reshuffle),
    then each reshuffle's deals."""
    sources: dict[Recipient, list[Source]] = {}
    for deal in transcript.deals:
        sources.setdefault(deal.recipient, []).append((None, deal.position))
    for number, record in enumerate(transcript.reshuffles):
        for deal in record.deals:
            sources.setdefault(deal.recipient, []).append((number, deal.position))
    return sources


def _card_at(deck: Sequence[Card], orders: Sequence[tuple[Card, ...]], source: Source) -> Card | None:
    number, position = source
    cards = deck if number is None else orders[number]
    return cards[position] if 0 <= position < len(cards) else None


def _check_seen_cards(deck: Sequence[Card], orders: Sequence[tuple[Card, ...]], transcript: Transcript,
                      seen: Sequence[SeenCard], holdings: Mapping[int, list[Card]] | None) -> Iterable[Violation]:
    sources = _sources(transcript)
    counts: dict[Recipient, int] = {}
    for item in seen:
        dealt = sources.get(item.recipient, [])
        if item.anywhere:
            yield from _check_shown_card(deck, orders, item, dealt, holdings)
            continue
        index = counts.get(item.recipient, 0) if item.index is None else item.index
        counts[item.recipient] = index + 1
        if index >= len(dealt):
            yield Violation(
                ViolationKind.CARD_MISMATCH,
                f"{item.card} was seen as card {index + 1} of {_who(item.recipient)}, but the transcript deals it only "
                f"{len(dealt)}",
                {"recipient": str(item.recipient), "card": str(item.card), "index": index},
            )
            continue
        number, position = dealt[index]
        expected = _card_at(deck, orders, dealt[index])
        if expected == item.card:
            continue
        if number is None:
            yield Violation(
                ViolationKind.CARD_MISMATCH,
                f"{item.card} was seen as card {index + 1} of {_who(item.recipient)}, but deck position {position} "
                f"holds {expected if expected is not None else 'nothing'}",
                {"recipient": str(item.recipient), "card": str(item.card), "position": position,
                 "deck_card": str(expected) if expected is not None else "none"},
            )
        else:
            yield Violation(
                ViolationKind.RESHUFFLE_CARD_MISMATCH,
                f"{item.card} was seen as card {index + 1} of {_who(item.recipient)}, dealt from reshuffle {number}, "
                f"but position {position} of that reshuffle holds {expected if expected is not None else 'nothing'}",
                {"recipient": str(item.recipient), "card": str(item.card), "reshuffle": number,
                 "position": position, "reshuffled_card": str(expected) if expected is not None else "none",
                 "pool": _cards_text(transcript.reshuffles[number].pool)},
            )


def _check_shown_card(deck: Sequence[Card], orders: Sequence[tuple[Card, ...]], item: SeenCard,
                      dealt: Sequence[Source], holdings: Mapping[int, list[Card]] | None) -> Iterable[Violation]:
    """A card shown at showdown, place unknown: in the seat's hand after the replayed draws when the hand
    published them, else among the cards dealt to it."""
    if holdings is not None and isinstance(item.recipient, int) and not isinstance(item.recipient, bool):
        held = holdings.get(item.recipient, [])
        if item.card not in held:
            yield Violation(
                ViolationKind.CARD_MISMATCH,
                f"{item.card} was shown by {_who(item.recipient)}, whose hand after the draws is {_cards_text(held)}",
                {"recipient": str(item.recipient), "card": str(item.card), "hand": _cards_text(held)},
            )
        return
    if not any(_card_at(deck, orders, source) == item.card for source in dealt):
        yield Violation(
            ViolationKind.CARD_MISMATCH,
            f"{item.card} was shown by {_who(item.recipient)}, but the transcript never deals it there",
            {"recipient": str(item.recipient), "card": str(item.card)},
        )
