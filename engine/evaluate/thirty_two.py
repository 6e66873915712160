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
    FLUSH,
    FLUSH_OVER_FULL_HOUSE_ORDER,
    HIGH_CARD,
    ONE_PAIR,
    HandClass,
    hand_classes,
    straights_from,
)
from engine.evaluate.encoding import CARD_KEY, FLUSH_BITS, SUIT_BITS, SUIT_OFFSET, checked_cards, class_tables
from engine.evaluate.high import cards_for_class
from engine.evaluate.names import rank_word
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
        plain, suited = class_tables(classes)
        _PLAIN.update(plain)
        _SUITED.update(suited)
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


# ---------------------------------------------------------------- Telesina's own ties and Americana's splits
#
# R-RANK-5 (decision of turn 2): each 32-card game follows its own section of the Caradepoker rulebook
# (seeds/004). 32-card draw: the strengths above (suits break every tie). Americana: equal hands split, so its
# strength is the suit-blind class alone (:func:`americana_strength`). Telesina (:func:`telesina_strength`), its
# "Calsificación de manos" list:
# - a flush beats a flush by the higher suit (hearts > diamonds > clubs > spades), not by rank;
# - high card: card by card, by rank and then suit ("A♥ Q♣ beats A♦ K♣");
# - one pair: the pair's rank, then the unpaired cards card by card by rank and then suit (the highest kicker
#   decides, its suit when the ranks are equal), then the pair's suits;
# - straights and straight flushes by the top card, then its suit; two pair by the pairs, the kicker, then (the
#   vela case: the same kicker) the suit of the highest pair — the suit order of the 32-card draw strengths
#   already says exactly that, and so does it for trips, full houses and quads (they cannot tie in rank).

_CLASS_SPAN: Final = 1024
"""A Telesina strength keeps the hand's suit-blind class (1..840) in its lowest digits (base 1024), so names and
the heads-up exception read it back (:func:`telesina_class_strength`); it never changes the order."""
_TELESINA_CATEGORY_SPAN: Final = 64**6 * _CLASS_SPAN
"""Room for one category: a key of six base-64 digits (a rank, a suit, or rank * 4 + suit), then the class."""
_TELESINA_TOP: Final = 9 * _TELESINA_CATEGORY_SPAN
"""Above every Telesina strength: where R-RANK-6 puts the lowest straight flush when it meets the royal flush."""


def _card_value(card: int) -> int:
    """Rank then suit, as one comparable number (hearts > diamonds > clubs > spades)."""
    return (card >> 2) * 4 + SUIT_VALUE[card & 3]


def _telesina_five(five: Sequence[int]) -> int:
    """Telesina strength of exactly five cards: ``(category position * key span + key) * 1024 + class``."""
    class_strength = _class_strength(five)
    hand_class = thirty_two_classes()[class_strength - 1]
    category = hand_class.category
    if category == FLUSH:
        digits = [SUIT_VALUE[five[0] & 3], *hand_class.ranks]
    elif category == HIGH_CARD:
        digits = sorted((_card_value(card) for card in five), reverse=True)
    elif category == ONE_PAIR:
        pair = hand_class.ranks[0]
        kickers = sorted((_card_value(card) for card in five if card >> 2 != pair), reverse=True)
        suits = sorted((SUIT_VALUE[card & 3] for card in five if card >> 2 == pair), reverse=True)
        digits = [pair, *kickers, *suits]
    else:
        digits = [_strength_of_five(five, class_strength)]  # the 32-card draw order (one big "digit")
    key = 0
    for digit in digits:
        key = key * 64 + digit
    return FLUSH_OVER_FULL_HOUSE_ORDER[category] * _TELESINA_CATEGORY_SPAN + key * _CLASS_SPAN + class_strength


def telesina_strength(cards: Sequence[int]) -> int:
    """Strength of the best Telesina hand in 5 to 7 cards (own cards and the vela), by Telesina's own ties.

    Fast path: ints (all of rank seven or higher), not validated. Compare strengths of one pot with
    :func:`telesina_heads_up` first when exactly two players contest it (R-RANK-6).

    >>> from engine.cards import parse_cards
    >>> telesina_strength(parse_cards("Ah Qc Tc 8s 7d")) > telesina_strength(parse_cards("Ad Kc Jd 9s 7s"))
    True
    >>> telesina_strength(parse_cards("7h 8h 9h Jh Qh")) > telesina_strength(parse_cards("As Ks Qs Js 9s"))
    True
    """
    if not _PLAIN:
        thirty_two_classes()
    return max(_telesina_five(five) for five in combinations(cards, 5))


def telesina_class_strength(strength: int) -> int:
    """The suit-blind class strength (1..840, as in ``thirty_two_strength // SUIT_CODE_SPAN``) of a Telesina
    strength."""
    return strength % _CLASS_SPAN


_SUIT_WORDS: Final = {3: "hearts", 2: "diamonds", 1: "clubs", 0: "spades"}
"""Telesina's suit order as values (:data:`SUIT_VALUE`): hearts 3 > diamonds 2 > clubs 1 > spades 0."""


