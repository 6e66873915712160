"""Issue 13 item 4: a plain-ssh session that stops reading must not make the room buffer without limit.

Over a real asyncssh loopback, with a TUI stand-in that writes as fast as it can (``yes``: what a TUI redrawing
a 4000x2000 window does): the client stops reading (its window closes), and the room's channel buffer stays
under the back-pressure mark (the pty is not read meanwhile) until the session is dropped as stalled. Window
sizes are clamped to 500x200 and a resize loop reaches the TUI at most every RESIZE_INTERVAL seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from hosting import pty_session
from hosting.pty_session import OUTPUT_HIGH_WATER, READ_CHUNK, RESIZE_INTERVAL, LocalGate, serve_pty
from hosting.server import LoginServer
from tests.tui.roombots import make_room, table
from tests.waiting import until

Serve = Callable[[list[str]], Any]


class Served:
    """The room's side of the sessions: the server processes, and the largest channel buffer seen."""

    def __init__(self) -> None:
        self.processes: list[asyncssh.SSHServerProcess[bytes]] = []
        self.tasks: list[asyncio.Task[Any]] = []  # each session's task (asyncssh's)
        self.most_buffered = 0
        self.ended: list[float] = []


@pytest.fixture
async def served_pty(tmp_path: Path) -> AsyncIterator[tuple[Any, Served, LocalGate]]:
    room = make_room(tmp_path / "room", [table("t1")])
    gate = await LocalGate.start(room, tmp_path / "sockets")
    gate.stall_seconds = 3.0
    served = Served()
    command: list[str] = []

    async def session(process: asyncssh.SSHServerProcess[bytes]) -> None:
        served.processes.append(process)
        served.tasks.append(asyncio.current_task())  # type: ignore[arg-type]
        login = process.get_extra_info("connection").get_owner().login
        await serve_pty(process, gate, login, command=list(command))
        served.ended.append(time.monotonic())

    async def measure() -> None:
        while True:
            for process in served.processes:
                served.most_buffered = max(served.most_buffered, process.channel.get_write_buffer_size())
            await asyncio.sleep(0.02)

    server = await asyncssh.create_server(lambda: LoginServer(room.gatekeeper, room.clock), "127.0.0.1", 0,
                                          server_host_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                          process_factory=session, encoding=None)
    measuring = asyncio.get_running_loop().create_task(measure())

    async def connect(child: list[str]) -> asyncssh.SSHClientConnection:
        command[:] = child
        return await asyncssh.connect("127.0.0.1", server.sockets[0].getsockname()[1], username="ana",
                                      known_hosts=None, client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                      agent_path=None, config=[])

    try:
        yield connect, served, gate
    finally:
        measuring.cancel()
        server.close()
        await gate.end_sessions("the test is over")  # no TUI outlives its test
        await gate.close()


async def test_a_client_that_stops_reading_is_back_pressured_then_dropped(served_pty: Any) -> None:
    connect, served, _ = served_pty
    connection = await connect(["yes", "x" * 2000])  # a TUI drawing as fast as it can
    process = await connection.create_process(term_type="xterm-256color", term_size=(4000, 2000), encoding=None)
    await process.stdout.read(READ_CHUNK)  # it is drawing
    process.channel.pause_reading()  # the attacker reads nothing more: his SSH window closes
    started = time.monotonic()
    for index in range(40):  # and resizes between 4000x2000 and 3999x2000
        process.change_terminal_size(4000 - index % 2, 2000)
        await asyncio.sleep(0.1)
        if served.ended:
            break
    await until(lambda: served.ended, "the session to be dropped")
    assert served.ended, "a session that reads nothing was never dropped"
    assert served.ended[0] - started >= 2.5  # not before gate.stall_seconds = 3 after the window closed
    # at most the mark plus one read of the pty waits in the room for him: without back-pressure it was
    # everything `yes` wrote (hundreds of MB)
    assert served.most_buffered <= OUTPUT_HIGH_WATER + READ_CHUNK
    with contextlib.suppress(Exception):
        connection.close()


