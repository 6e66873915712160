"""Low-hand evaluation: ace-to-five 8-or-better (R-RANK-3) and deuce-to-seven (R-RANK-4).

Straightforward reference implementation; the issue-2 evaluator work replaces the internals.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.cards import Card, Rank, check_distinct
from engine.evaluate.high import evaluate_high
from engine.evaluate.value import HandValue


def _low_name(ranks: Sequence[int]) -> str:
    names = [Rank(14 if rank == 1 else rank).english for rank in ranks[:2]]
    return f"{names[0]}-{names[1]} low"


def evaluate_low_eight(cards: Sequence[Card]) -> HandValue | None:
    """Best ace-to-five low of 5+ cards with five different ranks all 8 or lower, or ``None`` (R-RANK-3)."""
    if len(cards) < 5:
        raise ValueError(f"a low hand needs at least 5 cards, got {len(cards)}")
    check_distinct(list(cards))
    best: HandValue | None = None
    for five in combinations(cards, 5):
        ranks = sorted((1 if card >> 2 == 12 else (card >> 2) + 2 for card in five), reverse=True)
        if len(set(ranks)) < 5 or ranks[0] > 8:
            continue
        strength = 0
        for rank in ranks:
            strength = strength * 16 + (15 - rank)
        if best is None or strength > best.strength:
            ordered = tuple(sorted(five, key=lambda card: (card >> 2) + 1 if card >> 2 == 12 else 0, reverse=False))
            ordered = tuple(sorted(five, key=lambda card: 1 if card >> 2 == 12 else (card >> 2) + 2, reverse=True))
            best = HandValue(strength, _low_name(ranks), ordered)
    return best


def best_low_eight(
    hole: Sequence[Card], board: Sequence[Card], *, must_use_hole: int | None = None
) -> HandValue | None:
    """Best qualifying 8-or-better low from hole and board; ``must_use_hole=2`` for Omaha Hi/Lo (R-RANK-3)."""
    check_distinct(list(hole) + list(board))
    if must_use_hole is None:
        return evaluate_low_eight(tuple(hole) + tuple(board))
    best: HandValue | None = None
    for hole_part in combinations(hole, must_use_hole):
        for board_part in combinations(board, 5 - must_use_hole):
            value = evaluate_low_eight(hole_part + board_part)
            if value is not None and (best is None or value > best):
                best = value
    return best


def evaluate_deuce_to_seven(cards: Sequence[Card]) -> HandValue:
    """Deuce-to-seven low of exactly 5 cards (R-RANK-4): the worse the high hand, the better the low."""
    if len(cards) != 5:
        raise ValueError(f"a deuce-to-seven hand has 5 cards, got {len(cards)}")
    high = evaluate_high(cards)
    ranks = sorted(((card >> 2) + 2 for card in cards), reverse=True)
    # Aces are high only: A-2-3-4-5 is no straight in deuce-to-seven.
    if ranks == [14, 5, 4, 3, 2] and high.category in ("straight", "straight flush"):
        flush = len({card & 3 for card in cards}) == 1
        category = 5 if flush else 0
        strength = category
        for rank in ranks:
            strength = strength * 16 + rank
        name = "flush" if flush else "high card"
    else:
        strength, name = high.strength, high.category
    return HandValue(-strength, name, high.cards)
