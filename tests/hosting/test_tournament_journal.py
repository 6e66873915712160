"""A tournament's state kept as what changed (issue 18: 3,000 entrants): each step writes the calls that changed
the director, and a snapshot only when the calls since the last one outweigh it — never the whole state each
step. Read back (snapshot + steps replayed), it is the director of the last step kept, at any moment of a room's
tournament; the end is a snapshot (the summary export reads it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import hosting.tournaments
from engine.tournament.director import Phase, Tournament
from hosting.store import Store
from hosting.tournament_state import load_director
from hosting.tournaments import TournamentOwner
from tests.hosting.tournament_play import Shover, sit_and_go, tournament_room, until

NAMES = tuple(f"p{index}" for index in range(9))


def fingerprint(director: Tournament) -> tuple[Any, ...]:
    return (director.phase, director.level_number, director.busted, director.hands, director.moves,
            director.prizes, director.cashier, dict(director.bounties.heads), dict(director.entries),
            {number: (dict(table.seats), table.external, table.positions) for number, table in director.tables.items()},
            director.live_count)


async def test_the_stored_steps_replay_to_the_director_of_the_last_step_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hosting.tournaments, "SNAPSHOT_MIN_BYTES", 4_000)  # several snapshots in a short game
    monkeypatch.setattr(hosting.tournaments, "SNAPSHOT_RATIO", 1)
    kept: list[tuple[Any, ...]] = []
    snapshots: list[int] = []
    keep, snapshot = TournamentOwner._keep, TournamentOwner._snapshot

    def keep_noted(self: TournamentOwner, moves: list[Any]) -> Any:
        future = keep(self, moves)
        kept.append(fingerprint(self.director))  # the store commits at once here: this is what it holds
        return future

    def snapshot_noted(self: TournamentOwner) -> bytes:
        state = snapshot(self)
        snapshots.append(len(state))
        return state

    monkeypatch.setattr(TournamentOwner, "_keep", keep_noted)
    monkeypatch.setattr(TournamentOwner, "_snapshot", snapshot_noted)
    store = Store.open(tmp_path / "store")
    for name in NAMES:
        store.register(name, f"ssh-ed25519 AAAA{name}")
    room = tournament_room(tmp_path / "data", store, (sit_and_go(size=9, level_seconds=1.0),))
    room.start()
    bots = [await Shover.join(room, name, shove_rate=0.3) for name in NAMES]
    try:
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="sng")
        owner = room.tournaments.owners["sng"]
        checked = steps_seen = 0
        while owner.director.phase is not Phase.COMPLETE:
            await until(lambda seen=checked: len(kept) > seen or owner.director.phase is Phase.COMPLETE, timeout=240)
            (saved,) = [item for item in store.saved_tournaments() if item.id == "sng"]
            steps_seen = max(steps_seen, len(saved.steps))
            assert fingerprint(load_director(saved.state, saved.steps)) == kept[-1]
            checked = len(kept)
        (saved,) = [item for item in store.saved_tournaments() if item.id == "sng"]
        assert saved.steps == () and saved.status == "complete"  # the end is a snapshot
        final = load_director(saved.state)
        assert fingerprint(final) == fingerprint(owner.director) == kept[-1]
        assert checked > 20 and steps_seen >= 3
        assert len(snapshots) >= 3 and len(snapshots) < len(kept) / 3  # not a snapshot per step
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
        await store.close()
