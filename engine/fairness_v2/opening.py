"""Opening cards: decryption shares with DLEQ proofs, and the opening schedule every client enforces.

Each deck position has one **audience**: a seat (its hole or down card, a draw's replacement) or ``BOARD`` (board
and stud up cards, opened to everyone). For a seat's card every *other* player publishes its share ``x_j·C1``
with a DLEQ proof; the owner adds its own share privately, so the public shares reveal nothing (only the owner
holds ``x_o``). For a board card every player publishes. A show publishes the owner's share of his cards; **a
muck opens nothing, ever**.

:class:`OpeningSchedule` is the rule book a client checks each request against: a position opens once, only to
its audience, only once it is due. :class:`ShareGuard` is the only object that turns a player's key into shares;
it refuses anything the schedule does not allow, and refuses the owner's own hole-card shares except through
:meth:`ShareGuard.show`, which a muck disables for good.

Hold'em's layout is fixed at the start (:func:`holdem_audiences`). Stud and draw games grow theirs as the engine
deals (:meth:`OpeningSchedule.follow`): stud down cards to their owner, up cards to everyone, a deck too short for
a last card becomes a community card (R-GAME-DECK); a draw's replacements come from the next deck positions, to
their owner only, and **discards open nothing**, ever — not even when their former owner shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from engine.cards import Card
from engine.events import BoardDealt, DrawnCardsDealt, Event, HoleCardsDealt, SecondBoardDealt, UpCardsDealt
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

    audiences: dict[int, Audience]
    opened: dict[int, Audience] = field(default_factory=dict)
    mucked: set[int] = field(default_factory=set)
    shown: set[int] = field(default_factory=set)
    discarded: set[int] = field(default_factory=set)
    """Positions thrown away in a draw: never opened, by anyone."""
    owners: dict[int, int] = field(default_factory=dict)
    """The seat each dealt card belongs to, down and up (an up card's audience is everyone, its owner stays)."""

    def positions_of(self, seat: int) -> list[int]:
        """``seat``'s closed cards now: down cards and replacements, not the ones he discarded."""
        return [position for position, audience in self.audiences.items()
                if audience == seat and position not in self.discarded]

    def board_positions(self) -> list[int]:
        return [position for position, audience in self.audiences.items() if audience == BOARD]

    # ------------------------------------------------------------------ dealing (stud and draw grow the layout)

    def _deal(self, position: int, audience: Audience, owner: int | None) -> None:
        if position in self.audiences:
            raise ScheduleViolation(f"deck position {position} was dealt already: the deck ran out (the discards "
                                    "would have to be shuffled into a new deck)")
        self.audiences[position] = audience
        if owner is not None:
            self.owners[position] = owner

    def deal_down(self, seat: int, positions: Iterable[int]) -> None:
        """Cards only ``seat`` may see (hole and down cards, draw replacements)."""
        for position in positions:
            self._deal(position, seat, seat)

    def deal_up(self, seat: int, positions: Iterable[int]) -> None:
        """``seat``'s face-up cards (stud): opened to everyone."""
        for position in positions:
            self._deal(position, BOARD, seat)

    def deal_board(self, positions: Iterable[int]) -> None:
        for position in positions:
            self._deal(position, BOARD, None)

    def discard(self, seat: int, positions: Iterable[int]) -> None:
        """A draw: ``seat`` throws these of his closed cards away; they stay closed for good."""
        chosen = list(positions)
        held = set(self.positions_of(seat))
        if not set(chosen) <= held or len(set(chosen)) != len(chosen):
            raise ScheduleViolation(f"seat {seat} can discard only closed cards he holds, once each")
        self.discarded.update(chosen)

    def follow(self, events: Iterable[Event], deck: Sequence[Card]) -> None:
        """Grow the layout from the engine's events, for a hand the engine plays on ``deck`` — placeholder cards,
        so that each dealt card names its deck position (nobody knows the real ones). Call it with the events
        since the last call."""
        position_of = {card: index for index, card in enumerate(deck)}

        def where(cards: Iterable[Card]) -> list[int]:
            return [position_of[card] for card in cards]

        for event in events:
            if isinstance(event, HoleCardsDealt):
                self.deal_down(event.seat, where(event.cards))
            elif isinstance(event, UpCardsDealt):
                self.deal_up(event.seat, where(event.cards))
            elif isinstance(event, BoardDealt | SecondBoardDealt):
                self.deal_board(position for position in where(event.cards) if position not in self.audiences)
            elif isinstance(event, DrawnCardsDealt):
                self.discard(event.seat, where(event.discarded))
                self.deal_down(event.seat, where(event.cards))

    # ------------------------------------------------------------------ opening

    def check_open(self, position: int, audience: Audience) -> None:
        """Allow opening ``position`` to ``audience`` once; raise :class:`ScheduleViolation` otherwise."""
        if position not in self.audiences:
            raise ScheduleViolation(f"deck position {position} is not dealt in this hand")
        if position in self.discarded:
            raise ScheduleViolation(f"deck position {position} was discarded: it is never opened")
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
        self._shown = False

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
        if position in self.schedule.discarded:
            raise ScheduleViolation(f"deck position {position} was discarded: it is never opened")
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
        """Open my closed cards to everyone (a show at showdown) — the ones I hold, never my discards (my up
        cards are open already). Refused after a muck, and only once."""
        if self._mucked:
            raise ScheduleViolation("I mucked: my cards are never opened")
        if self._shown:
            raise ScheduleViolation("I showed already")
        self._shown = True
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
