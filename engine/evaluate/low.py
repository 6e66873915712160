"""Ace-to-five low, 8 or better (R-RANK-3): Omaha Hi/Lo and Stud Hi/Lo.

A qualifying low is five cards of different ranks, each 8 or lower, aces low; straights and flushes
do not count. Its *strength* runs from 1 (8-7-6-5-4) to 56 (5-4-3-2-A): higher is better, equal
strengths split; no qualifying low is ``0`` on the fast paths and ``None`` in the ``HandValue`` API.

Fast path: each card maps to one bit (ace = bit 0, deuce = bit 1 … eight = bit 7, nine and up none);
a hand's best low depends only on the OR of its bits — the five lowest set bits — so one 256-entry
table answers it.

>>> from engine.cards import parse_cards
>>> value = evaluate_low_eight(parse_cards("8c 6d 4h 3s Ac Kd Kh"))
>>> value.strength, value.category
(28, 'eight-six low')
>>> evaluate_low_eight(parse_cards("9c 6d 4h 3s Ac Kd Kh")) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from engine.cards import Card, Rank
from engine.evaluate.encoding import checked_cards
from engine.evaluate.high import _checked_split
from engine.evaluate.value import HandValue

LOW_BIT: Final[tuple[int, ...]] = tuple(
    1 if card >> 2 == 12 else (1 << ((card >> 2) + 1) if card >> 2 <= 6 else 0) for card in range(52)
)
"""Per card: its bit in a low mask (ace 1, deuce 2, trey 4 … eight 128), or 0 above eight."""

def _lowest_five(mask: int) -> int:
    """The mask of the five lowest ranks in ``mask`` (0 if it has fewer than five)."""
    chosen = 0
    for bit in range(8):
        if mask >> bit & 1:
            chosen |= 1 << bit
            if chosen.bit_count() == 5:
                return chosen
    return 0


def _descending(mask: int) -> tuple[int, ...]:
    """Ranks (ace = 1) in a low mask, highest first."""
    return tuple(bit + 1 for bit in range(7, -1, -1) if mask >> bit & 1)


_QUALIFYING: Final = sorted((mask for mask in range(256) if mask.bit_count() == 5), key=_descending, reverse=True)
"""The 56 qualifying lows (five-bit masks), worst (8-7-6-5-4) first."""

MAX_LOW_STRENGTH: Final = len(_QUALIFYING)
_STRENGTH_OF_FIVE: Final = {mask: strength for strength, mask in enumerate(_QUALIFYING, 1)}
LOW_STRENGTH: Final[tuple[int, ...]] = tuple(_STRENGTH_OF_FIVE.get(_lowest_five(mask), 0) for mask in range(256))
"""Low mask of any number of cards → strength of its best qualifying low (0: none)."""
_MASK_OF_STRENGTH: Final = (0, *_QUALIFYING)


def low_eight_strength(cards: Sequence[int]) -> int:
    """Strength (1..56, higher better; 0 = no qualifying low) of the best 8-or-better low in ``cards``.

    Fast path: ints, no validation (any number of cards, best five of them).

    >>> low_eight_strength([12, 0, 4, 8, 13])  # A-2-3-4 plus another ace: no low
    0
    """
    mask = 0
    for card in cards:
        mask |= LOW_BIT[card]
    return LOW_STRENGTH[mask]


def _part_masks(cards: Sequence[int], size: int) -> set[int]:
    """Low masks of every ``size``-card subset made of ``size`` different low ranks."""
    masks: set[int] = set()
    for part in combinations(cards, size):
        mask = 0
        for card in part:
            mask |= LOW_BIT[card]
        if mask.bit_count() == size:
            masks.add(mask)
    return masks


def omaha_low_eight_strength(hole: Sequence[int], board: Sequence[int], must_use_hole: int = 2) -> int:
    """Best 8-or-better low using exactly ``must_use_hole`` hole cards and the rest from the board (R-RANK-3).

    Fast path: ints, no validation. 0 when no qualifying low can be made.

    >>> omaha_low_eight_strength([12, 0, 48, 49], [4, 8, 40, 44, 36])  # the board has only two low cards
    0
    >>> omaha_low_eight_strength([12, 0, 48, 49], [4, 8, 16, 44, 36]) == MAX_LOW_STRENGTH - 1  # 6-4-3-2-A
    True
    """
    board_masks = _part_masks(board, 5 - must_use_hole)
    best = 0
    if board_masks:
        for hole_mask in _part_masks(hole, must_use_hole):
            for board_mask in board_masks:
                if not hole_mask & board_mask:
                    strength = LOW_STRENGTH[hole_mask | board_mask]
                    if strength > best:
                        best = strength
    return best


def low_ranks(strength: int) -> list[int]:
    """The five ranks of a qualifying low's strength as rank indexes (0 = deuce … 6 = eight, -1 = ace),
    highest first.

    >>> low_ranks(MAX_LOW_STRENGTH)
    [3, 2, 1, 0, -1]
    """
    return [rank - 2 for rank in _descending(_MASK_OF_STRENGTH[strength])]


def low_name(ranks: Sequence[int]) -> str:
    """English name of a low from its ranks (ace = 1 or 14), highest first: ``"eight-six low"``."""
    first, second = (Rank(14 if rank == 1 else rank).english for rank in ranks[:2])
    return f"{first}-{second} low"


def _value(cards: Sequence[Card], strength: int) -> HandValue:
    ranks = _descending(_MASK_OF_STRENGTH[strength])
    used: list[Card] = []
    for rank in ranks:
        bit = 1 << (rank - 1)
        used.append(next(card for card in cards if LOW_BIT[card] == bit))
    return HandValue(strength, low_name(ranks), tuple(used))


def evaluate_low_eight(cards: Sequence[Card]) -> HandValue | None:
    """Best ace-to-five low 8-or-better among 5 to 7 cards (draw, stud), or ``None`` (R-RANK-3).

    The five cards used are listed highest first (``8-6-4-3-A``). ``ValueError`` names a non-card, a
    wrong count or a duplicate.
    """
    hand = checked_cards(cards, minimum=5, maximum=7, what="an 8-or-better low hand")
    strength = low_eight_strength(hand)
    return _value(hand, strength) if strength else None


def best_low_eight(
    hole: Sequence[Card], board: Sequence[Card], *, must_use_hole: int | None = None
) -> HandValue | None:
    """Best qualifying 8-or-better low from hole and board, or ``None`` (R-RANK-3).

    ``must_use_hole=None``: any five of all cards (5 to 7 in all); ``2``: exactly 2 hole + 3 board
    (Omaha Hi/Lo; the two hole cards may differ from the high hand's). Hole cards are preferred among
    equal ranks in the reported five. ``ValueError`` names a non-card, a duplicate or a wrong count.

    >>> from engine.cards import parse_cards, format_cards
    >>> value = best_low_eight(parse_cards("As 2s Kd Kh"), parse_cards("3c 5d 8h Qs Qd"), must_use_hole=2)
    >>> value.category, format_cards(value.cards)
    ('eight-five low', '8h 5d 3c 2s As')
    """
    if must_use_hole is None:
        return evaluate_low_eight(tuple(hole) + tuple(board))
    hole_cards, board_cards = _checked_split(hole, board, must_use_hole)
    strength = omaha_low_eight_strength(hole_cards, board_cards, must_use_hole)
    if not strength:
        return None
    for hole_part in combinations(hole_cards, must_use_hole):
        for board_part in combinations(board_cards, 5 - must_use_hole):
            if low_eight_strength(hole_part + board_part) == strength:
                return _value(hole_part + board_part, strength)
    raise AssertionError("the best low was not found again")  # pragma: no cover
