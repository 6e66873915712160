"""Hand evaluators (R-RANK-1 … R-RANK-6).

Every evaluator returns a :class:`HandValue`: a totally ordered ``strength`` (higher is always better
for the ranking in question, lows included), the English category name and the five cards used.

This module is the public contract; the fast table-driven internals live in the submodules.
"""

from __future__ import annotations

from engine.evaluate.high import best_high, evaluate_high
from engine.evaluate.low import best_low_eight, evaluate_deuce_to_seven, evaluate_low_eight
from engine.evaluate.value import HandValue

__all__ = [
    "HandValue",
    "best_high",
    "best_low_eight",
    "evaluate_deuce_to_seven",
    "evaluate_high",
    "evaluate_low_eight",
]
