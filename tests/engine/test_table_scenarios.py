"""Cash-table scenarios on a fake clock, played with real hands (engine.hand.Hand).

R-DEAL-1, R-BLIND-1..4, R-BET-ORDER (heads-up, straddle), R-DISC-1, R-DISC-2. The artificial all-in scenario also
runs on the ``TwoRoundHandDouble`` test double (tests/engine/hand_double.py), which checks the table's side of it
against a hand of known shape.
"""

from __future__ import annotations

import pytest

from engine.actions import BetOrRaise, Call
from engine.artificial_all_in import ArtificialAllInQuota
from engine.clock import ClockSettings
from engine.events import Checked, Folded
from engine.seating import BlindChoice
from engine.table import HandStarter, Table
from engine.table_events import (
    ArtificialAllInGiven,
    BlindOwed,
    BlindsSettled,
    ChipsReturned,
    PlayerAway,
    SeatFreed,
    TimeBanksRefilled,
    TimeBankUsed,
    TimedOut,
)
from tests.engine.hand_double import TwoRoundHandDouble
from tests.engine.table_helpers import (
    FakeClock,
    decks,
    draw_deck,
    fold_to_big_blind,
    limit_config,
    no_limit_config,
    passive,
    planned,
    play_out,
)

# (hand, button, small blind or None, big blind, seats dealt in) — worked by hand from the dead-button rule.
EXPECTED_30_HANDS = [
    (1, 2, 3, 4, (0, 1, 2, 3, 4)),  # dealer draw: seat 2 drew Ks
    (2, 3, 4, 0, (0, 1, 2, 3, 4)),
    (3, 4, 0, 1, (0, 1, 2, 3)),  # eve (small blind of hand 2) left: the button is dead on her seat
    (4, 0, 1, 2, (0, 1, 2, 3)),
    (5, 1, None, 3, (0, 1, 3)),  # cid (big blind of hand 4) left: no small blind this hand
    (6, 2, 3, 0, (0, 1, 3)),  # ... and the button is dead on his seat the next
    (7, 0, 0, 3, (0, 3)),  # bob sits out: heads-up, the button posts the small blind
    (8, 3, 3, 0, (0, 3)),
    (9, 3, 0, 2, (0, 2, 3)),  # eve back in seat 2: the big blind reaches her at once
    (10, 0, 2, 3, (0, 2, 3)),  # bob is back but waits for the big blind
    (11, 2, 3, 0, (0, 2, 3)),
    (12, 3, 0, 1, (0, 1, 2, 3)),  # ... which reaches him here
    (13, 0, 1, 2, (0, 1, 2, 3)),  # fay sits in seat 4, waiting for the big blind
    (14, 1, 2, 3, (0, 1, 2, 3)),
    (15, 2, 3, 4, (0, 1, 2, 3, 4)),  # ... here
    (16, 3, 4, 1, (1, 2, 3, 4)),  # ana sits out: the big blind passes her (she owes it)
    (17, 4, 1, 2, (1, 2, 3, 4)),  # and the small blind passes her (she owes both)
    (18, 1, 2, 3, (0, 1, 2, 3, 4)),  # ana back, posting both out of position (small blind dead)
    (19, 2, 3, 4, (0, 1, 2, 3, 4)),
    (20, 3, 4, 0, (0, 1, 2, 3, 4)),
    (21, 4, 0, 1, (0, 1, 2, 3, 4)),
    (22, 0, 1, 2, (0, 1, 2, 3, 4, 5)),  # cid new in seat 5, posts a big blind out of position
    (23, 1, 2, 3, (0, 1, 2, 3, 4, 5)),
    (24, 2, 3, 4, (0, 1, 2, 3, 4, 5)),
    (25, 3, 4, 5, (0, 1, 2, 3, 4, 5)),
    (26, 4, 5, 0, (0, 1, 2, 3, 4, 5)),
    (27, 5, 0, 1, (0, 1, 2, 3, 4, 5)),
    (28, 0, 1, 2, (0, 1, 2, 3, 4, 5)),
    (29, 1, 2, 3, (0, 1, 2, 3, 4, 5)),
    (30, 2, 3, 4, (0, 1, 2, 3, 4, 5)),
]


