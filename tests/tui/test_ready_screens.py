"""Ready screens (hosting/pty_session.py, ``[room] ready_screens``): plain-ssh TUIs forked from the warm fork
server before their players arrive. A player gets one at once, redrawn at his own terminal size, connected to
the room under his own name; the pool refills; a terminal of another kind gets a fresh screen; nothing
outlives the room."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from hosting.server import RunningRoom
from tests.tui.plain_ssh import read_until, start_plain_ssh_room
from tests.tui.roombots import table
from tests.waiting import QUIET, cpu_ticks, until
from tui.connection import ConnectionLost
from tui.served import token_from

pytestmark = pytest.mark.timeout(180)


async def wait_for(condition: Any, timeout: float, what: str) -> None:
    """Until ``condition()``; fails once the processes this test started used no CPU for ``timeout`` s."""
    await until(condition, what, quiet=max(timeout, QUIET), step=0.05,
                progress=lambda: cpu_ticks(os.getpid(), below_only=True))


def running(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def ready_pids(served: RunningRoom) -> list[int]:
    assert served.gate is not None
    return [screen.pid for screen in served.gate._ready if not screen.ended]


async def open_session(served: RunningRoom, name: str, term: str, size: tuple[int, int]) -> tuple[Any, Any]:
    connection = await asyncssh.connect("127.0.0.1", served.port, username=name, known_hosts=None, agent_path=None,
                                        client_keys=[asyncssh.generate_private_key("ssh-ed25519")], config=[])
    process = await connection.create_process(term_type=term, term_size=size, encoding=None)
    return connection, process


async def test_a_player_gets_a_ready_screen_at_his_size_and_the_pool_refills(tmp_path: Path) -> None:
    served = await start_plain_ssh_room(tmp_path, [table("t1")], fork=True, ready_screens=1)
    assert served.gate is not None
    try:
        await wait_for(lambda: len(ready_pids(served)) == 1, 60, "the ready screen")
        (ready,) = ready_pids(served)
        connection, process = await open_session(served, "ana", "xterm-256color", (100, 30))
        seen = bytearray()
        await read_until(process, b"Lobby", seen)
        await read_until(process, b"\x1b[30;1H", seen)  # redrawn at 100x30 (it was drawn at 80x24)
        await read_until(process, b"Table t1", seen)  # connected to the room: the lobby's row
        assert served.gate.children[-1] == ready, "the player did not get the ready screen"
        assert "ana" in served.room.sessions
        await wait_for(lambda: len(ready_pids(served)) == 1, 60, "a new ready screen")
        (replacement,) = ready_pids(served)
        assert replacement != ready
        process.stdin.write(b"w")  # keys reach the app: watch the highlighted table
        await wait_for(lambda: "ana" in served.room.tables["t1"].watchers, 10, "the watch key")
        process.close()
        connection.close()
        await wait_for(lambda: not running(ready), 15, "the player's TUI to end with his session")
    finally:
        pool = ready_pids(served)
        await served.close()
    for _ in range(300):
        if not any(running(pid) for pid in pool):
            break
        await asyncio.sleep(0.05)
    assert pool and not any(running(pid) for pid in pool), "a ready screen outlived the room"


async def test_a_terminal_of_another_kind_gets_a_fresh_screen_and_the_pool_follows(tmp_path: Path) -> None:
    served = await start_plain_ssh_room(tmp_path, [table("t1")], fork=True, ready_screens=1)
    assert served.gate is not None
    try:
        await wait_for(lambda: len(ready_pids(served)) == 1, 60, "the ready screen")
        (ready,) = ready_pids(served)
        connection, process = await open_session(served, "bea", "screen-256color", (80, 24))
        seen = bytearray()
        await read_until(process, b"Table t1", seen)
        assert served.gate.children[-1] != ready  # forked on arrival for its own TERM
        await wait_for(lambda: not running(ready), 15, "the xterm ready screen to be dropped")
        await wait_for(lambda: len(ready_pids(served)) == 1, 60, "a ready screen for screen-256color")
        assert served.gate._ready[0].kind == ("screen-256color", None)
        connection.close()
    finally:
        await served.close()


async def test_a_ready_screen_reads_its_token_and_a_closed_room_is_reported() -> None:
    room_end, child_end = socket.socketpair()
    room_end.sendall(json.dumps({"token": "-tok"}).encode() + b"\n")
    assert await token_from(child_end.detach()) == "-tok"
    room_end.close()
    room_end, child_end = socket.socketpair()
    room_end.close()  # the room went away before a player came
    with pytest.raises(ConnectionLost, match="before a player arrived"):
        await token_from(child_end.detach())


def test_the_warm_up_runs_and_parsed_stylesheets_are_shared() -> None:
    # in a fresh interpreter: the warm-up patches Textual's stylesheet parsing process-wide; if a Textual
    # upgrade changes what it relies on, this says so (sessions would still start, only slower)
    script = ("import tui.warmup as w; from textual.css.stylesheet import Stylesheet; "
              "assert w.share_parsed_stylesheets(); assert w.warm_up(); "
              "assert w._parsed_rules, 'nothing was parsed through the shared cache'; print(len(w._parsed_rules))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                            cwd=Path(__file__).resolve().parents[2])
    assert result.returncode == 0, result.stderr[-2000:]
    assert int(result.stdout.strip()) >= 20  # the app's own CSS and every widget's default CSS


async def test_when_the_room_closes_a_player_gets_his_terminal_back_and_is_told_why(tmp_path: Path) -> None:
    from hosting.pty_session import TERMINAL_MODES_OFF

    served = await start_plain_ssh_room(tmp_path, [table("t1")], fork=True, ready_screens=0)
    closed = False
    try:
        connection, process = await open_session(served, "cy", "xterm-256color", (90, 28))
        seen = bytearray()
        await read_until(process, b"Table t1", seen)
        assert served.gate is not None
        pid = served.gate.children[-1]
        await served.close()
        closed = True
        await read_until(process, b"croupier: the room has closed", seen, timeout=15)  # not the TUI's notice
        tail = bytes(seen[-400:])
        # back from the alternate screen (the TUI, told the room closed, or the room), mouse off
        assert TERMINAL_MODES_OFF in tail and b"\x1b[?1049l" in tail
        await asyncio.wait_for(process.wait_closed(), 15)
        # gone, or a zombie left for init to reap (the fork server that would reap it has stopped too)
        await wait_for(lambda: not running(pid), 15, "the player's TUI to end")
        connection.close()
    finally:
        if not closed:
            await served.close()
