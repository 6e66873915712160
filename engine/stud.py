"""Who opens a stud betting round: the bring-in card and the hand showing (R-STUD-1), as each variant's opener
kinds say (:class:`~engine.variants.OpenerKind`: low card, high card, low hand, high hand; :func:`opener_position`).

Cards are :class:`engine.cards.Card` ints, ``(rank - 2) * 4 + suit`` with suits clubs 0, diamonds 1,
hearts 2, spades 3, so the plain int order is "rank, then clubs < diamonds < hearts < spades" — exactly
R-STUD-1's limit-stud suit order.

- Limit 7-card stud (fixed and spread limit): the **lowest** up card brings in; equal ranks: the lowest suit
  (clubs) brings in.
- No-limit / pot-limit 7-card stud: the **highest** up card brings in (spades highest).
- Americana and Telesina (32-card deck): the **highest** up card brings in; equal ranks by
  hearts > diamonds > clubs > spades.
- Razz: the **highest** up card brings in, aces low (a king is the highest; spades highest on a tie); later
  streets the **lowest** hand showing acts first (aces low, pairs bad), as PokerKit.

Later streets: the best hand *showing* on the up cards acts first. Only pairs, two pair, trips and quads
count on a partial board (straights and flushes of up cards do not, as in standard stud rules and
PokerKit); then the ranks, pairs first. Equal showings: the first such player clockwise from the left of
the button (PokerKit), except in 32-card games where suits break every tie (hearts > diamonds > clubs >
spades, highest card first, R-RANK-5).

>>> from engine.cards import parse_cards
>>> ups = [parse_cards("Kd"), parse_cards("2h"), parse_cards("2c"), parse_cards("As")]
>>> bring_in_position(ups, lowest=True, thirty_two_card=False)  # 2c: clubs is the lowest suit
2
>>> bring_in_position(ups, lowest=False, thirty_two_card=False)
3
>>> best_showing_position([parse_cards("Kd Qs"), parse_cards("4c 4h"), parse_cards("Ah Kh")], False)
1
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.cards import Card
from engine.variants import OpenerKind

# Module-level aliases: a global lookup is cheaper than an Enum class attribute (a stud hand asks at every street).
_HIGH_HAND, _LOW_HAND, _LOW_CARD = OpenerKind.HIGH_HAND, OpenerKind.LOW_HAND, OpenerKind.LOW_CARD

THIRTY_TWO_SUIT_VALUE = (1, 2, 3, 0)
"""Tie-break value by suit (clubs, diamonds, hearts, spades) in 32-card games: hearts > diamonds > clubs > spades."""


def bring_in_position(up_cards: Sequence[Sequence[Card] | None], *, lowest: bool, thirty_two_card: bool,
                      ace_low: bool = False) -> int:
    """Index of the player who brings in (R-STUD-1), judged on each player's last up card.

    ``up_cards``: per position (clockwise from the left of the button) the up cards, ``None`` for a player
    out of the hand. ``lowest``: the lowest card brings in (limit 7-card stud); otherwise the highest does.
    ``ace_low``: the ace is the lowest rank (Razz: the king is the highest card). ``ValueError`` when nobody
    shows a card.
    """
    best_key = 0
    best_position = -1
    for position, cards in enumerate(up_cards):
        if not cards:
            continue
        card = cards[-1]
        # The plain int order is R-STUD-1's limit-stud order; 32-card games rank suits hearts > … > spades.
        key = (card >> 2) * 4 + THIRTY_TWO_SUIT_VALUE[card & 3] if thirty_two_card else card
        if ace_low and card >> 2 == 12:
            key -= 13 * 4  # below the deuce, same suit order
        if lowest:
            key = -key
        if best_position < 0 or key > best_key:
            best_key, best_position = key, position
    if best_position < 0:
        raise ValueError("nobody shows an up card to bring in")
    return best_position


def opener_position(kind: OpenerKind, up_cards: Sequence[Sequence[Card] | None], *, ace_low: bool,
                    thirty_two_card: bool) -> int:
    """Index of the player an :class:`~engine.variants.OpenerKind` picks (R-STUD-1): the lowest or highest up
    card, the lowest or best hand showing. ``ace_low``: the ace is the lowest card (Razz).

    >>> from engine.cards import parse_cards
    >>> ups = [parse_cards("Kc"), parse_cards("Ah"), parse_cards("Ks")]
    >>> opener_position(OpenerKind.HIGH_CARD, ups, ace_low=True, thirty_two_card=False)  # Razz: Ks brings in
    2
    >>> later = [parse_cards("Kc 2d"), parse_cards("Ah 7h"), parse_cards("5s 4s")]
    >>> opener_position(OpenerKind.LOW_HAND, later, ace_low=True, thirty_two_card=False)  # 5-4 is the lowest
    2
    """
    if kind is _HIGH_HAND:
        return best_showing_position(up_cards, thirty_two_card)
    if kind is _LOW_HAND:
        return lowest_showing_position(up_cards)
    return bring_in_position(up_cards, lowest=kind is _LOW_CARD, thirty_two_card=thirty_two_card,
                             ace_low=ace_low)


def showing_key(up_cards: Sequence[Card], thirty_two_card: bool) -> tuple[int, ...]:
    """A comparable key for the hand showing on ``up_cards`` (1-4 cards; higher is better).

    ``(category, ranks...)`` with category quads 4, trips 3, two pair 2, pair 1, high card 0, ranks by
    count then rank; 32-card games append the suits as the last tie-break (R-RANK-5).

    >>> from engine.cards import parse_cards
    >>> showing_key(parse_cards("9c 9d Ah"), False) > showing_key(parse_cards("As Ks Qs"), False)
    True
    """
    return _showing_key(tuple(up_cards), thirty_two_card)


@lru_cache(maxsize=1 << 16)
def _showing_key(up_cards: tuple[Card, ...], thirty_two_card: bool) -> tuple[int, ...]:
    """Cached body of :func:`showing_key` (the same few up-card sets recur hand after hand)."""
    if not thirty_two_card:
        # Without suits the key depends only on the ranks: a second, much smaller cache keyed by them.
        return _ranks_showing_key(tuple(sorted([card >> 2 for card in up_cards])))
    counts: dict[int, int] = {}
    for card in up_cards:
        rank = card >> 2
        counts[rank] = counts.get(rank, 0) + 1
    key = list(_ranks_showing_key(tuple(sorted(card >> 2 for card in up_cards))))
    ordered = sorted(up_cards, key=lambda card: (counts[card >> 2], card >> 2, THIRTY_TWO_SUIT_VALUE[card & 3]),
                     reverse=True)
    key.extend(THIRTY_TWO_SUIT_VALUE[card & 3] for card in ordered)
    return tuple(key)


@lru_cache(maxsize=1 << 13)
def _ranks_showing_key(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """``(category, ranks by count then rank...)`` for the sorted ``ranks`` of the up cards."""
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    ordered = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        category = 4
    elif shape[0] == 3:
        category = 3
    elif shape[0] == 2:
        category = 2 if len(shape) > 1 and shape[1] == 2 else 1
    else:
        category = 0
    key = [category]
    for rank in ordered:
        key.extend([rank] * counts[rank])
    return tuple(key)


RANK_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
"""One prime per rank index (``card >> 2``, deuce 0 … ace 12): a product names a multiset of ranks."""

_KEY_BY_RANK_PRODUCT: dict[int, tuple[int, ...]] = {}


def rank_product(cards: Sequence[Card]) -> int:
    """The product of the cards' rank primes: equal for equal multisets of ranks (1 for no cards)."""
    product = 1
    for card in cards:
        product *= RANK_PRIMES[card >> 2]
    return product