def test_button_and_blinds_over_30_hands_with_players_leaving_and_joining():
    table = Table(no_limit_config(seat_count=6))
    clock = FakeClock()
    deck = decks(7)
    balances = {name: 1_000 for name in ("ana", "bob", "cid", "dan", "eve", "fay")}

    def sit(name: str, choice: BlindChoice = BlindChoice.WAIT_FOR_BIG_BLIND) -> None:
        balances[name] -= 500
        table.sit(name, 500, clock.now, blind_choice=choice)

    def leave(name: str) -> None:
        (returned,) = [event for event in table.leave(name, clock.now) if isinstance(event, ChipsReturned)]
        balances[name] += returned.amount

    for name in ("ana", "bob", "cid", "dan", "eve"):
        sit(name)
    script = {
        3: lambda: leave("eve"),
        5: lambda: leave("cid"),
        7: lambda: table.sit_out("bob", clock.now),
        9: lambda: sit("eve", BlindChoice.POST),
        10: lambda: table.sit_in("bob", clock.now),
        13: lambda: sit("fay"),
        16: lambda: table.sit_out("ana", clock.now),
        18: lambda: (table.set_blind_choice("ana", BlindChoice.POST), table.sit_in("ana", clock.now)),
        22: lambda: sit("cid", BlindChoice.POST),
    }
    owed: dict[str, tuple[bool, bool]] = {}
    for hand_number, button, small_blind, big_blind, dealt_in in EXPECTED_30_HANDS:
        if hand_number in script:
            script[hand_number]()
        owing_before = {seated.player: seated.owes for seated in table.players.values()}
        events = table.start_hand(deck(), clock.now, button_draw_deck=draw_deck("2c 3c Ks 4c 5c"))
        plan = planned(events)
        assert (plan.hand_number, plan.button_seat, plan.small_blind_seat, plan.big_blind_seat, plan.dealt_in) == (
            hand_number, button, small_blind, big_blind, dealt_in,
        )
        assert plan.heads_up == (len(dealt_in) == 2)
        for event in events:
            if isinstance(event, BlindOwed):
                owed[event.player] = (event.small_blind, event.big_blind)
        # Nobody dealt in while sitting out, Away, or owing a blind he does not post now (R-BLIND-3, R-DISC-1).
        for seat in dealt_in:
            seated = table.players[seat]
            assert not seated.away and not seated.sitting_out
            if owing_before[seated.player]:
                assert seat == big_blind or seat in plan.big_blinds_out_of_position or seat in plan.dead_small_blinds
        first = table.to_act()
        assert first is not None
        if plan.heads_up:
            assert first[0] == button  # R-BET-ORDER: heads-up the button acts first preflop
        play_out(table, clock, fold_to_big_blind if hand_number % 2 else passive)
        assert sum(balances.values()) + table.chips_on_table() == 6_000
    # Blinds missed while sitting out (new players' big blinds are owed from the moment they sit).
    assert owed == {"bob": (True, True), "ana": (True, True)}
    assert plan.big_blinds_out_of_position == ()


