"""R-CRASH-1 for a tournament's hand history (issue 18): a hand whose record was written but whose director step
(the stacks it moved) was not, when the room is killed, is void at the restart — the director resumes from
before it — so its record is voided too (as a cash table's unfinished hand is), never exported as played.

In process: the real room, its table runners and store; the kill is the store dropping the director's steps from
a moment on (what a SIGKILL between the hand's write and its step's leaves on disk)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hosting.hand_records import iter_hands
from hosting.ledger import audit
from hosting.store import Store
from tests.hosting.tournament_play import Shover, sit_and_go, tournament_room, until

NAMES = ("ana", "bob")


def _statuses(store: Store) -> dict[str, str]:
    return {str(hand_id): str(status) for hand_id, status in store.connection.execute(
        "SELECT id, status FROM hands WHERE table_id LIKE 'sng.%' ORDER BY rowid")}


async def test_a_hand_whose_step_was_not_kept_is_void_in_the_history_after_a_restart(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    for name in NAMES:
        store.register(name, f"ssh-ed25519 AAAA{name}")
    config = sit_and_go(size=2, seats=2, knockout=0, level_seconds=600.0)
    room = tournament_room(tmp_path / "data", store, (config,))
    room.start()
    bots = [await Shover.join(room, name) for name in NAMES]
    for bot in bots:
        bot.passive = True  # check and call: nobody is out, the tournament runs on
    owner = room.tournaments.owners["sng"]
    try:
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="sng")
        await until(lambda: owner.director.playing and owner.director.hands >= 3, timeout=60)
        await store.flush()
        kept = [hand for hand, status in _statuses(store).items() if status == "finished"]
        assert kept  # hands played and stepped: finished

        def dropped(*arguments: Any, **keywords: Any) -> None:
            return None  # the kill: from now on no step of the director reaches the disk

        store.tournament_step = dropped  # type: ignore[method-assign]
        played = owner.director.hands
        await until(lambda: owner.director.hands >= played + 2, timeout=60)  # a hand ended after the last step
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
        await store.close()

    after = Store.open(tmp_path / "store")  # the restart: recovery, then the tournament resumes
    statuses = _statuses(after)
    voided = [hand for hand, status in statuses.items() if status == "voided"]
    assert voided, statuses
    assert all(statuses[hand] == "finished" for hand in kept)
    exported = [hand.hand_id for hand in iter_hands(after.connection) if hand.table_id.startswith("sng.")]
    assert not set(voided) & set(exported)
    for name in NAMES:  # each player is told, as at a cash table
        assert any(f"Hand {voided[-1]}" in notice for notice in after.pending_notices(name))
    restarted = tournament_room(tmp_path / "data2", after, (config,))
    restarted.start()
    try:  # the history holds exactly the hands the resumed director played
        assert restarted.tournaments.owners["sng"].director.hands == len(exported)
        assert audit(after.connection) == []
    finally:
        await restarted.stop()
        await after.close()
