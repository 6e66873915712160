"""Home-game options at a table (issue 19): bomb pots come every N hands (R-HOME-3), and a run-it-twice question
left unanswered runs the board once without marking the player away (R-HOME-1)."""

from __future__ import annotations

import pytest

from engine.actions import BetOrRaise, Call, Check, Fold, RunItTwice
from engine.cards import full_deck, parse_cards
from engine.errors import TableRuleError
from engine.events import BombPotStarted, SecondBoardDealt
from engine.hand import HandConfig
from engine.home import HomeOptions
from engine.home.rabbit_hunt import RabbitHuntShown
from engine.structures import BettingStructure
from engine.table import Table, TableConfig
from engine.table_events import HandFinished, PlayerAway, TimedOut, TurnStarted
from engine.variants import OMAHA, TEXAS_HOLDEM
from tests.engine.table_helpers import FakeClock, draw_deck


def home_table(**options: int | bool) -> Table:
    hand = HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit(), home=HomeOptions(**options))  # type: ignore[arg-type]
    return Table(TableConfig(hand, seat_count=6, small_blind=5, big_blind=10, min_buy_in=100, max_buy_in=1000))


def fold_around(table: Table, clock: FakeClock) -> None:
    """Everyone checks, or folds, to the end of the hand."""
    while table.hand is not None:
        legal = table.hand.legal_actions()
        assert legal is not None
        table.act(table.players[legal.seat].player, Check() if legal.can_check else Fold(), clock.advance(1))


def test_every_third_hand_is_a_bomb_pot_with_everyone_anteing_and_no_blinds() -> None:
    table = home_table(bomb_pot_every=3, bomb_pot_ante=20)
    clock = FakeClock()
    for name in ("ana", "bob", "cid"):
        table.sit(name, 500, clock.now)
    bombs = []
    for number in range(1, 7):
        events = table.start_hand(list(full_deck()), clock.advance(1),
                                  button_draw_deck=draw_deck("As 2c 3c") if number == 1 else None)
        bombs.append(any(isinstance(event, BombPotStarted) for event in events))
        if bombs[-1]:
            assert table.last_forced_bets is not None and table.last_forced_bets.big_blind_seat is None
            assert table.hand is not None and table.hand.pot_total == 60 and len(table.hand.board) == 3
        fold_around(table, clock)
    assert bombs == [False, False, True, False, False, True]


def test_an_unanswered_run_it_twice_question_runs_once_and_the_player_is_not_away() -> None:
    table = home_table(run_it_twice=True)
    clock = FakeClock()
    deck = list(parse_cards("As Ks Ad Kd 2c 7h 9d 3s 4c"))
    deck += [card for card in full_deck() if card not in deck]
    table.sit("ana", 500, clock.now)
    table.sit("bob", 500, clock.now)
    table.start_hand(deck, clock.now, button_draw_deck=draw_deck("As 2c"))
    turn = table.to_act()
    assert turn is not None
    first = table.players[turn[0]].player
    table.act(first, BetOrRaise(500), clock.advance(1))
    other = "bob" if first == "ana" else "ana"
    events = table.act(other, Call(), clock.advance(1))
    asked = [event for event in events if isinstance(event, TurnStarted)]
    assert asked and table.hand is not None
    legal = table.hand.legal_actions()
    assert legal is not None and legal.can_run_twice
    answering = table.players[legal.seat].player
    events = table.act(answering, RunItTwice(True), clock.advance(1))
    turn = table.to_act()
    assert turn is not None
    late = table.players[turn[0]].player
    events = table.tick(clock.advance(turn[1] - clock.now + 0.1))
    assert TimedOut(turn[0], late, "run_once") in events
    assert not [event for event in events if isinstance(event, PlayerAway)] and not table.player(late).away
    assert any(isinstance(event, HandFinished) for event in events)
    assert not any(isinstance(event, SecondBoardDealt) for event in events)


def test_the_rabbit_is_on_offer_after_an_early_end_to_players_dealt_in_once_until_the_next_deal() -> None:
    table = home_table(rabbit_hunt=True)
    clock = FakeClock()
    deck = list(parse_cards("As Ks Ad Kd 2c 7h 9d 3s 4c"))
    deck += [card for card in full_deck() if card not in deck]
    table.sit("ana", 500, clock.now)
    table.sit("bob", 500, clock.now)
    table.start_hand(deck, clock.now, button_draw_deck=draw_deck("As 2c"))
    with pytest.raises(TableRuleError, match="no rabbit"):
        table.rabbit_hunt("ana")  # the hand is still running
    table.sit("cid", 500, clock.now)  # seated during the hand: not dealt in
    assert table.hand is not None
    legal = table.hand.legal_actions()
    assert legal is not None
    table.act(table.players[legal.seat].player, Fold(), clock.advance(1))
    with pytest.raises(TableRuleError, match="dealt into the last hand"):
        table.rabbit_hunt("cid")
    (shown,) = table.rabbit_hunt("bob")
    assert isinstance(shown, RabbitHuntShown) and shown.player == "bob" and shown.first_position == 4
    assert [(street, cards) for street, cards in shown.streets] == [
        ("flop", tuple(parse_cards("2c 7h 9d"))), ("turn", tuple(parse_cards("3s"))),
        ("river", tuple(parse_cards("4c")))]
    with pytest.raises(TableRuleError, match="already shown"):
        table.rabbit_hunt("ana")