def test_returning_player_posts_both_blinds_small_one_dead():
    table = Table(no_limit_config(seat_count=6))
    clock = FakeClock()
    deck = decks(3)
    for name in ("ana", "bob", "cid", "dan"):
        table.sit(name, 500, clock.now)
    table.start_hand(deck(), clock.now, button_draw_deck=draw_deck("As 2c 3c 4c"))  # ana button
    play_out(table, clock)
    table.sit_out("cid", clock.now)
    for _ in range(4):  # cid was the big blind: the small blind passes him, then the big blind
        table.start_hand(deck(), clock.now)
        play_out(table, clock, fold_to_big_blind)
    assert table.player("cid").owes_big_blind and table.player("cid").owes_small_blind
    table.set_blind_choice("cid", BlindChoice.POST)
    table.sit_in("cid", clock.now)
    plan = planned(table.start_hand(deck(), clock.now))
    # Button 1, small blind 3: cid in seat 2 sits between them and may not buy in here.
    assert (plan.button_seat, plan.small_blind_seat, plan.big_blind_seat) == (1, 3, 0) and 2 not in plan.dealt_in
    play_out(table, clock, fold_to_big_blind)
    stack_before = table.player("cid").stack
    events = table.start_hand(deck(), clock.now)
    plan = planned(events)
    assert (plan.button_seat, plan.small_blind_seat, plan.big_blind_seat) == (3, 0, 1)
    assert plan.big_blinds_out_of_position == (2,) and plan.dead_small_blinds == (2,)
    assert BlindsSettled(2, "cid") in events
    assert table.hand is not None
    assert table.hand.stacks()[2] == stack_before - 15  # type: ignore[attr-defined]  # 10 live + 5 dead


def test_table_shrinking_to_two_switches_to_heads_up_rules():
    table = Table(no_limit_config(seat_count=6))
    clock = FakeClock()
    deck = decks(11)
    for name in ("ana", "bob", "cid"):
        table.sit(name, 400, clock.now)
    plan = planned(table.start_hand(deck(), clock.now, button_draw_deck=draw_deck("Ks Kh Kd")))
    assert (plan.button_seat, plan.small_blind_seat, plan.big_blind_seat, plan.heads_up) == (0, 1, 2, False)
    first = table.to_act()
    assert first is not None and first[0] == 0  # three-handed: left of the big blind = the button
    play_out(table, clock, fold_to_big_blind)
    table.leave("ana", clock.now)
    plan = planned(table.start_hand(deck(), clock.now))
    # bob had the big blind... no: cid had it; it moves to bob, cid is the button and posts the small blind.
    assert (plan.button_seat, plan.small_blind_seat, plan.big_blind_seat, plan.heads_up) == (2, 2, 1, True)
    assert table.hand is not None
    assert table.hand.bets() == {2: 5, 1: 10}  # type: ignore[attr-defined]
    first = table.to_act()
    assert first is not None and first[0] == 2  # the button acts first preflop
    play_out(table, clock, passive)
    assert table.to_act() is None
    plan = planned(table.start_hand(deck(), clock.now))
    assert (plan.button_seat, plan.big_blind_seat) == (1, 2)  # heads-up the blinds alternate


def test_straddle_left_of_big_blind_then_action_starts_left_of_straddle_and_straddler_acts_last():
    table = Table(no_limit_config(seat_count=6, straddle_allowed=True))
    clock = FakeClock()
    for name in ("ana", "bob", "cid", "dan", "eve"):
        table.sit(name, 500, clock.now)
    table.set_straddle("dan", True)
    events = table.start_hand(decks(5)(), clock.now, button_draw_deck=draw_deck("As 2c 3c 4c 5c"))
    plan = planned(events)
    assert (plan.button_seat, plan.small_blind_seat, plan.big_blind_seat, plan.straddle_seat) == (0, 1, 2, 3)
    assert table.hand is not None and table.hand.bets()[3] == 20  # type: ignore[attr-defined]
    order = []
    while True:
        turn = table.to_act()
        assert turn is not None
        options = table.hand.legal_actions()
        assert options is not None
        order.append(turn[0])
        if turn[0] == 3:
            assert options.can_check and options.can_raise  # the straddler's option
            break
        table.act(table.players[turn[0]].player, Call(), clock.advance(1))
    assert order == [4, 0, 1, 2, 3]


