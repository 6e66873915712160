"""Opening cards: decryption shares with DLEQ proofs, and the opening schedule every client enforces.

Each deck position has one **audience**: a seat (its hole or down card) or ``BOARD`` (board and up cards, opened
to everyone). For a seat's card every *other* player publishes its share ``x_j·C1`` with a DLEQ proof; the owner
adds its own share privately, so the public shares reveal nothing (only the owner holds ``x_o``). For a board
card every player publishes. A show publishes the owner's share of his cards; **a muck opens nothing, ever**.

:class:`OpeningSchedule` is the rule book a client checks each request against: a position opens once, only to
its audience, only once it is due. :class:`ShareGuard` is the only object that turns a player's key into shares;
it refuses anything the schedule does not allow, and refuses the owner's own hole-card shares except through
:meth:`ShareGuard.show`, which a muck disables for good.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from engine.cards import Card
from engine.fairness_v2.elgamal import Ciphertext, Deck, DleqProof, PlayerKey, decrypt, dleq_verify
from engine.fairness_v2.group import Group
from engine.fairness_v2.randomness import ProofContext, RandomSource

BOARD: Final = "board"
Audience = int | Literal["board"]


class ScheduleViolation(ValueError):
    """A request to open a card the schedule does not allow (twice, to the wrong audience, a mucked hand)."""


@dataclass(frozen=True, slots=True)
class DecryptionShare:
    """Seat ``seat``'s share of deck position ``position``, with its proof."""

    seat: int
    position: int
    share: bytes
    proof: DleqProof


def share_context(table: str, hand: str, seat: int, position: int) -> ProofContext:
    return ProofContext(table, hand, f"share/{position}", seat)


def holdem_audiences(deal_order: Sequence[int], hole_cards: int = 2, board: int = 5) -> dict[int, Audience]:
    """Hold'em's layout: hole cards one at a time round the table from the first seat left of the button
    (``deal_order``), then the board, no burns (the engine's deal order, :meth:`engine.hand.Hand.start`)."""
    audiences: dict[int, Audience] = {}
    for round_index in range(hole_cards):
        for offset, seat in enumerate(deal_order):
            audiences[round_index * len(deal_order) + offset] = seat
    first_board = hole_cards * len(deal_order)
    for index in range(board):
        audiences[first_board + index] = BOARD
    return audiences


@dataclass
class OpeningSchedule:
    """Which position opens to whom, and which have opened. Every client keeps one and checks every request."""

    audiences: Mapping[int, Audience]
    opened: dict[int, Audience] = field(default_factory=dict)
    mucked: set[int] = field(default_factory=set)
    shown: set[int] = field(default_factory=set)

    def positions_of(self, seat: int) -> list[int]:
        return [position for position, audience in self.audiences.items() if audience == seat]

    def board_positions(self) -> list[int]:
        return [position for position, audience in self.audiences.items() if audience == BOARD]

    def check_open(self, position: int, audience: Audience) -> None:
        """Allow opening ``position`` to ``audience`` once; raise :class:`ScheduleViolation` otherwise."""
        if position not in self.audiences:
            raise ScheduleViolation(f"deck position {position} is not dealt in this hand")
        expected = self.audiences[position]
        if expected != audience:
            raise ScheduleViolation(f"deck position {position} belongs to {_who(expected)}, not {_who(audience)}")
        if position in self.opened:
            raise ScheduleViolation(f"deck position {position} was already opened")
        if audience != BOARD and audience in self.mucked:
            raise ScheduleViolation(f"seat {audience} mucked: his cards are never opened")
        self.opened[position] = audience

    def check_show(self, seat: int) -> None:
        if seat in self.mucked:
            raise ScheduleViolation(f"seat {seat} mucked: his cards are never opened")
        if seat in self.shown:
            raise ScheduleViolation(f"seat {seat} already showed")
        self.shown.add(seat)

    def muck(self, seat: int) -> None:
        self.mucked.add(seat)


def _who(audience: Audience) -> str:
    return "the board" if audience == BOARD else f"seat {audience}"


class ShareGuard:
    """A player's key as the rest of the hand may use it: only shares the schedule allows, each once."""

    def __init__(self, seat: int, key: PlayerKey, schedule: OpeningSchedule, table: str, hand: str) -> None:
        self.seat = seat
        self._key = key
        self.schedule = schedule
        self._table = table
        self._hand = hand
        self._released: set[int] = set()
        self._mucked = False

    def _share(self, position: int, ciphertext: Ciphertext, rng: RandomSource) -> DecryptionShare:
        share, proof = self._key.share_with_proof(ciphertext.c1, share_context(self._table, self._hand, self.seat,
                                                                              position), rng)
        self._released.add(position)
        return DecryptionShare(self.seat, position, share, proof)

    def open_for(self, position: int, deck: Deck, rng: RandomSource) -> DecryptionShare:
        """My public share of a card dealt to another seat, or of a board card."""
        audience = self.schedule.audiences.get(position)
        if audience is None:
            raise ScheduleViolation(f"deck position {position} is not dealt in this hand")
        if audience == self.seat:
            raise ScheduleViolation("my own hole card opens only when I show it")
        if position in self._released:
            raise ScheduleViolation(f"I already opened deck position {position}")
        return self._share(position, deck[position], rng)

    def own_card(self, position: int, deck: Deck, public_shares: Sequence[bytes],
                 cards: tuple[Card, ...] | None = None) -> Card | None:
        """Decrypt my own hole card from the others' (verified) shares and my share, computed here and kept."""
        if self.schedule.audiences.get(position) != self.seat:
            raise ScheduleViolation(f"deck position {position} is not my card")
        ciphertext = deck[position]
        return decrypt(self._key.group, ciphertext, [*public_shares, self._key.share(ciphertext.c1)], cards)

    def show(self, deck: Deck, rng: RandomSource) -> list[DecryptionShare]:
        """Open my hole cards to everyone (a show at showdown). Refused after a muck."""
        if self._mucked:
            raise ScheduleViolation("I mucked: my cards are never opened")
        return [self._share(position, deck[position], rng) for position in self.schedule.positions_of(self.seat)]

    def muck(self) -> None:
        self._mucked = True


def check_share(group: Group, public: bytes, deck: Deck, item: DecryptionShare, table: str, hand: str) -> bool:
    if not 0 <= item.position < len(deck):
        return False
    return dleq_verify(group, public, deck[item.position].c1, item.share, item.proof,
                       share_context(table, hand, item.seat, item.position))


def open_card(group: Group, deck: Deck, position: int, shares: Mapping[int, bytes],
              cards: tuple[Card, ...] | None = None) -> Card | None:
    """The card at ``position`` from one verified share per player dealt in (``None``: not a card — cheating)."""
    return decrypt(group, deck[position], list(shares.values()), cards)


def missing_shares(dealt_in: Iterable[int], shares: Mapping[int, bytes]) -> list[int]:
    return [seat for seat in dealt_in if seat not in shares]
