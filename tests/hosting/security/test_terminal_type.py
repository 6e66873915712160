"""A plain-ssh client chooses its TERM and COLORTERM: the room passed them to the player's TUI as they came.

With a NUL byte in either (``ssh`` with a crafted pty request) the TUI could not start: forked from the fork
server, the child fell back into the server's loop and printed a Python traceback, with the host's paths, on the
player's terminal; started fresh, ``subprocess`` refused the environment. A terminal type is a short name
(``xterm-256color``): anything else is taken as the default, and a forked child never runs the server's code.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from hosting.config import AccessConfig
from hosting.pty_session import terminal_kind
from hosting.server import RunningRoom
from tests.hosting.security.helpers import small_room, ssh_login


def test_a_terminal_type_is_a_short_name_or_the_default() -> None:
    assert terminal_kind("xterm-256color", "truecolor") == ("xterm-256color", "truecolor")
    assert terminal_kind("screen.xterm-256color", None) == ("screen.xterm-256color", None)
    assert terminal_kind("xterm\x00evil", "a\x00b") == ("xterm-256color", None)
    assert terminal_kind("x" * 65, "24bit\x1b]0;x\x07") == ("xterm-256color", None)
    assert terminal_kind(None, "") == ("xterm-256color", None)


async def _screen(running: RunningRoom, name: str, new_key: Any, term: str, colorterm: str | None) -> bytes:
    login = await ssh_login(running, name, new_key())
    _, output, _ = await login.open_session(term_type=term, term_size=(80, 24), encoding=None,
                                            env={"COLORTERM": colorterm} if colorterm else None)
    seen = b""
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while b"Lobby" not in seen and b"Traceback" not in seen and loop.time() < end:
        try:
            data = await asyncio.wait_for(output.read(65536), max(0.1, end - loop.time()))
        except TimeoutError:
            break
        if not data:
            break
        seen += data
    login.close()
    return seen


@pytest.mark.parametrize("fork_server", [True, False])
async def test_a_crafted_terminal_type_gets_the_lobby_and_no_traceback(
        rooms: Any, new_key: Any, fork_server: bool) -> None:
    config = replace(small_room(AccessConfig(connections_per_minute=1000)), ready_screens=0)
    running: RunningRoom = await rooms(config, deal=False, fork_server=fork_server)
    for name, term, colorterm in [("ana", "xterm\x00evil", None), ("bea", "xterm-256color", "a\x00b")]:
        seen = await _screen(running, name, new_key, term, colorterm)
        assert b"Traceback" not in seen and b"zygote" not in seen
        assert b"Lobby" in seen
