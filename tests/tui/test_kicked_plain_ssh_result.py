"""Issue 27 leftovers: a plain-ssh player the host kicks (or bans) ends on a terminal that shows his result and
the host's reason. Found by a new-host trial: the room wrote the terminal reset twice (the TUI had left the
alternate screen and printed the result; a second ``ESC[?1049l`` restored the cursor saved before the TUI and
the reason line was written over the result), and the result said "cashed out 0 (200 still on the table)":
the kick stood him up after he stopped hearing the table, so its chips back never reached him."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import asyncssh
import pytest

from hosting.admin_requests import parse_request
from hosting.pty_session import LEAVE_ALTERNATE_SCREEN
from tests import waiting
from tests.tui.plain_ssh import start_plain_ssh_room
from tests.tui.roombots import table
from tests.tui.test_pty_session import read_until
from tests.waiting import QUIET


@pytest.mark.parametrize(("action", "reason"), [
    ("kick", "croupier: the host removed you from the room: collusion\r\n"),
    ("ban", "croupier: the host banned you from this room: collusion\r\n")])
async def test_a_kicked_plain_ssh_player_ends_on_his_result_and_the_reason(tmp_path: Path, action: str,
                                                                           reason: str) -> None:
    running = await start_plain_ssh_room(tmp_path / "data", [table("t1")])
    try:
        async with asyncssh.connect("127.0.0.1", running.port, username="bob", known_hosts=None,
                                    client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                    agent_path=None, config=[]) as connection:
            process = await connection.create_process(term_type="xterm-256color", term_size=(120, 40),
                                                      encoding=None)
            seen = bytearray()
            await read_until(process, b"Table t1", seen)
            engine = running.room.tables["t1"].engine
            process.stdin.write(b"j")  # the lobby's highlighted table: the buy-in window, its maximum typed
            await read_until(process, b"Buy-in", seen)
            process.stdin.write(b"\r")
            await waiting.until(lambda: engine.seat_of("bob") is not None, "bob seated", progress=lambda: len(seen))
            request = parse_request({"action": action, "player": "bob", "reason": "collusion"})
            running.room.console.perform("host", request, time.time())
            while chunk := await asyncio.wait_for(process.stdout.read(65536), QUIET):
                seen.extend(chunk)
        last = bytes(seen).rpartition(b"Your result:")[2]
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
