"""Differential tests of the evaluators against PokerKit and treys on random deals (R-RANK-1 … R-RANK-4).

"Same ordering on every compared pair": for treys the strengths must be the exact mirror of treys'
class numbers (1 = royal flush), which fixes the order of every pair; PokerKit has no class numbers, so
the hands are sorted by our strength and PokerKit must agree (``<`` or ``==``) on each adjacent pair —
by transitivity, on every pair. "Same split decisions": per deal, the set of winning seats is equal.

Sizes: the issue's minimums (100,000 hold'em hands, 20,000 Omaha and Omaha Hi/Lo hands) with ``CROUPIER_FULL=1``, a
sample by default: a tenth of the hold'em (10,000), a quarter of the Omaha (5,000: over 1,000 of them have a low);
CROUPIER_EVALUATOR_HOLDEM_HANDS / CROUPIER_EVALUATOR_OMAHA_HANDS set them. Seeded.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any

import pytest
from pokerkit import Card as PokerKitCard
from pokerkit import (
    EightOrBetterLowHand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    StandardHighHand,
    StandardLowHand,
)
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from engine.cards import Card, full_deck
from engine.evaluate import (
    MAX_HIGH_STRENGTH,
    best_high,
    best_low_eight,
    deuce_to_seven_strength,
    evaluate_deuce_to_seven,
    evaluate_low_eight,
    high_strength,
    low_eight_strength,
    omaha_high_strength,
    omaha_low_eight_strength,
)
from tests.sweeps import sweep

pytestmark = pytest.mark.slow

HOLDEM_HANDS = sweep("CROUPIER_EVALUATOR_HOLDEM_HANDS", 10_000, 100_000)
OMAHA_HANDS = sweep("CROUPIER_EVALUATOR_OMAHA_HANDS", 5_000, 20_000)
HOLDEM_PLAYERS = 5
OMAHA_PLAYERS = 4

NAMES = [str(card) for card in full_deck()]
POKERKIT = [next(iter(PokerKitCard.parse(name))) for name in NAMES]
TREYS = [TreysCard.new(name) for name in NAMES]


@dataclass(frozen=True)
class Deal:
    board: tuple[int, ...]
    holes: tuple[tuple[int, ...], ...]


def _deals(seed: int, count: int, players: int, hole_size: int) -> list[Deal]:
    rng = random.Random(seed)
    deck = list(range(52))
    deals = []
    for _ in range(count):
        cards = rng.sample(deck, 5 + players * hole_size)
        holes = tuple(tuple(cards[5 + seat * hole_size: 5 + (seat + 1) * hole_size]) for seat in range(players))
        deals.append(Deal(tuple(cards[:5]), holes))
    return deals


def _pk(cards: Sequence[int]) -> list[Any]:
    return [POKERKIT[card] for card in cards]


def _winners(values: Sequence[Any]) -> set[int]:
    present = [value for value in values if value is not None]
    if not present:
        return set()
    best = max(present)
    return {seat for seat, value in enumerate(values) if value is not None and value == best}


def _assert_same_order(ours: Sequence[int], theirs: Sequence[Any], what: str) -> int:
    """Sort by our strength; the reference must agree on every adjacent pair. Returns pairs compared."""
    order = sorted(range(len(ours)), key=ours.__getitem__)
    for earlier, later in pairwise(order):
        if ours[earlier] == ours[later]:
            assert theirs[earlier] == theirs[later], f"{what}: we tie {earlier} and {later}, the reference does not"
        else:
            assert theirs[earlier] < theirs[later], f"{what}: order of {earlier} < {later} differs"
    return len(order) - 1


# --- Hold'em: 7-card high hands -------------------------------------------------------------------------

Holdem = tuple[list[Deal], list[int], list[Any], list[int]]
"""Deals, our strengths, PokerKit hands and treys ranks, one entry per (deal, seat)."""
Omaha = tuple[list[Deal], list[int], list[Any], list[int], list[Any]]
"""Deals, our high strengths, PokerKit high hands, our low strengths, PokerKit lows (or None)."""


@pytest.fixture(scope="module")
def holdem() -> Holdem:
    deals = _deals(20_261_129, HOLDEM_HANDS // HOLDEM_PLAYERS, HOLDEM_PLAYERS, 2)
    ours: list[int] = []
    pokerkit: list[Any] = []
    treys: list[int] = []
    evaluator = TreysEvaluator()
    for deal in deals:
        board_pk, board_treys = _pk(deal.board), [TREYS[card] for card in deal.board]
        for hole in deal.holes:
            ours.append(high_strength(hole + deal.board))
            pokerkit.append(StandardHighHand.from_game(_pk(hole), board_pk))
            treys.append(evaluator.evaluate([TREYS[card] for card in hole], board_treys))
    assert len(ours) == HOLDEM_HANDS
    return deals, ours, pokerkit, treys


def test_holdem_strength_is_the_mirror_of_treys_class(holdem: Holdem) -> None:
    _, ours, _, treys = holdem
    assert ours == [MAX_HIGH_STRENGTH + 1 - rank for rank in treys]


def test_holdem_order_matches_pokerkit_on_every_pair(holdem: Holdem) -> None:
    _, ours, pokerkit, _ = holdem
    assert _assert_same_order(ours, pokerkit, "hold'em high") == len(ours) - 1


def test_holdem_split_decisions_match_both_references(
    holdem: Holdem,
) -> None:
    deals, ours, pokerkit, treys = holdem
    splits = 0
    for index in range(len(deals)):
        seats = slice(index * HOLDEM_PLAYERS, (index + 1) * HOLDEM_PLAYERS)
        winners = _winners(ours[seats])
        assert winners == _winners(pokerkit[seats])
        assert winners == _winners([-rank for rank in treys[seats]])
        splits += len(winners) > 1
    assert splits > 0  # the sample does exercise split pots


def test_holdem_hand_value_path_agrees_with_fast_path_and_pokerkit(
    holdem: Holdem,
) -> None:
    deals, ours, pokerkit, _ = holdem
    for index in range(0, len(deals), 10):
        deal = deals[index]
        for seat, hole in enumerate(deal.holes):
            flat = index * HOLDEM_PLAYERS + seat
            value = best_high([Card(card) for card in hole], [Card(card) for card in deal.board])
            assert value.strength == ours[flat]
            assert len(value.cards) == 5 and set(value.cards) <= set(hole + deal.board)
            assert high_strength(value.cards) == value.strength
            # PokerKit files the royal flush under "straight flush".
            ours_as_pokerkit = "straight flush" if value.category == "royal flush" else value.category
            assert ours_as_pokerkit == pokerkit[flat].entry.label.value.lower()


# --- Omaha and Omaha Hi/Lo: exactly 2 hole + 3 board ---------------------------------------------------

@pytest.fixture(scope="module")
def omaha() -> Omaha:
    deals = _deals(20_261_130, OMAHA_HANDS // OMAHA_PLAYERS, OMAHA_PLAYERS, 4)
    high: list[int] = []
    high_pk: list[Any] = []
    low: list[int] = []
    low_pk: list[Any] = []
    for deal in deals:
        board_pk = _pk(deal.board)
        for hole in deal.holes:
            high.append(omaha_high_strength(hole, deal.board))
            high_pk.append(OmahaHoldemHand.from_game(_pk(hole), board_pk))
            low.append(omaha_low_eight_strength(hole, deal.board))
            low_pk.append(OmahaEightOrBetterLowHand.from_game_or_none(_pk(hole), board_pk))
    assert len(high) == OMAHA_HANDS
    return deals, high, high_pk, low, low_pk


def test_omaha_high_order_and_splits_match_pokerkit(
    omaha: Omaha,
) -> None:
    deals, high, high_pk, _, _ = omaha
    _assert_same_order(high, high_pk, "Omaha high")
    for index in range(len(deals)):
        seats = slice(index * OMAHA_PLAYERS, (index + 1) * OMAHA_PLAYERS)
        assert _winners(high[seats]) == _winners(high_pk[seats])


def test_omaha_low_qualifiers_order_and_splits_match_pokerkit(
    omaha: Omaha,
) -> None:
    deals, _, _, low, low_pk = omaha
    assert [strength == 0 for strength in low] == [hand is None for hand in low_pk]
    qualifying = [index for index, strength in enumerate(low) if strength]
    assert len(qualifying) > 1_000
    _assert_same_order([low[index] for index in qualifying], [low_pk[index] for index in qualifying], "Omaha low")
    no_low_deals = 0
    for index in range(len(deals)):
        seats = slice(index * OMAHA_PLAYERS, (index + 1) * OMAHA_PLAYERS)
        winners = _winners([strength or None for strength in low[seats]])
        assert winners == _winners(low_pk[seats])
        no_low_deals += not winners
    assert no_low_deals > 0  # the high hand scoops those


def test_omaha_hand_value_path_uses_two_hole_and_three_board(
    omaha: Omaha,
) -> None:
    deals, high, _, low, _ = omaha
    for index in range(0, len(deals), 10):
        deal = deals[index]
        board = [Card(card) for card in deal.board]
        for seat, hole_ints in enumerate(deal.holes):
            hole = [Card(card) for card in hole_ints]
            value = best_high(hole, board, must_use_hole=2)
            assert value.strength == high[index * OMAHA_PLAYERS + seat]
            assert len(set(value.cards) & set(hole)) == 2 and len(set(value.cards) & set(board)) == 3
            assert high_strength(value.cards) == value.strength
            low_value = best_low_eight(hole, board, must_use_hole=2)
            if low_value is None:
                assert low[index * OMAHA_PLAYERS + seat] == 0
            else:
                assert low_value.strength == low[index * OMAHA_PLAYERS + seat]
                assert len(set(low_value.cards) & set(hole)) == 2
                assert low_eight_strength(low_value.cards) == low_value.strength


def _brute_force_must_use(strength_of: Callable[[Sequence[int]], int], hole: Sequence[int], board: Sequence[int],
                          use: int) -> int:
    return max(strength_of(part + rest) for part in combinations(hole, use) for rest in combinations(board, 5 - use))


def test_five_card_omaha_two_plus_three_matches_pokerkit_and_three_plus_two_matches_brute_force() -> None:
    deals = _deals(20_261_131, 1_000, 2, 5)
    for deal in deals:
        for hole in deal.holes:
            ours = omaha_high_strength(hole, deal.board)
            assert ours == _brute_force_must_use(high_strength, hole, deal.board, 2)
            assert ours == omaha_high_strength(hole, deal.board, 2)
            assert omaha_high_strength(hole, deal.board, 3) == _brute_force_must_use(high_strength, hole, deal.board, 3)
        reference = [OmahaHoldemHand.from_game(_pk(hole), _pk(deal.board)) for hole in deal.holes]
        strengths = [omaha_high_strength(hole, deal.board) for hole in deal.holes]
        assert _winners(strengths) == _winners(reference)


# --- Stud 8-or-better lows and deuce-to-seven ------------------------------------------------------------

def test_seven_card_eight_or_better_low_matches_pokerkit() -> None:
    rng = random.Random(20_261_132)
    hands = [rng.sample(range(52), 7) for _ in range(10_000)]
    ours = [low_eight_strength(hand) for hand in hands]
    theirs = [EightOrBetterLowHand.from_game_or_none(_pk(hand)) for hand in hands]
    assert [strength == 0 for strength in ours] == [hand is None for hand in theirs]
    qualifying = [index for index, strength in enumerate(ours) if strength]
    _assert_same_order([ours[index] for index in qualifying], [theirs[index] for index in qualifying], "stud low")
    for index in qualifying[:500]:
        value = evaluate_low_eight([Card(card) for card in hands[index]])
        assert value is not None and value.strength == ours[index]


def test_deuce_to_seven_order_matches_pokerkit_standard_low() -> None:
    rng = random.Random(20_261_133)
    hands = [rng.sample(range(52), 5) for _ in range(20_000)]
    ours = [deuce_to_seven_strength(hand) for hand in hands]
    theirs = [StandardLowHand(_pk(hand)) for hand in hands]
    _assert_same_order(ours, theirs, "deuce-to-seven")
    for index in range(0, len(hands), 40):
        value = evaluate_deuce_to_seven([Card(card) for card in hands[index]])
        assert value.strength == ours[index]
        assert value.category == theirs[index].entry.label.value.lower()
