"""Plain-ssh serving (hosting/pty_session.py) over a real asyncssh loopback: an ssh client with a pty sees
the lobby drawn by a TUI child process on its own pseudo-terminal, a resize reaches the child, keys reach
the app, and closing the session ends the child (no orphan)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import asyncssh
import pytest

from hosting.identity import Login
from hosting.pty_session import LocalGate, child_environment, serve_pty
from hosting.server import LoginServer
from tests.tui.plain_ssh import read_until
from tests.tui.roombots import make_room, table
from tests.waiting import until
from tui.entry import SERVED_TUI


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(ChildProcessError):
        finished, _ = os.waitpid(pid, os.WNOHANG)
        return finished == 0
    return True


def test_child_environment_passes_term_and_colorterm_but_never_the_size() -> None:
    environment = child_environment("screen-256color", "truecolor",
                                    {"COLUMNS": "80", "LINES": "24", "PATH": "/bin", "SECRET": "x"})
    assert environment == {"PATH": "/bin", "TERM": "screen-256color", "COLORTERM": "truecolor"}


async def test_plain_ssh_session_runs_the_tui_on_a_pty_and_ends_with_the_session(tmp_path: Path) -> None:
    room = make_room(tmp_path / "room", [table("t1")])
    room.start()
    gate = await LocalGate.start(room, tmp_path / "sockets", programs=SERVED_TUI)
    host_key = asyncssh.generate_private_key("ssh-ed25519")

    async def session(process: asyncssh.SSHServerProcess[bytes]) -> None:
        login = process.get_extra_info("connection").get_owner().login
        await serve_pty(process, gate, login)

    server = await asyncssh.create_server(lambda: LoginServer(room.gatekeeper, room.clock), "127.0.0.1", 0,
                                          server_host_keys=[host_key], process_factory=session, encoding=None)
    port = server.sockets[0].getsockname()[1]
    try:
        async with asyncssh.connect("127.0.0.1", port, username="ana", known_hosts=None,
                                    client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                    agent_path=None, config=[]) as connection:
            process = await connection.create_process(term_type="xterm-256color", term_size=(100, 30),
                                                      env={"COLORTERM": "truecolor"}, encoding=None)
            seen = bytearray()
            await read_until(process, b"Lobby", seen)
            await read_until(process, b"Table t1", seen)  # the lobby row came from the room over the socket
            assert "ana" in room.sessions
            pid = gate.children[-1]
            assert alive(pid)
            process.change_terminal_size(140, 40)  # the child re-lays out for the new size
            seen.clear()
            await read_until(process, b"Lobby", seen)
            process.stdin.write(b"w")  # watch the highlighted table: the room hears the key
            await until(lambda: "ana" in room.tables["t1"].watchers, "ana watching t1")
            assert "ana" in room.tables["t1"].watchers
            process.close()
        await until(lambda: not alive(pid), "the TUI to end")
        assert not alive(pid), "the TUI outlived its ssh session"
        await until(lambda: "ana" not in room.sessions, "ana's session to end")
        assert "ana" not in room.sessions
    finally:
        server.close()
        await gate.close()
        await room.stop()


async def test_a_token_works_once(tmp_path: Path) -> None:
    from tui.connection import ConnectionLost, StreamConnection

    room = make_room(tmp_path / "room", [table("t1")])
    gate = await LocalGate.start(room, tmp_path / "sockets")
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
    token = gate.issue(Login("bea", key, "local"))
    try:
        first = await StreamConnection.open_unix(str(gate.path), token)
        assert first.name == "bea" and "bea" in room.sessions
        with pytest.raises(ConnectionLost, match="unknown or used session token"):
            await StreamConnection.open_unix(str(gate.path), token)
        await first.close()
    finally:
        await gate.close()


def test_a_token_that_looks_like_an_option_still_reaches_the_child() -> None:
    from hosting.pty_session import spawn_tui
    from tui.served import build_parser

    child, master = spawn_tui(Path("/nonexistent/room.sock"), "-abc", 80, 24, "xterm", None,
                              command=["true"])
    child.wait()
    os.close(master)
    arguments = build_parser().parse_args(["--socket=/nonexistent/room.sock", "--token=-abc"])
    assert arguments.token == "-abc"
