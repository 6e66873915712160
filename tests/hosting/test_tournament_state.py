"""A tournament's stored state is versioned data (issue 28, "Stored state is data, versioned";
hosting.tournament_state): a snapshot and steps written by format version 1 (committed fixtures) load; a
registered migration upgrades a version-1 state to a next shape; a newer version is refused in one line; and a
room upgraded from the release that pickled its tournaments converts them once, at its store's migration 10, and
resumes them (hosting.tournament_legacy)."""

from __future__ import annotations

import os
import pickle
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from engine.actions import BetOrRaise, Draw, Fold
from engine.cards import parse_cards
from engine.tournament.deals import DealKind
from engine.tournament.director import Phase, Tournament
from engine.tournament.journal import Call, journaled_methods
from engine.tournament.money import Free, Ticket
from hosting.migrations import MIGRATIONS, SCHEMA_VERSION
from hosting.store import DATABASE_FILE, Store, StoreError
from hosting.tournament_config import TournamentConfig
from hosting.tournament_state import (
    Migration,
    StoredStateError,
    decode_calls,
    encode_calls,
    encode_snapshot,
    load_director,
)
from tests.hosting.tournament_play import tournament_room, until
from tests.hosting.tournament_state_fixture import FIXTURES, PROOF, SETTINGS

SNAPSHOT_V1 = (FIXTURES / "snapshot_v1.json").read_bytes().strip()
STEPS_V1 = [line for line in (FIXTURES / "steps_v1.json").read_bytes().split(b"\n") if line]
LEGACY_STEPS = [(FIXTURES / f"legacy_step_{number}.pickle").read_bytes() for number in range(1, 5)]


def assert_is_the_fixtures_tournament(director: Tournament) -> None:
    """The fixture's play (tests/hosting/tournament_state_fixture.py), in worked numbers: four entries of 100 + 10
    + 20 knockout; dee (seat 3) shoved 1,000 and ann (the button, aces) called: dee is 4th, ann collects half of
    dee's 20 head (10) and 10 goes onto her own (PKO); the blinds 10 and 20 folded."""
    assert director.phase is Phase.FINAL_TABLE and director.hands == 1 and director.busted == 1
    (table,) = director.tables.values()
    assert {seat: (seated.player, seated.stack) for seat, seated in table.seats.items()} == \
        {1: ("bob", 990), 2: ("cy", 980), 0: ("ann", 2_030)}
    assert director.chips_in_play() == 4_000 == director.chips_issued
    assert [(entry.player, entry.live, entry.place) for entry in director.entries.values()] == \
        [("ann", True, None), ("bob", True, None), ("cy", True, None), ("dee", False, 4)]
    cashier = director.cashier
    assert (cashier.pool, cashier.fees, cashier.bounty_fund, cashier.paid_out) == (400, 40, 70, 10)
    assert cashier.balanced() and cashier._entries[3].payment == Ticket(130, "t-1", "night")
    assert director.bounties.heads == {1: 30, 2: 20, 3: 20} and director.bounties_won == {"ann": 10}
    assert director.draw_proofs == [PROOF] and director.settings == SETTINGS
    assert table.positions is not None and table.positions.button_position == 0 and table.external is None


def test_a_snapshot_and_steps_written_by_version_1_load() -> None:
    assert SNAPSHOT_V1.startswith(b'{"version":1,') and all(step.startswith(b'{"version":1,') for step in STEPS_V1)
    assert_is_the_fixtures_tournament(load_director(SNAPSHOT_V1, STEPS_V1, name="tournament night"))
    before = load_director(SNAPSHOT_V1)  # the snapshot alone: two registered, not started
    assert before.phase is Phase.REGISTERING and [entry.player for entry in before.entries.values()] == ["ann", "bob"]


def _clock_from(start: float) -> Migration:
    """A hypothetical version 2 whose tournament clock starts at ``start``, not 0: every time moves by it."""

    def snapshot(body: dict[str, Any]) -> dict[str, Any]:
        return {**body, "clock_origin": body["clock_origin"] + start,
                "started_at": None if body["started_at"] is None else body["started_at"] + start}

    def call(body: dict[str, Any]) -> dict[str, Any]:
        return {**body, "now": body["now"] + start} if "now" in body else body

    return Migration(snapshot, call)


def test_a_version_1_state_is_upgraded_by_a_registered_migration() -> None:
    director = load_director(SNAPSHOT_V1, STEPS_V1, migrations=(_clock_from(1_000.0),))
    assert director.started_at == 1_004.0  # the fourth registration (at 4.0) started it
    assert_is_the_fixtures_tournament(director)  # every step replayed as noted, on the moved clock
    assert director.elapsed(1_030.0) == 26.0 and director.level_number == 1
    assert [call.keywords["now"] for call in decode_calls(STEPS_V1[0], migrations=(_clock_from(1_000.0),))] == \
        [1_003.0]


def test_a_state_of_a_newer_version_is_refused_in_one_line() -> None:
    newer = SNAPSHOT_V1.replace(b'{"version":1,', b'{"version":2,', 1)
    with pytest.raises(StoredStateError) as refused:
        load_director(newer, name="tournament night")
    assert str(refused.value) == ("tournament night: its stored state is format version 2, and this croupier reads "
                                  "versions 1 to 1: upgrade croupier (nothing was changed)")
    with pytest.raises(StoredStateError, match=r"format version 7.*upgrade croupier"):
        load_director(SNAPSHOT_V1, [STEPS_V1[0].replace(b'"version":1', b'"version":7', 1)])
    with pytest.raises(StoredStateError, match="not a tournament's"):
        load_director(b"\x80\x05pickled")


