"""The 32-card ranking (R-RANK-5) and the Telesina heads-up exception (R-RANK-6).

32-card poker draw, Americana and Telesina use the sevens-to-aces deck. A flush beats a full house;
the lowest straight is A-7-8-9-T (the ace plays below the seven), the highest A-K-Q-J-T. Suits break
every tie — hearts > diamonds > clubs > spades — so two different hands never tie.

Which card decides a suit tie: the rulebooks name the unpaired cards first (the highest kicker's suit
decides between equal pairs; the top card's suit between equal straights, flushes and no-pair hands)
and, when those are the same cards (Telesina's shared "vela"), the highest pair's suit. So the cards
are compared suit by suit in this order: unpaired cards from highest to lowest (a straight from its top
card, A-7-8-9-T ending with the ace), then the pairs from highest, then trips, then quads; inside a
rank, the higher suit first. Every distinct five-card hand thus gets a distinct strength:
``class_strength * 1024 + suit_code`` where ``class_strength`` (1..840) is the suit-blind class and
``suit_code`` the five suits in that order as base-4 digits (hearts 3 … spades 0).

R-RANK-6: in Telesina, when exactly two players contest a pot, the lowest straight flush (A-7-8-9-T)
beats the royal flush; :func:`compare_thirty_two` applies it with ``heads_up=True``. (That makes the
order intransitive, which is why it is a comparison and not a strength.)

>>> from engine.cards import parse_cards
>>> low = evaluate_thirty_two(parse_cards("Ts 9s 8s 7s As"))
>>> royal = evaluate_thirty_two(parse_cards("Ah Kh Qh Jh Th"))
>>> low.category, royal.category
('straight flush', 'royal flush')
>>> compare_thirty_two(low, royal), compare_thirty_two(low, royal, heads_up=True)
(-1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from engine.cards import Card
from engine.evaluate.classes import (
    CATEGORY_NAMES,
    FLUSH_OVER_FULL_HOUSE_ORDER,
    HandClass,
    hand_classes,
    straights_from,
)
from engine.evaluate.encoding import CARD_KEY, FLUSH_BITS, SUIT_BITS, SUIT_OFFSET, checked_cards, rank_key
from engine.evaluate.high import cards_for_class
from engine.evaluate.value import HandValue

SUIT_CODE_SPAN: Final = 4**5
ROYAL_FLUSH_CLASS: Final = 840
"""The royal flush's class strength: the number of suit-blind classes (checked against :func:`thirty_two_classes`
by the tests; a constant so importing this module builds nothing)."""
LOWEST_STRAIGHT_FLUSH_CLASS: Final = 836
"""A-7-8-9-T suited: the lowest straight flush's class strength (R-RANK-6)."""
SUIT_VALUE: Final = (1, 2, 3, 0)
"""Suit tie-break value by Card suit (clubs, diamonds, hearts, spades): hearts > diamonds > clubs > spades."""

_PLAIN: Final[dict[int, int]] = {}
_SUITED: Final[dict[int, int]] = {}
_CLASSES: list[tuple[HandClass, ...]] = []


def thirty_two_classes() -> tuple[HandClass, ...]:
    """The 840 suit-blind classes of the 32-card deck, worst first (class strength ``c`` is index ``c - 1``).

    Built on first use (a 32-card game is rare: clients and rooms that never deal one never pay for it)."""
    if not _CLASSES:
        classes = tuple(hand_classes(range(5, 13), straights_from(5, 12, ace_low=True), FLUSH_OVER_FULL_HOUSE_ORDER))
        for strength, hand_class in enumerate(classes, 1):
            (_SUITED if hand_class.flush else _PLAIN)[rank_key(hand_class.ranks)] = strength
        _CLASSES.append(classes)
    return _CLASSES[0]


def __getattr__(name: str) -> object:
    if name == "THIRTY_TWO_CLASSES":  # the table's old module-level name, built on first access
        return thirty_two_classes()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _class_strength(five: Sequence[int]) -> int:
    a, b, c, d, e = five
    key = CARD_KEY[a] + CARD_KEY[b] + CARD_KEY[c] + CARD_KEY[d] + CARD_KEY[e] + SUIT_OFFSET
    return (_SUITED if key & FLUSH_BITS else _PLAIN)[key >> SUIT_BITS]


