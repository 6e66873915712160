"""Tournament formats (R-TOUR-1; seed 000 "Descripción de tipos de torneos") and their special prizes.

* ``SIT_AND_GO`` — starts when ``sit_and_go_size`` have registered; no late registration (seed).
* ``SCHEDULED`` — starts at its time with at least ``min_players``; else cancelled and refunded.
* ``HEADS_UP`` — two-seat tables; winners meet winners (a shootout with two-seat tables).
* ``SHOOTOUT`` — players spread evenly, no balancing; each table plays to one winner, winners are seated at
  new tables and play again from level 1 with the starting stack (seed: "El juego empieza desde el inicio –
  límites iniciales y ciegas"), until one table is left, played to the end.
* ``SPIN`` — a 3-player Sit & Go whose pool is one buy-in × a multiplier drawn from a published table
  (:data:`SPIN_MULTIPLIERS`; the draw comes in as an argument, the room makes it by commit–reveal); the house
  funds the difference.
* ``FIFTY50`` — ends when half the field is out: half the pool in equal shares, half by chips
  (:func:`fifty50_shares`).
* ``DOUBLE_OR_NOTHING`` — ends when half are out; equal shares (:func:`double_or_nothing_shares`).

Orthogonal options on any format: freeroll (no price, house-funded pool), satellite (ticket prizes),
time limit (prizes by chip count when time expires, :func:`rank_by_chips`), bounties, rebuys.

>>> fifty50_shares(1_000, [3_000, 1_000, 1_000, 1_000, 4_000])
[250, 150, 150, 150, 300]
>>> double_or_nothing_shares(1_000, 5)
[200, 200, 200, 200, 200]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from engine.tournament.shares import apportion, split_equally


class Format(Enum):
    """The kinds of tournament (module docstring)."""

    SIT_AND_GO = "sit_and_go"
    SCHEDULED = "scheduled"
    HEADS_UP = "heads_up"
    SHOOTOUT = "shootout"
    SPIN = "spin"
    FIFTY50 = "fifty50"
    DOUBLE_OR_NOTHING = "double_or_nothing"

    @property
    def ends_at_half(self) -> bool:
        """Whether play stops when half the field is out."""
        return self in (Format.FIFTY50, Format.DOUBLE_OR_NOTHING)

    @property
    def plays_rounds(self) -> bool:
        """Whether tables play to one winner and winners advance (no balancing)."""
        return self in (Format.SHOOTOUT, Format.HEADS_UP)


@dataclass(frozen=True, slots=True)
class SpinRow:
    """One row of a Spin table: ``multiplier`` of the buy-ins, drawn ``chances`` times in
    :data:`SPIN_DRAW_RANGE`; ``percentages`` of the pool for 1st, 2nd, 3rd."""

    multiplier: int
    chances: int
    percentages: tuple[int, ...]


SPIN_DRAW_RANGE = 1_000_000
SPIN_MULTIPLIERS: tuple[SpinRow, ...] = (
    SpinRow(2, 690_000, (100,)),
    SpinRow(3, 230_000, (100,)),
    SpinRow(5, 60_000, (100,)),
    SpinRow(10, 18_000, (100,)),
    SpinRow(25, 1_800, (80, 10, 10)),
    SpinRow(100, 190, (80, 10, 10)),
    SpinRow(1_000, 10, (80, 10, 10)),
)
"""The published Spin table (chances per million), in the shape of the big rooms' tables (PokerStars Spin &
Go: 2× most of the time, a rare 1,000×). The pool is ONE buy-in × the multiplier while three are paid in:
the expected multiplier is 2.624, so on average 87.5% of the buy-ins come back as prizes (the rest, and
the fee, is the house's; a host may publish another table)."""


def spin_row(draw: int, table: Sequence[SpinRow] = SPIN_MULTIPLIERS) -> SpinRow:
    """The row a draw in ``0..SPIN_DRAW_RANGE-1`` selects (rows in order, each ``chances`` wide).

    >>> spin_row(0).multiplier, spin_row(689_999).multiplier, spin_row(690_000).multiplier, spin_row(999_999).multiplier
    (2, 2, 3, 1000)
    """
    if sum(row.chances for row in table) != SPIN_DRAW_RANGE:
        raise ValueError(f"a Spin table's chances sum to {SPIN_DRAW_RANGE}")
    if not 0 <= draw < SPIN_DRAW_RANGE:
        raise ValueError(f"a Spin draw is 0..{SPIN_DRAW_RANGE - 1}, got {draw}")
    for row in table:
        if draw < row.chances:
            return row
        draw -= row.chances
    raise AssertionError("unreachable: the chances cover the range")


def fifty50_shares(pool: int, stacks: Sequence[int]) -> list[int]:
    """Fifty50: half the pool equally among the survivors, half in proportion to their chips (seed 000);
    odd units of each half to the bigger stacks first."""
    order = sorted(range(len(stacks)), key=lambda index: -stacks[index])
    equal_half = pool // 2
    equal = split_equally(equal_half, len(stacks))
    by_chips = apportion(pool - equal_half, [stacks[index] for index in order])
    shares = [0] * len(stacks)
    for rank, index in enumerate(order):
        shares[index] = equal[rank] + by_chips[rank]
    return shares


def double_or_nothing_shares(pool: int, survivors: int) -> list[int]:
    """Double-or-Nothing: the pool in equal shares among the survivors (seed: each doubles his buy-in)."""
    return split_equally(pool, survivors)


def rank_by_chips(stacks: dict[int, int]) -> list[list[int]]:
    """Time-limited end: entries grouped by chips, most first; equal stacks share places (seed 000: "Los
    premios serán distribuidos de acuerdo con la cantidad de fichas").

    >>> rank_by_chips({1: 500, 2: 900, 3: 500})
    [[2], [1, 3]]
    """
    groups: dict[int, list[int]] = {}
    for entry, chips in sorted(stacks.items()):
        groups.setdefault(chips, []).append(entry)
    return [groups[chips] for chips in sorted(groups, reverse=True)]
