"""A director step mirrors and wakes the tables it changed, not every table (hosting.tournament_wakes): a bust
changes its table and the tables players moved between; a level, a break, hand-for-hand, an elimination whose table
no event names, or an event the module does not know changes them all."""

from __future__ import annotations

from engine.table_events import PlayerDisconnected
from engine.tournament.events import (
    BreakStarted,
    Eliminated,
    LevelUp,
    PlayerMoved,
    PrizeAwarded,
    Rebought,
    TableOpened,
)
from engine.tournament.formats import Format
from engine.tournament.money import EntryPrice
from engine.tournament.settings import TournamentSettings
from hosting.tournament_wakes import changed_tables
from tests.engine.tournament.helpers import LEVELS, running


def test_a_bust_changes_its_table_and_the_tables_a_player_moved_between() -> None:
    director = running(TournamentSettings("t", Format.SIT_AND_GO, sit_and_go_size=40, max_players=40,
                                          seats_per_table=9, price=EntryPrice(100, 10), starting_stack=1_000,
                                          schedule=LEVELS), 40)
    table = min(director.tables)
    seated = next(iter(director.tables[table].seats.values()))
    bust = Eliminated("p1", 1, 40)
    assert changed_tables(director, [bust, PrizeAwarded("p1", 1, 40, 0)], table) == {table}
    moved = PlayerMoved("p2", 2, 3, 1, 4, 2, 900, "balance")
    assert changed_tables(director, [bust, moved], table) == {table, 3, 4}
    assert changed_tables(director, [TableOpened(7)], None) == {7}
    assert changed_tables(director, [Rebought(seated.player, seated.entry, 1_000, 1)], None) == {table}
    assert changed_tables(director, [], table) == {table}


def test_what_no_event_places_changes_every_table() -> None:
    director = running(TournamentSettings("t", Format.SIT_AND_GO, sit_and_go_size=40, max_players=40,
                                          seats_per_table=9, price=EntryPrice(100, 10), starting_stack=1_000,
                                          schedule=LEVELS), 40)
    assert changed_tables(director, [LevelUp(2, 100, 200, 0, 0, 0)], 1) is None
    assert changed_tables(director, [BreakStarted(60.0)], 1) is None
    assert changed_tables(director, [Eliminated("p1", 1, 40)], None) is None  # off a table no event names
    assert changed_tables(director, [PlayerDisconnected(1, "p1")], 1) is None  # not a tournament event it knows
    director.hand_for_hand = True
    assert changed_tables(director, [], 1) is None  # a new round of hand-for-hand wakes every table
