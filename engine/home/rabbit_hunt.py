"""Rabbit hunt (R-HOME-2, docs/rules-home.md): after a hand that ended before its board was complete (everyone
else folded), a player dealt in may ask to see the cards that would have come. They are the next cards of the
hand's committed deck, top-down, exactly where the deal would have taken them (croupier burns no card), shown to
the table and marked as not played: nothing changes in the hand, its chips or its fairness transcript, and once
the seeds are published every client can check them against the deck (:func:`rabbit_problem`).

Worked example (R-HOME-2): two players, hole cards take deck positions 0-3 and the hand ends preflop; the rabbit
is positions 4-8: the flop 4-6, the turn 7, the river 8.

>>> from engine.cards import parse_cards
>>> from engine.variants import TEXAS_HOLDEM
>>> deck = parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s 5s")
>>> hunt = rabbit_cards(TEXAS_HOLDEM, deck, cards_dealt=4, board=())
>>> [(street, " ".join(map(str, cards))) for street, cards in hunt.streets]
[('flop', 'Ts 9s 8s'), ('turn', '7s'), ('river', '6s')]
>>> hunt.first_position, rabbit_problem(deck, 4, hunt.cards) is None
(4, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.errors import TableRuleError
from engine.events import Event
from engine.home.options import board_game
from engine.variants import Variant


@dataclass(frozen=True, slots=True)
class RabbitHunt:
    """The cards that would have come, street by street, from deck position ``first_position`` on."""

    streets: tuple[tuple[str, tuple[Card, ...]], ...]
    first_position: int

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _, cards in self.streets for card in cards)


def rabbit_cards(variant: Variant, deck: Sequence[Card], *, cards_dealt: int,
                 board: Sequence[Card]) -> RabbitHunt | None:
    """The rest of the board of a hand that dealt ``cards_dealt`` deck cards and ``board``; None when there is
    nothing to hunt (not a board game, the board is complete, or the deck cannot show it)."""
    if not board_game(variant):
        return None
    streets: list[tuple[str, tuple[Card, ...]]] = []
    seen = 0
    index = cards_dealt
    for street in variant.streets:
        if not street.board:
            continue
        if seen + street.board <= len(board):
            seen += street.board
            continue
        if index + street.board > len(deck):
            return None
        streets.append((street.name, tuple(deck[index:index + street.board])))
        index += street.board
        seen += street.board
    return RabbitHunt(tuple(streets), cards_dealt) if streets else None


def rabbit_problem(deck: Sequence[Card], cards_dealt: int, cards: Sequence[Card]) -> str | None:
    """A client's check: ``cards`` must be the deck's next cards after the ``cards_dealt`` the hand dealt (from
    the transcript: its number of deals). The reason they are not, or None."""
    expected = tuple(deck[cards_dealt:cards_dealt + len(cards)])
    if tuple(cards) != expected:
        shown = " ".join(map(str, cards))
        return f"rabbit hunt shows [{shown}], deck positions {cards_dealt}.. hold [{' '.join(map(str, expected))}]"
    return None


@dataclass(frozen=True, slots=True)
class RabbitHuntShown(Event):
    """R-HOME-2: ``player`` (``seat``) asked for the rabbit: the cards that would have come, street by street,
    from deck position ``first_position`` on. Not played: no chip moved, the hand's record is unchanged."""

    seat: int
    player: str
    streets: tuple[tuple[str, tuple[Card, ...]], ...]
    first_position: int


@dataclass(slots=True)
class RabbitOffer:
    """The rabbit of the table's last hand, on offer to the players dealt into it until the next hand's first
    action."""

    hunt: RabbitHunt
    dealt_in: frozenset[int]
    shown: bool = False


def offer_after(variant: Variant, deck: Sequence[Card], *, cards_dealt: int | None, board: Sequence[Card],
                dealt_in: Iterable[int]) -> RabbitOffer | None:
    """The offer after a hand (None when it has no rabbit: its board is complete, or the game has none)."""
    if cards_dealt is None:
        return None
    hunt = rabbit_cards(variant, deck, cards_dealt=cards_dealt, board=board)
    return None if hunt is None else RabbitOffer(hunt, frozenset(dealt_in))


def request_rabbit(offer: RabbitOffer | None, seat: int, player: str) -> list[Event]:
    """``player`` at ``seat`` asks for the rabbit: the one public event, or :class:`TableRuleError` saying why not
    (nothing changes then)."""
    if offer is None:
        raise TableRuleError("there is no rabbit to hunt: the last hand's board was complete (or the table has no "
                             "rabbit hunt, or the next hand's first action was made)")
    if seat not in offer.dealt_in:
        raise TableRuleError("only a player dealt into the last hand can ask for its rabbit")
    if offer.shown:
        raise TableRuleError("the rabbit of this hand is already shown")
    offer.shown = True
    return [RabbitHuntShown(seat, player, offer.hunt.streets, offer.hunt.first_position)]
