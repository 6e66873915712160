"""Mixed games (R-MIX-1..3, docs/rules-home.md): the rotation as a pure function of the hands dealt, and a table
changing game between hands with the blind games' button kept while stud is dealt."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action, BringIn, Call, Check, LegalActions
from engine.cards import full_deck
from engine.errors import HandInProgress
from engine.hand import HandConfig
from engine.mixed import (
    Rotation,
    RotationState,
    due,
    game_of_hand,
    hand_dealt,
    next_in_turn,
    switch_to,
)
from engine.structures import BettingStructure
from engine.table import Table, TableConfig
from engine.table_events import GameChanged, HandPlanned
from engine.variants import OMAHA_HI_LO, RAZZ, SEVEN_CARD_STUD, TEXAS_HOLDEM
from tests.engine.table_helpers import FakeClock, draw_deck

HORSE = Rotation(games=5, every=8)


def test_horse_every_eight_hands_deals_each_game_for_eight_hands_in_order() -> None:
    # hands 1-8 hold'em, 9-16 Omaha hi/lo, 17-24 razz, 25-32 stud, 33-40 stud hi/lo, 41 hold'em again
    games = [game_of_hand(HORSE, hand) for hand in range(1, 42)]
    assert games[:8] == [0] * 8
    assert [games[8], games[15], games[16], games[24], games[32], games[39], games[40]] == [1, 1, 2, 3, 4, 4, 0]
    assert [games.count(game) for game in range(5)] == [9, 8, 8, 8, 8]


def test_the_state_after_hands_says_when_the_game_is_over_and_what_comes_next() -> None:
    state = RotationState()
    assert state.hands_left is None and not due(state)
    for played in range(1, 9):
        state = hand_dealt(HORSE, state, players=6)
        assert state.hands_left == 8 - played
        assert due(state) == (played == 8)
    assert next_in_turn(HORSE, state) == 1
    assert next_in_turn(HORSE, switch_to(HORSE, 4)) == 0  # after stud hi/lo, hold'em again


def test_an_orbit_is_the_players_dealt_into_the_games_first_hand() -> None:
    orbit = Rotation(games=5)
    state = hand_dealt(orbit, RotationState(), players=6)  # six players at the first hand: six hands
    for players in (5, 7, 7, 4, 4):  # players leaving and coming do not change it
        assert not due(state)
        state = hand_dealt(orbit, state, players=players)
    assert state.played == 6 and due(state)
    state = hand_dealt(orbit, switch_to(orbit, 1), players=3)  # the next game: three players, three hands
    assert state.hands_left == 2


def test_a_bad_rotation_or_pick_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        Rotation(games=0)
    with pytest.raises(ValueError, match="no game 5"):
        switch_to(HORSE, 5)
    with pytest.raises(ValueError, match="orbit"):
        game_of_hand(Rotation(games=3), 4)


# --- a table changing game ------------------------------------------------------------------------------------

def _holdem() -> TableConfig:
    return TableConfig(HandConfig(TEXAS_HOLDEM, BettingStructure.fixed_limit(10)), seat_count=6, small_blind=5,
                       big_blind=10, min_buy_in=100)


def _stud(variant: object = SEVEN_CARD_STUD) -> TableConfig:
    return TableConfig(HandConfig(variant, BettingStructure.fixed_limit(10)), seat_count=6,  # type: ignore[arg-type]
                       small_blind=0, big_blind=10, min_buy_in=100, ante=1, bring_in=3)


def _passive(options: LegalActions) -> Action:
    if options.bring_in_amount:
        return BringIn()
    return Check() if options.can_check else Call()


def _play(table: Table, clock: FakeClock, rng: random.Random) -> HandPlanned:
    deck = list(full_deck())
    rng.shuffle(deck)
    first = table.positions is None
    events = table.start_hand(deck, clock.advance(1), button_draw_deck=draw_deck("As", "2c", "3c", "4c")
                              if first else None)
    while table.hand is not None:
        options = table.hand.legal_actions()
        assert options is not None
        table.act(table.players[options.seat].player, _passive(options), clock.advance(1))
    return next(event for event in events if isinstance(event, HandPlanned))


def test_the_blind_games_button_waits_while_stud_is_dealt() -> None:
    # R-MIX-3, worked: four players, ana (seat 0) draws the button. Hold'em hands 1-2: button 0 then 1. Stud hands
    # 3-5. Hold'em again at hand 6: the button moves on from seat 1 to seat 2 (small blind 3, big blind 0), as if
    # no stud hand had been played — not to seat 1, where three more moves would have put it.
    table = Table(_holdem())
    for name in ("ana", "bob", "cy", "dee"):
        table.sit(name, 500, 0.0)
    clock, rng = FakeClock(), random.Random(7)
    buttons = [_play(table, clock, rng).button_seat for _ in range(2)]
    changed = table.change_game(_stud())
    assert changed == [GameChanged(3, "seven_card_stud", "fixed_limit", 0, 10, 1, 3)]
    for _ in range(3):
        _play(table, clock, rng)
    table.change_game(_holdem())
    back = _play(table, clock, rng)
    assert buttons == [0, 1]
    assert (back.button_seat, back.small_blind_seat, back.big_blind_seat) == (2, 3, 0)
    assert table.hand_number == 6
    assert table.chips_on_table() + table.rake_taken == 2000  # every chip still here across three changes


def test_stud_to_stud_and_a_first_game_of_stud_keep_moving_the_button() -> None:
    table = Table(_stud(RAZZ))
    for name in ("ana", "bob", "cy"):
        table.sit(name, 500, 0.0)
    clock, rng = FakeClock(), random.Random(3)
    first = _play(table, clock, rng).button_seat
    table.change_game(_stud())
    assert _play(table, clock, rng).button_seat == (first + 1) % 3
    table.change_game(TableConfig(HandConfig(OMAHA_HI_LO, BettingStructure.fixed_limit(10)), seat_count=6,
                                  small_blind=5, big_blind=10, min_buy_in=100))
    assert _play(table, clock, rng).button_seat == (first + 2) % 3  # nothing kept from before: it moves on
    assert table.chips_on_table() + table.rake_taken == 1500


def test_the_game_changes_only_between_hands_and_keeps_the_seats() -> None:
    table = Table(_holdem())
    for name in ("ana", "bob"):
        table.sit(name, 500, 0.0)
    table.start_hand(list(full_deck()), 1.0, button_draw_deck=draw_deck("As", "2c"))
    with pytest.raises(HandInProgress, match="after it"):
        table.change_game(_stud())
    assert table.config.hand.variant is TEXAS_HOLDEM
    fewer = TableConfig(HandConfig(RAZZ, BettingStructure.fixed_limit(10)), seat_count=4, small_blind=0,
                        big_blind=10, min_buy_in=100, bring_in=3)
    table.hand = None
    with pytest.raises(ValueError, match="keeps its seats"):
        table.change_game(fewer)