def _key_of_product(product: int, cards: Sequence[Card]) -> tuple[int, ...]:
    """The suitless showing key of ``cards``, whose :func:`rank_product` is ``product`` (cached by it)."""
    key = _KEY_BY_RANK_PRODUCT.get(product)
    if key is None:
        key = _ranks_showing_key(tuple(sorted([card >> 2 for card in cards])))
        if len(_KEY_BY_RANK_PRODUCT) < 1 << 14:
            _KEY_BY_RANK_PRODUCT[product] = key
    return key


def best_showing_position(up_cards: Sequence[Sequence[Card] | None], thirty_two_card: bool) -> int:
    """Index of the player with the best hand showing (first such player on a tie), ``None`` entries skipped.

    ``ValueError`` when nobody shows a card.
    """
    best_key: tuple[int, ...] | None = None
    best_position = -1
    for position, cards in enumerate(up_cards):
        if not cards:
            continue
        # Without suits the key depends only on the multiset of ranks: its product of rank primes names it
        # without sorting (the card-level cache of _showing_key misses on two calls in three).
        key = _showing_key(tuple(cards), True) if thirty_two_card else _key_of_product(rank_product(cards), cards)
        if best_key is None or key > best_key:
            best_key, best_position = key, position
    if best_key is None:
        raise ValueError("nobody shows an up card")
    return best_position


