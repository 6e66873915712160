"""Stacked decks for rule tests of the stud and draw games: cards in the engine's deal order."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, parse_cards
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
