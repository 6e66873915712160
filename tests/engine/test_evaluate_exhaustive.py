"""Exhaustive checks over every five-card hand (R-RANK-1, R-RANK-3, R-RANK-4, R-RANK-5).

The 52-card sweeps use the fast int paths, which give the same ``strength`` as the ``HandValue`` API
(tests/engine/test_evaluate.py checks that agreement). The 32-card sweep checks the evaluator against a
second classification and a second ordering written here from the rule text, independently of
engine/evaluate's tables.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise
from math import comb

import pytest

from engine.evaluate import (
    MAX_DEUCE_TO_SEVEN_STRENGTH,
    MAX_HIGH_STRENGTH,
    MAX_LOW_STRENGTH,
    deuce_to_seven_category,
    deuce_to_seven_strength,
    high_category,
    high_strength,
    low_eight_strength,
    thirty_two_category,
    thirty_two_strength,
)
from engine.evaluate.deuce_to_seven import DEUCE_TO_SEVEN_CLASSES

pytestmark = pytest.mark.slow

ALL_FIVE_CARD_HANDS = comb(52, 5)


def _categories(strength_counts: Counter[int], name_of: object) -> dict[str, int]:
    assert callable(name_of)
    categories: Counter[str] = Counter()
    for strength, count in strength_counts.items():
        categories[name_of(strength)] += count
    return dict(categories)


def test_high_hands_give_rule_category_counts_and_7462_values() -> None:
    strengths = Counter(map(high_strength, combinations(range(52), 5)))
    assert sum(strengths.values()) == ALL_FIVE_CARD_HANDS == 2_598_960
    assert len(strengths) == 7_462 == MAX_HIGH_STRENGTH
    assert _categories(strengths, high_category) == {
        "royal flush": 4,
        "straight flush": 36,
        "four of a kind": 624,
        "full house": 3_744,
        "flush": 5_108,
        "straight": 10_200,
        "three of a kind": 54_912,
        "two pair": 123_552,
        "one pair": 1_098_240,
        "high card": 1_302_540,
    }


def test_eight_or_better_has_56_lows_in_57344_hands() -> None:
    strengths = Counter(map(low_eight_strength, combinations(range(52), 5)))
    qualifying = {strength: count for strength, count in strengths.items() if strength}
    assert len(qualifying) == 56 == MAX_LOW_STRENGTH
    assert sum(qualifying.values()) == 57_344
    # Every qualifying low is five distinct ranks in any suits: 4 ** 5 hands each.
    assert set(qualifying.values()) == {4**5}
    assert strengths[0] == ALL_FIVE_CARD_HANDS - 57_344


def test_deuce_to_seven_category_counts_and_the_number_one_hand() -> None:
    strengths = Counter(map(deuce_to_seven_strength, combinations(range(52), 5)))
    assert len(strengths) == 7_462
    assert _categories(strengths, deuce_to_seven_category) == {
        "straight flush": 36,
        "four of a kind": 624,
        "full house": 3_744,
        "flush": 5_112,
        "straight": 9_180,
        "three of a kind": 54_912,
        "two pair": 123_552,
        "one pair": 1_098_240,
        "high card": 1_303_560,
    }
    best = DEUCE_TO_SEVEN_CLASSES[MAX_DEUCE_TO_SEVEN_STRENGTH - 1]
    assert (best.ranks, best.flush) == ((5, 3, 2, 1, 0), False)  # 7-5-4-3-2, not all one suit
    assert strengths[MAX_DEUCE_TO_SEVEN_STRENGTH] == 1_020


# --- 32-card deck: a second, independent implementation of R-RANK-5 written from the rule text. ---

SHORT_DECK = [card for card in range(52) if card >> 2 >= 5]  # sevens (rank index 5) to aces
_ORDER = ["high card", "one pair", "two pair", "three of a kind", "straight", "full house", "flush",
          "four of a kind", "straight flush", "royal flush"]
_SUIT_RANK = {2: 3, 1: 2, 0: 1, 3: 0}  # hearts > diamonds > clubs > spades (suit index: clubs 0 … spades 3)


def _brute_force_32(cards: tuple[int, ...]) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """(category, rank tie-break, suit tie-break) of five 32-deck cards, by direct inspection."""
    values = [(card >> 2) + 2 for card in cards]  # 7..14
    counts = Counter(values)
    is_flush = len({card & 3 for card in cards}) == 1
    distinct = sorted(set(values))
    straight_top = 0
    if len(distinct) == 5:
        if distinct[-1] - distinct[0] == 4:
            straight_top = distinct[-1]
        elif distinct == [7, 8, 9, 10, 14]:
            straight_top = 10  # A-7-8-9-T: the ace plays low
    by_group = sorted(counts, key=lambda value: (-counts[value], -value))
    ranks = tuple(value for value in by_group for _ in range(counts[value]))
    shape = sorted(counts.values(), reverse=True)
    if straight_top and is_flush:
        category = "royal flush" if straight_top == 14 else "straight flush"
    elif shape[0] == 4:
        category = "four of a kind"
    elif is_flush:
        category = "flush"
    elif shape == [3, 2]:
        category = "full house"
    elif straight_top:
        category = "straight"
    elif shape[0] == 3:
        category = "three of a kind"
    elif shape == [2, 2, 1]:
        category = "two pair"
    elif shape[0] == 2:
        category = "one pair"
    else:
        category = "high card"
    if straight_top:
        ranks = (straight_top,)
    # Suits decide on the unpaired cards first (top of a straight first, the low ace last), then pairs,
    # trips, quads; inside one rank the higher suit first.
    def position(card: int) -> tuple[int, int, int]:
        value = (card >> 2) + 2
        if straight_top == 10 and value == 14:
            value = 6
        return counts[(card >> 2) + 2], -value, -_SUIT_RANK[card & 3]

    suits = tuple(_SUIT_RANK[card & 3] for card in sorted(cards, key=position))
    return category, ranks, suits


def test_thirty_two_card_ranking_matches_an_independent_brute_force() -> None:
    hands = list(combinations(SHORT_DECK, 5))
    assert len(hands) == comb(32, 5) == 201_376
    strengths = [thirty_two_strength(hand) for hand in hands]
    # Suits break every tie: no two distinct hands compare equal.
    assert len(set(strengths)) == len(hands)

    brute = [_brute_force_32(hand) for hand in hands]
    ours = Counter(thirty_two_category(strength) for strength in strengths)
    theirs = Counter(category for category, _, _ in brute)
    assert ours == theirs
    # The same counts follow from counting arguments (8 ranks, 4 suits, 5 straights).
    assert theirs == {
        "royal flush": 4,
        "straight flush": 4 * 4,
        "four of a kind": 8 * 7 * 4,
        "flush": 4 * comb(8, 5) - 4 * 5,
        "full house": 8 * 4 * 7 * 6,
        "straight": 5 * (4**5 - 4),
        "three of a kind": 8 * 4 * comb(7, 2) * 4 * 4,
        "two pair": comb(8, 2) * 6 * 6 * 6 * 4,
        "one pair": 8 * 6 * comb(7, 3) * 4**3,
        "high card": (comb(8, 5) - 5) * (4**5 - 4),
    }
    # And the same total order, hand by hand.
    by_ours = sorted(range(len(hands)), key=strengths.__getitem__)
    keys = [(_ORDER.index(brute[index][0]), brute[index][1], brute[index][2]) for index in by_ours]
    assert all(earlier < later for earlier, later in pairwise(keys))
    assert [thirty_two_category(strength) for strength in strengths] == [category for category, _, _ in brute]
