"""Showdown helpers: hand strengths and names per player through the variant's ranking object, and who may still
win (R-SHOW-1, R-RANK-2, R-RANK-3, R-RANK-7).

Strengths are plain ints (higher wins) so pots can be split without building objects per comparison.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.cards import Card, Rank
from engine.evaluate.classes import HandClass
from engine.evaluate.ranking import HandRanking
from engine.pots import Pot
from engine.variants import Variant


def high_value(variant: Variant, hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, str]:
    """``(strength, description)`` of the best hand under the variant's ranking object
    (:attr:`~engine.variants.Variant.hand_ranking`: high, deuce-to-seven, ace-to-five, 32-card with the game's own
    ties) and must-use rule."""
    ranking = variant.hand_ranking
    strength = ranking.strength(hole, board)
    return strength, ranking.plain_name(strength)


def high_class(variant: Variant, strength: int) -> HandClass:
    """The suit-blind class of a strength under the variant's ranking."""
    return variant.hand_ranking.hand_class(strength)


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
    return variant.hand_ranking.name(strength, rivals)


def low_name(strength: int, rivals: Iterable[int | None] = ()) -> str:
    """An 8-or-better low's name by its top two cards, and more where they decided against ``rivals``.

    >>> from engine.evaluate import low_eight_strength
    >>> from engine.cards import parse_cards
    >>> mine, theirs = (low_eight_strength(parse_cards(cards)) for cards in ("8c 6d 4h 3s Ac", "8h 6s 5c 3d 2c"))
    >>> low_name(mine), low_name(mine, [theirs])
    ('eight-six low', 'eight-six-four low')
    """
    return HandRanking.low_name(strength, rivals)


def low_value(variant: Variant, hole: Sequence[Card], board: Sequence[Card]) -> tuple[int | None, str]:
    """``(strength or None, description)`` of the best 8-or-better low (``None``: no qualifying low)."""
    strength = variant.hand_ranking.low_strength(hole, board)
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
    usable = len(hole) + len(board) >= variant.hand_size and (
        must_use is None or (len(hole) >= must_use and len(board) >= 5 - must_use))
    low = ""
    if variant.low_eight and usable:
        strength, name = low_value(variant, hole, board)
        low = name if strength else ""
    if not usable:
        high = _partial_name(hole if must_use is not None else [*hole, *board])
    else:
        strength, high = high_value(variant, hole, board)
        if not variant.hand_ranking.is_made(strength):
            high = ""  # a high card is no made hand (a lowball no-pair hand is the low itself)
    return " / ".join(name for name in (high, low) if name)
