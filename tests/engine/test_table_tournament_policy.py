"""The tournament policy on the neutral table: the director's first button, a level with a big-blind ante, a
newcomer between the button and the small blind waiting one hand (TDA 2022 Rule 12), an absent player dealt in
and played for (R-TOUR-6), a busted player kept seated, no blind debts and no seat ever freed by the clock."""

from __future__ import annotations

from typing import cast

from engine.hand import Hand, HandConfig
from engine.structures import BettingStructure
from engine.table import Table, TableConfig, TournamentPolicy
from engine.table_events import BlindOwed, HandPlanned, PlayerSatOut, TimedOut
from engine.tournament.levels import Level
from engine.variants import TEXAS_HOLDEM
from tests.engine.table_helpers import FakeClock, decks, fold_to_big_blind, passive, play_out


def _table() -> Table:
    config = TableConfig(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit()), seat_count=6, small_blind=10,
                         big_blind=20)
    return Table(config, policy=TournamentPolicy())


def _planned(events: list[object]) -> HandPlanned:
    return next(event for event in events if isinstance(event, HandPlanned))


def test_a_tournament_table_on_the_neutral_table() -> None:
    """Seats 0, 1, 3 with 1,000 each; the director's button is seat 0; level 10/20 with a 20 big-blind ante:
    hand 1 posts 10 (seat 1) + 20 + 20 (seat 3) = 50. A newcomer takes seat 2 during it: in hand 2 (button 1,
    small blind 3, big blind 0) his seat lies between the button and the small blind, so he waits; he owes
    nothing and is dealt into hand 3. cid (seat 3, the button of hand 3), disconnected, is still dealt in and
    folded for at his turn."""
    table, clock, deck = _table(), FakeClock(), decks(21)
    for seat, name in ((0, "ana"), (1, "bob"), (3, "cid")):
        table.seat_with_stack(name, 1_000, clock.now, seat=seat)
    table.set_level(Level(10, 20, big_blind_ante=20).stakes())
    table.set_first_button(0)
    first = table.start_hand(deck(), clock.now)
    planned = _planned(first)
    assert (planned.button_seat, planned.small_blind_seat, planned.big_blind_seat) == (0, 1, 3)
    assert cast(Hand, table.hand).pot_total == 50
    arrival = table.seat_with_stack("dan", 800, clock.now, seat=2)
    assert not any(isinstance(event, BlindOwed) for event in arrival)
    play_out(table, clock, fold_to_big_blind)

    second = _planned(table.start_hand(deck(), clock.now))
    assert (second.button_seat, second.small_blind_seat, second.big_blind_seat) == (1, 3, 0)
    assert second.dealt_in == (0, 1, 3)  # dan waits: between the button and the small blind
    play_out(table, clock, fold_to_big_blind)

    table.disconnect("cid", clock.now)
    assert table.next_deadline() is None  # his seat is held for ever (R-TOUR-6)
    third = table.start_hand(deck(), clock.now)
    assert _planned(third).dealt_in == (0, 1, 2, 3) and _planned(third).button_seat == 3
    events = third + play_out(table, clock, fold_to_big_blind)
    assert [(event.seat, event.action) for event in events if isinstance(event, TimedOut)] == [(3, "fold")]
    assert sum(seated.stack for seated in table.players.values()) == 3_800


def test_a_busted_player_stays_seated_until_the_director_removes_him() -> None:
    table, clock = _table(), FakeClock()
    table.seat_with_stack("ana", 20, clock.now)
    table.seat_with_stack("bob", 20, clock.now)  # heads-up at 10/20: both all-in once ana calls
    table.set_first_button(0)
    table.start_hand(decks(5)(), clock.now)
    events = play_out(table, clock, passive)
    stacks = {seated.player: seated.stack for seated in table.players.values()}
    assert sorted(stacks.values()) == [0, 40]
    busted = [name for name, stack in stacks.items() if stack == 0]
    assert len(busted) == 1 and table.seat_of(busted[0]) is not None
    assert not any(isinstance(event, PlayerSatOut) for event in events)
    assert not table.can_start_hand()
