"""High hands (R-RANK-1) and best-of with must-use hole counts (R-RANK-2).

A high hand's *strength* is its class number, 1 (7-5-4-3-2 of mixed suits) to 7,462 (royal flush):
higher is better, equal strengths split. Two tables built at import give it:

* ``_PLAIN``: rank key (see :mod:`engine.evaluate.encoding`) of 5, 6 or 7 cards → best strength
  ignoring flushes; built for five cards from :func:`~engine.evaluate.classes.hand_classes`, then
  grown to six and seven cards (a bigger hand is worth its best five-card subset).
* ``_SUITED``: rank key of 5 to 7 cards of one suit → best flush or straight flush.

With at most 7 cards a flush cannot coexist with quads or a full house, so a hand holding five of a
suit is always worth its suited table entry.

>>> from engine.cards import parse_cards
>>> value = evaluate_high(parse_cards("Ah Kh Qh Jh Th 2c 2d"))
>>> value.strength, value.category
(7462, 'royal flush')
>>> high_strength([int(card) for card in parse_cards("7c 5d 4h 3s 2c")])
1
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import combinations
from operator import itemgetter
from typing import Final

from engine.cards import Card, check_distinct
from engine.evaluate.classes import (
    CATEGORY_NAMES,
    HandClass,
    hand_classes,
    straights_from,
)
from engine.evaluate.encoding import (
    CARD_KEY,
    CARD_RANK_WEIGHT,
    FLUSH_BITS,
    FLUSH_SUIT,
    RANK_WEIGHT,
    SUIT_BITS,
    SUIT_OFFSET,
    checked_cards,
    rank_key,
)
from engine.evaluate.value import HandValue

HIGH_CLASSES: Final[tuple[HandClass, ...]] = tuple(hand_classes(range(13), straights_from(0, 12, ace_low=True)))
"""The 7,462 high-hand classes, worst first: strength ``s`` is ``HIGH_CLASSES[s - 1]``."""

MAX_HIGH_STRENGTH: Final = len(HIGH_CLASSES)
ROYAL_FLUSH_STRENGTH: Final = MAX_HIGH_STRENGTH

_CATEGORY_STARTS: Final = tuple(
    strength for strength, hand_class in enumerate(HIGH_CLASSES, 1)
    if strength == 1 or hand_class.category != HIGH_CLASSES[strength - 2].category
)
_CATEGORY_OF_START: Final = tuple(HIGH_CLASSES[start - 1].category for start in _CATEGORY_STARTS)


def _grown(five_card_table: dict[int, int], *, extra_cards: int) -> dict[int, int]:
    """Extend a five-card rank-key table to hands of 6 .. 5 + ``extra_cards`` cards.

    A hand of n + 1 cards is worth the best of its n-card subsets. Visiting the smaller hands in
    increasing strength and overwriting leaves the maximum in every slot. Adding a fifth card of one
    rank (or a second of one suit, for the suited table) makes a key no real hand produces, so those
    leftovers are harmless.
    """
    table = dict(five_card_table)
    current = five_card_table
    for _ in range(extra_cards):
        bigger: dict[int, int] = {}
        for key, strength in sorted(current.items(), key=itemgetter(1)):
            for weight in RANK_WEIGHT:
                bigger[key + weight] = strength
        table.update(bigger)
        current = bigger
    return table


def _build_tables() -> tuple[dict[int, int], dict[int, int]]:
    plain: dict[int, int] = {}
    suited: dict[int, int] = {}
    for strength, hand_class in enumerate(HIGH_CLASSES, 1):
        (suited if hand_class.flush else plain)[rank_key(hand_class.ranks)] = strength
    return _grown(plain, extra_cards=2), _grown(suited, extra_cards=2)


_PLAIN, _SUITED = _build_tables()


def high_strength(cards: Sequence[int]) -> int:
    """Strength (1..7462, higher better) of the best high hand in 5, 6 or 7 cards (R-RANK-1).

    The fast path for simulations: ``cards`` are ``int`` 0..51 (``Card`` works too), not validated —
    duplicates give nonsense. ``ValueError`` only for a count outside 5..7.

    >>> high_strength([48, 49, 50, 51, 0])  # four aces, deuce kicker
    7441
    """
    keys = CARD_KEY
    count = len(cards)
    # 0x3333 is SUIT_OFFSET and 0x8888 FLUSH_BITS, spelled as literals (and CARD_KEY as a local) because
    # constants and locals load faster than globals in a function simulations call millions of times.
    if count == 7:
        a, b, c, d, e, f, g = cards
        key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e] + keys[f] + keys[g] + 0x3333
    elif count == 5:
        a, b, c, d, e = cards
        key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e] + 0x3333
    elif count == 6:
        a, b, c, d, e, f = cards
        key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e] + keys[f] + 0x3333
    else:
        raise ValueError(f"a high hand needs 5 to 7 cards, got {count}")
    if key & 0x8888:
        suit = FLUSH_SUIT[key & 0x8888]
        return _SUITED[sum([CARD_RANK_WEIGHT[card] for card in cards if card & 3 == suit])]
    return _PLAIN[key >> 16]


assert (SUIT_OFFSET, FLUSH_BITS, SUIT_BITS) == (0x3333, 0x8888, 16), "high_strength spells these as literals"


def _part_keys(cards: Sequence[int], size: int) -> set[int]:
    """Rank keys of every ``size``-card subset of ``cards`` (duplicates merged)."""
    weight = CARD_RANK_WEIGHT
    if size == 2:
        return {weight[a] + weight[b] for a, b in combinations(cards, 2)}
    if size == 3:
        return {weight[a] + weight[b] + weight[c] for a, b, c in combinations(cards, 3)}
    return {sum([weight[card] for card in part]) for part in combinations(cards, size)}


def omaha_high_strength(hole: Sequence[int], board: Sequence[int], must_use_hole: int = 2) -> int:
    """Strength of the best high hand using exactly ``must_use_hole`` hole cards and the rest from the board.

    R-RANK-2: Omaha and 5-card Omaha use 2 hole + 3 board (``must_use_hole=2``); the 5-card Omaha house
    rule uses 3 + 2. Fast path: ints, no validation; ``ValueError`` if no five-card hand can be formed.

    >>> omaha_high_strength([48, 49, 0, 4], [50, 51, 44, 40, 8])  # two aces from the hole: quads
    7452
    """
    board_size = 5 - must_use_hole
    if not 0 <= board_size <= 5 or len(hole) < must_use_hole or len(board) < board_size:
        raise ValueError(
            f"cannot use exactly {must_use_hole} of {len(hole)} hole cards"
            f" with {board_size} of {len(board)} board cards"
        )
    hole_keys = _part_keys(hole, must_use_hole)
    board_keys = _part_keys(board, board_size)
    plain = _PLAIN
    best = max([plain[hole_key + board_key] for hole_key in hole_keys for board_key in board_keys])
    for suit in range(4):
        suited_board = [card for card in board if card & 3 == suit]
        if len(suited_board) < board_size:
            continue
        suited_hole = [card for card in hole if card & 3 == suit]
        if len(suited_hole) < must_use_hole:
            continue
        suited = _SUITED
        suited_board_keys = _part_keys(suited_board, board_size)
        best = max(
            best,
            *[suited[hole_key + board_key] for hole_key in _part_keys(suited_hole, must_use_hole)
              for board_key in suited_board_keys],
        )
    return best


def high_category(strength: int) -> str:
    """English category of a high-hand strength: ``"royal flush"`` … ``"high card"``.

    >>> high_category(7462), high_category(7461), high_category(1)
    ('royal flush', 'straight flush', 'high card')
    """
    if not 1 <= strength <= MAX_HIGH_STRENGTH:
        raise ValueError(f"a high-hand strength is 1..{MAX_HIGH_STRENGTH}, got {strength}")
    if strength == ROYAL_FLUSH_STRENGTH:
        return "royal flush"
    return CATEGORY_NAMES[_CATEGORY_OF_START[bisect_right(_CATEGORY_STARTS, strength) - 1]]


def cards_for_class(cards: Iterable[int], hand_class: HandClass) -> tuple[Card, ...]:
    """The five of ``cards`` that make ``hand_class``, most significant first.

    Among cards of equal rank the earliest in ``cards`` is taken, so callers list hole cards first to
    report the hole cards as playing whenever they can (R-JACK-1 asks whether both hole cards play).
    """
    pool = list(cards)
    if hand_class.flush:
        suit_counts = [0, 0, 0, 0]
        for card in pool:
            suit_counts[card & 3] += 1
        suit = suit_counts.index(max(suit_counts))
        pool = [card for card in pool if card & 3 == suit]
    used: list[Card] = []
    for rank in hand_class.ranks:
        for index, card in enumerate(pool):
            if card >> 2 == rank:
                used.append(Card(pool.pop(index)))
                break
        else:  # pragma: no cover - the strength came from these very cards
            raise AssertionError(f"no card of rank index {rank} left for {hand_class}")
    return tuple(used)


def _value(cards: tuple[Card, ...], strength: int) -> HandValue:
    return HandValue(strength, high_category(strength), cards_for_class(cards, HIGH_CLASSES[strength - 1]))


def evaluate_high(cards: Sequence[Card]) -> HandValue:
    """Best high hand of 5, 6 or 7 cards (R-RANK-1).

    Returns the strength (1..7462, higher better), the English category and the five cards used, most
    significant first. ``ValueError`` names a non-card, a wrong count or a duplicate.

    >>> from engine.cards import parse_cards, format_cards
    >>> value = evaluate_high(parse_cards("5s 4d 3c 2h Ad Kc Kd"))
    >>> value.category, format_cards(value.cards)
    ('straight', '5s 4d 3c 2h Ad')
    """
    hand = checked_cards(cards, minimum=5, maximum=7, what="a high hand")
    return _value(hand, high_strength(hand))


def best_high(hole: Sequence[Card], board: Sequence[Card], *, must_use_hole: int | None = None) -> HandValue:
    """Best high hand from hole cards and a board (R-RANK-2).

    ``must_use_hole=None``: any five of all the cards (hold'em, stud, draw; 5 to 7 cards in all).
    ``must_use_hole=2``: exactly 2 hole + 3 board (Omaha, 5-card Omaha); ``3``: 3 hole + 2 board (the
    5-card Omaha house rule). Hole cards are preferred among equal cards in the reported five.
    ``ValueError`` names a non-card, a duplicate or a wrong card count.

    >>> from engine.cards import parse_cards, format_cards
    >>> value = best_high(parse_cards("As Ks 2d 2c"), parse_cards("Qs Js Ts 9s 8s"), must_use_hole=2)
    >>> value.category, format_cards(value.cards)
    ('royal flush', 'As Ks Qs Js Ts')
    """
    if must_use_hole is None:
        hand = checked_cards(tuple(hole) + tuple(board), minimum=5, maximum=7, what="a hold'em or stud hand")
        return _value(hand, high_strength(hand))
    hole_cards, board_cards = _checked_split(hole, board, must_use_hole)
    strength = omaha_high_strength(hole_cards, board_cards, must_use_hole)
    for hole_part in combinations(hole_cards, must_use_hole):
        for board_part in combinations(board_cards, 5 - must_use_hole):
            five = hole_part + board_part
            if high_strength(five) == strength:
                return _value(five, strength)
    raise AssertionError("the best combination was not found again")  # pragma: no cover


def _checked_split(
    hole: Sequence[Card], board: Sequence[Card], must_use_hole: int
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Validate hole and board for a must-use game; ``ValueError`` names the problem."""
    if must_use_hole not in (2, 3):
        raise ValueError(f"must_use_hole must be None, 2 or 3, got {must_use_hole!r}")
    board_size = 5 - must_use_hole
    hole_cards = checked_cards(hole, minimum=must_use_hole, maximum=6, what=f"a hand using {must_use_hole} hole cards")
    board_cards = checked_cards(board, minimum=board_size, maximum=5, what=f"a board giving {board_size} cards")
    check_distinct(hole_cards + board_cards)
    return hole_cards, board_cards
