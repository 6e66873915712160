"""Issue 27 (a leftover of item 1): a plain-ssh player the host bans sees why, one line on his terminal once
the room's screen is gone, before the connection ends — not a bare shell prompt."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import asyncssh
import pytest

from hosting import protocol
from hosting.admin_requests import parse_request
from hosting.pty_session import farewell_words
from tests.tui.plain_ssh import start_plain_ssh_room
from tests.tui.roombots import table
from tests.tui.test_pty_session import read_until
from tests.waiting import QUIET

LEAVE_SCREEN = b"\x1b[?1049l"  # back from the alternate screen: what follows stays on the player's terminal


@pytest.mark.parametrize(("action", "line"), [
    ("ban", "croupier: the host banned you from this room: collusion at t1\r\n"),
    ("kick", "croupier: the host removed you from the room: collusion at t1\r\n")])
async def test_a_banned_plain_ssh_player_reads_the_hosts_reason(tmp_path: Path, action: str, line: str) -> None:
    running = await start_plain_ssh_room(tmp_path / "data", [table("t1")])
    try:
        async with asyncssh.connect("127.0.0.1", running.port, username="bob", known_hosts=None,
                                    client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                    agent_path=None, config=[]) as connection:
            process = await connection.create_process(term_type="xterm-256color", term_size=(100, 30),
                                                      encoding=None)
            seen = bytearray()
            await read_until(process, b"Table t1", seen)
            request = parse_request({"action": action, "player": "bob", "reason": "collusion at t1"})
            running.room.console.perform("host", request, time.time())
            while chunk := await asyncio.wait_for(process.stdout.read(65536), QUIET):
                seen.extend(chunk)
            after = bytes(seen).rpartition(LEAVE_SCREEN)[2].decode()
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
