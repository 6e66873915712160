"""Benchmark: plain-ssh sessions of the served TUI — time to first frame and memory (PSS) per TUI child.

    python tests/benchmarks/served_tui.py [--sessions 10] [--ready-screens 10] [--no-fork-server]

Opens N concurrent asyncssh sessions with a pty (100×30) to a loopback room (hosting/pty_session.py), all at
the same instant, and measures for each, from the session request:

- ``first_output_ms``: the first lobby bytes on the player's terminal (a ready screen's lobby, drawn at 80×24
  before the player came, arrives at once);
- ``first_frame_ms``: the lobby drawn at the player's own size (a cursor address on the terminal's last row);
- ``lobby_rows_ms``: the lobby's table rows (the room's answer, through the child's connection).

Then it reads each child's proportional set size from /proc/PID/smaps_rollup. Prints one JSON line.
``--ready-screens``: TUIs started ahead of their players (the room's ``[room] ready_screens``); the benchmark
waits until they are all up before the sessions arrive. Targets (issue 8): ≤ 30 MiB and ≤ 300 ms each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

import _on_path  # noqa: F401 - first: as a file, the repository's tests package (_on_path.py)
import asyncssh

from tests.tui.plain_ssh import start_plain_ssh_room
from tests.tui.roombots import table


def pss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


async def one_session(port: int, name: str) -> tuple[float, float, float, asyncssh.SSHClientConnection]:
    connection = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None, agent_path=None,
                                        client_keys=[asyncssh.generate_private_key("ssh-ed25519")], config=[])
    started = time.perf_counter()
    process = await connection.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
    seen = bytearray()
    first_output: float | None = None
    first_frame: float | None = None
    while b"Hold" not in seen or first_frame is None:  # a row's game (the header says "Game")
        chunk = await asyncio.wait_for(process.stdout.read(65536), 120)
        if not chunk:
            raise RuntimeError("session ended before the first frame")
        seen.extend(chunk)
        now = time.perf_counter() - started
        if first_output is None and b"Lobby" in seen:
            first_output = now
        if first_frame is None and first_output is not None and b"\x1b[30;1H" in seen:
            first_frame = now  # row 30 exists only at the player's size (a ready screen starts at 24 rows)
    lobby = time.perf_counter() - started
    assert first_output is not None and first_frame is not None
    return first_output, first_frame, lobby, connection


def summary(values: list[float]) -> dict[str, int]:
    milliseconds = [value * 1000 for value in values]
    return {"median": round(statistics.median(milliseconds)), "max": round(max(milliseconds))}


async def main(sessions: int, fork: bool, ready_screens: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        served = await start_plain_ssh_room(Path(folder), [table("t1"), table("t2")], fork=fork,
                                            ready_screens=ready_screens if fork else 0)
        try:
            assert served.gate is not None
            deadline = time.monotonic() + 120
            while fork and served.gate.ready_count < ready_screens:
                assert time.monotonic() < deadline, "the ready screens did not start"
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)  # let the ready screens settle after drawing
            results = await asyncio.gather(*(one_session(served.port, f"player{index}") for index in range(sessions)))
            await asyncio.sleep(1.0)  # settle after the first frame
            children = served.gate.children[-sessions:]
            memory = [value for value in (pss_mib(pid) for pid in children) if value is not None]
            for *_, connection in results:
                connection.close()
        finally:
            await served.close()
    return {
        "benchmark": "served_tui", "sessions": sessions, "fork_server": fork,
        "ready_screens": ready_screens if fork else 0,
        "first_output_ms": summary([result[0] for result in results]),
        "first_frame_ms": summary([result[1] for result in results]),
        "lobby_rows_ms": summary([result[2] for result in results]),
        "pss_mib": {"median": round(statistics.median(memory), 1), "max": round(max(memory), 1),
                    "children": len(memory)} if memory else None,
        "targets": {"first_frame_ms": 300, "pss_mib": 30},
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--ready-screens", type=int, default=10,
                        help="TUIs started before the players arrive (0: each forked on arrival)")
    parser.add_argument("--no-fork-server", action="store_true", help="start a fresh interpreter per session")
    options = parser.parse_args()
    print(json.dumps(asyncio.run(main(options.sessions, not options.no_fork_server, options.ready_screens))))
