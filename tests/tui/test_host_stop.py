"""Ctrl+C on ``croupier host`` while a plain-ssh player is connected (the fork server and ready screens
running): the host stops cleanly — no traceback from any of its processes, the player's terminal restored and
told the room closed, no TUI process left behind."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import asyncssh

from hosting.pty_session import LEAVE_ALTERNATE_SCREEN, TERMINAL_MODES_OFF
from tests.room_process import croupier, start_room_process
from tests.tui.plain_ssh import read_until
from tests.waiting import cpu_ticks, until, wait_until


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if parent == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        return (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]) != "Z"
    except OSError:
        return False


async def test_ctrl_c_on_the_host_with_a_plain_ssh_player_is_clean(tmp_path: Path) -> None:
    # a new process group: Ctrl+C goes to the whole group, as in a terminal
    room = start_room_process(tmp_path / "data", tmp_path / "host.out", command=[croupier()],
                              start_new_session=True)
    host, port, output = room.process, room.port, room.log
    try:
        fork_servers: list[int] = []
        tuis: list[int] = []
        async with asyncssh.connect("127.0.0.1", port, username="dee", known_hosts=None, agent_path=None,
                                    client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                    config=[]) as connection:
            process = await connection.create_process(term_type="xterm-256color", term_size=(100, 30),
                                                      encoding=None)
            seen = bytearray()
            await read_until(process, b"Hold", seen, timeout=60)  # the lobby's rows: connected to the room
            fork_servers = children_of(host.pid)  # the fork server, or the player's fresh TUI if it came first
            tuis = [pid for server in fork_servers for pid in children_of(server)]
            assert fork_servers, "no TUI process under the host"
            os.killpg(host.pid, signal.SIGINT)
            await read_until(process, b"croupier: the room has closed", seen, timeout=30)  # not the TUI's notice
            # his terminal given back: off the alternate screen (by the TUI, told the room closed, or by the room)
            assert TERMINAL_MODES_OFF in bytes(seen[-500:]) and LEAVE_ALTERNATE_SCREEN in bytes(seen[-500:])
        assert host.wait(timeout=30) == 0
    finally:
        if host.poll() is None:
            os.killpg(host.pid, signal.SIGKILL)
            host.wait()
    printed = output.read_text(errors="replace")
    assert "Traceback" not in printed and "KeyboardInterrupt" not in printed, printed
    await until(lambda: not any(alive(pid) for pid in fork_servers + tuis), "the TUI processes to end")
    assert not any(alive(pid) for pid in fork_servers + tuis), "a TUI process outlived the host"


def descendants(pid: int) -> list[int]:
    found, parents = [], [pid]
    while parents:
        children = children_of(parents.pop())
        found += children
        parents += children
    return found


async def start_host(tmp_path: Path, ignore_hangup: bool) -> tuple[subprocess.Popen[bytes], int, Path]:
    """``croupier host`` in a new session (``nohup``-like when ``ignore_hangup``); returns it when it is open."""
    def as_nohup() -> None:  # pragma: no cover - runs in the child
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    room = start_room_process(tmp_path / "data", tmp_path / "host.out", command=[croupier()],
                              start_new_session=True, preexec_fn=as_nohup if ignore_hangup else None)
    return room.process, room.port, room.log


async def settled_processes(host: subprocess.Popen[bytes]) -> list[int]:
    """The host's helpers once its fork server and two ready screens are up (with the player's TUI: 4)."""
    for _ in range(600):
        found = [pid for pid in descendants(host.pid) if alive(pid)]
        if len(found) >= 4:
            return found
        await asyncio.sleep(0.1)
    raise AssertionError(f"the host's helper processes never all started: {descendants(host.pid)}")


async def test_a_host_killed_with_9_under_nohup_takes_its_screens_and_fork_server_with_it(tmp_path: Path) -> None:
    host, port, _ = await start_host(tmp_path, ignore_hangup=True)
    try:
        async with asyncssh.connect("127.0.0.1", port, username="dee", known_hosts=None, agent_path=None,
                                    client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                    config=[]) as connection:
            process = await connection.create_process(term_type="xterm-256color", term_size=(100, 30),
                                                      encoding=None)
            await read_until(process, b"Hold", bytearray(), timeout=60)
            helpers = await settled_processes(host)
            host.kill()  # SIGKILL: the room runs no code of its own after this
            host.wait()
            await until(lambda: not any(alive(pid) for pid in helpers), "the TUI processes to end")
            assert not [pid for pid in helpers if alive(pid)], "a TUI, ready screen or fork server outlived the host"
    finally:
        if host.poll() is None:
            os.killpg(host.pid, signal.SIGKILL)
            host.wait()


async def test_sigterm_closes_the_room_like_ctrl_c(tmp_path: Path) -> None:
    host, port, output = await start_host(tmp_path, ignore_hangup=True)
    try:
        async with asyncssh.connect("127.0.0.1", port, username="dee", known_hosts=None, agent_path=None,
                                    client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                    config=[]) as connection:
            process = await connection.create_process(term_type="xterm-256color", term_size=(100, 30),
                                                      encoding=None)
            seen = bytearray()
            await read_until(process, b"Hold", seen, timeout=60)
            helpers = await settled_processes(host)
            host.terminate()  # `kill PID`: the host alone, not its process group
            await read_until(process, b"croupier: the room has closed", seen, timeout=30)  # not the TUI's notice
            # his terminal given back: off the alternate screen (by the TUI, told the room closed, or by the room)
            assert TERMINAL_MODES_OFF in bytes(seen[-500:]) and LEAVE_ALTERNATE_SCREEN in bytes(seen[-500:])
        assert host.wait(timeout=30) == 0
    finally:
        if host.poll() is None:
            os.killpg(host.pid, signal.SIGKILL)
            host.wait()
    printed = output.read_text(errors="replace")
    assert "room closed" in printed and "Traceback" not in printed, printed
    await until(lambda: not any(alive(pid) for pid in helpers), "the TUI processes to end")
    assert not [pid for pid in helpers if alive(pid)], "a TUI process outlived the host"


STARTED_TICKS = os.sysconf("SC_CLK_TCK") // 10
"""0.1 s of CPU: Python itself has started (its own start-up is a few hundredths), the TUI's imports have not
ended (most of a second)."""


def test_the_fork_server_ignores_ctrl_c_while_it_is_still_starting(tmp_path: Path) -> None:
    """The host's Ctrl+C reaches its whole process group: a fork server still importing the TUI printed a
    KeyboardInterrupt traceback on the host's terminal (seen under load in test_ctrl_c_on_the_host_…)."""
    zygote = subprocess.Popen([sys.executable, "-m", "tui.zygote", f"--control={tmp_path / 'zygote.sock'}"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert zygote.stdout is not None
        os.set_blocking(zygote.stdout.fileno(), False)
        said = b""

        def ready() -> bool:  # Ctrl+C again and again, once Python runs (0.1 s of CPU), until it says ready
            nonlocal said
            if zygote.poll() is None and cpu_ticks(zygote.pid) >= STARTED_TICKS:
                zygote.send_signal(signal.SIGINT)
            said += zygote.stdout.read() or b"" if zygote.stdout else b""
            return b"ready" in said or zygote.poll() is not None

        wait_until(ready, "the fork server to start or end", step=0.02,
                   progress=lambda: cpu_ticks(zygote.pid))
        assert b"ready" in said and zygote.poll() is None, zygote.stderr.read() if zygote.stderr else b""
    finally:
        zygote.kill()
        _, errors = zygote.communicate()
    assert b"Traceback" not in errors, errors.decode(errors="replace")
