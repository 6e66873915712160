"""Issue 27 leftovers: a plain-ssh player the host kicks (or bans) ends on a terminal that shows his result and
the host's reason. Found by a new-host trial: the room wrote the terminal reset twice (the TUI had left the
alternate screen and printed the result; a second ``ESC[?1049l`` restored the cursor saved before the TUI and
the reason line was written over the result), and the result said "cashed out 0 (200 still on the table)":
the kick stood him up after he stopped hearing the table, so its chips back never reached him."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from hosting.admin_requests import parse_request
from hosting.pty_session import LEAVE_ALTERNATE_SCREEN
from tests.tui.plain_ssh import plain_ssh_player, start_plain_ssh_room
from tests.tui.roombots import table


@pytest.mark.parametrize(("action", "reason"), [
    ("kick", "croupier: the host removed you from the room: collusion\r\n"),
    ("ban", "croupier: the host banned you from this room: collusion\r\n")])
async def test_a_kicked_plain_ssh_player_ends_on_his_result_and_the_reason(tmp_path: Path, action: str,
                                                                           reason: str) -> None:
    running = await start_plain_ssh_room(tmp_path / "data", [table("t1")])
    try:
        async with plain_ssh_player(running, "bob", (120, 40)) as bob:
            await bob.sit_at(running, "t1", "bob")
            request = parse_request({"action": action, "player": "bob", "reason": "collusion"})
            running.room.console.perform("host", request, time.time())
            await bob.read_to_end()
        engine = running.room.tables["t1"].engine
        last = bytes(bob.seen).rpartition(b"Your result:")[2]
        # nothing after the result takes the cursor back over it: the reason follows it on the screen
        assert LEAVE_ALTERNATE_SCREEN not in last, last
        assert last.endswith(reason.encode()), last
        words = last.decode()
        assert "Table t1: bought in 200, cashed out 200 — even" in words, words
        assert "Tonight: bought in 200, cashed out 200 — even" in words, words
        assert engine.seat_of("bob") is None and running.room.store is not None
        assert running.room.store.balance("bob") == 1000  # the 200 back in his bank, as his result says
    finally:
        await running.close()
