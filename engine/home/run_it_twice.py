"""Run it twice (R-HOME-1, docs/rules-home.md).

When every player still in is all-in (or all but one, who has nobody left to bet against) before the board is
complete, a table with ``run_it_twice`` asks each of them, clockwise from the first left of the button, whether
to deal the rest of the board twice. The first "no" (a timeout is a no) runs it once; when all agree, the rest of
the board is dealt once (the first board) and then again from the next cards of the same committed deck (the
second board), so the deal stays top-down and every client's fairness check holds (R-FAIR-1).

Each pot, main and side pots alike, is halved after its rake: the first board's half takes the odd chip (as the
high half does in R-POT-2), then each half goes to the best hand on its own board among the players eligible
for that pot, split among tied hands with R-POT-2's clockwise odd-chip rule (and, in Omaha Hi/Lo, halved again
high/low on each board).

Worked example (docs/rules-home.md, R-HOME-1): a pot of 1,001 after rake, A best on the first board, B on the
second: A 501, B 500.

>>> halves(1001)
(501, 500)
>>> award_twice(1001, [0, 1], ({0: 9, 1: 5}, {0: 5, 1: 9}), (None, None))
[(1, 0, 501, 'whole'), (2, 1, 500, 'whole')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.cards import Card
from engine.home.options import board_game
from engine.pots import award_pot
from engine.showdown import high_name, high_value, low_name, low_value
from engine.variants import Variant

Strengths = Mapping[int, int | None]


def halves(amount: int) -> tuple[int, int]:
    """A pot's two halves, the odd chip to the first board: ``(first, second)``."""
    second = amount // 2
    return amount - second, second


def cards_to_run(variant: Variant, street_index: int) -> int:
    """Board cards still to come after street ``street_index`` (-1: before any street)."""
    return sum(street.board for street in variant.streets[street_index + 1:])


def can_offer(variant: Variant, *, street_index: int, deck_size: int, deck_index: int, contenders: int) -> bool:
    """Whether a run-out at this point may be run twice: a flop game, two or more players in, board cards still to
    come, and a deck that holds both runs."""
    missing = cards_to_run(variant, street_index)
    return board_game(variant) and contenders >= 2 and missing > 0 and deck_index + 2 * missing <= deck_size


@dataclass(slots=True)
class Question:
    """The open question: positions still to answer, in order; ``twice`` once decided (None: still open)."""

    waiting: list[int]
    twice: bool | None = None
    shared: int = 0  # board cards both runs share (dealt before the question)
    second_board: list[Card] = field(default_factory=list)

    def answer(self, position: int, agree: bool) -> bool | None:
        """Record ``position``'s answer (it must be the first waiting); the decision once there is one."""
        assert self.waiting and self.waiting[0] == position, "answers come in order"
        self.waiting.pop(0)
        if not agree:
            self.twice = False
        elif not self.waiting:
            self.twice = True
        return self.twice


@dataclass(frozen=True, slots=True)
class BoardResult:
    """Every hand still in, valued on one board: high (and low in hi/lo) strengths and their names."""

    high: dict[int, int | None]
    low: dict[int, int | None] | None
    high_names: dict[int, str]
    low_names: dict[int, str]


def evaluate_board(variant: Variant, holes: Mapping[int, Sequence[Card]], board: Sequence[Card]) -> BoardResult:
    """Value each position's ``holes`` on ``board`` (as the showdown does for one board)."""
    high: dict[int, int | None] = {}
    high_names: dict[int, str] = {}
    lows: dict[int, int | None] = {}
    low_names: dict[int, str] = {}
    for position, hole in holes.items():
        high[position], high_names[position] = high_value(variant, hole, board)
        if variant.low_eight:
            lows[position], low_names[position] = low_value(variant, hole, board)
    return BoardResult(high, lows if variant.low_eight else None, high_names, low_names)


def award_twice(net: int, eligible: Sequence[int], high: tuple[Strengths, Strengths],
                low: tuple[Strengths | None, Strengths | None]) -> list[tuple[int, int, int, str]]:
    """One pot (``net`` chips after rake, ``eligible`` positions in clockwise order from the button's left) run
    twice: ``[(board, position, chips, share)]``, board 1's shares first (:func:`engine.pots.award_pot` on each
    half with that board's strengths)."""
    shares: list[tuple[int, int, int, str]] = []
    for board, half in enumerate(halves(net), start=1):
        shares += [(board, position, chips, share)
                   for position, chips, share in award_pot(half, eligible, high[board - 1], low[board - 1])]
    return shares


def winning_name(variant: Variant, result: BoardResult, position: int, rivals: Sequence[int], low: bool) -> str:
    """The winner's hand on one board, named against the other hands still in (R-RANK-7)."""
    if low:
        lows = result.low or {}
        strength = lows.get(position)
        return low_name(strength, [lows.get(other) for other in rivals]) if strength else ""
    strength = result.high.get(position)
    if strength is None:
        return ""
    return high_name(variant, strength, [result.high.get(other) for other in rivals])
