"""Betting structures (R-BET-FL, R-BET-NL, R-BET-PL, R-BET-HPL, R-BET-SL): sizes and maxima."""

from __future__ import annotations

import pytest

from engine.structures import NO_MAXIMUM, BettingStructure, StructureKind, raise_bounds


def bounds(structure: BettingStructure, **kwargs: int | bool) -> tuple[int, int]:
    arguments: dict[str, int | bool] = {"round_index": 1, "big_bet_round": False, "big_blind": 10,
                                        "highest_bet": 0, "player_bet": 0, "last_raise": 0, "pot_total": 0}
    arguments.update(kwargs)
    return raise_bounds(structure, **arguments)  # type: ignore[arg-type]


def test_pot_limit_worked_example_raise_to_at_most_90() -> None:
    # Pot 50 from earlier rounds, A bets 10, B calls 10: C may raise by 80, to 90.
    assert bounds(BettingStructure.pot_limit(), highest_bet=10, last_raise=10, pot_total=70) == (20, 90)


def test_half_pot_limit_is_half_the_pot_raise() -> None:
    assert bounds(BettingStructure.half_pot_limit(), highest_bet=10, last_raise=10, pot_total=70) == (20, 50)
    # Opening bet into a pot of 60: at most 30.
    assert bounds(BettingStructure.half_pot_limit(), pot_total=60) == (10, 30)


def test_no_limit_minimum_bet_is_the_big_blind_and_min_raise_the_last_raise() -> None:
    assert bounds(BettingStructure.no_limit()) == (10, NO_MAXIMUM)
    assert bounds(BettingStructure.no_limit(), highest_bet=60, last_raise=50) == (110, NO_MAXIMUM)


def test_fixed_limit_small_bet_then_big_bet() -> None:
    fixed = BettingStructure.fixed_limit(10)
    assert (fixed.small_bet, fixed.big_bet) == (10, 20)
    assert bounds(fixed) == (10, 10)
    assert bounds(fixed, highest_bet=10, last_raise=10) == (20, 20)
    assert bounds(fixed, big_bet_round=True) == (20, 20)
    assert bounds(fixed, big_bet_round=True, highest_bet=40, last_raise=20) == (60, 60)


def test_fixed_limit_cap_is_one_bet_and_three_raises_by_default() -> None:
    assert BettingStructure.fixed_limit(10).raise_cap(players_in_hand=6) == 4
    assert BettingStructure.fixed_limit(10, max_raises=4).raise_cap(players_in_hand=6) == 5
    uncapped = BettingStructure.fixed_limit(10, uncapped_heads_up=True)
    assert uncapped.raise_cap(players_in_hand=2) is None and uncapped.raise_cap(players_in_hand=3) == 4
    assert BettingStructure.no_limit().raise_cap(players_in_hand=6) is None


def test_spread_limit_maxima_a_b_c_by_round() -> None:
    spread = BettingStructure.spread_limit(20, 40, 60)
    assert [bounds(spread, round_index=index) for index in range(4)] == [(10, 20), (10, 20), (10, 40), (10, 60)]
    # A raise adds at least the last raise and at most the round's maximum.
    assert bounds(spread, round_index=2, highest_bet=25, last_raise=25) == (50, 65)


@pytest.mark.parametrize(
    ("factory", "message"),
    [
        (lambda: BettingStructure.fixed_limit(0), "small bet"),
        (lambda: BettingStructure.fixed_limit(10, 5), "small bet"),
        (lambda: BettingStructure.spread_limit(0, 10, 10), "positive"),
        (lambda: BettingStructure(StructureKind.NO_LIMIT, max_raises=-1), "max_raises"),
    ],
)
def test_nonsense_sizes_are_refused(factory: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        factory()  # type: ignore[operator]
