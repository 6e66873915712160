"""Cards, ranks, suits and decks (R-CARD-1).

A :class:`Card` is a small ``int`` (0..51): ``(rank - 2) * 4 + suit``. Being an ``int`` lets the
evaluators index tables with it directly, while ``str(card)`` still reads ``"As"``.

>>> parse_cards("As Kd 10h")
(Card('As'), Card('Kd'), Card('Th'))
>>> str(Card.of(Rank.ACE, Suit.SPADES))
'As'
>>> len(full_deck()), len(short_deck())
(52, 32)
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Final


class Rank(IntEnum):
    """Card ranks, valued 2 (deuce) to 14 (ace)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """One-character symbol: ``"2"``..``"9"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``."""
        return _RANK_SYMBOLS[self - 2]

    @property
    def english(self) -> str:
        """English name, e.g. ``"ace"``; plural with :attr:`plural`."""
        return _RANK_NAMES[self - 2]

    @property
    def plural(self) -> str:
        """English plural, e.g. ``"sixes"``, ``"aces"``."""
        return "sixes" if self is Rank.SIX else self.english + "s"


class Suit(IntEnum):
    """Suits. The integer order is the dealer-draw order of R-DEAL-1: spades > hearts > diamonds > clubs."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """Lower-case letter: ``"c"``, ``"d"``, ``"h"``, ``"s"``."""
        return "cdhs"[self]

    @property
    def glyph(self) -> str:
        """Unicode suit glyph: ``"♣"``, ``"♦"``, ``"♥"``, ``"♠"``."""
        return "♣♦♥♠"[self]


_RANK_SYMBOLS: Final = "23456789TJQKA"
_RANK_NAMES: Final = (
    "deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace",
)
_SUIT_BY_TEXT: Final = {
    "c": Suit.CLUBS, "d": Suit.DIAMONDS, "h": Suit.HEARTS, "s": Suit.SPADES,
    "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES,
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES,
}
_RANK_BY_TEXT: Final = {symbol: Rank(index + 2) for index, symbol in enumerate(_RANK_SYMBOLS)} | {"10": Rank.TEN}


class Card(int):
    """One playing card, an ``int`` in 0..51 equal to ``(rank - 2) * 4 + suit``.

    Build cards with :meth:`Card.of`, :meth:`Card.parse` or :func:`parse_cards`; the 52 instances are
    shared, so ``Card.parse("As") is Card.parse("As")``.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise ValueError(f"card index must be 0..51, got {index}")
        return _CARDS[index] if _CARDS else super().__new__(cls, index)

    @staticmethod
    def of(rank: Rank | int, suit: Suit | int) -> Card:
        """The card of ``rank`` (2..14) and ``suit`` (0..3); ``ValueError`` if either is out of range."""
        if not 2 <= rank <= 14 or not 0 <= suit <= 3:
            raise ValueError(f"no card with rank {rank} and suit {suit}")
        return _CARDS[(rank - 2) * 4 + suit]

    @staticmethod
    def parse(text: str) -> Card:
        """Read one card such as ``"As"``, ``"td"``, ``"10h"`` or ``"Q♥"``; ``ValueError`` names a bad token."""
        token = text.strip()
        rank = _RANK_BY_TEXT.get(token[:-1].upper())
        suit = _SUIT_BY_TEXT.get(token[-1:].lower())
        if rank is None or suit is None:
            raise ValueError(f"{text!r} is not a card (expected rank 2-9/T/J/Q/K/A and suit s/h/d/c, e.g. 'As')")
        return _CARDS[(rank - 2) * 4 + suit]

    @property
    def rank(self) -> Rank:
        """The card's :class:`Rank`."""
        return _RANKS[self >> 2]

    @property
    def suit(self) -> Suit:
        """The card's :class:`Suit`."""
        return _SUITS[self & 3]

    def __str__(self) -> str:
        return _RANK_SYMBOLS[self >> 2] + "cdhs"[self & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """Rank and suit glyph, e.g. ``"A♠"``."""
        return _RANK_SYMBOLS[self >> 2] + "♣♦♥♠"[self & 3]


_RANKS: Final = tuple(Rank(value) for value in range(2, 15))
_SUITS: Final = tuple(Suit)
_CARDS: tuple[Card, ...] = ()
_CARDS = tuple(Card(index) for index in range(52))

_TOKEN = re.compile(r"(10|[2-9TJQKAtjqka])([shdcSHDC♠♥♦♣♤♡♢♧])")


def parse_cards(text: str, *, allow_duplicates: bool = False) -> tuple[Card, ...]:
    """Read cards written with or without spaces or commas: ``"As Kd"``, ``"AsKd"``, ``"10h,Td"``.

    Raises ``ValueError`` naming the first unreadable token, or the first repeated card unless
    ``allow_duplicates``.

    >>> parse_cards("AsKd")
    (Card('As'), Card('Kd'))
    >>> parse_cards("As Xd")
    Traceback (most recent call last):
    ...
    ValueError: 'Xd' is not a card (expected rank 2-9/T/J/Q/K/A and suit s/h/d/c, e.g. 'As')
    """
    cards: list[Card] = []
    for word in re.split(r"[\s,]+", text.strip()):
        if not word:
            continue
        position = 0
        while position < len(word):
            match = _TOKEN.match(word, position)
            if match is None:
                bad = word[position:position + 2] if len(word) - position > 3 else word[position:]
                raise ValueError(
                    f"{bad!r} is not a card (expected rank 2-9/T/J/Q/K/A and suit s/h/d/c, e.g. 'As')"
                )
            cards.append(Card.parse(match.group(0)))
            position = match.end()
    if not allow_duplicates:
        check_distinct(cards)
    return tuple(cards)


def check_distinct(cards: tuple[Card, ...] | list[Card]) -> None:
    """Raise ``ValueError`` naming the first card that appears twice."""
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise ValueError(f"duplicate card {card}")
        seen.add(card)


def format_cards(cards: tuple[Card, ...] | list[Card], separator: str = " ") -> str:
    """Write cards as text, e.g. ``"As Kd"``."""
    return separator.join(str(card) for card in cards)


def full_deck() -> tuple[Card, ...]:
    """The 52-card deck in a fixed order (deuce of clubs first, ace of spades last). R-CARD-1."""
    return _CARDS


def short_deck() -> tuple[Card, ...]:
    """The 32-card deck, sevens to aces, in a fixed order. R-CARD-1, R-RANK-5."""
    return tuple(card for card in _CARDS if card >> 2 >= Rank.SEVEN - 2)
