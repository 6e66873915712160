"""Ace-to-five low without a qualifier (Razz): the best five of a player's cards, the lowest hand wins.

Aces are low only, straights and flushes do not count, pairs count against the hand (a pair is worse than any
no-pair hand, two pair worse than one pair…). The best hand is 5-4-3-2-A (the wheel), the worst four kings with
a queen. Every five-card hand has a low: there is no qualifier, unlike the 8-or-better low (R-RANK-3).

A *strength* runs from 1 (K-K-K-K-Q, the worst) to 6,175 (5-4-3-2-A, the best): higher is better, equal
strengths split. A hand's low depends only on its ranks, so the table is keyed by the product of one prime per
rank (a multiset of ranks has one product); hands of 6 and 7 cards are worth their best five-card subset.

>>> from engine.cards import parse_cards
>>> ace_to_five_strength(parse_cards("5c 4d 3h 2s Ac")) == MAX_ACE_TO_FIVE_STRENGTH
True
>>> seven_five = ace_to_five_strength(parse_cards("7c 5d 4h 3s 2c Kd Kh"))
>>> seven_six = ace_to_five_strength(parse_cards("7d 6c 4c 3d Ah"))
>>> seven_five > seven_six
True
>>> ace_to_five_classes()[seven_five - 1].ranks  # seven-five-four-three-deuce (deuce is index 0)
(5, 3, 2, 1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.evaluate.classes import HandClass, hand_classes

_PRIMES: Final = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
"""One prime per rank index as a low plays it: ace 0, deuce 1 … king 12."""
_LOW_INDEX: Final = tuple((card >> 2) + 1 if card >> 2 < 12 else 0 for card in range(52))
"""Per card: its rank index with the ace lowest (ace 0, deuce 1 … king 12)."""
_PRIME_OF_CARD: Final = tuple(_PRIMES[index] for index in _LOW_INDEX)

_CLASSES: list[tuple[HandClass, ...]] = []
_TABLES: list[dict[int, int]] = []


def ace_to_five_classes() -> tuple[HandClass, ...]:
    """The 6,175 ace-to-five lows, worst first: strength ``s`` is index ``s - 1``. Ranks are rank indexes as the
    rest of the evaluators write them (deuce 0 … king 11) with the ace ``-1``, most significant first.

    Built on first use (with the table), like the 32-card tables: a room that never deals Razz never pays."""
    if not _CLASSES:
        # hand_classes orders high hands worst first; a low is the reverse of the high order with the ace
        # lowest and no straights; its flush classes are dropped (a flush does not count in a low).
        high_order = [hand_class for hand_class in hand_classes(range(-1, 12), ()) if not hand_class.flush]
        _CLASSES.append(tuple(reversed(high_order)))
        _TABLES.append(_build_table(_CLASSES[0]))
    return _CLASSES[0]


def _build_table(classes: tuple[HandClass, ...]) -> dict[int, int]:
    """Rank-prime product of 5, 6 or 7 cards → the strength of their best low (a bigger hand is worth its best
    five-card subset: visiting the smaller hands by increasing strength and overwriting keeps the best)."""
    table: dict[int, int] = {}
    current: dict[int, int] = {}
    for strength, hand_class in enumerate(classes, 1):
        product = 1
        for rank in hand_class.ranks:
            product *= _PRIMES[rank + 1]
        current[product] = strength
    table.update(current)
    for _ in range(2):
        bigger: dict[int, int] = {}
        for product, strength in sorted(current.items(), key=lambda item: item[1]):
            for prime in _PRIMES:
                if product % (prime ** 4):  # a fifth card of one rank does not exist
                    bigger[product * prime] = strength
        table.update(bigger)
        current = bigger
    return table


def ace_to_five_strength(cards: Sequence[int]) -> int:
    """Strength (1..6175, higher is a better low) of the best ace-to-five low in 5 to 7 cards; fast path, ints,
    not validated. ``KeyError``-free for any 5..7 distinct cards; ``ValueError`` for another count.

    >>> ace_to_five_strength([0, 4, 8, 12, 48])  # 2c 3c 4c 5c Ac: a flush does not count, the wheel
    6175
    """
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"an ace-to-five low needs 5 to 7 cards, got {len(cards)}")
    if not _TABLES:
        ace_to_five_classes()
    primes = _PRIME_OF_CARD
    product = 1
    for card in cards:
        product *= primes[card]
    return _TABLES[0][product]


MAX_ACE_TO_FIVE_STRENGTH: Final = 6175
"""The wheel's strength: the number of classes (checked by the tests; a constant so importing builds nothing)."""