def test_time_bank_used_past_the_action_clock_and_refilled_every_ten_hands():
    settings = ClockSettings(action_seconds=20, time_bank_seconds=60, time_bank_refill_seconds=10,
                             refill_every_hands=10)
    table = Table(no_limit_config(seat_count=6, clock=settings))
    clock = FakeClock()
    deck = decks(13)
    for name in ("ana", "bob", "cid"):
        table.sit(name, 1_000, clock.now)
    events = table.start_hand(deck(), clock.now, button_draw_deck=draw_deck("As 2c 3c"))
    turn = table.to_act()
    assert turn == (0, clock.now + 80.0)  # ana on the button acts first three-handed; 20 s + 60 s bank
    events = table.act("ana", Call(), clock.advance(45.0))
    assert events[0] == TimeBankUsed(0, "ana", 25.0, 35.0, False)
    play_out(table, clock, passive)
    refills = []
    for _ in range(9):
        events = table.start_hand(deck(), clock.now)
        refills += [event for event in events if isinstance(event, TimeBanksRefilled) and event.player == "ana"]
        play_out(table, clock, passive)
    assert refills == [TimeBanksRefilled(0, "ana", 10.0, 0.0, 45.0, 60.0)]  # after her 10th hand
    assert table.player("bob").clock.time_bank == 60.0


def test_disconnect_sequence_check_when_free_else_fold_then_away_then_seat_freed_and_chips_returned():
    settings = ClockSettings(action_seconds=20, disconnection_bank_seconds=30, seat_hold_seconds=300)
    table = Table(no_limit_config(seat_count=6, clock=settings))
    clock = FakeClock()
    deck = decks(17)
    for name in ("ana", "bob", "cid"):
        table.sit(name, 500, clock.now)
    table.start_hand(deck(), clock.now, button_draw_deck=draw_deck("As 2c 3c"))  # ana button, bob SB, cid BB
    table.act("ana", Call(), clock.advance(1))
    table.act("bob", Call(), clock.advance(1))
    table.disconnect("cid", clock.now)
    turn = table.to_act()
    assert turn == (2, clock.now + 50.0)  # the big blind's option, on the 30 s disconnection bank
    assert table.tick(clock.advance(49.0)) == []
    events = table.tick(clock.advance(1.0))
    assert TimedOut(2, "cid", "check") in events and Checked(2) in events  # never fold when a check is free
    assert PlayerAway(2, "cid", clock.now + 300.0) in events
    assert table.player("cid").clock.disconnection_bank == 0.0
    # Later in the same hand cid faces a bet: being Away, he is folded at once.
    folded_when_away = False
    while table.hand is not None:
        turn = table.to_act()
        assert turn is not None and turn[0] != 2
        options = table.hand.legal_actions()
        assert options is not None
        action = BetOrRaise(options.min_raise_to) if options.is_bet and options.min_raise_to else passive(options)
        events = table.act(table.players[turn[0]].player, action, clock.advance(1))
        if Folded(2) in events:
            assert TimedOut(2, "cid", "fold") in events
            folded_when_away = True
    assert folded_when_away
    stack = table.player("cid").stack
    # Away players are not dealt in.
    plan = planned(table.start_hand(deck(), clock.now))
    assert 2 not in plan.dealt_in
    play_out(table, clock, passive)
    freed_at = table.next_deadline()
    assert freed_at is not None
    events = table.tick(freed_at)
    assert events == [ChipsReturned(2, "cid", stack), SeatFreed(2, "cid", "away_too_long")]
    assert table.seat_of("cid") is None


def test_time_out_facing_a_bet_folds_and_marks_away():
    table = Table(no_limit_config(seat_count=6))
    clock = FakeClock()
    for name in ("ana", "bob", "cid"):
        table.sit(name, 500, clock.now)
    table.start_hand(decks(2)(), clock.now, button_draw_deck=draw_deck("As 2c 3c"))
    turn = table.to_act()
    assert turn is not None and turn[0] == 0
    events = table.tick(turn[1])
    assert [type(event).__name__ for event in events[:4]] == ["TimeBankUsed", "TimedOut", "Folded", "PlayerAway"]
    assert TimedOut(0, "ana", "fold") in events
    assert table.player("ana").away
    table.sit_in("ana", clock.now)
    assert not table.player("ana").away


