"""Integer encodings of cards that make hand evaluation a sum and one table look-up.

Each card (``Card`` or plain ``int`` 0..51, ``(rank - 2) * 4 + suit``) maps to :data:`CARD_KEY`, an ``int``
whose sum over a hand carries two things at once:

* bits 16 and up: the hand's *rank key*, a base-5 number with one digit per rank (deuce = digit 0 …
  ace = digit 12) counting that rank's cards. A rank appears at most 4 times, so digits never carry and
  the rank key names the rank multiset exactly: it is the key of the rank tables.
* bits 0..15: four 4-bit suit counters (clubs lowest). Adding :data:`SUIT_OFFSET` (3 in every counter)
  makes a counter reach 8 exactly when its suit holds 5 or more cards, so ``key & FLUSH_BITS`` tests
  for a flush in one operation (a counter tops out at 3 + 7 = 10 < 16 for up to 7 cards).

This is why a 7-card evaluation costs seven list look-ups, six additions, one mask test and one dict
look-up in CPython.

>>> from engine.cards import parse_cards
>>> key = sum(CARD_KEY[card] for card in parse_cards("As Ks Qs Js 2s")) + SUIT_OFFSET
>>> bool(key & FLUSH_BITS), FLUSH_SUIT[key & FLUSH_BITS]
(True, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import Card, check_distinct

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


def rank_key(ranks: Sequence[int]) -> int:
    """Base-5 rank key of rank indexes (0 = deuce … 12 = ace).

    >>> rank_key([12, 12, 0])
    488281251
    """
    return sum(RANK_WEIGHT[rank] for rank in ranks)


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