def _tie_break_order(five: Sequence[int], hand_class: HandClass) -> list[int]:
    """The five cards in suit tie-break order (see the module docstring)."""
    first_position: dict[int, int] = {}
    counts: dict[int, int] = {}
    for position, rank in enumerate(hand_class.ranks):
        first_position.setdefault(rank, position)
        counts[rank] = counts.get(rank, 0) + 1
    ordered: list[int] = []
    for rank in sorted(counts, key=lambda rank: (counts[rank], first_position[rank])):
        ordered.extend(sorted((card for card in five if card >> 2 == rank), key=lambda card: -SUIT_VALUE[card & 3]))
    return ordered


def _strength_of_five(five: Sequence[int], class_strength: int) -> int:
    code = 0
    for card in _tie_break_order(five, thirty_two_classes()[class_strength - 1]):
        code = code * 4 + SUIT_VALUE[card & 3]
    return class_strength * SUIT_CODE_SPAN + code


def _best_five(cards: Sequence[int]) -> tuple[int, Sequence[int]]:
    """(strength, five cards) of the best five-card hand in 5 to 7 32-deck cards."""
    if not _PLAIN:
        thirty_two_classes()
    scored = [(_class_strength(five), five) for five in combinations(cards, 5)]
    top_class = max(class_strength for class_strength, _ in scored)
    return max(
        ((_strength_of_five(five, class_strength), five) for class_strength, five in scored
         if class_strength == top_class),
        key=lambda pair: pair[0],
    )


def thirty_two_strength(cards: Sequence[int]) -> int:
    """Strength of the best 32-card hand in 5 to 7 cards (R-RANK-5): distinct hands never tie.

    Fast path: ints (all of rank seven or higher), not validated.

    >>> thirty_two_strength([50, 46, 42, 38, 34]) // SUIT_CODE_SPAN == ROYAL_FLUSH_CLASS  # Ah Kh Qh Jh Th
    True
    """
    return _best_five(cards)[0]


def thirty_two_category(strength: int) -> str:
    """English category of a 32-card strength: ``"royal flush"`` … ``"high card"``."""
    class_strength = strength // SUIT_CODE_SPAN
    if not 1 <= class_strength <= ROYAL_FLUSH_CLASS:
        raise ValueError(f"{strength} is not a 32-card hand strength")
    if class_strength == ROYAL_FLUSH_CLASS:
        return "royal flush"
    return CATEGORY_NAMES[thirty_two_classes()[class_strength - 1].category]


def evaluate_thirty_two(cards: Sequence[Card]) -> HandValue:
    """Best hand of 5 to 7 cards from the 32-card deck (R-RANK-5).

    ``strength`` totally orders all hands (suits break ties); ``cards`` are the five used, most
    significant first. ``ValueError`` names a card below seven, a non-card, a wrong count or a duplicate.

    >>> from engine.cards import parse_cards
    >>> ace_of_hearts = evaluate_thirty_two(parse_cards("Kh Kc 9d 9s Ah"))
    >>> ace_of_spades = evaluate_thirty_two(parse_cards("Kd Ks 9h 9c As"))
    >>> ace_of_hearts.category, ace_of_hearts > ace_of_spades  # same ranks: the kicker's suit decides
    ('two pair', True)
    """
    hand = checked_cards(cards, minimum=5, maximum=7, what="a 32-card hand")
    for card in hand:
        if card >> 2 < 5:
            raise ValueError(f"{card} is not in the 32-card deck (sevens to aces)")
    strength, five = _best_five(hand)
    hand_class = thirty_two_classes()[strength // SUIT_CODE_SPAN - 1]
    ordered = cards_for_class(sorted(five, key=lambda card: -SUIT_VALUE[card & 3]), hand_class)
    return HandValue(strength, thirty_two_category(strength), ordered)


def compare_thirty_two(first: HandValue, second: HandValue, *, heads_up: bool = False) -> int:
    """``1`` if ``first`` wins, ``-1`` if ``second`` wins, ``0`` for the very same hand (R-RANK-5, R-RANK-6).

    ``heads_up=True`` is for a Telesina pot contested by exactly two players: then the lowest straight
    flush (A-7-8-9-T) beats the royal flush. Other 32-card games (draw, Americana) never set it.
    """
    if heads_up:
        first_class, second_class = first.strength // SUIT_CODE_SPAN, second.strength // SUIT_CODE_SPAN
        if (first_class, second_class) == (LOWEST_STRAIGHT_FLUSH_CLASS, ROYAL_FLUSH_CLASS):
            return 1
        if (first_class, second_class) == (ROYAL_FLUSH_CLASS, LOWEST_STRAIGHT_FLUSH_CLASS):
            return -1
    return (first.strength > second.strength) - (first.strength < second.strength)
