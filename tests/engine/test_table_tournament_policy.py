"""The tournament policy on the neutral table: the director's first button, a level with a big-blind ante, a
newcomer between the button and the small blind waiting one hand (TDA 2022 Rule 12), an absent player dealt in
and played for (R-TOUR-6), a busted player kept seated, no blind debts and no seat ever freed by the clock."""

from __future__ import annotations

from typing import cast

from engine.actions import Call, Check
from engine.events import Checked
from engine.hand import Hand, HandConfig
from engine.structures import BettingStructure
from engine.table import Table, TableConfig, TournamentPolicy
from engine.table_events import BlindOwed, HandPlanned, PlayerSatOut, TimedOut
from engine.tournament.levels import Level
from engine.tournament.money import EntryPrice
from engine.tournament.settings import TournamentSettings
from engine.variants import TEXAS_HOLDEM
from tests.engine.table_helpers import FakeClock, decks, fold_to_big_blind, passive, play_out
from tests.engine.tournament.helpers import LEVELS, play_hand, rigged_deck, running


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


def test_sit_out_at_a_tournament_table_is_away_dealt_in_posting_and_folded() -> None:
    """Issue 25 item 2, R-TOUR-6: ``sit_out`` does not dodge the blinds. ana sits out: she is still dealt in,
    posts her blind and antes, and is folded at her turn even where a check is free; when everyone sits out
    the table still deals and the blinds grind them."""
    table, clock, deck = _table(), FakeClock(), decks(7)
    for seat, name in ((0, "ana"), (1, "bob"), (3, "cid")):
        table.seat_with_stack(name, 1_000, clock.now, seat=seat)
    table.set_level(Level(10, 20, ante=5).stakes())
    table.set_first_button(1)  # ana (seat 0) is the big blind of hand 1: small blind 3 (cid), big blind 0
    table.sit_out("ana", clock.now)
    events = table.start_hand(deck(), clock.now)
    assert _planned(events).dealt_in == (0, 1, 3) and _planned(events).big_blind_seat == 0
    events += play_out(table, clock, lambda options: Call() if options.call_amount else Check())
    assert [(event.seat, event.action) for event in events if isinstance(event, TimedOut)] == [(0, "fold")]
    assert table.players[0].stack == 1_000 - 5 - 20  # her ante and big blind, then folded to bob's limp
    table.sit_out("bob", clock.now)
    table.sit_out("cid", clock.now)
    stacks = []
    for _ in range(6):
        assert table.can_start_hand()
        table.start_hand(deck(), clock.now)
        assert table.hand is None  # everyone away: folded to the big blind at once
        stacks.append(sum(table.players[seat].stack for seat in (0, 1, 3)))
    assert stacks == [3_000] * 6  # chips only change hands
    assert sorted(seated.stack for seated in table.players.values()) != [1_000, 1_000, 1_000]
    table.sit_in("ana", clock.now)
    table.start_hand(deck(), clock.now)
    assert table.hand is not None  # ana acts for herself again


def test_an_absent_big_blind_with_aces_is_folded_not_checked_to_the_pot() -> None:
    """Issue 26 item 3 (R-TOUR-6, decision of turn 3): the absent big blind holding A♠A♦ is folded when the
    others limp, though a check is free (before: he checked four times and won the pot)."""
    tournament = running(TournamentSettings("t", schedule=LEVELS, starting_stack=1_000,
                                            price=EntryPrice(100, 10), seats_per_table=6, start_time=0.0), 3)
    table = tournament.tables[1]
    seats = sorted(table.seats)
    big_blind = table.seats[seats[2]].entry  # button on the first seat (the helpers' first draw)
    others = {table.seats[seat].entry for seat in seats[:2]}
    tournament.disconnect(big_blind)
    deck = rigged_deck(tournament, 1, {big_blind: "As Ad"}, "2c 7d 9h Js 3s")
    events = play_hand(tournament, 1, deck, 1, callers=others)
    assert [event.action for event in events if isinstance(event, TimedOut)] == ["fold"]
    assert tournament.stack_of(big_blind) == 1_000 - 100
    assert not [event for event in events if isinstance(event, Checked)
                and event.seat == table.seat_of(big_blind)]
