"""Short-deck (6+) hold'em hands: the 36-card deck, sixes to aces (PokerKit's ShortDeckHoldemLookup).

A flush beats a full house; the lowest straight is A-6-7-8-9 (the ace plays below the six), the highest
A-K-Q-J-T; otherwise as R-RANK-1 (suits never break ties). A *strength* is the class number, 1 (J-9-8-7-6 of mixed
suits, the worst hand) up to the royal flush: higher is better, equal strengths split. Hands of 6 and 7 cards are
worth their best five.

>>> from engine.cards import parse_cards
>>> flush = short_deck_strength(parse_cards("Ah Jh 8h 7h 6h Kc Kd"))
>>> full_house = short_deck_strength(parse_cards("As Ad Ac Kd Ks 6c 7d"))
>>> flush > full_house
True
>>> wheel = short_deck_strength(parse_cards("Ac 6d 7h 8s 9c"))
>>> short_deck_classes()[wheel - 1].category, short_deck_classes()[wheel - 1].ranks
(4, (7, 6, 5, 4, 12))
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.evaluate.classes import FLUSH_OVER_FULL_HOUSE_ORDER, HandClass, hand_classes, straights_from
from engine.evaluate.encoding import CARD_KEY, FLUSH_BITS, SUIT_BITS, SUIT_OFFSET, class_tables

_PLAIN: dict[int, int] = {}
_SUITED: dict[int, int] = {}
_CLASSES: list[tuple[HandClass, ...]] = []


def short_deck_classes() -> tuple[HandClass, ...]:
    """The suit-blind classes of the 36-card deck, worst first (strength ``s`` is index ``s - 1``); built on
    first use (a room that never deals short deck never pays for it)."""
    if not _CLASSES:
        classes = tuple(hand_classes(range(4, 13), straights_from(4, 12, ace_low=True), FLUSH_OVER_FULL_HOUSE_ORDER))
        plain, suited = class_tables(classes)
        _PLAIN.update(plain)
        _SUITED.update(suited)
        _CLASSES.append(classes)
    return _CLASSES[0]


def _five(five: Sequence[int]) -> int:
    a, b, c, d, e = five
    key = CARD_KEY[a] + CARD_KEY[b] + CARD_KEY[c] + CARD_KEY[d] + CARD_KEY[e] + SUIT_OFFSET
    return (_SUITED if key & FLUSH_BITS else _PLAIN)[key >> SUIT_BITS]


def short_deck_strength(cards: Sequence[int]) -> int:
    """Strength of the best short-deck hand in 5 to 7 cards (sixes to aces; ints, not validated).

    >>> short_deck_strength([48, 44, 40, 36, 32]) == len(short_deck_classes())  # Ac Kc Qc Jc Tc
    True
    """
    if not _CLASSES:
        short_deck_classes()
    if len(cards) == 5:
        return _five(cards)
    return max(_five(five) for five in combinations(cards, 5))
