"""High-hand evaluation (R-RANK-1) and best-of-N with must-use counts (R-RANK-2).

Straightforward reference implementation; the issue-2 evaluator work replaces the internals with
precomputed tables while keeping these signatures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from engine.cards import Card, check_distinct
from engine.evaluate.value import HandValue

CATEGORY_NAMES = (
    "high card", "one pair", "two pair", "three of a kind", "straight",
    "flush", "full house", "four of a kind", "straight flush",
)


def _five_card_strength(cards: Sequence[Card]) -> tuple[int, str]:
    ranks = sorted(((card >> 2) + 2 for card in cards), reverse=True)
    counts = Counter(ranks)
    flush = len({card & 3 for card in cards}) == 1
    distinct = sorted(counts, reverse=True)
    straight_high = 0
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            straight_high = 5
    grouped = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    order = [rank for rank, count in grouped for _ in range(count)]
    shape = sorted(counts.values(), reverse=True)
    if straight_high and flush:
        category, order = 8, [straight_high]
    elif shape[0] == 4:
        category = 7
    elif shape[:2] == [3, 2]:
        category = 6
    elif flush:
        category = 5
    elif straight_high:
        category, order = 4, [straight_high]
    elif shape[0] == 3:
        category = 3
    elif shape[:2] == [2, 2]:
        category = 2
    elif shape[0] == 2:
        category = 1
    else:
        category = 0
    strength = category
    for index in range(5):
        strength = strength * 16 + (order[index] if index < len(order) else 0)
    name = CATEGORY_NAMES[category]
    if category == 8 and straight_high == 14:
        name = "royal flush"
    return strength, name


def evaluate_high(cards: Sequence[Card]) -> HandValue:
    """Best high hand of 5 to 7 cards (R-RANK-1). ``ValueError`` on another count or duplicates."""
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a high hand needs 5 to 7 cards, got {len(cards)}")
    check_distinct(list(cards))
    best: tuple[int, str, tuple[Card, ...]] | None = None
    for five in combinations(cards, 5):
        strength, name = _five_card_strength(five)
        if best is None or strength > best[0]:
            best = (strength, name, tuple(sorted(five, reverse=True)))
    assert best is not None
    return HandValue(best[0], best[1], best[2])


def best_high(
    hole: Sequence[Card], board: Sequence[Card], *, must_use_hole: int | None = None
) -> HandValue:
    """Best high hand from hole cards and board (R-RANK-2).

    ``must_use_hole=None``: any 5 of all cards (hold'em, stud, draw). ``must_use_hole=2``: exactly 2 hole
    cards and 3 board cards (Omaha); ``3`` for the 3+2 house rule of 5-card Omaha.
    ``ValueError`` on duplicates or too few cards.
    """
    check_distinct(list(hole) + list(board))
    if must_use_hole is None:
        return evaluate_high(tuple(hole) + tuple(board))
    need_board = 5 - must_use_hole
    if len(hole) < must_use_hole or len(board) < need_board:
        raise ValueError(
            f"need at least {must_use_hole} hole and {need_board} board cards, got {len(hole)} and {len(board)}"
        )
    best: HandValue | None = None
    for hole_part in combinations(hole, must_use_hole):
        for board_part in combinations(board, need_board):
            value = evaluate_high(hole_part + board_part)
            if best is None or value > best:
                best = value
    assert best is not None
    return best
