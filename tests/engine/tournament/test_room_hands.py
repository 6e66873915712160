"""Hands the room deals on its own tables (issue 18): the director keeps seats and stacks, the room's runner plays
the hand; a hand that never ends (the room went down) is void; the host's cancel splits the pool left."""

from __future__ import annotations

import pytest

from engine.errors import HandInProgress
from engine.events import HandEnded
from engine.tournament.director import Phase
from engine.tournament.events import Credited, Eliminated, PlayerMoved, PrizeAwarded, TournamentCancelled
from engine.tournament.formats import Format
from engine.tournament.money import EntryPrice
from engine.tournament.settings import PayoutKind, TournamentSettings
from tests.engine.tournament.helpers import LEVELS, running


def _settings(size: int, seats: int = 9, **extra: object) -> TournamentSettings:
    return TournamentSettings("t", Format.SIT_AND_GO, sit_and_go_size=size, max_players=size, seats_per_table=seats,
                              price=EntryPrice(100, 10), starting_stack=1_000, schedule=LEVELS, **extra)  # type: ignore[arg-type]


def test_a_hand_the_room_played_busts_a_player_places_him_and_pays_nobody_twice() -> None:
    tournament = running(_settings(3, payout=PayoutKind.TABLE, payout_percentages=(70, 30)), 3)
    (table,) = tournament.tables.values()
    tournament.prepare_hand(table.number, 1.0)
    entries = {seated.entry for seated in table.seats.values()}
    tournament.hand_dealt(table.number, entries)
    busted_seat = next(seat for seat, seated in table.seats.items() if seated.entry == 3)
    with pytest.raises(HandInProgress):
        table.remove_player(3)  # dealt in: nobody moves him until the hand ends
    final = {seat: 2_000 if seated.entry == 1 else 0 if seat == busted_seat else 1_000
             for seat, seated in table.seats.items()}
    events = tournament.hand_played(table.number, final, [], 2.0)
    out = [event for event in events if isinstance(event, Eliminated)]
    assert [(event.player, event.place) for event in out] == [("p3", 3)]
    assert not any(isinstance(event, PrizeAwarded) for event in events)  # 3rd of 2 paid places
    assert tournament.stack_of(1) == 2_000 and tournament.chips_in_play() == 3_000
    assert not table.hand_running


def test_a_void_hand_leaves_every_stack_as_it_was() -> None:
    tournament = running(_settings(3), 3)
    (table,) = tournament.tables.values()
    tournament.hand_dealt(table.number, [1, 2, 3])
    assert not tournament.may_start_hand(table.number)
    tournament.hand_voided(table.number)
    assert tournament.may_start_hand(table.number)
    assert [tournament.stack_of(entry) for entry in (1, 2, 3)] == [1_000, 1_000, 1_000]
    assert tournament.hands == 0


def test_a_broken_hand_result_is_refused() -> None:
    tournament = running(_settings(2), 2)
    (table,) = tournament.tables.values()
    tournament.hand_dealt(table.number, [1, 2])
    with pytest.raises(RuntimeError):
        tournament.hand_played(table.number, dict.fromkeys(table.seats, 1_001), [HandEnded({}, 0)], 1.0)


def test_balancing_moves_only_players_not_in_the_rooms_hand() -> None:
    tournament = running(_settings(6, seats=3), 6)
    first, second = tournament.tables.values()
    tournament.hand_dealt(second.number, [seated.entry for seated in second.seats.values()])
    busted = {seat: 0 if index < 2 else 3_000 for index, seat in enumerate(sorted(first.seats))}
    tournament.hand_dealt(first.number, [seated.entry for seated in first.seats.values()])
    events = tournament.hand_played(first.number, busted, [], 1.0)
    assert not any(isinstance(event, PlayerMoved) for event in events)  # the other table is in its hand
    events = tournament.hand_played(second.number, {seat: 1_000 for seat in second.seats}, [], 2.0)
    moved = [event for event in events if isinstance(event, PlayerMoved)]
    assert len(moved) == 1 and moved[0].from_table == second.number  # 1 and 3 players: balanced to 2 and 2
    assert [table.player_count for table in tournament.tables.values()] == [2, 2]
    assert tournament.chips_in_play() == 6_000


@pytest.mark.parametrize(("how", "shares"), [("equal", [150, 150]), ("chips", [200, 100])])
def test_the_hosts_cancel_splits_the_pool_left_equal_or_by_chips(how: str, shares: list[int]) -> None:
    tournament = running(_settings(3, payout=PayoutKind.WINNER_TAKES_ALL), 3)
    (table,) = tournament.tables.values()
    tournament.hand_dealt(table.number, [1, 2, 3])
    seats = {seated.entry: seat for seat, seated in table.seats.items()}
    tournament.hand_played(table.number, {seats[1]: 2_000, seats[2]: 1_000, seats[3]: 0}, [], 1.0)
    assert tournament.cashier.pool == 300
    events = tournament.cancel_running(how)
    assert isinstance(events[0], TournamentCancelled)
    assert [(event.player, event.amount) for event in events if isinstance(event, Credited)] == \
        list(zip(("p1", "p2"), shares, strict=True))
    assert tournament.phase is Phase.CANCELLED and tournament.cashier.pool == 0 and not tournament.tables
    assert tournament.cashier.balanced()
    with pytest.raises(ValueError):
        running(_settings(2), 2).cancel_running("coin_flip")
