"""Seats, buy-ins, waiting list and illegal table requests (R-BUYIN-1, R-GAME-DECK): each refused request names
its reason and leaves the table unchanged."""

from __future__ import annotations

import copy

import pytest

from engine.actions import Action, BetOrRaise, Call, Fold, LegalActions
from engine.clock import ClockSettings
from engine.errors import AlreadySeated, HandInProgress, InvalidAmount, NotSeated, TableFull, TableRuleError
from engine.events import Folded, UncalledBetReturned
from engine.hand import HandConfig
from engine.seating import BlindChoice
from engine.structures import BettingStructure
from engine.table import Table, TableConfig
from engine.table_events import (
    BlindOwed,
    ChipsAdded,
    ChipsReturned,
    LeavingAfterHand,
    PlayerSatOut,
    PlayerSeated,
    SeatFreed,
    TurnStarted,
    WaitingListJoined,
    WaitingListLeft,
)
from engine.variants import OMAHA_FIVE_CARD, TEXAS_HOLDEM
from tests.engine.table_helpers import FakeClock, decks, draw_deck, limit_config, no_limit_config, planned, play_out


def snapshot(table: Table) -> object:
    return copy.deepcopy((table.players, table.waiting_list, table.positions, table.hand_number))


def three_handed() -> Table:
    table = Table(no_limit_config(seat_count=3))
    for name in ("ana", "bob", "cid"):
        table.sit(name, 500, 0.0)
    return table


def test_sit_takes_the_chosen_or_first_free_seat():
    table = Table(no_limit_config(seat_count=6))
    assert table.sit("ana", 500, 0.0, seat=4) == [PlayerSeated(4, "ana", 500)]
    assert table.sit("bob", 200, 0.0) == [PlayerSeated(0, "bob", 200)]
    assert table.free_seats() == [1, 2, 3, 5]


def test_sitting_twice_is_refused_unchanged():
    table = three_handed()
    before = snapshot(table)
    with pytest.raises(AlreadySeated, match="bob already sits in seat 1"):
        table.sit("bob", 500, 1.0)
    assert snapshot(table) == before


def test_buy_in_over_the_maximum_or_under_the_minimum_is_refused_unchanged():
    table = Table(no_limit_config(seat_count=6))
    before = snapshot(table)
    with pytest.raises(InvalidAmount, match="the maximum buy-in is 1000 chips: buy-in of 1001 would make 1001"):
        table.sit("ana", 1_001, 0.0)
    with pytest.raises(InvalidAmount, match="the minimum buy-in is 200 chips, got 199"):
        table.sit("ana", 199, 0.0)
    with pytest.raises(InvalidAmount, match="whole number of chips"):
        table.sit("ana", 250.5, 0.0)  # type: ignore[arg-type]
    assert snapshot(table) == before


def test_limit_table_has_a_minimum_but_no_maximum_buy_in():
    table = Table(limit_config(seat_count=6))
    assert table.sit("ana", 1_000_000, 0.0) == [PlayerSeated(0, "ana", 1_000_000)]


def test_joining_a_full_table_is_refused_unchanged():
    table = three_handed()
    before = snapshot(table)
    with pytest.raises(TableFull, match="the table is full \\(3 seats\\); join the waiting list"):
        table.sit("dan", 500, 0.0)
    assert snapshot(table) == before


def test_taken_or_missing_seat_is_refused():
    table = Table(no_limit_config(seat_count=6))
    table.sit("ana", 500, 0.0, seat=2)
    with pytest.raises(TableRuleError, match="seat 2 is taken by ana"):
        table.sit("bob", 500, 0.0, seat=2)
    with pytest.raises(TableRuleError, match="there is no seat 6: seats are 0 to 5"):
        table.sit("bob", 500, 0.0, seat=6)


def test_seat_count_is_capped_by_the_game_and_buy_in_rules_by_the_structure():
    with pytest.raises(ValueError, match="5-card Omaha tables have 2 to 9 seats, not 10"):
        TableConfig(HandConfig(OMAHA_FIVE_CARD, BettingStructure.pot_limit()), seat_count=10, small_blind=5,
                    big_blind=10, min_buy_in=200, max_buy_in=1_000)
    with pytest.raises(ValueError, match="no limit table needs a maximum buy-in"):
        TableConfig(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit()), seat_count=6, small_blind=5,
                    big_blind=10, min_buy_in=200)
    with pytest.raises(ValueError, match="artificial all-in is only for limit tables"):
        no_limit_config(artificial_all_in=True)
    with pytest.raises(ValueError, match="2 to 10 seats, not 11"):
        limit_config(seat_count=11)


def test_top_up_between_hands_up_to_the_maximum():
    table = three_handed()
    assert table.top_up("ana", 500, 0.0) == [ChipsAdded(0, "ana", 500, 1_000)]
    before = snapshot(table)
    with pytest.raises(InvalidAmount, match="would make 1001 \\(at most 0 more\\)"):
        table.top_up("ana", 1, 0.0)
    assert snapshot(table) == before