def test_the_rabbit_stays_on_offer_through_the_next_deal_until_its_first_action() -> None:
    """Issue 27: the offer lasted the second between hands. It stays through the next deal (blinds, cards) and
    ends with the new hand's first action; a player who took a seat of the last hand since was not dealt in."""
    table = home_table(rabbit_hunt=True)
    clock = FakeClock()
    deck = list(parse_cards("As Ks Ad Kd 2c 7h 9d 3s 4c"))
    deck += [card for card in full_deck() if card not in deck]
    table.sit("ana", 500, clock.now)
    table.sit("bob", 500, clock.now)
    table.start_hand(deck, clock.now, button_draw_deck=draw_deck("As 2c"))
    assert table.hand is not None
    legal = table.hand.legal_actions()
    assert legal is not None
    folder = table.players[legal.seat].player
    table.act(folder, Fold(), clock.advance(1))
    table.leave(folder, clock.advance(1))
    table.sit("cid", 500, clock.now)  # in the seat the folder left, or another: not dealt into that hand
    table.start_hand(list(full_deck()), clock.advance(1))  # the next deal: blinds posted, cards dealt
    assert table.hand is not None and table.rabbit is not None
    with pytest.raises(TableRuleError, match="dealt into the last hand"):
        table.rabbit_hunt("cid")
    stayed = "bob" if folder == "ana" else "ana"
    (shown,) = table.rabbit_hunt(stayed)
    assert isinstance(shown, RabbitHuntShown) and shown.first_position == 4
    assert [card for _, cards in shown.streets for card in cards] == list(parse_cards("2c 7h 9d 3s 4c"))


def test_the_rabbit_is_gone_with_the_next_hands_first_action() -> None:
    table = home_table(rabbit_hunt=True)
    clock = FakeClock()
    table.sit("ana", 500, clock.now)
    table.sit("bob", 500, clock.now)
    table.start_hand(list(full_deck()), clock.now, button_draw_deck=draw_deck("As 2c"))
    assert table.hand is not None
    legal = table.hand.legal_actions()
    assert legal is not None
    table.act(table.players[legal.seat].player, Fold(), clock.advance(1))
    table.start_hand(list(full_deck()), clock.advance(1))
    assert table.rabbit is not None  # dealt: still on offer
    legal = table.hand.legal_actions()
    assert legal is not None
    table.act(table.players[legal.seat].player, Call(), clock.advance(1))
    assert table.rabbit is None
    with pytest.raises(TableRuleError, match="no rabbit"):
        table.rabbit_hunt("ana")


def test_no_rabbit_after_a_board_run_out_or_at_a_table_without_the_option() -> None:
    for options, moves in (({"rabbit_hunt": True}, "all-in"), ({}, "fold")):
        table = home_table(**options)  # type: ignore[arg-type]
        clock = FakeClock()
        table.sit("ana", 500, clock.now)
        table.sit("bob", 500, clock.now)
        table.start_hand(list(full_deck()), clock.now, button_draw_deck=draw_deck("As 2c"))
        assert table.hand is not None
        legal = table.hand.legal_actions()
        assert legal is not None
        first = table.players[legal.seat].player
        if moves == "fold":
            table.act(first, Fold(), clock.advance(1))
        else:
            table.act(first, BetOrRaise(500), clock.advance(1))
            table.act("bob" if first == "ana" else "ana", Call(), clock.advance(1))
        assert table.hand is None
        with pytest.raises(TableRuleError, match="no rabbit"):
            table.rabbit_hunt("ana")


def test_the_host_can_change_the_options_for_the_next_hands() -> None:
    table = home_table()
    clock = FakeClock()
    table.sit("ana", 500, clock.now)
    table.sit("bob", 500, clock.now)
    table.start_hand(list(full_deck()), clock.now, button_draw_deck=draw_deck("As 2c"))
    table.set_home_options(HomeOptions(bomb_pot_every=1, bomb_pot_ante=5))
    assert table.hand is not None and not any(isinstance(event, BombPotStarted) for event in table.hand.events)
    fold_around(table, clock)
    events = table.start_hand(list(full_deck()), clock.advance(1))
    assert BombPotStarted(5) in events
    omaha = Table(TableConfig(HandConfig(OMAHA, BettingStructure.pot_limit()), seat_count=6, small_blind=1,
                              big_blind=2, min_buy_in=40, max_buy_in=200))
    with pytest.raises(ValueError, match="seven_deuce_bounty"):
        omaha.set_home_options(HomeOptions(seven_deuce_bounty=5))
