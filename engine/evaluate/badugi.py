"""Badugi hands (PokerKit's BadugiLookup): of four cards, the biggest set of cards of different ranks and different
suits plays; more cards beat fewer, then the lowest wins, compared from the highest card down; aces are low.

A *strength* runs from 1 (a lone king, the worst) to 1,092 (A-2-3-4 of four suits, the best): higher is better,
equal strengths split.

>>> from engine.cards import parse_cards
>>> alice, carol = (badugi_strength(parse_cards(cards)) for cards in ("2s 4c 6d 9h", "3s 5d 7c 8h"))
>>> carol > alice, badugi_name(carol)
(True, 'eight-seven-five-three badugi')
>>> badugi_name(badugi_strength(parse_cards("As Ad 2s 3h")))  # one ace and one spade too many: three cards play
'three-card three-deuce-ace'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from engine.evaluate.names import rank_word

_LOW_INDEX: Final = tuple((card >> 2) + 1 if card >> 2 < 12 else 0 for card in range(52))
"""Per card: its rank with the ace lowest (ace 0, deuce 1 … king 12)."""


def _rank_sets() -> list[tuple[int, ...]]:
    """Every set of 1 to 4 different ranks (ace 0 … king 12), highest first, worst hand first."""
    ordered: list[tuple[int, ...]] = []
    for size in range(1, 5):
        sets = [tuple(sorted(ranks, reverse=True)) for ranks in combinations(range(13), size)]
        ordered += sorted(sets, reverse=True)  # the highest cards are the worst
    return ordered


_RANK_SETS: Final = _rank_sets()
_STRENGTH_OF_MASK: Final = {sum(1 << rank for rank in ranks): strength for strength, ranks in enumerate(_RANK_SETS, 1)}
MAX_BADUGI_STRENGTH: Final = len(_RANK_SETS)


def badugi_strength(cards: Sequence[int]) -> int:
    """Strength (1..1092, higher better) of the best badugi in up to four cards (ints, not validated).

    >>> badugi_strength([48, 1, 6, 11]) == MAX_BADUGI_STRENGTH  # Ac 2d 3h 4s
    True
    """
    best = 0
    for size in range(min(len(cards), 4), 0, -1):
        for part in combinations(cards, size):
            rank_mask = suit_mask = 0
            for card in part:
                rank_mask |= 1 << _LOW_INDEX[card]
                suit_mask |= 1 << (card & 3)
            if rank_mask.bit_count() == size and suit_mask.bit_count() == size:
                strength = _STRENGTH_OF_MASK[rank_mask]
                if strength > best:
                    best = strength
        if best:
            return best  # a bigger hand beats every smaller one
    return best


def badugi_ranks(strength: int) -> tuple[int, ...]:
    """The ranks of a badugi strength as the other evaluators write them (deuce 0 … king 11, the ace -1), highest
    first."""
    return tuple(rank - 1 for rank in _RANK_SETS[strength - 1])


def badugi_name(strength: int) -> str:
    """``"eight-seven-five-three badugi"`` for four cards; ``"three-card nine-six-deuce"`` for fewer."""
    ranks = badugi_ranks(strength)
    words = "-".join(rank_word(rank) for rank in ranks)
    return f"{words} badugi" if len(ranks) == 4 else f"{_SIZE_WORDS[len(ranks)]} {words}"


_SIZE_WORDS: Final = {1: "one-card", 2: "two-card", 3: "three-card"}