def best_showing_by_products(products: Sequence[int], up_cards: Sequence[Sequence[Card]],
                             folded: Sequence[bool]) -> int:
    """:func:`best_showing_position` without suits, from each position's :func:`rank_product` of its up cards
    (kept by the hand as it deals, so the cards need not be multiplied again street after street); folded
    positions skipped. ``ValueError`` when nobody shows a card.

    >>> from engine.cards import parse_cards
    >>> ups = [parse_cards("Kd Qs"), parse_cards("4c 4h"), parse_cards("Ah Kh")]
    >>> best_showing_by_products([rank_product(cards) for cards in ups], ups, [False, False, False])
    1
    >>> best_showing_by_products([rank_product(cards) for cards in ups], ups, [False, True, False])
    2
    """
    best_key: tuple[int, ...] | None = None
    best_position = -1
    for position, product in enumerate(products):
        if product == 1 or folded[position]:
            continue
        key = _KEY_BY_RANK_PRODUCT.get(product)
        if key is None:
            key = _key_of_product(product, up_cards[position])
        if best_key is None or key > best_key:
            best_key, best_position = key, position
    if best_key is None:
        raise ValueError("nobody shows an up card")
    return best_position


_LOW_KEY_BY_RANK_PRODUCT: dict[int, tuple[int, ...]] = {}


def lowest_showing_position(up_cards: Sequence[Sequence[Card] | None]) -> int:
    """Index of the player with the lowest hand showing, aces low, pairs bad (Razz's later streets; PokerKit's
    ``LOW_HAND``): the first such player on a tie, ``None`` entries skipped. ``ValueError`` when nobody shows a
    card.

    >>> from engine.cards import parse_cards
    >>> lowest_showing_position([parse_cards("7c 2d"), parse_cards("6h 5h"), parse_cards("Ac Ad")])
    1
    """
    best_key: tuple[int, ...] | None = None
    best_position = -1
    for position, cards in enumerate(up_cards):
        if not cards:
            continue
        product = 1
        for card in cards:
            product *= RANK_PRIMES[card >> 2]
        key = _LOW_KEY_BY_RANK_PRODUCT.get(product)
        if key is None:
            # Ranks with the ace lowest (ace 0, deuce 1 … king 12): the showing key's order is then the low order.
            key = _ranks_showing_key(tuple(sorted([(card >> 2) + 1 if card >> 2 < 12 else 0 for card in cards])))
            if len(_LOW_KEY_BY_RANK_PRODUCT) < 1 << 14:
                _LOW_KEY_BY_RANK_PRODUCT[product] = key
        if best_key is None or key < best_key:
            best_key, best_position = key, position
    if best_key is None:
        raise ValueError("nobody shows an up card")
    return best_position
