"""Side pots and splits (R-POT-1, R-POT-2) on their own, with RULES.md's worked numbers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.pots import Pot, award_pot, build_pots, split_evenly, split_high_low


def test_three_player_side_pot_worked_example_pots() -> None:
    # A (0) and B (1) put in 100 each, C (2) 50 all-in.
    assert build_pots([100, 100, 50], [True, True, True]) == [Pot(150, (0, 1, 2)), Pot(100, (0, 1))]


def test_worked_example_c_best_second_best_takes_the_side_pot() -> None:
    strengths = {0: 5, 1: 3, 2: 9}  # C best, A second
    assert award_pot(150, [0, 1, 2], strengths) == [(2, 150, "whole")]
    assert award_pot(100, [0, 1], strengths) == [(0, 100, "whole")]


def test_worked_example_a_and_b_tie_behind_c_take_50_each() -> None:
    strengths = {0: 5, 1: 5, 2: 9}
    assert award_pot(100, [0, 1], strengths) == [(0, 50, "whole"), (1, 50, "whole")]


def test_worked_example_c_and_b_tie_best_c_75_b_175() -> None:
    strengths = {0: 1, 1: 9, 2: 9}
    main = award_pot(150, [0, 1, 2], strengths)
    side = award_pot(100, [0, 1], strengths)
    assert main == [(1, 75, "whole"), (2, 75, "whole")] and side == [(1, 100, "whole")]


def test_folded_money_stays_in_the_pot_but_folded_players_cannot_win() -> None:
    assert build_pots([30, 100, 100], [False, True, True]) == [Pot(230, (1, 2))]


def test_dead_money_goes_to_the_main_pot() -> None:
    assert build_pots([50, 100, 100], [True, True, True], dead_money=15) == [Pot(165, (0, 1, 2)), Pot(100, (1, 2))]


def test_one_side_pot_per_all_in_level() -> None:
    pots = build_pots([10, 20, 30, 40, 40], [True] * 5)
    assert [pot.amount for pot in pots] == [50, 40, 30, 20]
    assert [pot.eligible for pot in pots] == [(0, 1, 2, 3, 4), (1, 2, 3, 4), (2, 3, 4), (3, 4)]


def test_odd_chips_one_each_to_the_tied_winners_clockwise_from_the_button() -> None:
    # R-POT-2 (turn 2): 284 three ways is 95/95/94, not 96/94/94 (PokerKit gives both odd chips to the first).
    assert split_evenly(284, [0, 1, 2]) == [(0, 95), (1, 95), (2, 94)]
    assert split_evenly(25, [1, 2]) == [(1, 13), (2, 12)]
    assert split_evenly(11, [0, 3, 4]) == [(0, 4), (3, 4), (4, 3)]


def test_hi_lo_halves_odd_chip_to_high_and_no_low_scoops() -> None:
    assert split_high_low(25) == (13, 12)
    assert award_pot(25, [0, 1], {0: 9, 1: 1}, {0: None, 1: 7}) == [(0, 13, "high"), (1, 12, "low")]
    assert award_pot(25, [0, 1], {0: 9, 1: 1}, {0: None, 1: None}) == [(0, 25, "whole")]
    # Quartered: two lows tie, one high.
    assert award_pot(40, [0, 1, 2], {0: 9, 1: 1, 2: 2}, {0: None, 1: 7, 2: 7}) == [
        (0, 20, "high"), (1, 10, "low"), (2, 10, "low"),
    ]


@given(st.lists(st.tuples(st.integers(0, 500), st.booleans()), min_size=2, max_size=10), st.integers(0, 50))
def test_pots_hold_every_chip(players: list[tuple[int, bool]], dead: int) -> None:
    contributions = [amount for amount, _ in players]
    alive = [alive for _, alive in players]
    if not any(alive):
        alive[0] = True
    pots = build_pots(contributions, alive, dead)
    assert sum(pot.amount for pot in pots) == sum(contributions) + dead
    for pot in pots:
        assert pot.eligible and all(alive[position] for position in pot.eligible)


@given(st.integers(0, 10_000), st.lists(st.integers(0, 9), min_size=1, max_size=9, unique=True))
def test_split_evenly_hands_out_exactly_the_pot(amount: int, winners: list[int]) -> None:
    shares = split_evenly(amount, sorted(winners))
    assert sum(chips for _, chips in shares) == amount
    assert max(chips for _, chips in shares) - min(chips for _, chips in shares) < len(winners)


def test_folded_blinds_above_players_all_in_on_their_antes_go_to_those_players() -> None:
    # Seats 2-4 are all-in on antes (dead money 3); the blinds put in 5 each and folded.
    assert build_pots([5, 5, 0, 0, 0], [False, False, True, True, True], dead_money=3) == [Pot(13, (2, 3, 4))]
