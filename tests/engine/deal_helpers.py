"""Stacked decks for rule tests of the stud and draw games (cards in the engine's deal order), and a deal
recorder for fairness tests that deal by hand."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, parse_cards
from engine.fairness import Deal, FairnessError, Recipient
from engine.variants import Variant


def stacked_deck(variant: Variant, hands: Sequence[str], *, live: Sequence[Sequence[int]] | None = None,
                 board: str = "", rest: str = "") -> list[Card]:
    """The deck that deals ``hands[position]`` (cards in deal order, down and up as the streets say) to each
    position (0 = first seat left of the button), street by street; ``live[street]`` lists the positions still
    dealt on that street (default: everyone). ``board``: community cards in order. ``rest``: cards to put next
    (draw replacements), then every other card of the variant's deck."""
    cards = [list(parse_cards(hand)) for hand in hands]
    community = list(parse_cards(board))
    taken = [0] * len(hands)
    order: list[Card] = []
    for index, street in enumerate(variant.streets):
        dealt = list(range(len(hands))) if live is None else list(live[index])
        for _ in range(street.hole_down + street.hole_up):
            for position in dealt:
                order.append(cards[position][taken[position]])
                taken[position] += 1
        for _ in range(street.board):
            order.append(community.pop(0))
    order += list(parse_cards(rest))
    used = set(order)
    assert len(used) == len(order), "a card is stacked twice"
    return order + [card for card in variant.deck if card not in used]


class DealRecorder:
    """Hands out a derived deck from the top, writing down where each position went.

    Fairness tests deal by hand with it (burns included, which the engine never deals); the engine's hands
    know their own deals (:attr:`engine.hand.Hand.deals`).

    >>> from engine.cards import full_deck
    >>> recorder = DealRecorder(full_deck())
    >>> [str(card) for card in recorder.deal(3, 2)], recorder.deal("board", 1)[0].rank.symbol
    (['2c', '2d'], '2')
    >>> recorder.deals[2]
    Deal(position=2, recipient='board')
    """

    def __init__(self, deck: Sequence[Card]) -> None:
        self._deck = tuple(deck)
        self._deals: list[Deal] = []

    @property
    def deals(self) -> tuple[Deal, ...]:
        return tuple(self._deals)

    @property
    def remaining(self) -> int:
        return len(self._deck) - len(self._deals)

    def deal(self, recipient: Recipient, count: int = 1) -> tuple[Card, ...]:
        """The next ``count`` cards for ``recipient``; :class:`FairnessError` if the deck runs out."""
        if count < 0 or count > self.remaining:
            raise FairnessError(f"cannot deal {count} cards: {self.remaining} left in the deck")
        start = len(self._deals)
        for position in range(start, start + count):
            self._deals.append(Deal(position, recipient))
        return self._deck[start:start + count]
