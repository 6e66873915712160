"""Whole-unit shares of an amount: one rounding rule for every split of a tournament (prizes, deals, bounties).

Money and chips are integers, so a split by weights leaves odd units. The rule, stated once: every
share is first rounded **down**; the units left over go one each to the largest fractional remainders
(Hamilton's largest-remainder method), and equal remainders go to the earlier entry of the list. Callers
list players in the order that should win ties (in deals: the bigger stack first; in prize splits: the
higher place first), so the total is always paid exactly and nobody gets more than one extra unit.

>>> apportion(100, [1, 1, 1])
[34, 33, 33]
>>> apportion(10, [5, 3, 2])
[5, 3, 2]
>>> apportion(7, [0.5, 0.25, 0.25])
[3, 2, 2]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def apportion(total: int, weights: Sequence[int | float | Fraction]) -> list[int]:
    """Split ``total`` whole units in proportion to ``weights`` (≥ 0, not all 0) by the rule above; the
    result sums to ``total`` exactly. ``ValueError`` on a negative total or bad weights."""
    if total < 0:
        raise ValueError(f"cannot split a negative amount {total}")
    exact = [Fraction(weight) for weight in weights]
    if not exact or any(weight < 0 for weight in exact) or sum(exact) == 0:
        raise ValueError(f"weights must be >= 0 and not all 0, got {list(weights)}")
    whole = sum(exact)
    ideal = [total * weight / whole for weight in exact]
    shares = [int(value) for value in ideal]  # floor: values are >= 0
    left = total - sum(shares)
    # Largest remainder first; the stable sort keeps the caller's order among equal remainders.
    order = sorted(range(len(ideal)), key=lambda index: ideal[index] - shares[index], reverse=True)
    for index in order[:left]:
        shares[index] += 1
    return shares


def split_equally(total: int, count: int) -> list[int]:
    """``total`` in ``count`` equal shares, the odd units to the first entries.

    >>> split_equally(10, 3)
    [4, 3, 3]
    """
    if count <= 0:
        raise ValueError(f"cannot split among {count} players")
    return apportion(total, [1] * count)
