"""Every class of five-card hand, worst first, for a given ranking (R-RANK-1, R-RANK-4, R-RANK-5).

A *class* is a set of five-card hands that tie under suit-blind comparison: a rank multiset, plus
whether the five cards share a suit (only possible with five distinct ranks). The standard 52-card
ranking has 7,462 of them. Rankings differ in which rank sets are straights (is A-2-3-4-5 one? is
A-7-8-9-T?) and whether a flush beats a full house; :func:`hand_classes` takes those as parameters,
so the high, deuce-to-seven and 32-card tables all come from the same code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Final

HIGH_CARD: Final = 0
ONE_PAIR: Final = 1
TWO_PAIR: Final = 2
THREE_OF_A_KIND: Final = 3
STRAIGHT: Final = 4
FLUSH: Final = 5
FULL_HOUSE: Final = 6
FOUR_OF_A_KIND: Final = 7
STRAIGHT_FLUSH: Final = 8

CATEGORY_NAMES: Final = (
    "high card", "one pair", "two pair", "three of a kind", "straight",
    "flush", "full house", "four of a kind", "straight flush",
)
STANDARD_CATEGORY_ORDER: Final = tuple(range(9))
FLUSH_OVER_FULL_HOUSE_ORDER: Final = (0, 1, 2, 3, 4, 6, 5, 7, 8)
"""Category → order position when a flush beats a full house (32-card deck, R-RANK-5)."""

_SHAPE_CATEGORY: Final = {
    (4, 1): FOUR_OF_A_KIND, (3, 2): FULL_HOUSE, (3, 1, 1): THREE_OF_A_KIND,
    (2, 2, 1): TWO_PAIR, (2, 1, 1, 1): ONE_PAIR, (1, 1, 1, 1, 1): HIGH_CARD,
}


@dataclass(frozen=True, slots=True)
class HandClass:
    """One class of five-card hands.

    ``category``: index into :data:`CATEGORY_NAMES`. ``ranks``: the five rank indexes (0 = deuce … 12 =
    ace), most significant first (quads before kicker, a wheel as 5-4-3-2-A). ``flush``: all one suit.
    """

    category: int
    ranks: tuple[int, ...]
    flush: bool


def straights_from(lowest: int, highest: int, *, ace_low: bool) -> tuple[tuple[int, ...], ...]:
    """The straights of a deck with rank indexes ``lowest..highest`` (ace = 12), lowest straight first.

    Each straight is its five rank indexes, highest card first; with ``ace_low`` the ace also plays
    below ``lowest`` (A-2-3-4-5 in the 52-card deck, A-7-8-9-T in the 32-card deck).

    >>> straights_from(5, 12, ace_low=True)[0]
    (8, 7, 6, 5, 12)
    """
    straights: list[tuple[int, ...]] = []
    if ace_low:
        straights.append((lowest + 3, lowest + 2, lowest + 1, lowest, 12))
    for bottom in range(lowest, highest - 3):
        straights.append(tuple(range(bottom + 4, bottom - 1, -1)))
    return tuple(straights)


def hand_classes(
    rank_indexes: Sequence[int],
    straights: Sequence[tuple[int, ...]],
    category_order: Sequence[int] = STANDARD_CATEGORY_ORDER,
) -> list[HandClass]:
    """Every five-card class over ``rank_indexes``, sorted worst to best.

    ``straights`` lists the straights lowest first (see :func:`straights_from`); ``category_order``
    maps a category to its order position. Kickers compare rank by rank, most significant first.

    >>> len(hand_classes(range(13), straights_from(0, 12, ace_low=True)))
    7462
    """
    straight_position = {frozenset(straight): (position, straight) for position, straight in enumerate(straights)}
    ranked: list[tuple[tuple[int, tuple[int, ...]], HandClass]] = []
    for combination in combinations_with_replacement(sorted(rank_indexes, reverse=True), 5):
        counts: dict[int, int] = {}
        for rank in combination:
            counts[rank] = counts.get(rank, 0) + 1
        groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
        shape = tuple(count for _, count in groups)
        if shape[0] == 5:
            continue
        ordered = tuple(rank for rank, count in groups for _ in range(count))
        category = _SHAPE_CATEGORY[shape]
        straight = straight_position.get(frozenset(combination)) if category == HIGH_CARD else None
        if straight is None:
            ranked.append(((category_order[category], ordered), HandClass(category, ordered, False)))
            if category == HIGH_CARD:
                ranked.append(((category_order[FLUSH], ordered), HandClass(FLUSH, ordered, True)))
        else:
            position, display = straight
            ranked.append(((category_order[STRAIGHT], (position,)), HandClass(STRAIGHT, display, False)))
            ranked.append(
                ((category_order[STRAIGHT_FLUSH], (position,)), HandClass(STRAIGHT_FLUSH, display, True))
            )
    ranked.sort(key=lambda pair: pair[0])
    return [hand_class for _, hand_class in ranked]
