"""Hand names as players say them (R-RANK-7): the category with its deciding ranks, and the kickers where a
kicker decided ("pair of jacks, ace kicker", "two pair, kings and sevens", "flush, ace high", "eight-six
low", "seven-five low").

A hand's *groups* are its distinct ranks in order of significance: four of a kind ``[quads, kicker]``, a full
house ``[trips, pair]``, two pair ``[high pair, low pair, kicker]``, a flush or no-pair hand its five ranks
highest first, a straight its top card. A name always says the category's own groups (the pair's rank, both
pairs, the flush's top card); :func:`deciding_depth` says how many groups must be named to tell a hand from
the rivals it beat or tied (a tie names every group: the kickers played too).

>>> from engine.evaluate.high import HIGH_CLASSES
>>> from engine.cards import parse_cards
>>> from engine.evaluate import evaluate_high
>>> jacks_ace = HIGH_CLASSES[evaluate_high(parse_cards("Jh Jd As 9c 4d")).strength - 1]
>>> jacks_king = HIGH_CLASSES[evaluate_high(parse_cards("Jc Js Kh 9d 4h")).strength - 1]
>>> class_name(jacks_ace), class_name(jacks_ace, deciding_depth(jacks_ace, [jacks_king]))
('pair of jacks', 'pair of jacks, ace kicker')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from engine.cards import Rank
from engine.evaluate.classes import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    HandClass,
)

_OWN_GROUPS: Final = {HIGH_CARD: 1, ONE_PAIR: 1, TWO_PAIR: 2, THREE_OF_A_KIND: 1, STRAIGHT: 1, FLUSH: 1,
                      FULL_HOUSE: 2, FOUR_OF_A_KIND: 1, STRAIGHT_FLUSH: 1}
"""How many groups a category's name always says (a pair's rank, both pairs, a flush's top card…)."""
OWN_GROUPS: Final = _OWN_GROUPS
LOW_OWN_GROUPS: Final = 2
"""A low is named by its two highest cards at least ("eight-six low")."""


def rank_word(rank_index: int, plural: bool = False) -> str:
    """Rank index 0 (deuce) … 12 (ace) in words; ``-1`` is the ace playing low (ace-to-five lows).

    >>> rank_word(12), rank_word(4, plural=True), rank_word(-1)
    ('ace', 'sixes', 'ace')
    """
    rank = Rank(14 if rank_index < 0 else rank_index + 2)
    return rank.plural if plural else rank.english


def groups(hand_class: HandClass) -> list[int]:
    """The class's distinct ranks, most significant first (a straight: its top card only).

    >>> groups(HandClass(TWO_PAIR, (11, 11, 7, 7, 12), False)), groups(HandClass(STRAIGHT, (3, 2, 1, 0, 12), False))
    ([11, 7, 12], [3])
    """
    if hand_class.category in (STRAIGHT, STRAIGHT_FLUSH):
        return [hand_class.ranks[0]]
    seen: list[int] = []
    for rank in hand_class.ranks:
        if rank not in seen:
            seen.append(rank)
    return seen


def deciding_depth(own: HandClass, rivals: Iterable[HandClass], *, own_groups: int | None = None) -> int:
    """How many of ``own``'s groups a name needs to tell it from ``rivals`` of the same category: the
    category's own groups, one more past the last group shared with a rival, every group when a rival ties."""
    mine = groups(own)
    depth = _OWN_GROUPS[own.category] if own_groups is None else own_groups
    for rival in rivals:
        if rival.category != own.category:
            continue
        theirs = groups(rival)
        shared = next((index for index, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b), len(mine))
        depth = max(depth, min(len(mine), shared + 1))
    return min(depth, len(mine))


def _kickers(ranks: Sequence[int]) -> str:
    if not ranks:
        return ""
    words = "-".join(rank_word(rank) for rank in ranks)
    return f", {words} kicker" + ("s" if len(ranks) > 1 else "")


def class_name(hand_class: HandClass, depth: int | None = None, *, royal: bool = True) -> str:
    """The high-hand name of ``hand_class`` naming ``depth`` groups (default: the category's own).

    >>> class_name(HandClass(FULL_HOUSE, (11, 11, 11, 7, 7), False))
    'full house, kings full of nines'
    >>> class_name(HandClass(TWO_PAIR, (11, 11, 7, 7, 12), False), 3)
    'two pair, kings and nines, ace kicker'
    >>> class_name(HandClass(HIGH_CARD, (12, 11, 7, 3, 0), False), 2)
    'ace-king high'
    >>> class_name(HandClass(FLUSH, (12, 9, 7, 3, 0), True))
    'flush, ace high'
    """
    category = hand_class.category
    named = groups(hand_class)
    depth = _OWN_GROUPS[category] if depth is None else max(depth, _OWN_GROUPS[category])
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        if category == STRAIGHT_FLUSH and royal and named[0] == 12:
            return "royal flush"
        kind = "straight" if category == STRAIGHT else "straight flush"
        return f"{kind}, {rank_word(named[0])} high"
    if category in (HIGH_CARD, FLUSH):
        high = "-".join(rank_word(rank) for rank in named[:depth]) + " high"
        return high if category == HIGH_CARD else f"flush, {high}"
    if category == ONE_PAIR:
        return f"pair of {rank_word(named[0], True)}" + _kickers(named[1:depth])
    if category == TWO_PAIR:
        return f"two pair, {rank_word(named[0], True)} and {rank_word(named[1], True)}" + _kickers(named[2:depth])
    if category == THREE_OF_A_KIND:
        return f"three {rank_word(named[0], True)}" + _kickers(named[1:depth])
    if category == FULL_HOUSE:
        return f"full house, {rank_word(named[0], True)} full of {rank_word(named[1], True)}"
    return f"four {rank_word(named[0], True)}" + _kickers(named[1:depth])


def low_words(ranks: Sequence[int], depth: int = LOW_OWN_GROUPS) -> str:
    """A no-pair low by its highest ``depth`` cards (rank indexes, ``-1`` an ace playing low).

    >>> low_words([5, 3, 2, 1, 0]), low_words([6, 4, 3, 1, -1], 3)
    ('seven-five low', 'eight-six-five low')
    """
    return "-".join(rank_word(rank) for rank in ranks[:max(depth, LOW_OWN_GROUPS)]) + " low"


def deuce_to_seven_name(hand_class: HandClass, depth: int | None = None) -> str:
    """A deuce-to-seven hand (R-RANK-4): a no-pair hand is a low by its top cards ("seven-five low"); pairs,
    straights and flushes are named as high hands (they count against the low; an ace-high straight flush is
    no royal flush here, just the worst hand).

    >>> deuce_to_seven_name(HandClass(HIGH_CARD, (5, 3, 2, 1, 0), False))
    'seven-five low'
    """
    if hand_class.category == HIGH_CARD:
        return low_words(hand_class.ranks, LOW_OWN_GROUPS if depth is None else depth)
    return class_name(hand_class, depth, royal=False)


def low_depth(own: Sequence[int], rivals: Iterable[Sequence[int]]) -> int:
    """How many cards of the low ``own`` (ranks, highest first) tell it from ``rivals``, at least two."""
    depth = LOW_OWN_GROUPS
    for rival in rivals:
        shared = next((index for index, (a, b) in enumerate(zip(own, rival, strict=False)) if a != b), len(own))
        depth = max(depth, min(len(own), shared + 1))
    return depth