def test_every_journaled_method_has_a_typed_call_record() -> None:
    assert len(journaled_methods(Tournament)) == 25  # seat_by_draw: the room draws the first seats
    calls = [Call("act", (2, 7, Draw(tuple(parse_cards("2c 9h")), timed_out=True), 5.0), {}, (), 3),
             Call("act", (2, 7), {"action": BetOrRaise(60), "now": 6.0}, (1, 0), 0),
             Call("act", (2, 7, Fold(), 7.0), {}, (), -1),
             Call("start_hand", (1, list(parse_cards("As Kd Qh")), 8.0), {}, (4,), 9),
             Call("rebuy", (7, Free(), 9.0), {}, (), 2),
             Call("propose_deal", ("ann", DealKind.ICM), {}, (), 2),
             Call("hand_dealt", (1, frozenset({3, 1})), {}, (), 0),
             Call("seat_by_draw", (), {}, (), 0)]
    back = decode_calls(encode_calls(calls))
    assert [(call.method, call.keywords, call.draws, call.outcome) for call in back] == [
        ("act", {"table_number": 2, "entry": 7, "action": Draw(tuple(parse_cards("2c 9h")), timed_out=True),
                 "now": 5.0}, (), 3),
        ("act", {"table_number": 2, "entry": 7, "action": BetOrRaise(60), "now": 6.0}, (1, 0), 0),
        ("act", {"table_number": 2, "entry": 7, "action": Fold(), "now": 7.0}, (), -1),
        ("start_hand", {"table_number": 1, "deck": list(parse_cards("As Kd Qh")), "now": 8.0}, (4,), 9),
        ("rebuy", {"entry": 7, "payment": Free(), "now": 9.0}, (), 2),
        ("propose_deal", {"player": "ann", "kind": DealKind.ICM}, (), 2),
        ("hand_dealt", {"table_number": 1, "entries": [1, 3]}, (), 0),
        ("seat_by_draw", {}, (), 0)]
    assert b'"action":{"type":"draw","discards":["2c","9h"],"timed_out":true}' in encode_calls(calls[:1])


def _previous_release_store(data_dir: Path, rows: list[tuple[str, str, bytes, list[bytes]]]) -> None:
    """A store as the release before issue 28 left it: schema 9, tournaments pickled."""
    data_dir.mkdir()
    old = sqlite3.connect(data_dir / DATABASE_FILE)
    for migration in MIGRATIONS[:9]:
        assert isinstance(migration, str)
        old.executescript(migration)
    old.execute("PRAGMA user_version = 9")
    for tournament_id, status, state, steps in rows:
        old.execute("INSERT INTO tournaments (id, status, pool, fees, bounties, state, clock, config, updated_at) "
                    "VALUES (?, ?, 400, 40, 70, ?, 30.0, ?, 1.0)",
                    (tournament_id, status, state, '{"name": "Night", "recurring": false, "cancel_refund": "chips"}'))
        old.executemany("INSERT INTO tournament_steps (tournament_id, calls) VALUES (?, ?)",
                        [(tournament_id, step) for step in steps])
    old.commit()
    old.close()


async def test_a_room_upgraded_from_pickled_tournaments_converts_them_once_and_resumes(tmp_path: Path) -> None:
    data_dir = tmp_path / "store"
    _previous_release_store(data_dir, [
        ("night", "final_table", (FIXTURES / "legacy_snapshot.pickle").read_bytes(), LEGACY_STEPS),
        ("earlier", "complete", (FIXTURES / "legacy_final.pickle").read_bytes(), [])])
    store = Store.open(data_dir)
    try:
        assert store.connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 10
        saved = {item.id: item for item in store.saved_tournaments()}
        assert saved["night"].state == SNAPSHOT_V1 and list(saved["night"].steps) == STEPS_V1  # as version 1 wrote
        assert_is_the_fixtures_tournament(load_director(saved["earlier"].state))
        for name in ("ann", "bob", "cy", "dee"):
            store.register(name, f"ssh-ed25519 AAAA{name}")
        room = tournament_room(tmp_path / "data", store, (TournamentConfig(SETTINGS, "Night", False, "chips"),))
        room.start()
        try:
            owner = room.tournaments.owners["night"]
            assert_is_the_fixtures_tournament(owner.director)  # resumed at its final table
            await until(lambda: store.saved_tournaments()[0].state != SNAPSHOT_V1, timeout=60)
            (night, _earlier) = store.saved_tournaments()
            assert night.steps == () and encode_snapshot(load_director(night.state)) == night.state
        finally:
            await room.stop()
    finally:
        await store.close()


class _Runs:
    """A pickle that would run a command when loaded by plain :func:`pickle.loads`."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.system, (f"touch {self.marker}",))


def test_a_pickled_tournament_that_does_not_convert_stops_the_upgrade_in_one_line(tmp_path: Path) -> None:
    data_dir, marker = tmp_path / "store", tmp_path / "ran"
    _previous_release_store(data_dir, [("night", "running", pickle.dumps(_Runs(marker)), LEGACY_STEPS)])
    with pytest.raises(StoreError) as refused:
        Store.open(data_dir)
    assert "tournament night: its state, kept by an earlier croupier, cannot be converted" in str(refused.value)
    assert "\n" not in str(refused.value) and not marker.exists()  # only the engine's classes are loaded
    untouched = sqlite3.connect(data_dir / DATABASE_FILE)
    assert untouched.execute("PRAGMA user_version").fetchone()[0] == 9  # nothing changed: the old croupier runs it
    untouched.close()
