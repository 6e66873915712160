"""Idle lobby: N ``croupier join``-style clients connected over SSH, in the lobby (not seated), for a while.

    python tests/benchmarks/idle_lobby.py [--connections 1000] [--seconds 60]

One ``croupier host`` process; this process opens the connections (fresh ed25519 keys, the ``croupier``
subsystem, ``hello`` read and one ``lobby`` asked, as the client does at start), then leaves them idle and
measures the host process over the idle window from /proc: ``host_cpu_percent`` (of one core) and
``host_rss_mib`` at its end. Prints one JSON line. Targets (issue 20): < 5 % and < 150 MiB for 1,000.
The room allows many logins from loopback (``connections_per_minute``, ``pending_logins_per_address``): the
defaults stay for real rooms. Not collected by pytest (a script, no ``test_`` prefix).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

import _on_path  # noqa: F401 - first: as a file, the repository's tests package (_on_path.py)
import asyncssh

from hosting.client import RoomClient
from tests.room_process import start_room_process

CONNECTING_AT_ONCE = 16
"""Logins in flight at once (the room's pending-login cap per address is raised to more than this)."""


def _room_file(directory: Path) -> Path:
    path = directory / "room.toml"
    path.write_text("[room]\nname = \"idle\"\nconnections_per_minute = 10000\nlogins_per_address = 10000\n"
                    "registrations_per_address = 100000\n"
                    "pending_logins_per_address = 100\nmax_pending_logins = 200\n\n[[tables]]\nid = \"t1\"\n"
                    "game = \"texas_holdem\"\n"
                    "structure = \"no_limit\"\nstakes = [1, 2]\nseats = 6\nbuy_in = [40, 200]\n")
    return path


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (/proc/PID/stat fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def _connect_all(port: int, count: int) -> list[RoomClient]:
    gate = asyncio.Semaphore(CONNECTING_AT_ONCE)

    async def one(index: int) -> RoomClient:
        async with gate:
            key = asyncssh.generate_private_key("ssh-ed25519")
            client = await RoomClient.connect("127.0.0.1", port, f"idle{index}", client_keys=[key],
                                              fairness=False, timeout=120)
            await client.request("lobby")
            return client

    return list(await asyncio.gather(*(one(index) for index in range(count))))


async def _alive(client: RoomClient) -> bool:
    """Whether the room still answers this connection (a ``ping``)."""
    try:
        await client.request("ping", id=1, timeout=60)
    except Exception:  # closed, refused or timed out: not connected
        return False
    return True


async def _run(port: int, host_pid: int, count: int, seconds: float) -> dict[str, object]:
    started = time.perf_counter()
    clients = await _connect_all(port, count)
    connected_seconds = time.perf_counter() - started
    await asyncio.sleep(2.0)  # the last logins' work done
    cpu_before, wall_before = cpu_seconds(host_pid), time.perf_counter()
    await asyncio.sleep(seconds)
    cpu = cpu_seconds(host_pid) - cpu_before
    wall = time.perf_counter() - wall_before
    rss = rss_mib(host_pid)
    answered = await asyncio.gather(*(_alive(client) for client in clients))  # after the window: not measured
    for client in clients:
        await client.close()
    return {"connections": sum(answered), "seconds": round(wall, 1), "host_cpu_percent": round(100 * cpu / wall, 2),
            "host_cpu_seconds": round(cpu, 2), "host_rss_mib": round(rss, 1),
            "connect_seconds": round(connected_seconds, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        host = start_room_process(directory / "data", directory / "host.out", "--config", str(_room_file(directory)))
        try:
            result = asyncio.run(_run(host.port, host.pid, arguments.connections, arguments.seconds))
        finally:
            host.stop(signal.SIGTERM, timeout=30)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
