"""The in-process room of ``croupier play`` (a practice table or a practice tournament): its own room id and
accounts under ``<data>/practice``, apart from a hosted room's files; no store (practice chips cost nothing)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hosting.config import RoomConfig
    from hosting.room import Room

PRACTICE_FOLDER = "practice"  # inside the data directory, apart from a hosted room's files


def practice_room(config: RoomConfig, data_dir: Path, pause_between_hands: float = 1.5,
                  showdown_pause: float = 3.0) -> Room:
    """The room of ``config``. A showdown's result stays up ``showdown_pause`` seconds before the next deal
    (``--fast`` shortens it)."""
    from hosting import datadir
    from hosting.config import AccessConfig
    from hosting.identity import AccountStore, Gatekeeper
    from hosting.room import Room
    from hosting.table_runner import RunnerSettings, TableRunner

    practice_dir = datadir.prepare(data_dir / PRACTICE_FOLDER)
    accounts_file = practice_dir / "accounts.json"
    accounts_file.unlink(missing_ok=True)  # the practice room forgets names: a new key each run is fine
    # its player and bots log in from this process (identity.IN_PROCESS_ADDRESS): no per-address limit counts
    # them, so a 45-player MTT registers its 44 bots at the room's defaults
    gatekeeper = Gatekeeper(AccessConfig(), AccountStore(accounts_file))
    settings = RunnerSettings(commit_seconds=5.0, reveal_seconds=5.0, pause_between_hands=pause_between_hands,
                              showdown_pause=showdown_pause)
    return Room(config, datadir.room_id(practice_dir), gatekeeper,
                driver_factory=lambda room, state: TableRunner(room, state, settings))
