"""Issue 27 (a leftover of item 1): a plain-ssh player the host bans sees why, one line on his terminal once
the room's screen is gone, before the connection ends — not a bare shell prompt."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from hosting import protocol
from hosting.admin_requests import parse_request
from hosting.pty_session import farewell_words
from tests.tui.plain_ssh import plain_ssh_player, start_plain_ssh_room
from tests.tui.roombots import table

LEAVE_SCREEN = b"\x1b[?1049l"  # back from the alternate screen: what follows stays on the player's terminal


@pytest.mark.parametrize(("action", "line"), [
    ("ban", "croupier: the host banned you from this room: collusion at t1\r\n"),
    ("kick", "croupier: the host removed you from the room: collusion at t1\r\n")])
async def test_a_banned_plain_ssh_player_reads_the_hosts_reason(tmp_path: Path, action: str, line: str) -> None:
    running = await start_plain_ssh_room(tmp_path / "data", [table("t1")])
    try:
        async with plain_ssh_player(running, "bob") as bob:
            await bob.read_until(b"Table t1")
            request = parse_request({"action": action, "player": "bob", "reason": "collusion at t1"})
            running.room.console.perform("host", request, time.time())
            await bob.read_to_end()
            after = bytes(bob.seen).rpartition(LEAVE_SCREEN)[2].decode()
            assert line in after, after
    finally:
        await running.close()


def test_the_farewell_is_one_clean_line() -> None:
    evil = {"type": "bye", "code": protocol.BANNED, "reason": "cheat\x1b[2J\x1b]52;c;aGk=\x07ing\r\nrm -rf" + "x" * 500}
    line = farewell_words(evil)
    assert line.startswith("the host banned you from this room: cheating  rm -rfxxx")  # \r\n: two spaces
    assert line.isprintable() and len(line) <= len("the host banned you from this room: ") + 200
    assert farewell_words({"type": "bye", "code": protocol.BANNED, "reason": ""}) == \
        "the host banned you from this room"
    assert farewell_words({"type": "bye", "reason": "logged in from another connection"}) == \
        "logged in from another connection"
