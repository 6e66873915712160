"""Dealer draw (R-DEAL-1) and the dead-button placement of button and blinds (R-BLIND-1..4)."""

from __future__ import annotations

import pytest

from engine.button import Positions, SeatState, draw_for_button, plan_blinds
from engine.cards import parse_cards


def test_dealer_draw_highest_rank_then_spades_hearts_diamonds_clubs():
    assert draw_for_button([0, 4, 7], parse_cards("Ah Kd As")).button_seat == 7
    assert draw_for_button([0, 4, 7], parse_cards("Qc Qd 2s")).button_seat == 4
    assert draw_for_button([2, 5], parse_cards("9h 9c")).button_seat == 2


def test_dealer_draw_refuses_one_player_short_deck_and_repeats():
    with pytest.raises(ValueError, match="at least 2 players"):
        draw_for_button([3], parse_cards("As"))
    with pytest.raises(ValueError, match="needs 3 cards"):
        draw_for_button([0, 1, 2], parse_cards("As Kd"))
    with pytest.raises(ValueError, match="repeated card"):
        draw_for_button([0, 1], parse_cards("As As", allow_duplicates=True))


def seats(*numbers: int, **changes: dict[str, object]) -> list[SeatState]:
    return [SeatState(seat, **changes.get(f"s{seat}", {})) for seat in numbers]  # type: ignore[arg-type]


def test_small_blind_player_leaves_next_button_is_dead():
    previous = Positions(button_position=0, small_blind_position=1, big_blind_seat=2)
    plan = plan_blinds(6, seats(0, 2, 3, 4), previous)
    assert plan is not None
    assert (plan.button_seat, plan.small_blind_seat, plan.big_blind_seat) == (1, 2, 3)
    assert plan.button_is_dead and plan.dealt_in == (0, 2, 3, 4)


def test_big_blind_player_leaves_no_small_blind_next_hand():
    previous = Positions(button_position=0, small_blind_position=1, big_blind_seat=2)
    plan = plan_blinds(6, seats(0, 1, 3, 4), previous)
    assert plan is not None
    assert (plan.button_seat, plan.small_blind_seat, plan.big_blind_seat) == (1, None, 3)
    assert not plan.button_is_dead


def test_sitting_out_player_passed_by_big_blind_then_small_blind_owes_both():
    previous = Positions(0, 1, 2)
    sitting = {"s3": {"active": False}}
    plan = plan_blinds(6, seats(0, 1, 2, 3, 4, 5, **sitting), previous)
    assert plan is not None and plan.big_blind_seat == 4 and plan.missed_big_blind == (3,)
    assert plan.missed_small_blind == ()
    plan = plan_blinds(6, seats(0, 1, 2, 3, 4, 5, s3={"active": False, "owes_big_blind": True}), plan.positions)
    assert plan is not None and (plan.small_blind_seat, plan.big_blind_seat) == (4, 5)
    assert plan.missed_small_blind == (3,)


def test_owing_player_posts_out_of_position_except_between_button_and_small_blind():
    previous = Positions(0, 1, 2)
    owing = {"owes_big_blind": True, "owes_small_blind": True, "posts_when_owing": True}
    plan = plan_blinds(8, seats(0, 1, 2, 3, 5, s5=owing), previous)
    assert plan is not None and plan.big_blind_seat == 3
    assert plan.out_of_position_big_blinds == (5,) and plan.dead_small_blinds == (5,) and 5 in plan.settled
    # In the small blind position (his seat had the big blind and he is new there) he must wait.
    plan = plan_blinds(8, seats(0, 1, 2, 3, 5, s2=owing), previous)
    assert plan is not None and 2 not in plan.dealt_in and plan.small_blind_seat is None


def test_waiting_player_is_dealt_in_when_the_big_blind_reaches_him():
    previous = Positions(0, 1, 2)
    plan = plan_blinds(6, seats(0, 1, 2, 3, s3={"owes_big_blind": True, "new": True}), previous)
    assert plan is not None and plan.big_blind_seat == 3 and plan.settled == (3,)


def test_heads_up_button_posts_small_blind_and_big_blind_alternates():
    plan = plan_blinds(6, seats(1, 4), None, drawn_button=4)
    assert plan is not None and plan.heads_up
    assert (plan.button_seat, plan.small_blind_seat, plan.big_blind_seat) == (4, 4, 1)
    plan = plan_blinds(6, seats(1, 4), plan.positions)
    assert plan is not None and (plan.button_seat, plan.small_blind_seat, plan.big_blind_seat) == (1, 1, 4)


def test_straddle_is_offered_only_to_the_player_left_of_the_big_blind():
    wants = {"wants_straddle": True}
    plan = plan_blinds(6, seats(0, 1, 2, 3, 4, s3=wants, s4=wants), None, drawn_button=0, straddle_allowed=True)
    assert plan is not None and plan.straddle_seat == 3
    plan = plan_blinds(6, seats(0, 1, 2, 3, 4, s4=wants), None, drawn_button=0, straddle_allowed=True)
    assert plan is not None and plan.straddle_seat is None
    plan = plan_blinds(6, seats(0, 1, 2, 3, s3=wants), None, drawn_button=0, straddle_allowed=False)
    assert plan is not None and plan.straddle_seat is None


def test_fewer_than_two_active_players_means_no_hand():
    assert plan_blinds(6, seats(0, 1, s1={"active": False}), Positions(0, 1, 2)) is None
