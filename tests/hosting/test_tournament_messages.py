"""Who hears a tournament's events (issue 18; hosting.tournament_messages.event_messages): in a small field every
entrant hears every elimination; in a large one (3,000 entries) only the players concerned and the players at the
table where it happened do — a bust is not 3,000 messages — while levels and the end still reach everyone."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.tournament.director import Tournament
from engine.tournament.events import BreakStarted, Eliminated, LevelUp, TableBroken, TableOpened
from engine.tournament.formats import Format, SpinRow
from engine.tournament.money import EntryPrice
from engine.tournament.settings import TournamentSettings
from hosting import protocol
from hosting.tournament_config import TournamentConfig
from hosting.tournament_messages import SMALL_FIELD, event_messages, lobby_row
from tests.engine.tournament.helpers import LEVELS, running


@dataclass
class Owner:
    config: TournamentConfig
    director: Tournament

    @property
    def id(self) -> str:
        return "t"

    def table_id(self, number: int) -> str:
        return f"t.{number}"


def _owner(size: int) -> Owner:
    settings = TournamentSettings("t", Format.SIT_AND_GO, sit_and_go_size=size, max_players=size, seats_per_table=9,
                                  price=EntryPrice(100, 10), starting_stack=1_000, schedule=LEVELS)
    return Owner(TournamentConfig(settings, "T"), running(settings, size))


def _bust_one(owner: Owner) -> tuple[int, set[str], list[tuple[str, str]]]:
    """A hand at the first table busts one player: (table, its players before, (name, event kind) heard)."""
    director = owner.director
    table = director.tables[min(director.tables)]
    players = {director.entries[seated.entry].player for seated in table.seats.values()}
    director.hand_dealt(table.number, [seated.entry for seated in table.seats.values()])
    seats = sorted(table.seats)
    final = {seat: table.seats[seat].stack for seat in seats}
    final[seats[1]] += final[seats[0]]
    final[seats[0]] = 0
    events = director.hand_played(table.number, final, [], 1.0)
    assert any(isinstance(event, Eliminated) for event in events)
    heard = [(name, message["event"]["event"]) for name, message in event_messages(owner, events, table.number)]
    return table.number, players, heard


def test_in_a_large_field_a_bust_reaches_the_players_of_its_table_not_every_entrant() -> None:
    owner = _owner(3 * SMALL_FIELD)
    number, players, heard = _bust_one(owner)
    director = owner.director
    there = {director.entries[seated.entry].player for seated in director.tables[number].seats.values()}
    hearing = sorted(name for name, kind in heard if kind == "eliminated")
    assert len(players) >= 8 and hearing == sorted(players | there)  # the busted player and his table, once each
    assert len(hearing) <= 10
    news = BreakStarted(600.0)
    assert len(list(event_messages(owner, [news]))) == 3 * SMALL_FIELD  # shared news still reaches everyone
    # a level is heard at the tables only (their LevelChanged, hosting.tournaments.TournamentOwner._set_level)
    assert list(event_messages(owner, [LevelUp(2, 100, 200, 0, 0, 0)])) == []


def test_in_a_small_field_every_entrant_hears_every_bust() -> None:
    owner = _owner(18)
    _number, _players, heard = _bust_one(owner)
    assert sorted(name for name, kind in heard if kind == "eliminated") == [f"p{index}" for index in
                                                                           sorted(range(1, 19), key=str)]


def test_in_a_large_field_a_table_opened_reaches_its_players_and_shared_news_is_encoded_once() -> None:
    owner = _owner(3 * SMALL_FIELD)
    director = owner.director
    table = director.tables[max(director.tables)]
    opened = TableOpened(table.number)
    hearing = sorted(name for name, _ in event_messages(owner, [opened]))
    assert hearing == sorted(seated.player for seated in table.seats.values()) and 2 <= len(hearing) <= 9
    assert list(event_messages(owner, [TableBroken(999)])) == []  # gone: its players heard their moves
    assert len(list(event_messages(_owner(18), [opened]))) == 18  # a small field: everyone, as before
    sent = [message for _, message in event_messages(owner, [BreakStarted(600.0)])]
    assert len(sent) == 3 * SMALL_FIELD and all(message is sent[0] for message in sent)
    assert isinstance(sent[0], protocol.Shared)  # one JSON line for all 300


def test_the_lobby_shows_a_spins_expected_return_as_a_percentage_of_the_buy_ins() -> None:
    # issue 26: the default table returns the three buy-ins (100 %); a host's own table shows its own.
    spin = TournamentSettings("s", Format.SPIN, sit_and_go_size=3, max_players=3, seats_per_table=3,
                              price=EntryPrice(100, 10), starting_stack=500, schedule=LEVELS)
    owner = Owner(TournamentConfig(spin, "Spin"), Tournament(spin, lambda n: 0))
    assert lobby_row(owner, 0.0)["expected_return"] == 100.0
    own = replace(spin, spin_table=(SpinRow(2, 750_000, (100,)), SpinRow(4, 250_000, (100,))))
    owner = Owner(TournamentConfig(own, "Spin"), Tournament(own, lambda n: 0))
    assert lobby_row(owner, 0.0)["expected_return"] == 83.3
    assert lobby_row(_owner(3), 0.0)["expected_return"] is None
