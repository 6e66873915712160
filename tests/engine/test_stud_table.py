"""Cash tables for ante + bring-in games (R-ANTE-1, R-STUD-1) and draw games with a timed-out draw (R-DRAW-1)."""

from __future__ import annotations

import random

import pytest

from engine.actions import BringIn, Call, Check, Draw
from engine.cards import full_deck, short_deck
from engine.events import AntePosted, BlindPosted, BringInPosted, CardsDrawn, HandEnded
from engine.hand import HandConfig
from engine.structures import BettingStructure
from engine.table import Table, TableConfig
from engine.variants import DEUCE_TO_SEVEN_TRIPLE_DRAW, SEVEN_CARD_STUD, TELESINA


def _stud_table(**changes: object) -> Table:
    settings: dict[str, object] = {"seat_count": 8, "small_blind": 0, "big_blind": 10, "min_buy_in": 100,
                                   "ante": 5, "bring_in": 10}
    settings.update(changes)
    return Table(TableConfig(HandConfig(SEVEN_CARD_STUD, BettingStructure.fixed_limit(20, 40)), **settings))  # type: ignore[arg-type]


def test_stud_table_antes_every_hand_and_no_blinds() -> None:
    table = _stud_table()
    for name in ("ana", "bob", "cy"):
        table.sit(name, 500, 0.0)
    rng = random.Random(4)
    now = 0.0
    for hand_number in range(1, 4):
        deck = list(full_deck())
        rng.shuffle(deck)
        events = table.start_hand(deck, now, button_draw_deck=list(full_deck()) if hand_number == 1 else None)
        assert sum(isinstance(event, AntePosted) for event in events) == 3
        assert not [event for event in events if isinstance(event, BlindPosted)]
        while table.hand is not None and not table.hand.is_over:
            legal = table.hand.legal_actions()
            assert legal is not None
            action = BringIn() if legal.bring_in_amount else (Check() if legal.can_check else Call())
            now += 1
            events = table.act(table.players[legal.seat].player, action, now)
            if any(isinstance(event, HandEnded) for event in events):
                break
        assert table.chips_on_table() + table.rake_taken == 1500
    assert table.hand_number == 3


def test_stud_table_times_out_into_the_bring_in() -> None:
    table = _stud_table()
    for name in ("ana", "bob"):
        table.sit(name, 500, 0.0)
    table.start_hand(list(full_deck()), 0.0, button_draw_deck=list(full_deck()))
    turn = table.to_act()
    assert turn is not None
    events = table.tick(turn[1] + 1)
    assert any(isinstance(event, BringInPosted) for event in events)


def test_ante_table_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="bring-in > 0"):
        _stud_table(bring_in=0)
    with pytest.raises(ValueError, match="no blinds to straddle"):
        _stud_table(straddle_allowed=True)
    telesina = TableConfig(HandConfig(TELESINA, BettingStructure.fixed_limit(20, 40)), seat_count=6, small_blind=0,
                           big_blind=10, min_buy_in=100, ante=5, bring_in=10)
    table = Table(telesina)
    table.sit("ana", 200, 0.0)
    table.sit("bob", 200, 0.0)
    events = table.start_hand(list(short_deck()), 0.0, button_draw_deck=list(full_deck()))
    assert sum(isinstance(event, AntePosted) for event in events) == 2


def test_draw_table_stands_pat_on_a_timed_out_draw() -> None:
    config = TableConfig(HandConfig(DEUCE_TO_SEVEN_TRIPLE_DRAW, BettingStructure.fixed_limit(10)), seat_count=6,
                         small_blind=5, big_blind=10, min_buy_in=100)
    table = Table(config)
    table.sit("ana", 300, 0.0)
    table.sit("bob", 300, 0.0)
    table.start_hand(list(full_deck()), 0.0, button_draw_deck=list(full_deck()))
    now = 0.0
    assert table.hand is not None
    while (legal := table.hand.legal_actions()) is not None and legal.max_discards is None:
        now += 1
        table.act(table.players[legal.seat].player, Check() if legal.can_check else Call(), now)
    turn = table.to_act()
    assert turn is not None
    events = table.tick(turn[1] + 1)
    assert [event for event in events if isinstance(event, CardsDrawn)] == [CardsDrawn(turn[0], 0, timed_out=True)]
    legal = table.hand.legal_actions()
    assert legal is not None and legal.max_discards == 5
    table.act(table.players[legal.seat].player, Draw(), turn[1] + 2)


def test_the_table_keeps_the_exact_forced_bets_of_the_hand() -> None:
    table = _stud_table()
    table.sit("ana", 500, 0.0)
    table.sit("bob", 500, 0.0)
    table.start_hand(list(full_deck()), 0.0, button_draw_deck=list(full_deck()))
    forced = table.last_forced_bets
    assert forced is not None
    assert (forced.ante, forced.bring_in, forced.small_blind_seat, forced.big_blind_seat) == (5, 10, None, None)
