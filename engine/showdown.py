"""Showdown helpers: hand strengths per player and who may still win (R-SHOW-1, R-RANK-2, R-RANK-3).

Strengths are plain ints (higher wins) so pots can be split without building objects per comparison.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import Card
from engine.evaluate import (
    best_low_eight,
    deuce_to_seven_category,
    deuce_to_seven_strength,
    high_category,
    high_strength,
    low_eight_strength,
    omaha_high_strength,
    omaha_low_eight_strength,
    thirty_two_category,
    thirty_two_strength,
)
from engine.pots import Pot
from engine.variants import Ranking, Variant


def high_value(variant: Variant, hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, str]:
    """``(strength, description)`` of the best high hand under the variant's must-use rule (fast int path;
    the same strength as ``engine.evaluate.best_high``). Deuce-to-seven (R-RANK-4) judges the five own
    cards, the 32-card ranking (R-RANK-5) the best five of own and community cards."""
    ranking = variant.ranking
    if ranking is Ranking.DEUCE_TO_SEVEN:
        strength = deuce_to_seven_strength(hole)
        return strength, deuce_to_seven_category(strength)
    if ranking is Ranking.THIRTY_TWO_CARD:
        strength = thirty_two_strength([*hole, *board])
        return strength, thirty_two_category(strength)
    must_use = variant.must_use_hole
    strength = high_strength([*hole, *board]) if must_use is None else omaha_high_strength(hole, board, must_use)
    return strength, high_category(strength)


def low_value(variant: Variant, hole: Sequence[Card], board: Sequence[Card]) -> tuple[int | None, str]:
    """``(strength or None, description)`` of the best 8-or-better low (``None``: no qualifying low)."""
    must_use = variant.must_use_hole
    strength = low_eight_strength([*hole, *board]) if must_use is None else omaha_low_eight_strength(
        hole, board, must_use)
    if not strength:
        return None, ""
    value = best_low_eight(hole, board, must_use_hole=must_use)
    assert value is not None and value.strength == strength
    return strength, value.category


def can_still_win(
    position: int,
    pots: Sequence[Pot],
    shown: Sequence[int],
    high: Mapping[int, int | None],
    low: Mapping[int, int | None] | None,
) -> bool:
    """Whether ``position`` could win or tie any part of a pot it is eligible for, against the hands
    ``shown`` so far (R-SHOW-1: a player who cannot win may muck)."""
    for pot in pots:
        if position not in pot.eligible:
            continue
        rivals = [other for other in shown if other in pot.eligible and other != position]
        own_high = high.get(position)
        rival_highs = [value for value in (high.get(other) for other in rivals) if value is not None]
        best_rival_high = max(rival_highs, default=None)
        if own_high is not None and (best_rival_high is None or own_high >= best_rival_high):
            return True
        if low is not None:
            own_low = low.get(position)
            if own_low is not None:
                rival_lows = [value for value in (low.get(other) for other in rivals) if value is not None]
                best_rival_low = max(rival_lows, default=None)
                if best_rival_low is None or own_low >= best_rival_low:
                    return True
    return False
