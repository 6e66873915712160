"""Benchmark: plain-ssh sessions of the served TUI — time to first frame and memory (PSS) per TUI child.

    python tests/benchmarks/served_tui.py [--sessions 10]

Opens N concurrent asyncssh sessions with a pty to a loopback room (hosting/pty_session.py), measures for each
the time from the session request to the first frame (the lobby tab drawn) and to the lobby's rows, then reads
each child's proportional set size from /proc/PID/smaps_rollup. Prints one JSON line.
Targets (issue 8): ≤ 30 MiB and ≤ 300 ms each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

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


async def one_session(port: int, name: str) -> tuple[float, float, asyncssh.SSHClientConnection, object]:
    connection = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None, agent_path=None,
                                        client_keys=[asyncssh.generate_private_key("ssh-ed25519")], config=[])
    started = time.perf_counter()
    process = await connection.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
    seen = bytearray()
    first_frame: float | None = None
    while b"Table t1" not in seen:
        chunk = await asyncio.wait_for(process.stdout.read(65536), 120)
        if not chunk:
            raise RuntimeError("session ended before the first frame")
        seen.extend(chunk)
        if first_frame is None and b"Lobby" in seen:
            first_frame = time.perf_counter() - started
    lobby = time.perf_counter() - started
    return first_frame or lobby, lobby, connection, process


async def main(sessions: int, fork: bool) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        served = await start_plain_ssh_room(Path(folder), [table("t1"), table("t2")], fork=fork)
        try:
            results = await asyncio.gather(*(one_session(served.port, f"player{index}") for index in range(sessions)))
            await asyncio.sleep(1.0)  # settle after the first frame
            memory = [value for value in (pss_mib(pid) for pid in served.gate.children) if value is not None]
            for _, _, connection, _ in results:
                connection.close()
            frames = [first * 1000 for first, _, _, _ in results]
            lobbies = [lobby * 1000 for _, lobby, _, _ in results]
        finally:
            await served.close()
    return {
        "benchmark": "served_tui", "sessions": sessions, "fork_server": fork,
        "first_frame_ms": {"median": round(statistics.median(frames)), "max": round(max(frames))},
        "lobby_rows_ms": {"median": round(statistics.median(lobbies)), "max": round(max(lobbies))},
        "pss_mib": {"median": round(statistics.median(memory), 1), "max": round(max(memory), 1),
                    "children": len(memory)} if memory else None,
        "targets": {"first_frame_ms": 300, "pss_mib": 30},
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--no-fork-server", action="store_true", help="start a fresh interpreter per session")
    options = parser.parse_args()
    print(json.dumps(asyncio.run(main(options.sessions, not options.no_fork_server))))
