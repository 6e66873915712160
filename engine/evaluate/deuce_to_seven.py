"""Deuce-to-seven low (R-RANK-4): 2-7 Triple Draw.

The worst high hand wins: aces are high only (A-2-3-4-5 is ace-high, not a straight), straights and
flushes count against the hand, pairs are bad. Its *strength* runs from 1 (royal flush, the worst) to
7,462 (7-5-4-3-2 of mixed suits, the best): higher is better, equal strengths split.

>>> from engine.cards import parse_cards
>>> value = evaluate_deuce_to_seven(parse_cards("7c 5d 4h 3s 2c"))
>>> value.strength, value.category
(7462, 'high card')
>>> evaluate_deuce_to_seven(parse_cards("As 5d 4h 3s 2c")).category
'high card'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import Card
from engine.evaluate.classes import CATEGORY_NAMES, HandClass, hand_classes, straights_from
from engine.evaluate.encoding import CARD_KEY, FLUSH_BITS, SUIT_BITS, SUIT_OFFSET, checked_cards, class_tables
from engine.evaluate.high import cards_for_class
from engine.evaluate.value import HandValue

_WORST_FIRST: Final = hand_classes(range(13), straights_from(0, 12, ace_low=False))
DEUCE_TO_SEVEN_CLASSES: Final[tuple[HandClass, ...]] = tuple(reversed(_WORST_FIRST))
"""The 7,462 classes as lows, worst low (royal flush) first: strength ``s`` is ``DEUCE_TO_SEVEN_CLASSES[s - 1]``."""

MAX_DEUCE_TO_SEVEN_STRENGTH: Final = len(DEUCE_TO_SEVEN_CLASSES)
_PLAIN, _SUITED = class_tables(DEUCE_TO_SEVEN_CLASSES)


def deuce_to_seven_strength(cards: Sequence[int]) -> int:
    """Strength (1..7462, higher is a better low) of exactly five cards; fast path, not validated.

    >>> deuce_to_seven_strength([20, 13, 10, 7, 0])  # 7c 5d 4h 3s 2c
    7462
    """
    if len(cards) != 5:
        raise ValueError(f"a deuce-to-seven hand needs 5 cards, got {len(cards)}")
    a, b, c, d, e = cards
    key = CARD_KEY[a] + CARD_KEY[b] + CARD_KEY[c] + CARD_KEY[d] + CARD_KEY[e] + SUIT_OFFSET
    return (_SUITED if key & FLUSH_BITS else _PLAIN)[key >> SUIT_BITS]


def deuce_to_seven_category(strength: int) -> str:
    """High-hand category of a deuce-to-seven strength (no ``"royal flush"``: it is the worst straight flush).

    >>> deuce_to_seven_category(MAX_DEUCE_TO_SEVEN_STRENGTH), deuce_to_seven_category(1)
    ('high card', 'straight flush')
    """
    if not 1 <= strength <= MAX_DEUCE_TO_SEVEN_STRENGTH:
        raise ValueError(f"a deuce-to-seven strength is 1..{MAX_DEUCE_TO_SEVEN_STRENGTH}, got {strength}")
    return CATEGORY_NAMES[DEUCE_TO_SEVEN_CLASSES[strength - 1].category]


def evaluate_deuce_to_seven(cards: Sequence[Card]) -> HandValue:
    """Deuce-to-seven value of exactly 5 cards (R-RANK-4).

    ``category`` is the high-hand category the cards make (``"high card"`` for a no-pair low;
    ``"straight flush"`` also for A-K-Q-J-T suited, the worst hand); ``cards`` are most significant
    first (``7-5-4-3-2``). ``ValueError`` names a non-card, a wrong count or a duplicate.
    """
    hand = checked_cards(cards, minimum=5, maximum=5, what="a deuce-to-seven hand")
    strength = deuce_to_seven_strength(hand)
    hand_class = DEUCE_TO_SEVEN_CLASSES[strength - 1]
    return HandValue(strength, deuce_to_seven_category(strength), cards_for_class(hand, hand_class))
