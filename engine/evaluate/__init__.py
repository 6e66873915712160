"""Hand evaluators (R-RANK-1 … R-RANK-6).

Every evaluator returns a :class:`HandValue`: a totally ordered ``strength`` (higher is always better
for the ranking in question, lows included), the English category name and the five cards used, most
significant first (callers list hole cards first; among equal cards the hole cards are reported).

The ``*_strength`` functions are the fast paths for simulation and equity work: they take plain ints
0..51 (``Card`` works too), skip validation and return the same ``strength`` as the ``HandValue`` API.

>>> from engine.cards import parse_cards
>>> best_high(parse_cards("Ah Ad"), parse_cards("Ac As Kd 7h 2c")).category
'four of a kind'
"""

from __future__ import annotations

from engine.evaluate.deuce_to_seven import (
    MAX_DEUCE_TO_SEVEN_STRENGTH,
    deuce_to_seven_category,
    deuce_to_seven_strength,
    evaluate_deuce_to_seven,
)
from engine.evaluate.high import (
    MAX_HIGH_STRENGTH,
    best_high,
    evaluate_high,
    high_category,
    high_strength,
    omaha_high_strength,
)
from engine.evaluate.low import (
    MAX_LOW_STRENGTH,
    best_low_eight,
    evaluate_low_eight,
    low_eight_strength,
    omaha_low_eight_strength,
)
from engine.evaluate.thirty_two import (
    americana_strength,
    compare_thirty_two,
    evaluate_thirty_two,
    telesina_category,
    telesina_class_strength,
    telesina_heads_up,
    telesina_strength,
    thirty_two_category,
    thirty_two_strength,
)
from engine.evaluate.value import HandValue

__all__ = [
    "MAX_DEUCE_TO_SEVEN_STRENGTH",
    "MAX_HIGH_STRENGTH",
    "MAX_LOW_STRENGTH",
    "HandValue",
    "americana_strength",
    "best_high",
    "best_low_eight",
    "compare_thirty_two",
    "deuce_to_seven_category",
    "deuce_to_seven_strength",
    "evaluate_deuce_to_seven",
    "evaluate_high",
    "evaluate_low_eight",
    "evaluate_thirty_two",
    "high_category",
    "high_strength",
    "low_eight_strength",
    "omaha_high_strength",
    "omaha_low_eight_strength",
    "telesina_category",
    "telesina_class_strength",
    "telesina_heads_up",
    "telesina_strength",
    "thirty_two_category",
    "thirty_two_strength",
]