@pytest.mark.parametrize("hand_starter", [None, TwoRoundHandDouble.start], ids=["real_hand", "hand_double"])
def test_artificial_all_in_quota_on_a_limit_table(hand_starter: HandStarter | None):
    """R-DISC-2: twice in 24 hours a disconnected player facing a bet stays in for what he put in; then he folds."""
    quota = ArtificialAllInQuota(per_day=2)
    config = limit_config(seat_count=4, artificial_all_in=True)
    table = (Table(config, all_in_quota=quota) if hand_starter is None
             else Table(config, hand_starter=hand_starter, all_in_quota=quota))
    clock = FakeClock()
    deck = decks(19)
    for name in ("ana", "bob"):
        table.sit(name, 500, clock.now)
    outcomes = []
    for _ in range(3):
        table.start_hand(deck(), clock.now, button_draw_deck=draw_deck("As 2c"))
        turn = table.to_act()
        assert turn is not None
        if table.players[turn[0]].player == "ana":
            table.act("ana", BetOrRaise(20), clock.advance(1))  # bob faces a raise
        table.disconnect("bob", clock.now)
        turn = table.to_act()
        assert turn is not None and table.players[turn[0]].player == "bob"
        events = table.tick(turn[1])
        outcomes.append([event.action for event in events if isinstance(event, TimedOut)])
        given = [event.remaining for event in events if isinstance(event, ArtificialAllInGiven)]
        if given:
            assert table.hand is None or table.to_act() is None or table.to_act()[0] != 1  # type: ignore[index]
            outcomes[-1].append(f"remaining {given[0]}")
        play_out(table, clock, passive)
        assert table.chips_on_table() == 1_000
        table.reconnect("bob", clock.now)
        table.sit_in("bob", clock.now)
        table.player("bob").clock.disconnection_bank = 60.0  # a full bank each time: only the quota decides
        clock.advance(60.0)
    assert outcomes == [["artificial_all_in", "remaining 1"], ["artificial_all_in", "remaining 0"], ["fold"]]
    assert quota.remaining("bob", clock.now) == 0
    assert quota.remaining("bob", clock.now + 86_400) == 2


def test_r_disc_1_disconnected_when_a_cash_hand_starts_is_not_dealt_in_and_back_when_he_reconnects():
    settings = ClockSettings(seat_hold_seconds=300)
    table = Table(no_limit_config(seat_count=6, clock=settings))
    clock = FakeClock()
    deck = decks(5)
    for name in ("ana", "bob", "cid", "dan"):
        table.sit(name, 500, clock.now, blind_choice=BlindChoice.POST)
    plan = planned(table.start_hand(deck(), clock.now, button_draw_deck=draw_deck("As 2c 3c 4c")))
    assert plan.dealt_in == (0, 1, 2, 3)
    play_out(table, clock, fold_to_big_blind)
    table.disconnect("cid", clock.now)  # between hands
    plan = planned(table.start_hand(deck(), clock.now))
    assert plan.dealt_in == (0, 1, 3)
    assert not table.player("cid").away  # not dealt in, but not Away: nothing timed out
    play_out(table, clock, fold_to_big_blind)
    table.reconnect("cid", clock.now)
    plan = planned(table.start_hand(deck(), clock.now))
    assert (plan.button_seat, plan.button_is_dead, plan.dealt_in) == (2, True, (0, 1, 3))  # not on the button
    play_out(table, clock, fold_to_big_blind)
    plan = planned(table.start_hand(deck(), clock.now))
    assert plan.dealt_in == (0, 1, 2, 3)  # back: he plays again
    play_out(table, clock, fold_to_big_blind)
    # Gone during a hand that ends before his turn: the next hand is dealt without him, and his seat is
    # freed 300 s after that hand, chips back.
    table.disconnect("dan", clock.now)
    play_out(table, clock, fold_to_big_blind)
    ended_at = clock.now
    stack = table.player("dan").stack
    plan = planned(table.start_hand(deck(), clock.now))
    assert 3 not in plan.dealt_in
    play_out(table, clock, fold_to_big_blind)
    assert table.tick(ended_at + 299.0) == []
    assert table.tick(ended_at + 300.0) == [ChipsReturned(3, "dan", stack), SeatFreed(3, "dan", "away_too_long")]