async def test_a_client_that_reads_slowly_is_not_dropped(served_pty: Any) -> None:
    connect, served, _ = served_pty
    connection = await connect(["yes", "x" * 2000])
    async with connection:
        process = await connection.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
        received = 0
        deadline = time.monotonic() + 5  # longer than the stall limit (3 s): a slow reader is not stalled
        while time.monotonic() < deadline:
            received += len(await process.stdout.read(READ_CHUNK))
            await asyncio.sleep(0.05)
        assert not served.ended and received > 0
        assert served.most_buffered <= OUTPUT_HIGH_WATER + READ_CHUNK
        process.close()


async def test_window_sizes_are_clamped_and_resizes_rate_limited(served_pty: Any,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[tuple[int, int]] = []
    real = pty_session.set_window_size

    def recording(fd: int, columns: int, rows: int) -> None:
        sizes.append((columns, rows))
        real(fd, columns, rows)

    monkeypatch.setattr(pty_session, "set_window_size", recording)
    connect, _, _ = served_pty
    connection = await connect(["sh", "-c", "while true; do stty size; sleep 0.1; done"])
    async with connection:
        process = await connection.create_process(term_type="xterm-256color", term_size=(4000, 2000),
                                                  encoding=None)
        first = (await asyncio.wait_for(process.stdout.readline(), 20)).strip()
        assert first == b"200 500"  # stty prints rows then columns: the child's pty is 500x200, not 4000x2000
        assert sizes == [(500, 200)]
        started = time.monotonic()
        for index in range(50):  # a resize loop: 50 window changes in about a second
            process.change_terminal_size(3000 + index, 90 + index % 2)
            await asyncio.sleep(0.02)
        await asyncio.sleep(2 * RESIZE_INTERVAL)
        elapsed = time.monotonic() - started
        resizes = sizes[1:]
        assert 1 <= len(resizes) <= elapsed / RESIZE_INTERVAL + 2  # not 50
        assert resizes[-1] == (500, 91)  # the last size always arrives, clamped
        assert all(columns <= 500 and rows <= 200 for columns, rows in sizes)
        process.close()


async def test_plain_ssh_screens_past_the_cap_are_refused_with_a_line(served_pty: Any) -> None:
    """Issue 13 item 8: each plain-ssh session is a TUI process on the host; past ``max_player_screens``
    the next one is told so and gets no process (40 names from one key made 40 TUIs, ~800 MB)."""
    connect, _, gate = served_pty
    gate.max_screens = 2
    children_before = len(gate.children)
    held = []
    for _ in range(2):
        connection = await connect(["cat"])  # a screen that waits for its player
        process = await connection.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        held.append((connection, process))
    await until(lambda: len(gate.children) == children_before + 2, "both screens' processes")
    connection = await connect(["cat"])
    async with connection:
        refused = await connection.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        line = await asyncio.wait_for(refused.stdout.read(), 20)
        await refused.wait_closed()
        assert line == (b"croupier: the room is serving as many terminal screens as it can (2): try again later, "
                        b"or play from your own machine with `croupier join` (it needs none).\r\n")
        assert refused.exit_status == 1
    assert len(gate.children) == children_before + 2  # no process was started for him
    first_connection, first = held.pop(0)
    first.close()  # a screen ends: the next player gets one
    first_connection.close()
    await until(lambda: gate._active_sessions < 2, "the first screen to end")
    connection = await connect(["sh", "-c", "echo served; cat"])
    async with connection:
        process = await connection.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        assert b"served" in await asyncio.wait_for(process.stdout.readline(), 20)
        process.close()
    for connection, process in held:
        process.close()
        connection.close()


def test_the_screen_cap_is_a_room_setting_sized_to_the_machine_by_default() -> None:
    from hosting.config import SCREEN_MEMORY, default_player_screens, parse_room

    assert parse_room("[room]\nmax_player_screens = 12").player_screens == 12
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert parse_room("[room]\nname = 'x'").player_screens == default_player_screens() \
        == max(4, min(1000, memory // 4 // SCREEN_MEMORY))
    with pytest.raises(ValueError, match=r"room\.max_player_screens: expected an integer from 1 to 10000"):
        parse_room("[room]\nmax_player_screens = 0")


async def test_a_served_screen_that_stops_reading_the_room_is_dropped_not_buffered(tmp_path: Path) -> None:
    """A screen stalled by its player (its pty back-pressured) stops reading the room's local socket too: the
    room closes that link past 1 MiB waiting, as it does for an SSH channel, instead of buffering for ever."""
    from hosting.protocol import MAX_PENDING_OUTPUT, TOO_SLOW
    from hosting.pty_session import _StreamTransport

    accepted: list[asyncio.StreamWriter] = []

    async def never_reads(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)

    server = await asyncio.start_unix_server(never_reads, path=str(tmp_path / "s.sock"))
    try:
        _, writer = await asyncio.open_unix_connection(str(tmp_path / "s.sock"))
        transport = _StreamTransport(writer)
        line = {"type": "chat", "text": "x" * 1000}
        for _ in range(4 * MAX_PENDING_OUTPUT // 1000):
            transport.send(line)
            if transport.closed is not None:
                break
        assert transport.closed == TOO_SLOW
        assert writer.transport.get_write_buffer_size() <= MAX_PENDING_OUTPUT + 2000
    finally:
        for held in accepted:
            held.close()
        server.close()


async def _screens(connect: Any, gate: LocalGate, count: int) -> list[tuple[Any, Any, int]]:
    """``count`` plain-ssh sessions each running ``cat`` (a screen waiting for its player): connection, process,
    the TUI's pid."""
    sessions = []
    for index in range(count):
        connection = await connect(["cat"])
        process = await connection.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        await until(lambda: len(gate.children) > index, "the screen's process")  # noqa: B023
        sessions.append((connection, process, gate.children[index]))
    return sessions


async def test_sessions_end_and_stop_their_tuis_whatever_the_loops_threads_are_doing(served_pty: Any) -> None:
    """Each session held a thread of the loop's default executor for its whole life (``child.wait()``), and
    stopping a TUI was a job for that executor too: with every thread taken (its ``cpu_count + 4``: 6 on a
    2-core host; 2 here, so that two sessions show it) a session that ended queued its TUI's stop behind them
    for ever: the session never ended, its TUI ran on."""
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=2))
    connect, served, gate = served_pty
    (first, _, first_pid), (second, _, second_pid) = await _screens(connect, gate, 2)
    first.close()  # the player leaves
    await until(lambda: len(served.ended) == 1, "the first session to end")
    assert not pty_session._running(first_pid)
    second.close()
    await until(lambda: len(served.ended) == 2, "the second session to end")
    assert not pty_session._running(second_pid)


async def test_a_session_cancelled_while_it_runs_still_stops_its_tui(served_pty: Any) -> None:
    """The CI hang (600 s at the teardown of test_a_client_that_reads_slowly_is_not_dropped, then of the resize
    test on a loaded machine): the loop's close cancelled a session as it was stopping its TUI; the stop was an
    executor job not yet taken by a thread, so it never ran; the TUI lived on, and the thread waiting for it
    kept the loop's close (``shutdown_default_executor``) waiting for ever. A host stopping his room cancels
    what is left the same way. Now the TUI is signalled from the loop: killed at once when cancelled."""
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=1))  # the job is never taken
    connect, served, gate = served_pty
    ((connection, _, pid),) = await _screens(connect, gate, 1)
    task = served.tasks[0]
    task.cancel()
    await until(lambda: not pty_session._running(pid), "the cancelled session's TUI to be gone")
    await until(task.done, "the cancelled session to end")
    connection.close()
