"""Final-table deals (R-TOUR-5; seed 000 "Premio compartido"): the players left split the prizes not yet paid.

Four named offers (RULES.md, decision of turn 3), each paying the remaining prizes exactly, in whole units
(rounding: :mod:`engine.tournament.shares`, ties to the bigger stack, then to the earlier seat in the list):

* **equal** — the remaining prizes in equal shares ("Premios Iguales").
* **chips** — chip-proportional (the seed's "proporcional según el stack"): remaining prize money × stack /
  chips in play. Worked: stacks 5,000 / 3,000 / 2,000 on prizes 5,000 / 3,000 / 2,000 → 5,000 / 3,000 / 2,000.
* **chip_chop** — the chip-count chop: each player gets the prize of the next place to be paid (the lowest
  remaining prize), plus the rest shared in proportion to chips. This is the formula BetMGM Poker publishes
  ("Chip Count Deal Payout = NP + [R − (n·NP)]·(c/TC)", help.nj.betmgm.com, deal-making / chip-payout) and
  the one described as the chip-count method by J. Hale ("Let's make a deal – the art of chopping in
  poker", Gaming Today, 2009). Worked check from BetMGM's page: remaining 570, next payout 57, stacks
  15,000 / 12,000 / 10,000 / 6,000 / 500 → 155.28 / 135.63 / 122.52 / 96.32 / 60.28 (in cents below; our
  exact shares agree within the cent the page rounds to, and sum to the pool exactly).
* **ICM** — each player's Malmuth–Harville equity (:mod:`engine.tournament.icm`).

>>> chip_proportional_deal([5_000, 3_000, 2_000], [5_000, 3_000, 2_000])
[5000, 3000, 2000]
>>> chip_chop_deal([5_000, 3_000, 2_000], [5_000, 3_000, 2_000])
[4000, 3200, 2800]
>>> chip_chop_deal([15_000, 12_000, 10_000, 6_000, 500], [20_000, 13_000, 10_000, 8_300, 5_700])
[15528, 13562, 12252, 9631, 6027]
>>> icm_deal([5_000, 3_000, 2_000], [5_000, 3_000, 2_000])
[3839, 3275, 2886]
>>> equal_deal([5_000, 3_000, 2_000], [5_000, 3_000, 2_000])
[3334, 3333, 3333]
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from fractions import Fraction

from engine.tournament.icm import icm_equities
from engine.tournament.shares import apportion


class DealKind(Enum):
    """How a deal divides the remaining prizes."""

    EQUAL = "equal"
    CHIPS = "chips"  # chip-proportional
    ICM = "icm"
    CHIP_CHOP = "chip_chop"


def _check(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    if len(stacks) < 2:
        raise ValueError("a deal needs at least two players")
    if any(stack <= 0 for stack in stacks):
        raise ValueError("every player in a deal has chips")
    if any(prize < 0 for prize in prizes):
        raise ValueError("prizes are >= 0")
    # Only as many prizes as players are still to be paid; a shorter list pays 0 to the last places.
    return list(prizes[: len(stacks)]) + [0] * max(0, len(stacks) - len(prizes))


def _tie_order(stacks: Sequence[int]) -> list[int]:
    """Player indices, bigger stack first (earlier index among equal stacks): who takes odd units first."""
    return sorted(range(len(stacks)), key=lambda index: -stacks[index])


def _apportion_in_order(total: int, weights: Sequence[Fraction | float], stacks: Sequence[int]) -> list[int]:
    order = _tie_order(stacks)
    shares = apportion(total, [weights[index] for index in order])
    result = [0] * len(stacks)
    for index, share in zip(order, shares, strict=True):
        result[index] = share
    return result


def equal_deal(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """The remaining prizes split equally (odd units to the bigger stacks)."""
    remaining = _check(stacks, prizes)
    return _apportion_in_order(sum(remaining), [Fraction(1)] * len(stacks), stacks)


def chip_proportional_deal(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """Remaining prize money × stack / chips in play (it may pay the chip leader more than 1st prize: that is
    the offer, shown before anyone accepts)."""
    remaining = _check(stacks, prizes)
    return _apportion_in_order(sum(remaining), [Fraction(stack) for stack in stacks], stacks)


def chip_chop_deal(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """Next payout to everyone, the rest by chips (formula in the module docstring)."""
    remaining = _check(stacks, prizes)
    floor = min(remaining)
    rest = sum(remaining) - floor * len(stacks)
    by_chips = _apportion_in_order(rest, [Fraction(stack) for stack in stacks], stacks)
    return [floor + share for share in by_chips]


def icm_deal(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """Malmuth–Harville equities in whole units (they sum to the remaining prizes exactly)."""
    remaining = _check(stacks, prizes)
    equities = icm_equities(stacks, remaining)
    total = sum(remaining)
    # Float equities sum to the total up to rounding error; weights need only be proportional.
    return _apportion_in_order(total, [max(0.0, equity) for equity in equities], stacks)


def deal(kind: DealKind, stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """The deal of ``kind`` for players with ``stacks`` and the prizes of the places still to pay (1st first)."""
    if kind is DealKind.EQUAL:
        return equal_deal(stacks, prizes)
    if kind is DealKind.CHIPS:
        return chip_proportional_deal(stacks, prizes)
    if kind is DealKind.CHIP_CHOP:
        return chip_chop_deal(stacks, prizes)
    return icm_deal(stacks, prizes)