def test_top_up_mid_hand_is_refused_unchanged():
    table = three_handed()
    table.start_hand(decks(1)(), 0.0, button_draw_deck=draw_deck("As 2c 3c"))
    before = snapshot(table)
    with pytest.raises(HandInProgress, match="ana is in a hand: top up after it ends"):
        table.top_up("ana", 100, 1.0)
    assert snapshot(table) == before
    with pytest.raises(HandInProgress):
        table.start_hand(decks(2)(), 1.0)


def test_first_hand_needs_a_dealer_draw_deck_and_two_players():
    table = Table(no_limit_config(seat_count=6))
    table.sit("ana", 500, 0.0)
    with pytest.raises(TableRuleError, match="at least two players"):
        table.start_hand(decks(1)(), 0.0, button_draw_deck=draw_deck("As"))
    table.sit("bob", 500, 0.0)
    with pytest.raises(TableRuleError, match="dealer draw"):
        table.start_hand(decks(1)(), 0.0)
    assert table.hand is None and table.positions is None


def test_unknown_player_requests_name_the_player():
    table = three_handed()
    with pytest.raises(NotSeated, match="zoe has no seat at this table"):
        table.leave("zoe", 0.0)
    with pytest.raises(NotSeated, match="zoe is not on the waiting list"):
        table.leave_waiting_list("zoe")


def test_leaving_between_hands_returns_the_stack():
    table = three_handed()
    assert table.leave("bob", 5.0) == [ChipsReturned(1, "bob", 500), SeatFreed(1, "bob", "left")]
    assert table.seat_of("bob") is None


def test_leaving_mid_hand_folds_at_once_and_frees_the_seat_when_the_hand_ends():
    table = three_handed()
    clock = FakeClock()
    table.start_hand(decks(4)(), clock.now, button_draw_deck=draw_deck("As 2c 3c"))  # ana button
    table.act("ana", Call(), clock.advance(1))
    events = table.leave("cid", clock.now)  # the big blind, not his turn
    assert events[:2] == [LeavingAfterHand(2, "cid"), Folded(2, left_table=True)]
    assert table.seat_of("cid") == 2  # chips still in the hand
    events = table.act("bob", Fold(), clock.advance(1))
    returned = [event for event in events if isinstance(event, ChipsReturned)]
    assert returned == [ChipsReturned(2, "cid", 490)]  # his big blind stayed in the pot
    assert table.seat_of("cid") is None
    assert table.chips_on_table() == 1_010


def test_fold_out_folds_out_of_turn_keeps_the_seat_and_the_forced_bet_stays_in_the_pot():
    table = three_handed()
    clock = FakeClock()
    table.start_hand(decks(4)(), clock.now, button_draw_deck=draw_deck("As 2c 3c"))  # ana button, cid big blind
    events = table.fold_out("cid", clock.now)  # not his turn (ana acts first)
    assert events[:2] == [Folded(2, left_table=True), UncalledBetReturned(2, 5)]  # the part bob's 5 did not call
    assert not any(isinstance(event, LeavingAfterHand) for event in events)
    assert table.fold_out("cid", clock.now) == []  # already folded: nothing more
    table.act("ana", Fold(), clock.advance(1))  # bob alone wins the blinds
    assert table.hand is None
    assert table.seat_of("cid") == 2 and table.player("cid").stack == 495  # seat kept, called part of the blind lost
    assert table.player("bob").stack == 505
    assert table.chips_on_table() == 1_500


def test_fold_out_outside_a_hand_is_refused_unchanged():
    table = three_handed()
    before = snapshot(table)
    with pytest.raises(TableRuleError, match="bob is not in a running hand: nothing to fold"):
        table.fold_out("bob", 0.0)
    with pytest.raises(NotSeated):
        table.fold_out("zoe", 0.0)
    assert snapshot(table) == before


def test_waiting_list_gets_freed_seats_in_order():
    table = three_handed()
    assert table.join_waiting_list("dan") == [WaitingListJoined("dan", 1)]
    assert table.join_waiting_list("eve") == [WaitingListJoined("eve", 2)]
    with pytest.raises(AlreadySeated, match="dan is already number 1 on the waiting list"):
        table.join_waiting_list("dan")
    with pytest.raises(AlreadySeated, match="ana already sits"):
        table.join_waiting_list("ana")
    events = table.leave("bob", 0.0)
    assert events[-1] == SeatFreed(1, "bob", "left", offered_to="dan")
    before = snapshot(table)
    with pytest.raises(TableFull, match="the free seat is promised to dan on the waiting list"):
        table.sit("eve", 500, 0.0)
    with pytest.raises(TableFull):
        table.sit("zoe", 500, 0.0)
    assert snapshot(table) == before
    assert table.sit("dan", 500, 0.0) == [WaitingListLeft("dan"), PlayerSeated(1, "dan", 500)]
    assert table.leave_waiting_list("eve") == [WaitingListLeft("eve")]


