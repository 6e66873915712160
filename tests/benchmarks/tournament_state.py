"""Benchmark: writing a tournament's stored state (issue 28 step 2) — versioned records (msgspec JSON,
hosting.tournament_state) against the pickle they replaced. One JSON line.

``python tests/benchmarks/tournament_state.py [ENTRANTS]`` (default 3,000: the room benchmark's field, 334 tables).

- ``snapshot``: the director's whole state written, ms (best of 5), and its size in KiB. ``pickle`` is as the
  release before wrote it: ``pickle.dumps`` with the per-entry and per-seat records pickled as the list of their
  values (that release's ``stored_quickly``, given here to the pickler); ``records`` is
  :func:`~hosting.tournament_state.encode_snapshot`.
- ``step``: one step's calls written, µs (best of 5 × 200): a room hand at a nine-handed table as the room journals
  it (``prepare_hand``, ``hand_dealt``, ``hand_played`` with the hand's real events) and a ``tick``.
- ``load_ms``: reading back (not a write: for the record) — the snapshot decoded into a director, and the same
  for the pickle.
"""

from __future__ import annotations

import copyreg
import dataclasses
import io
import json
import operator
import pickle
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import _on_path  # noqa: F401 - first: as a file, the repository's tests package (_on_path.py)

from engine.actions import Call as CallAction
from engine.actions import Check, Fold
from engine.cards import full_deck
from engine.events import Event, HandEnded
from engine.hand import Hand, HandConfig
from engine.tournament.director import Entry, Tournament
from engine.tournament.formats import Format
from engine.tournament.journal import Call, Journal
from engine.tournament.levels import Level
from engine.tournament.money import Balance, EntryPrice, _EntryPayment
from engine.tournament.settings import TournamentSettings
from engine.tournament.table import TournamentSeat, TournamentTable
from hosting.tournament_state import encode_calls, encode_snapshot, load_director


def _values_pickler() -> Callable[[Any], bytes]:
    """``pickle.dumps`` as the release before pickled a director: its records as the list of their values."""
    table = copyreg.dispatch_table.copy()
    for cls in (Entry, TournamentSeat, _EntryPayment):
        getter = operator.attrgetter(*(field.name for field in dataclasses.fields(cls)))
        table[cls] = lambda record, cls=cls, getter=getter: (_rebuilt, (cls, getter(record)))

    def dumps(value: Any) -> bytes:
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = table
        pickler.dump(value)
        return buffer.getvalue()

    return dumps


def _rebuilt(cls: type, values: tuple[Any, ...]) -> Any:
    return cls(*values)


class SeededDraw:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def __call__(self, choices: int) -> int:
        return self.random.randrange(choices)


def _field(entrants: int) -> Tournament:
    settings = TournamentSettings("bench", Format.SIT_AND_GO, sit_and_go_size=entrants, max_players=entrants,
                                  seats_per_table=9, price=EntryPrice(100, 10, 20), starting_stack=10_000,
                                  schedule=tuple(Level(10 * step, 20 * step, duration=600) for step in (1, 2, 3, 5)))
    director = Tournament(settings, SeededDraw(28))
    director.open_registration(0.0)
    for number in range(entrants):
        director.register(f"player{number:04}", Balance(), 0.0)
    return director


def _room_hand(director: Tournament, table: TournamentTable, now: float) -> list[Call]:
    """One hand at ``table`` as the room plays it, and the calls the director's journal notes for it."""
    journal = Journal()
    director.journal = journal
    director.prepare_hand(table.number, now)
    plan = table._plan(min(table.seats))
    assert plan is not None
    director.hand_dealt(table.number, [table.seats[seat].entry for seat in plan.dealt_in])
    level = director.level
    forced = level.forced_bets(button_seat=plan.button_seat, small_blind_seat=plan.small_blind_seat,
                               big_blind_seat=plan.big_blind_seat)
    deck = list(full_deck())
    random.Random(now).shuffle(deck)
    hand = Hand.start(HandConfig(table.variant, level.structure(table.structure)),
                      {seat: table.seats[seat].stack for seat in plan.dealt_in}, deck, forced)
    while not hand.is_over:
        options = hand.legal_actions()
        assert options is not None
        hand.act(options.seat, CallAction() if options.call_amount is not None and options.seat % 3 == 0
                 else Check() if options.can_check else Fold())
    ended = hand.events[-1]
    assert isinstance(ended, HandEnded)
    events: list[Event] = list(hand.events)
    director.hand_played(table.number, dict(ended.stacks), events, now + 30.0, plan.positions)
    director.tick(now + 31.0)
    director.journal = None
    return journal.take()


def _best(write: Callable[[], Any], repeat: int, rounds: int = 5) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(repeat):
            write()
        best = min(best, (time.perf_counter() - started) / repeat)
    return best


def main(entrants: int) -> dict[str, Any]:
    director = _field(entrants)
    step = _room_hand(director, next(iter(director.tables.values())), 60.0)
    dumps = _values_pickler()
    pickled, recorded = dumps(director), encode_snapshot(director)
    step_pickled, step_recorded = dumps(step), encode_calls(step)
    snapshot = {"pickle_ms": round(1000 * _best(lambda: dumps(director), 1), 2),
                "records_ms": round(1000 * _best(lambda: encode_snapshot(director), 1), 2),
                "pickle_kib": round(len(pickled) / 1024, 1), "records_kib": round(len(recorded) / 1024, 1)}
    steps = {"calls": len(step), "events": sum(len(call.arguments[2]) for call in step if call.method == "hand_played"),
             "pickle_us": round(1e6 * _best(lambda: dumps(step), 200), 1),
             "records_us": round(1e6 * _best(lambda: encode_calls(step), 200), 1),
             "pickle_bytes": len(step_pickled), "records_bytes": len(step_recorded)}
    load = {"pickle_ms": round(1000 * _best(lambda: pickle.loads(pickled), 1), 2),
            "records_ms": round(1000 * _best(lambda: load_director(recorded), 1), 2)}
    return {"benchmark": "tournament_state", "entrants": entrants, "tables": len(director.tables),
            "snapshot": snapshot, "step": steps, "load_ms": load,
            "writes_not_slower": snapshot["records_ms"] <= snapshot["pickle_ms"]
            and steps["records_us"] <= steps["pickle_us"]}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3_000)))