def _telesina_digits(strength: int) -> tuple[int, int, list[int]]:
    """``(category position, category, key digits)`` of a Telesina strength (flush, high card, one pair: six
    base-64 digits; other categories one digit, the 32-card draw strength)."""
    position, rest = divmod(strength, _TELESINA_CATEGORY_SPAN)
    key = rest // _CLASS_SPAN
    category = thirty_two_classes()[strength % _CLASS_SPAN - 1].category
    if category not in (FLUSH, HIGH_CARD, ONE_PAIR):
        return position, category, [key]
    digits = []
    for _ in range(6):
        key, digit = divmod(key, 64)
        digits.append(digit)
    return position, category, digits[::-1]


def telesina_suit_words(strength: int, rivals: Sequence[int]) -> str | None:
    """R-RANK-7 for Telesina's own ties: the words naming the suit that decides against ``rivals`` (Telesina
    strengths), or ``None`` when ranks alone decide. A flush beats a flush by its suit ("of hearts"); a hand
    equal in ranks to a rival's is decided by a card's suit ("the ace of hearts decides"; for categories whose
    suit order is the 32-card draw's — straights, two pair, the vela case — "hearts decide").

    >>> from engine.cards import parse_cards
    >>> flush = telesina_strength(parse_cards("7h 8h 9h Jh Qh"))
    >>> other = telesina_strength(parse_cards("As Ks Qs Js 9s"))
    >>> telesina_suit_words(flush, [other]), telesina_suit_words(other, [flush])
    ('of hearts', 'of spades')
    >>> ace = telesina_strength(parse_cards("Ah Qc Tc 8s 7d"))
    >>> telesina_suit_words(ace, [telesina_strength(parse_cards("Ad Qd Tc 8s 7d"))])
    'the ace of hearts decides'
    >>> telesina_suit_words(ace, [telesina_strength(parse_cards("Ad Kc Jd 9s 7s"))])  # A♥ Q♣ beats A♦ K♣
    'the ace of hearts decides'
    >>> telesina_suit_words(ace, [telesina_strength(parse_cards("Kd Qd Tc 8s 7d"))]) is None
    True
    """
    position, category, mine = _telesina_digits(strength)
    own_class = telesina_class_strength(strength)
    for rival in rivals:
        rival_position, _, theirs = _telesina_digits(rival)
        if rival_position != position:
            continue
        if category == FLUSH:
            return f"of {_SUIT_WORDS[mine[0]]}"
        if rival == strength:
            continue
        if category in (HIGH_CARD, ONE_PAIR):  # card by card, rank then suit: the first card that differs
            index, own_digit, rival_digit = next((index, own, other) for index, (own, other)
                                                 in enumerate(zip(mine, theirs, strict=True)) if own != other)
            if category == ONE_PAIR and index == 0:
                continue  # the pair's rank decides
            if category == ONE_PAIR and index > 3:
                return f"{_SUIT_WORDS[own_digit]} decide"  # the vela case: the pair's own suits
            rank, suit = divmod(own_digit, 4)
            if rank == rival_digit // 4:
                return f"the {rank_word(rank)} of {_SUIT_WORDS[suit]} decides"
            continue
        if telesina_class_strength(rival) != own_class:
            continue
        code, rival_code = mine[0] % SUIT_CODE_SPAN, theirs[0] % SUIT_CODE_SPAN
        for shift in range(8, -1, -2):  # the first suit of the 32-card draw order that differs
            own_suit, rival_suit = code >> shift & 3, rival_code >> shift & 3
            if own_suit != rival_suit:
                return f"{_SUIT_WORDS[own_suit]} decide"
    return None


def telesina_category(strength: int) -> str:
    """English category of a :func:`telesina_strength`: ``"royal flush"`` … ``"high card"``."""
    return thirty_two_category(telesina_class_strength(strength) * SUIT_CODE_SPAN)


def telesina_heads_up(first: int, second: int) -> tuple[int, int]:
    """R-RANK-6: the two Telesina strengths of a pot contested by exactly two players, the lowest straight flush
    (A-7-8-9-T) lifted above the royal flush when those two meet; otherwise unchanged."""
    classes = (telesina_class_strength(first), telesina_class_strength(second))
    if classes == (LOWEST_STRAIGHT_FLUSH_CLASS, ROYAL_FLUSH_CLASS):
        return _TELESINA_TOP, second
    if classes == (ROYAL_FLUSH_CLASS, LOWEST_STRAIGHT_FLUSH_CLASS):
        return first, _TELESINA_TOP
    return first, second


def americana_strength(cards: Sequence[int]) -> int:
    """Strength of the best Americana hand in 5 to 7 cards: the 32-card ranking without suits, so equal hands
    tie and split the pot ("se repartirán el bote"). Same scale as :func:`thirty_two_strength` (its suit part 0).

    >>> from engine.cards import parse_cards
    >>> americana_strength(parse_cards("Kh Qd Jc 9s 8h")) == americana_strength(parse_cards("Kd Qc Js 9h 8d"))
    True
    """
    return thirty_two_strength(cards) // SUIT_CODE_SPAN * SUIT_CODE_SPAN
