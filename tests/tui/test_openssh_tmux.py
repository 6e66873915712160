"""The served TUI seen through a real OpenSSH client in tmux (issue 8 "Must show"): ``ssh -p PORT name@host``
shows the lobby, ``tmux resize-window`` re-lays the screen, keys reach the app, and killing the ssh client
ends the TUI child (no orphan). The room is the real :func:`hosting.server.start_room` (what ``croupier host``
runs); see tests/tui/conftest.py ``plain_ssh_room``."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.tui.roombots import table
from tests.waiting import QUIET, cpu_ticks, until

pytestmark = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("ssh-keygen") is None or shutil.which("tmux") is None,
    reason="needs the OpenSSH client and tmux (apt-get install openssh-client tmux)",
)


async def run(*command: str) -> str:
    process = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(process.communicate(), QUIET)  # a hang guard only
    return out.decode(errors="replace")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        finished, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return finished == 0


async def screen_until(tmux: tuple[str, ...], condition: Any, timeout: float = QUIET) -> str:
    """The screen once ``condition(screen)``; fails once neither the screen nor the room's TUI processes moved
    for ``timeout`` seconds."""
    shown = [""]

    async def look() -> None:
        shown[0] = await run(*tmux, "capture-pane", "-p", "-t", "ssh")

    def matched() -> bool:
        return bool(condition(shown[0]))

    async def pause(seconds: float) -> None:
        await asyncio.sleep(seconds)
        await look()

    await look()
    try:
        await until(matched, "the screen", quiet=max(timeout, QUIET), pause=pause, step=0.1,
                    progress=lambda: (shown[0], cpu_ticks(os.getpid(), below_only=True)))
    except AssertionError as stalled:
        raise AssertionError(f"{stalled}; last screen:\n{shown[0]}") from None
    return shown[0]


@pytest.mark.parametrize("fork", [False, True], ids=["fresh-interpreter", "fork-server"])
async def test_openssh_in_tmux_sees_the_lobby_resizes_types_and_leaves_no_orphan(plain_ssh_room: Any,
                                                                                  tmp_path: Path, fork: bool) -> None:
    served = await plain_ssh_room([table("t1"), table("t2")], fork=fork)
    key = tmp_path / "id_ed25519"
    await run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key))
    ssh = (f"ssh -F /dev/null -tt -p {served.port} -i {key} -o IdentitiesOnly=yes -o BatchMode=yes "
           f"-o StrictHostKeyChecking=no -o UserKnownHostsFile={tmp_path / 'known'} -o IdentityAgent=none "
           f"carol@127.0.0.1")
    tmux = ("tmux", "-S", str(tmp_path / "tmux.sock"))  # its own server: not a user's, nor a parallel test's
    await run(*tmux, "-f", "/dev/null", "new-session", "-d", "-s", "ssh", "-x", "100", "-y", "30",
              f"TERM=xterm-256color {ssh}")
    try:
        screen = await screen_until(tmux, lambda text: "Table t1" in text and "Table t2" in text)
        assert "Lobby" in screen
        assert max(len(line) for line in screen.splitlines()) <= 100
        await run(*tmux, "resize-window", "-t", "ssh", "-x", "150", "-y", "40")
        screen = await screen_until(tmux, lambda text: max(len(line) for line in text.splitlines()) > 110)
        assert len(screen.splitlines()) >= 38
        await run(*tmux, "send-keys", "-t", "ssh", "w")  # watch the highlighted table
        await until(lambda: "carol" in served.room.tables["t1"].watchers, "carol watching t1")
        assert "carol" in served.room.tables["t1"].watchers
        await screen_until(tmux, lambda text: "(watching)" in text)
        assert served.gate.children
        pid = served.gate.children[-1]
        assert alive(pid)
    finally:
        await run(*tmux, "kill-server")
    await until(lambda: not alive(pid) and "carol" not in served.room.sessions, "the TUI and carol's session to end")
    assert not alive(pid), "the TUI child outlived the ssh session"
    assert "carol" not in served.room.sessions


async def test_openssh_without_a_terminal_gets_one_line_not_a_hang(plain_ssh_room: Any, tmp_path: Path) -> None:
    served = await plain_ssh_room([table("t1")])
    key = tmp_path / "id_ed25519"
    await run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key))
    process = await asyncio.create_subprocess_exec(
        "ssh", "-F", "/dev/null", "-T", "-p", str(served.port), "-i", str(key), "-o", "IdentitiesOnly=yes",
        "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", f"UserKnownHostsFile={tmp_path / 'known'}",
        "-o", "IdentityAgent=none", "dave@127.0.0.1",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, error = await asyncio.wait_for(process.communicate(), 20)
    lines = [line for line in error.decode().splitlines() if line.startswith("croupier:")]
    assert lines == ["croupier: this room needs a terminal: connect with `ssh -t -p PORT name@host` (no command), "
                     "or use `croupier join` / `ssh -s ... croupier`."]
    assert process.returncode == 1