def test_new_player_at_a_running_table_owes_the_big_blind():
    table = Table(no_limit_config(seat_count=6))
    for name in ("ana", "bob", "cid"):
        table.sit(name, 500, 0.0)
    table.start_hand(decks(3)(), 0.0, button_draw_deck=draw_deck("As 2c 3c"))
    assert table.sit("dan", 500, 1.0, blind_choice=BlindChoice.POST) == [
        PlayerSeated(3, "dan", 500), BlindOwed(3, "dan", small_blind=False, big_blind=True),
    ]


def test_auto_post_off_player_sits_out_a_blind_until_he_confirms():
    table = three_handed()
    clock = FakeClock()
    deck = decks(9)
    table.start_hand(deck(), clock.now, button_draw_deck=draw_deck("As 2c 3c"))  # ana button, bob SB, cid BB
    play_out(table, clock)
    table.set_auto_post_blinds("ana", False)
    # Next: button bob, small blind cid, big blind ana — ana has not confirmed, so she misses it.
    plan = table.plan_next_hand()
    assert plan is not None and 0 not in plan.dealt_in and plan.heads_up
    table.confirm_blinds("ana")
    plan = table.plan_next_hand()
    assert plan is not None and plan.big_blind_seat == 0 and plan.dealt_in == (0, 1, 2)
    events = table.start_hand(deck(), clock.now)
    assert planned(events).big_blind_seat == 0
    assert not table.player("ana").blinds_confirmed  # one hand's confirmation only


def test_straddle_setting_refused_on_tables_without_straddles():
    table = three_handed()
    with pytest.raises(TableRuleError, match="does not allow straddles"):
        table.set_straddle("ana", True)


def test_acting_out_of_turn_or_after_the_deadline_is_refused_unchanged():
    from engine.errors import NotYourTurn

    table = three_handed()
    table.start_hand(decks(5)(), 0.0, button_draw_deck=draw_deck("As 2c 3c"))
    with pytest.raises(NotYourTurn, match="it is ana's turn, not bob's"):
        table.act("bob", Call(), 1.0)
    before = snapshot(table)
    with pytest.raises(NotYourTurn, match="ana's time ran out at 80 s"):
        table.act("ana", Call(), 80.5)
    assert snapshot(table) == before


def test_sitting_out_longer_than_the_hold_frees_the_seat_and_returns_the_chips():
    table = three_handed()
    table.sit_out("bob", 10.0)
    assert table.next_deadline() == 310.0
    assert table.tick(309.9) == []
    assert table.tick(310.0) == [ChipsReturned(1, "bob", 500), SeatFreed(1, "bob", "sat_out_too_long")]
    assert table.next_deadline() is None


def test_player_who_loses_his_stack_sits_out_until_he_buys_again():
    table = Table(no_limit_config(seat_count=3))
    table.sit("ana", 200, 0.0)
    table.sit("bob", 1_000, 0.0)
    clock = FakeClock()
    table.start_hand(decks(31)(), clock.now, button_draw_deck=draw_deck("As 2c"))  # ana button, acts first

    def shove_or_call(options: LegalActions) -> Action:
        return BetOrRaise(options.max_raise_to) if options.max_raise_to else Call()

    events = play_out(table, clock, shove_or_call)
    assert (table.player("ana").stack, table.player("bob").stack) == (0, 1_200)  # this deck: bob wins
    assert PlayerSatOut(0, "ana", "no_chips", clock.now + 300.0) in events
    assert not table.can_start_hand()
    with pytest.raises(TableRuleError, match="ana has no chips: top up before sitting in"):
        table.sit_in("ana", clock.now)
    with pytest.raises(InvalidAmount, match="minimum buy-in is 200"):
        table.top_up("ana", 100, clock.now)
    table.top_up("ana", 200, clock.now)
    table.sit_in("ana", clock.now)
    assert table.can_start_hand()
    assert table.chips_on_table() == 1_400


def test_disconnecting_during_a_turn_moves_the_deadline_to_the_disconnection_bank():
    table = Table(no_limit_config(seat_count=3, clock=ClockSettings(disconnection_bank_seconds=15)))
    for name in ("ana", "bob", "cid"):
        table.sit(name, 500, 0.0)
    table.start_hand(decks(8)(), 0.0, button_draw_deck=draw_deck("As 2c 3c"))
    assert table.to_act() == (0, 80.0)
    assert table.disconnect("ana", 5.0)[-1] == TurnStarted(0, "ana", 0.0, 35.0)
    assert table.reconnect("ana", 6.0)[-1] == TurnStarted(0, "ana", 0.0, 80.0)


def test_ante_and_bring_in_games_need_a_bring_in():
    from dataclasses import replace

    from engine.variants import ForcedBetKind

    stud_like = replace(TEXAS_HOLDEM, forced_bets=ForcedBetKind.ANTE_BRING_IN)
    with pytest.raises(ValueError, match="needs a bring-in > 0 chips"):
        TableConfig(HandConfig(stud_like, BettingStructure.fixed_limit(10)), seat_count=6, small_blind=5,
                    big_blind=10, min_buy_in=100)
