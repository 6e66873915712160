"""Draw games at a cash table: a draw that times out (R-DRAW-1 decision, turn 2) and the draw clock (R-DRAW-1)."""

from __future__ import annotations

import pytest

from engine.actions import BetOrRaise, Call, Check, Draw
from engine.cards import Card, full_deck
from engine.clock import ClockSettings
from engine.hand import HandConfig
from engine.structures import BettingStructure
from engine.table import Table, TableConfig
from engine.table_events import HandFinished, PlayerAway, TimeBankUsed, TimedOut, TurnStarted
from engine.variants import DEUCE_TO_SEVEN_TRIPLE_DRAW, FIVE_CARD_DRAW, THIRTY_TWO_CARD_DRAW, Variant
from tests.engine.table_helpers import FakeClock, draw_deck


def _five_card_draw_table() -> Table:
    # Fixed limit 10/20, blinds 5/10.
    return Table(TableConfig(HandConfig(FIVE_CARD_DRAW, BettingStructure.fixed_limit(10)), seat_count=6,
                             small_blind=5, big_blind=10, min_buy_in=100))


def _to_the_draw(table: Table, clock: FakeClock, deck: list[Card] | None = None) -> None:
    """ana button, bob small blind, cid big blind; everyone calls 10 before the draw."""
    for name in ("ana", "bob", "cid"):
        table.sit(name, 300, clock.now)
    table.start_hand(deck or list(full_deck()), clock.now, button_draw_deck=draw_deck("As 2c 3c"))
    table.act("ana", Call(), clock.advance(1))
    table.act("bob", Call(), clock.advance(1))
    table.act("cid", Check(), clock.advance(1))


def test_r_draw_1_draw_timeout_stands_pat_without_marking_away_and_keeps_call_or_fold():
    table = _five_card_draw_table()
    clock = FakeClock()
    _to_the_draw(table, clock)
    turn = table.to_act()
    assert turn is not None and turn[0] == 1  # the draw starts left of the button: bob
    events = table.tick(clock.advance(turn[1] - clock.now))
    assert TimedOut(1, "bob", "stand_pat") in events
    assert not [event for event in events if isinstance(event, PlayerAway)]
    assert not table.player("bob").away
    table.act("cid", Draw(), clock.advance(1))
    events = table.act("ana", Draw(), clock.advance(1))
    # After the draw bob acts first again: his own turn, not a check made for him.
    assert TurnStarted(1, "bob", clock.now, table.to_act()[1]) in events  # type: ignore[index]
    assert not [event for event in events if isinstance(event, TimedOut)]
    assert table.hand is not None
    legal = table.hand.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.can_check and legal.min_raise_to is None  # no bet
    table.act("bob", Check(), clock.advance(1))
    table.act("cid", BetOrRaise(20), clock.advance(1))  # the big bet after the draw
    table.act("ana", Call(), clock.advance(1))
    legal = table.hand.legal_actions()
    assert legal is not None and legal.seat == 1
    assert (legal.call_amount, legal.min_raise_to, legal.can_fold) == (20, None, True)  # call or fold, not raise
    events = table.act("bob", Call(), clock.advance(1))  # he is not folded for being Away
    (finished,) = [event for event in events if isinstance(event, HandFinished)]  # a showdown of three
    assert table.hand is None and len(finished.stacks) == 3
    assert table.chips_on_table() + table.rake_taken == 900


@pytest.mark.parametrize(("variant", "draw_seconds"), [
    (FIVE_CARD_DRAW, 30.0), (THIRTY_TWO_CARD_DRAW, 30.0), (DEUCE_TO_SEVEN_TRIPLE_DRAW, 24.0),
], ids=["five_card_draw_30s", "thirty_two_card_draw_30s", "deuce_to_seven_24s"])
def test_r_draw_1_draw_clock_of_the_game_then_the_time_bank(variant: Variant, draw_seconds: float):
    """Action clock 20 s, time bank 60 s: the draw gets the game's draw clock, then the bank (not 20 + 60)."""
    settings = ClockSettings(action_seconds=20, time_bank_seconds=60)
    table = Table(TableConfig(HandConfig(variant, BettingStructure.fixed_limit(10)), seat_count=5, small_blind=5,
                              big_blind=10, min_buy_in=100, clock=settings))
    clock = FakeClock()
    deck = list(variant.deck)
    _to_the_draw(table, clock, deck)
    turn = table.to_act()
    assert turn is not None and turn[1] == clock.now + draw_seconds + 60.0
    # Acting 5 s past the draw clock costs 5 s of bank, not 0 (the action clock is not the draw's).
    events = table.act(table.players[turn[0]].player, Draw(), clock.advance(draw_seconds + 5.0))
    assert TimeBankUsed(turn[0], table.players[turn[0]].player, 5.0, 55.0, False) in events
    following = table.to_act()
    assert following is not None and following[1] == clock.now + draw_seconds + 60.0


def test_r_draw_1_draw_clock_is_a_table_setting_and_betting_keeps_the_action_clock():
    settings = ClockSettings(action_seconds=20, time_bank_seconds=60, draw_seconds=45)
    table = Table(TableConfig(HandConfig(FIVE_CARD_DRAW, BettingStructure.fixed_limit(10)), seat_count=6,
                              small_blind=5, big_blind=10, min_buy_in=100, clock=settings))
    clock = FakeClock()
    for name in ("ana", "bob", "cid"):
        table.sit(name, 300, clock.now)
    table.start_hand(list(full_deck()), clock.now, button_draw_deck=draw_deck("As 2c 3c"))
    assert table.to_act() == (0, clock.now + 20.0 + 60.0)  # betting: the action clock
    table.act("ana", Call(), clock.advance(1))
    table.act("bob", Call(), clock.advance(1))
    table.act("cid", Check(), clock.advance(1))
    assert table.to_act() == (1, clock.now + 45.0 + 60.0)  # the draw: the table's own draw clock
    with pytest.raises(ValueError, match="draw_seconds"):
        ClockSettings(draw_seconds=-1)
