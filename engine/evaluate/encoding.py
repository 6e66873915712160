"""Integer encodings of cards that make hand evaluation a sum and one table look-up.

Each card (``Card`` or plain ``int`` 0..51, ``(rank - 2) * 4 + suit``) maps to :data:`CARD_KEY`, an ``int``
whose sum over a hand carries two things at once:

* bits 16 and up: the hand's *rank key*, a base-5 number with one digit per rank (deuce = digit 0 …
  ace = digit 12) counting that rank's cards. A rank appears at most 4 times, so digits never carry and
  the rank key names the rank multiset exactly: it is the key of the rank tables.
* bits 0..15: four 4-bit suit counters (clubs lowest). Adding :data:`SUIT_OFFSET` (3 in every counter)
  makes a counter reach 8 exactly when its suit holds 5 or more cards, so ``key & FLUSH_BITS`` tests
  for a flush in one operation (a counter tops out at 3 + 7 = 10 < 16 for up to 7 cards).

The 5-card evaluators (deuce-to-seven, 32-card) and the flush tables use these keys.

The 7-card hot path (:func:`engine.evaluate.high.high_strength`) uses :data:`CARD_COMPACT_KEY` instead:
a rank key from a set whose sums are distinct (not base 5) shifted above 7 bits of suit weights, so a
7-card sum fits in 30 bits; a 128-entry filter (:data:`MAYBE_FLUSH_7`) sends the few hands that may hold
a flush to an exact suit count. Either way an evaluation is a sum and one table look-up.

>>> from engine.cards import parse_cards
>>> key = sum(CARD_KEY[card] for card in parse_cards("As Ks Qs Js 2s")) + SUIT_OFFSET
>>> bool(key & FLUSH_BITS), FLUSH_SUIT[key & FLUSH_BITS]
(True, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import Card, check_distinct
from engine.evaluate.classes import HandClass

RANK_COUNT: Final = 13
SUIT_BITS: Final = 16
RANK_WEIGHT: Final[tuple[int, ...]] = tuple(5**rank for rank in range(RANK_COUNT))
"""Base-5 weight of each rank index (0 = deuce … 12 = ace)."""

CARD_RANK_WEIGHT: Final[tuple[int, ...]] = tuple(RANK_WEIGHT[card >> 2] for card in range(52))
"""Per card: its rank's base-5 weight (the rank key of that card alone)."""

CARD_KEY: Final[tuple[int, ...]] = tuple(
    (RANK_WEIGHT[card >> 2] << SUIT_BITS) + (1 << (4 * (card & 3))) for card in range(52)
)
"""Per card: rank weight shifted above the four suit counters, plus one in its suit's counter."""

SUIT_OFFSET: Final = 0x3333
FLUSH_BITS: Final = 0x8888
FLUSH_SUIT: Final[dict[int, int]] = {0x8: 0, 0x80: 1, 0x800: 2, 0x8000: 3}
"""``key & FLUSH_BITS`` → the suit (0..3) holding five or more cards (at most one can, with ≤ 9 cards)."""


COMPACT_RANK_KEY: Final[tuple[int, ...]] = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
)
"""Per rank index: a key such that two different rank multisets of the same size (5, 6 or 7 cards, at
most 4 of a rank) never have the same sum — a greedy unique-sum set, as used by the SKPokerEval
evaluator; tests/engine/test_evaluate.py rechecks it. The largest 7-card sum is 7,825,759 < 2**23."""

COMPACT_SUIT_BITS: Final = 7
COMPACT_SUIT_WEIGHT: Final = (0, 1, 13, 18)
"""Per suit: a small weight; seven cards sum to at most 126, so the suit part stays in its 7 bits."""

CARD_COMPACT_KEY: Final[tuple[int, ...]] = tuple(
    (COMPACT_RANK_KEY[card >> 2] << COMPACT_SUIT_BITS) + COMPACT_SUIT_WEIGHT[card & 3] for card in range(52)
)
"""Per card: the compact key. A 7-card sum stays below 2**30, a single CPython digit, which keeps the
additions on CPython's fast path (about 60% faster than the two-digit sums of :data:`CARD_KEY`)."""


def _maybe_flush(size: int) -> tuple[bool, ...]:
    """Suit part of a ``size``-card compact sum → could the hand hold five of one suit?

    The suit weights cannot tell every suit distribution apart in 7 bits, so this is a filter: ``True``
    when some distribution with that sum has a flush (the caller then counts suits exactly); ``False``
    proves there is none. For 7 cards about 3.4% of non-flush hands take the exact check.
    """
    possible = [False] * (1 << COMPACT_SUIT_BITS)
    for clubs in range(size + 1):
        for diamonds in range(size + 1 - clubs):
            for hearts in range(size + 1 - clubs - diamonds):
                spades = size - clubs - diamonds - hearts
                counts = (clubs, diamonds, hearts, spades)
                total = sum(count * weight for count, weight in zip(counts, COMPACT_SUIT_WEIGHT, strict=True))
                possible[total] = possible[total] or max(counts) >= 5
    return tuple(possible)


MAYBE_FLUSH_5: Final = _maybe_flush(5)
MAYBE_FLUSH_6: Final = _maybe_flush(6)
MAYBE_FLUSH_7: Final = _maybe_flush(7)


def rank_key(ranks: Sequence[int]) -> int:
    """Base-5 rank key of rank indexes (0 = deuce … 12 = ace).

    >>> rank_key([12, 12, 0])
    488281251
    """
    return sum(RANK_WEIGHT[rank] for rank in ranks)


def compact_rank_key(ranks: Sequence[int]) -> int:
    """Compact rank key of rank indexes: the sum of :data:`COMPACT_RANK_KEY` (without the suit bits)."""
    return sum(COMPACT_RANK_KEY[rank] for rank in ranks)


def checked_cards(cards: Sequence[Card], *, minimum: int, maximum: int, what: str) -> tuple[Card, ...]:
    """Validate a hand and return it as a tuple of :class:`Card`.

    Raises ``ValueError`` naming the problem: text instead of cards, a value that is not a card, the
    wrong number of cards for ``what`` (e.g. ``"a hold'em hand"``), or a duplicate card.
    """
    if isinstance(cards, str):
        raise ValueError(f"{what} needs Card values, not text {cards!r}; read text with engine.cards.parse_cards")
    hand: list[Card] = []
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
            raise ValueError(f"{card!r} is not a card (expected a Card, an int 0..51)")
        hand.append(Card(card))
    if not minimum <= len(hand) <= maximum:
        expected = str(minimum) if minimum == maximum else f"{minimum} to {maximum}"
        raise ValueError(f"{what} needs {expected} cards, got {len(hand)}")
    check_distinct(hand)
    return tuple(hand)


def class_tables(classes: Sequence[HandClass]) -> tuple[dict[int, int], dict[int, int]]:
    """``(plain, suited)``: the base-5 rank key of each class (worst first, strength = index + 1) → its strength,
    the flush classes in ``suited``, the others in ``plain`` (five cards of one suit are looked up in ``suited``)."""
    plain: dict[int, int] = {}
    suited: dict[int, int] = {}
    for strength, hand_class in enumerate(classes, 1):
        (suited if hand_class.flush else plain)[rank_key(hand_class.ranks)] = strength
    return plain, suited
