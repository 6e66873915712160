"""A director's state as a snapshot plus the calls since (engine.tournament.journal): replayed, the calls give the
same state exactly — entries, seats, stacks, money, places — from any snapshot; a call that does not replay as it
was noted is refused, never silently taken."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from engine.tournament.director import Tournament
from engine.tournament.formats import Format
from engine.tournament.journal import Call, Journal, ReplayMismatch, replay
from engine.tournament.levels import Level
from engine.tournament.money import Balance, EntryPrice
from engine.tournament.settings import Rebuys, TournamentSettings
from engine.tournament.stored import TournamentRecord, director_of, record_of
from tests.engine.tournament.simulation import play

LEVELS = tuple(Level(small, small * 2, duration=120) for small in (10, 20, 40, 80, 160, 320, 640, 1_280))


class SeededDraw:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def __call__(self, choices: int) -> int:
        return self.random.randrange(choices)


def fingerprint(director: Tournament) -> tuple[Any, ...]:
    """Everything a room shows or pays from a director (sets compared as sets)."""
    return (director.phase, director.level_number, director.busted, director.hands, director.moves,
            director.tables_broken, director.prizes, director.cashier, dict(director.bounties.heads),
            dict(director.entries), {number: dict(table.seats) for number, table in director.tables.items()},
            director.live_count, director.late_registration_open)


def snapshot(director: Tournament) -> bytes:
    """The director's state as a room keeps it (engine.tournament.stored), never its draw."""
    return msgspec.json.encode(record_of(director))


def restored(state: bytes) -> Tournament:
    return director_of(msgspec.json.decode(state, type=TournamentRecord), SeededDraw(0))


def between_hands(director: Tournament) -> bool:
    """A state is kept between the hands of the director's own tables (a room deals every hand on its own)."""
    return all(table.hand is None for table in director.tables.values())


def settings(rebuys: bool) -> TournamentSettings:
    return TournamentSettings("t", Format.SIT_AND_GO, sit_and_go_size=40, max_players=40, seats_per_table=9,
                              price=EntryPrice(100, 10, knockout=20), starting_stack=1_000, schedule=LEVELS,
                              rebuys=Rebuys(until_seconds=600, threshold=0, chips=1_000, price=100, max_rebuys=1)
                              if rebuys else None)


@pytest.mark.parametrize("rebuys", [False, True])
def test_any_snapshot_and_the_calls_after_it_give_the_same_director(rebuys: bool) -> None:
    director = Tournament(settings(rebuys), SeededDraw(18))
    journal = Journal()
    director.journal = journal
    director.open_registration(0.0)
    journal.take()
    snapshots: list[tuple[bytes, int]] = [(snapshot(director), 0)]  # (state, calls noted before it)
    calls: list[Call] = []
    rng = random.Random(7)
    moments = random.Random(11)  # when to snapshot: the play's own draws stay as they were
    for index in range(40):
        director.register(f"p{index}", Balance(), 0.0)
        calls += journal.take()
        if index == 20:
            snapshots.append((snapshot(director), len(calls)))

    def after_step(tournament: Tournament, events: list[Any]) -> None:
        calls.extend(journal.take())
        if between_hands(tournament) and moments.random() < 0.2:
            snapshots.append((snapshot(tournament), len(calls)))

    def rebuy_some(tournament: Tournament, number: int, now: float) -> list[Any]:
        events: list[Any] = []
        for entry in sorted(tournament._pending):
            if rng.random() < 0.5:
                events += tournament.rebuy(entry, Balance(), now)
            else:
                events += tournament.decline_rebuy(entry, now)
        return events

    play(director, rng, after_step=after_step, on_hand_end=rebuy_some if rebuys else None)
    calls += journal.take()
    assert director.hands > 15 and director.phase.value == "complete"
    assert {call.method for call in calls} >= {"register", "tick", "start_hand", "act"}
    assert len(snapshots) >= 4
    live = fingerprint(director)
    for state, noted in snapshots:
        back = restored(state)
        assert back.journal is None  # a journal is never part of a stored state
        replay(back, calls[noted:])
        assert fingerprint(back) == live


def test_a_call_that_does_not_replay_as_noted_is_refused() -> None:
    director = Tournament(settings(False), SeededDraw(3))
    director.journal = Journal()
    director.open_registration(0.0)
    director.journal.take()
    state = snapshot(director)
    for index in range(40):
        director.register(f"p{index}", Balance(), 0.0)  # the 40th starts it: seats drawn
    calls = director.journal.take()
    start = calls[-1]
    assert start.method == "register" and len(start.draws) > 10
    replay(restored(state), calls)  # as noted: fine
    changed = Call(start.method, start.arguments, start.keywords, start.draws[:-1], start.outcome)
    with pytest.raises(ReplayMismatch):
        replay(restored(state), [*calls[:-1], changed])  # a draw short
    refused = Call("register", ("p0", Balance(), 0.0), {}, (), 3)  # p0 twice: it raised when noted? not so
    with pytest.raises(ReplayMismatch):
        replay(restored(state), [*calls[:-1], refused])
