"""The records a tournament holds per entry and per seat pickle quickly (engine.tournament.stored) and exactly:
a director's state reads back the same, and a state stored before (the dataclass's own list of values) still
loads."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from engine.tournament.director import Entry
from engine.tournament.formats import Format
from engine.tournament.money import EntryPrice
from engine.tournament.settings import TournamentSettings
from engine.tournament.stored import stored_quickly
from engine.tournament.table import TournamentSeat
from tests.engine.tournament.helpers import LEVELS, running


def test_a_directors_state_reads_back_the_same() -> None:
    settings = TournamentSettings("t", Format.SIT_AND_GO, sit_and_go_size=20, max_players=20, seats_per_table=9,
                                  price=EntryPrice(100, 10), starting_stack=1_000, schedule=LEVELS)
    director = running(settings, 20)
    director.entries[3].rebuys, director.entries[3].knocked_by = 2, (5, 7)
    back = pickle.loads(pickle.dumps(director, protocol=pickle.HIGHEST_PROTOCOL))
    assert back.entries == director.entries and back.entries[3].knocked_by == (5, 7)
    assert {number: table.seats for number, table in back.tables.items()} == \
        {number: table.seats for number, table in director.tables.items()}
    assert back.cashier == director.cashier and back.live_count == 20


def test_a_state_stored_before_still_loads() -> None:
    entry = Entry(4, "ann", table=2, rebuys=1, knocked_by=(9,))
    old = (None, {field.name: getattr(entry, field.name) for field in dataclasses.fields(Entry)})  # the standard one
    loaded = Entry.__new__(Entry)
    loaded.__setstate__(old)  # type: ignore[attr-defined]
    assert loaded == entry
    seat = TournamentSeat.__new__(TournamentSeat)
    original = TournamentSeat(7, "ann", 1_500, absent=True)
    seat.__setstate__((None, {"entry": 7, "player": "ann", "stack": 1_500, "waits_one_hand": False,  # type: ignore[attr-defined]
                              "absent": True}))
    assert seat == original and original.__getstate__() == [7, "ann", 1_500, False, True]  # type: ignore[attr-defined]


def test_only_a_slotted_dataclass_of_two_fields_or_more_is_accepted() -> None:
    @dataclasses.dataclass
    class Plain:
        a: int
        b: int

    with pytest.raises(TypeError):
        stored_quickly(Plain)
