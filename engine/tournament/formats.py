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
  (:func:`half_out_shares`: each share exact, rounded once; a tie at the cut shares the last place).
* ``DOUBLE_OR_NOTHING`` — ends when half are out; equal shares (:func:`half_out_shares`).

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
from fractions import Fraction

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
    SpinRow(2, 588_000, (100,)),
    SpinRow(3, 250_000, (100,)),
    SpinRow(5, 120_000, (100,)),
    SpinRow(10, 40_000, (100,)),
    SpinRow(25, 1_800, (80, 10, 10)),
    SpinRow(100, 190, (80, 10, 10)),
    SpinRow(1_000, 10, (80, 10, 10)),
)
"""The default Spin table (chances per million), in the shape of the big rooms' tables (PokerStars Spin &
Go: 2× most often, a rare 1,000×). The prize is ONE buy-in × the multiplier while three buy-ins are paid in
(RULES.md, decision of turn 3): the expected multiplier is exactly 3, so on average the three buy-ins come
back as prizes and the room keeps only the fees. A host may publish another table; the lobby shows its
expected return (:func:`spin_expected_return`)."""


def spin_expected_return(table: Sequence[SpinRow] = SPIN_MULTIPLIERS, players: int = 3) -> Fraction:
    """The expected prize of a Spin as a fraction of the ``players`` buy-ins paid in (1: all of them back).

    >>> spin_expected_return()
    Fraction(1, 1)
    >>> float(spin_expected_return((SpinRow(2, 690_000, (100,)), SpinRow(5, 310_000, (100,)))))
    0.9766666666666667
    """
    expected = Fraction(sum(row.multiplier * row.chances for row in table), SPIN_DRAW_RANGE)
    return expected / players


def spin_row(draw: int, table: Sequence[SpinRow] = SPIN_MULTIPLIERS) -> SpinRow:
    """The row a draw in ``0..SPIN_DRAW_RANGE-1`` selects (rows in order, each ``chances`` wide).

    >>> spin_row(0).multiplier, spin_row(587_999).multiplier, spin_row(588_000).multiplier, spin_row(999_999).multiplier
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


def half_out_shares(pool: int, paid: int, groups: Sequence[Sequence[int]], fifty50: bool) -> list[list[int]]:
    """Double-or-Nothing and Fifty50 prizes to the chip (RULES.md, decisions of turn 3).

    ``groups``: the players from 1st place down, each group tied for one place (survivors by chips, then
    the players who busted in the last hand), as their chip stacks (0 for a busted player); ``paid``: the
    places paid (half the field). A group tied across the cut shares the paid places it covers, and only
    those. Double-or-Nothing pays each paid place ``pool / paid``; Fifty50 pays each place ``pool / 2 /
    paid`` plus half the pool in proportion to chips. Each player's exact share is rounded once, largest
    remainder first, ties to the bigger stack (then the higher place): the pool is paid exactly.

    Worked (6 × 100, 3 paid, two 1,000-chip stacks bust together from 4 left, survivors 5,000 / 1,000):

    >>> half_out_shares(600, 3, [[5_000], [1_000], [0, 0]], fifty50=False)
    [[200], [200], [100, 100]]
    >>> half_out_shares(600, 3, [[5_000], [1_000], [0, 0]], fifty50=True)
    [[350], [150], [50, 50]]
    >>> half_out_shares(1_000, 3, [[3_000], [2_000], [1_000]], fifty50=True)
    [[417], [333], [250]]
    """
    chips = sum(stack for group in groups for stack in group)
    weights: list[Fraction] = []
    order: list[tuple[int, int, int, int]] = []  # (-stack, place, group, member): who takes odd units first
    place = 1
    for index, group in enumerate(groups):
        covered = max(0, min(paid, place + len(group) - 1) - place + 1)
        for member, stack in enumerate(group):
            share = Fraction(covered, len(group) * paid)  # of the equal part
            if fifty50:
                share = share / 2 + (Fraction(stack, 2 * chips) if chips else 0)
            weights.append(share)
            order.append((-stack, place, index, member))
        place += len(group)
    ranked = sorted(range(len(weights)), key=lambda position: order[position])
    amounts = apportion(pool, [weights[position] for position in ranked])
    by_position = dict(zip(ranked, amounts, strict=True))
    result: list[list[int]] = []
    position = 0
    for group in groups:
        result.append([by_position[position + member] for member in range(len(group))])
        position += len(group)
    return result


def fifty50_shares(pool: int, stacks: Sequence[int]) -> list[int]:
    """Fifty50 among survivors only (no tie at the cut): half the pool equally, half by chips, rounded once
    (:func:`half_out_shares`)."""
    shares = half_out_shares(pool, len(stacks), [[stack] for stack in stacks], fifty50=True)
    return [group[0] for group in shares]


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
