"""High hands (R-RANK-1) and best-of with must-use hole counts (R-RANK-2).

A high hand's *strength* is its class number, 1 (7-5-4-3-2 of mixed suits) to 7,462 (royal flush):
higher is better, equal strengths split. Tables built at import give it (keys: see
:mod:`engine.evaluate.encoding`):

* ``_COMPACT_5``, ``_COMPACT_6``, ``_COMPACT_7``: compact rank key of 5, 6 or 7 cards → best strength
  ignoring flushes; built for five cards from :func:`~engine.evaluate.classes.hand_classes`, then
  grown to six and seven cards (a bigger hand is worth its best five-card subset).
* ``_PLAIN``: base-5 rank key of 5 cards → strength ignoring flushes (Omaha's parts add up to it).
* ``_SUITED``: base-5 rank key of 5 to 7 cards of one suit → best flush or straight flush.

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
    FOUR_OF_A_KIND,
    HandClass,
    hand_classes,
    straights_from,
)
from engine.evaluate.encoding import (
    CARD_COMPACT_KEY,
    CARD_RANK_WEIGHT,
    COMPACT_RANK_KEY,
    COMPACT_SUIT_BITS,
    MAYBE_FLUSH_5,
    MAYBE_FLUSH_6,
    MAYBE_FLUSH_7,
    RANK_WEIGHT,
    checked_cards,
    compact_rank_key,
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


def _grown_suited(five_card_table: dict[int, int]) -> dict[int, int]:
    """Extend the five-card suited table (base-5 rank keys of five distinct ranks) to six and seven ranks.

    A hand of n + 1 cards is worth the best of its n-card subsets. Visiting the smaller hands in
    increasing strength and overwriting leaves the maximum in every slot. Adding a rank already
    present makes a digit 2, a key no suited hand produces, so those leftovers are harmless.
    """
    table = dict(five_card_table)
    current = five_card_table
    for _ in range(2):
        bigger: dict[int, int] = {}
        for key, strength in sorted(current.items(), key=itemgetter(1)):
            for weight in RANK_WEIGHT:
                bigger[key + weight] = strength
        table.update(bigger)
        current = bigger
    return table


def _grown_compact(entries: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Rank multisets one card bigger, as ``(compact key, strength)`` sorted by strength.

    Same max-by-overwrite idea as :func:`_grown_suited`. A fifth card of a rank must be skipped here,
    because compact sums of impossible multisets may equal real ones; a multiset holds four of a rank
    exactly when its best hand is four of a kind, and that class names the rank.
    """
    bigger: dict[int, int] = {}
    for compact, strength in entries:
        hand_class = HIGH_CLASSES[strength - 1]
        full_rank = hand_class.ranks[0] if hand_class.category == FOUR_OF_A_KIND else -1
        for rank, rank_key_value in enumerate(COMPACT_RANK_KEY):
            if rank != full_rank:
                bigger[compact + rank_key_value] = strength
    return sorted(bigger.items(), key=itemgetter(1))


def _build_tables() -> tuple[dict[int, int], dict[int, int], dict[int, int], dict[int, int], dict[int, int]]:
    """(base-5 five-card plain, compact 5-, 6-, 7-card plain, base-5 suited 5..7) tables."""
    plain: dict[int, int] = {}
    suited: dict[int, int] = {}
    for strength, hand_class in enumerate(HIGH_CLASSES, 1):
        (suited if hand_class.flush else plain)[rank_key(hand_class.ranks)] = strength
    five = {
        compact_rank_key(hand_class.ranks): strength
        for strength, hand_class in enumerate(HIGH_CLASSES, 1) if not hand_class.flush
    }
    six = dict(_grown_compact(sorted(five.items(), key=itemgetter(1))))
    seven = dict(_grown_compact(sorted(six.items(), key=itemgetter(1))))
    if (len(five), len(six), len(seven)) != (6_175, 18_395, 49_205):  # pragma: no cover - guards the key set
        raise AssertionError("compact rank keys collide")
    return plain, five, six, seven, _grown_suited(suited)


_PLAIN, _COMPACT_5, _COMPACT_6, _COMPACT_7, _SUITED = _build_tables()


def high_strength(cards: Sequence[int]) -> int:
    """Strength (1..7462, higher better) of the best high hand in 5, 6 or 7 cards (R-RANK-1).

    The fast path for simulations: ``cards`` are ``int`` 0..51 (``Card`` works too), not validated —
    duplicates give nonsense. ``ValueError`` only for a count outside 5..7.

    >>> high_strength([48, 49, 50, 51, 0])  # four aces, deuce kicker
    7441
    """
    keys = CARD_COMPACT_KEY
    count = len(cards)
    # 127 and 7 are the compact suit mask and shift, spelled as literals (and CARD_COMPACT_KEY read into
    # a local) because constants and locals load faster than globals in a function that simulations
    # call millions of times.
    if count == 7:
        a, b, c, d, e, f, g = cards
        key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e] + keys[f] + keys[g]
        if MAYBE_FLUSH_7[key & 127]:
            strength = _flush_strength(cards)
            if strength:
                return strength
        return _COMPACT_7[key >> 7]
    if count == 5:
        a, b, c, d, e = cards
        key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e]
        if MAYBE_FLUSH_5[key & 127]:
            strength = _flush_strength(cards)
            if strength:
                return strength
        return _COMPACT_5[key >> 7]
    if count == 6:
        a, b, c, d, e, f = cards
        key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e] + keys[f]
        if MAYBE_FLUSH_6[key & 127]:
            strength = _flush_strength(cards)
            if strength:
                return strength
        return _COMPACT_6[key >> 7]
    raise ValueError(f"a high hand needs 5 to 7 cards, got {count}")


def _flush_strength(cards: Sequence[int]) -> int:
    """Best flush or straight flush among ``cards`` (at most 7), or 0 if no suit has five."""
    suits = [card & 3 for card in cards]
    for suit in range(4):
        if suits.count(suit) >= 5:
            return _SUITED[sum([CARD_RANK_WEIGHT[card] for card in cards if card & 3 == suit])]
    return 0


assert COMPACT_SUIT_BITS == 7, "high_strength spells the suit mask and shift as literals"


def _part_keys(cards: Sequence[int], size: int) -> set[int]:
    """Rank keys of every ``size``-card subset of ``cards`` (duplicates merged)."""
    weight = CARD_RANK_WEIGHT
    # Omaha's usual shapes (2 of 4 hole cards, 3 of 5 board cards) spelled out: twice as fast.
    if size == 2 and len(cards) == 4:
        a, b, c, d = [weight[card] for card in cards]
        return {a + b, a + c, a + d, b + c, b + d, c + d}
    if size == 3 and len(cards) == 5:
        a, b, c, d, e = [weight[card] for card in cards]
        return {a + b + c, a + b + d, a + b + e, a + c + d, a + c + e, a + d + e, b + c + d, b + c + e, b + d + e,
                c + d + e}
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
    board_suits = [card & 3 for card in board]
    for suit in range(4):
        if board_suits.count(suit) < board_size:
            continue
        suited_hole = [card for card in hole if card & 3 == suit]
        if len(suited_hole) < must_use_hole:
            continue
        suited = _SUITED
        suited_board_keys = _part_keys([card for card in board if card & 3 == suit], board_size)
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
