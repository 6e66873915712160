"""Showdown helpers: hand strengths per player and who may still win (R-SHOW-1, R-RANK-2, R-RANK-3).

Strengths are plain ints (higher wins) so pots can be split without building objects per comparison.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from engine.cards import Card, Rank
from engine.evaluate import (
    americana_strength,
    deuce_to_seven_strength,
    high_strength,
    low_eight_strength,
    omaha_high_strength,
    omaha_low_eight_strength,
    telesina_class_strength,
    telesina_strength,
    thirty_two_strength,
)
from engine.evaluate.classes import HandClass
from engine.evaluate.deuce_to_seven import DEUCE_TO_SEVEN_CLASSES
from engine.evaluate.high import HIGH_CLASSES
from engine.evaluate.low import low_ranks
from engine.evaluate.names import LOW_OWN_GROUPS, class_name, deciding_depth, deuce_to_seven_name, low_depth, low_words
from engine.evaluate.thirty_two import SUIT_CODE_SPAN, thirty_two_classes
from engine.pots import Pot
from engine.variants import VARIANTS, Ranking, ThirtyTwoTies, Variant


def high_value(variant: Variant, hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, str]:
    """``(strength, description)`` of the best high hand under the variant's must-use rule (fast int path;
    the same strength as ``engine.evaluate.best_high``). Deuce-to-seven (R-RANK-4) judges the five own
    cards, the 32-card ranking (R-RANK-5) the best five of own and community cards, with the game's own ties
    (suits in 32-card draw, a split in Americana, Telesina's list)."""
    ranking = variant.ranking
    if ranking is Ranking.DEUCE_TO_SEVEN:
        strength = deuce_to_seven_strength(hole)
    elif ranking is Ranking.THIRTY_TWO_CARD:
        ties = variant.thirty_two_ties
        if ties is ThirtyTwoTies.TELESINA:
            strength = telesina_strength([*hole, *board])
        else:
            strength = (americana_strength if ties is ThirtyTwoTies.SPLIT else thirty_two_strength)([*hole, *board])
    else:
        must_use = variant.must_use_hole
        strength = high_strength([*hole, *board]) if must_use is None else omaha_high_strength(hole, board, must_use)
    if (variant.ranking, variant.thirty_two_ties) in _NAMING_VARIANTS:
        return strength, _plain_high_name(variant.ranking, variant.thirty_two_ties, strength)
    return strength, high_name(variant, strength)


@lru_cache(maxsize=1 << 14)
def _plain_high_name(ranking: Ranking, ties: ThirtyTwoTies, strength: int) -> str:
    """:func:`high_name` without rivals, cached: every showdown names every hand, and the name of a strength
    depends only on the ranking (a variant is keyed by the fields that matter: hashing one hashes its deck)."""
    return high_name(_NAMING_VARIANTS[ranking, ties], strength)


_NAMING_VARIANTS: dict[tuple[Ranking, ThirtyTwoTies], Variant] = {
    (variant.ranking, variant.thirty_two_ties): variant for variant in VARIANTS.values()
}
"""One variant per (ranking, 32-card ties): naming a strength reads nothing else of the variant."""


def high_class(variant: Variant, strength: int) -> HandClass:
    """The suit-blind class of a high strength under the variant's ranking."""
    if variant.ranking is Ranking.DEUCE_TO_SEVEN:
        return DEUCE_TO_SEVEN_CLASSES[strength - 1]
    if variant.ranking is Ranking.THIRTY_TWO_CARD:
        if variant.thirty_two_ties is ThirtyTwoTies.TELESINA:
            return thirty_two_classes()[telesina_class_strength(strength) - 1]
        return thirty_two_classes()[strength // SUIT_CODE_SPAN - 1]
    return HIGH_CLASSES[strength - 1]


def high_name(variant: Variant, strength: int, rivals: Iterable[int | None] = ()) -> str:
    """The hand's name (R-RANK-7), naming as many kickers as it takes to tell it from ``rivals`` (the other
    hands shown for the pot, as strengths): "pair of jacks" alone, "pair of jacks, ace kicker" against a
    pair of jacks with a king.

    >>> from engine.cards import parse_cards
    >>> from engine.variants import TEXAS_HOLDEM
    >>> board = parse_cards("Jc 9c 4d 2s 7h")
    >>> winner, loser = (high_value(TEXAS_HOLDEM, parse_cards(hole), board)[0] for hole in ("Jd As", "Jh Kd"))
    >>> high_name(TEXAS_HOLDEM, winner), high_name(TEXAS_HOLDEM, winner, [loser])
    ('pair of jacks', 'pair of jacks, ace kicker')
    """
    own = high_class(variant, strength)
    others = [high_class(variant, rival) for rival in rivals if rival is not None]
    if variant.ranking is Ranking.DEUCE_TO_SEVEN:
        own_groups = LOW_OWN_GROUPS if own.category == 0 else None
        return deuce_to_seven_name(own, deciding_depth(own, others, own_groups=own_groups))
    return class_name(own, deciding_depth(own, others))


def low_name(strength: int, rivals: Iterable[int | None] = ()) -> str:
    """An 8-or-better low's name by its top two cards, and more where they decided against ``rivals``.

    >>> from engine.evaluate import low_eight_strength
    >>> from engine.cards import parse_cards
    >>> mine, theirs = (low_eight_strength(parse_cards(cards)) for cards in ("8c 6d 4h 3s Ac", "8h 6s 5c 3d 2c"))
    >>> low_name(mine), low_name(mine, [theirs])
    ('eight-six low', 'eight-six-four low')
    """
    own = low_ranks(strength)
    return low_words(own, low_depth(own, [low_ranks(rival) for rival in rivals if rival]))


def low_value(variant: Variant, hole: Sequence[Card], board: Sequence[Card]) -> tuple[int | None, str]:
    """``(strength or None, description)`` of the best 8-or-better low (``None``: no qualifying low)."""
    must_use = variant.must_use_hole
    strength = low_eight_strength([*hole, *board]) if must_use is None else omaha_low_eight_strength(
        hole, board, must_use)
    if not strength:
        return None, ""
    return strength, low_name(strength)


def can_still_win(
    position: int,
    pots: Sequence[Pot],
    shown: Sequence[int],
    high: Mapping[int, int | None],
    low: Mapping[int, int | None] | None,
) -> bool:
    """Whether ``position`` could win or tie any part of a pot it is eligible for, against the hands
    ``shown`` so far (R-SHOW-1: a player who cannot win may muck)."""
    for pot in pots:
        if position not in pot.eligible:
            continue
        rivals = [other for other in shown if other in pot.eligible and other != position]
        own_high = high.get(position)
        rival_highs = [value for value in (high.get(other) for other in rivals) if value is not None]
        best_rival_high = max(rival_highs, default=None)
        if own_high is not None and (best_rival_high is None or own_high >= best_rival_high):
            return True
        if low is not None:
            own_low = low.get(position)
            if own_low is not None:
                rival_lows = [value for value in (low.get(other) for other in rivals) if value is not None]
                best_rival_low = max(rival_lows, default=None)
                if best_rival_low is None or own_low >= best_rival_low:
                    return True
    return False


_GROUP_WORDS = {4: "four {}", 3: "three {}"}


def _partial_name(cards: Sequence[Card]) -> str:
    """A made hand in fewer than five cards (hold'em before the flop, stud's early streets, Omaha's hole cards
    before the flop): four or three of a kind, two pair, a pair; ``""`` for none."""
    counts: dict[int, int] = {}
    for card in cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    groups = sorted(((count, rank) for rank, count in counts.items() if count > 1), reverse=True)
    if not groups:
        return ""
    count, rank = groups[0]
    plural = Rank(rank).plural
    if count >= 3:
        return _GROUP_WORDS[min(count, 4)].format(plural)
    if len(groups) > 1:
        return f"two pair, {plural} and {Rank(groups[1][1]).plural}"
    return f"pair of {plural}"


def made_hand_name(variant: Variant, hole: Sequence[Card], board: Sequence[Card]) -> str:
    """What a player holds so far, as he would say it: "pair of kings", "two pair, aces and nines", "flush, ace
    high", a low by its cards ("seven-five low", hi/lo: "pair of eights / eight-six low"); ``""`` while he holds
    no made hand (high card: draws are not named). For the player's own view of his hand as it is played.

    >>> from engine.cards import parse_cards
    >>> from engine.variants import TEXAS_HOLDEM, OMAHA, DEUCE_TO_SEVEN_TRIPLE_DRAW
    >>> made_hand_name(TEXAS_HOLDEM, parse_cards("Kd Ks"), []), made_hand_name(TEXAS_HOLDEM, parse_cards("Ah 7c"), [])
    ('pair of kings', '')
    >>> made_hand_name(OMAHA, parse_cards("Ah Ad 7c 2s"), parse_cards("Ac 9h 4d"))
    'three aces'
    >>> made_hand_name(DEUCE_TO_SEVEN_TRIPLE_DRAW, parse_cards("7c 5d 4h 3s 2c"), [])
    'seven-five low'
    """
    must_use = variant.must_use_hole
    usable = len(hole) + len(board) >= 5 and (must_use is None or (len(hole) >= must_use and
                                                                   len(board) >= 5 - must_use))
    low = ""
    if variant.low_eight and usable:
        strength, name = low_value(variant, hole, board)
        low = name if strength else ""
    if not usable:
        high = _partial_name(hole if must_use is not None else [*hole, *board])
    else:
        strength, high = high_value(variant, hole, board)
        if variant.ranking is not Ranking.DEUCE_TO_SEVEN and high_class(variant, strength).category == 0:
            high = ""  # a high card is no made hand (a 2-7 no-pair hand is the low itself)
    return " / ".join(name for name in (high, low) if name)
