"""Load run: one ``croupier host`` process and several ``croupier bots`` processes over SSH on loopback.

    python tests/benchmarks/load.py --players 24 --processes 4 --hands 30

Prints one JSON line: connected players, hands, hands per second, action round-trip p50/p99 (the worst of the
bot processes), fairness and chip checks. The room gets one 6-seat hold'em table per 6 players. Not collected
by pytest (a script, no ``test_`` prefix).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _room_file(directory: Path, players: int) -> Path:
    tables = math.ceil(players / 6)
    text = "[room]\nname = \"load\"\nconnections_per_minute = 10000\n"
    for index in range(tables):
        text += (f"\n[[tables]]\nid = \"load-{index}\"\ngame = \"texas_holdem\"\nstructure = \"no_limit\"\n"
                 f"stakes = [1, 2]\nseats = 6\nbuy_in = [40, 200]\n")
    path = directory / "room.toml"
    path.write_text(text)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=24)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--hands", type=int, default=30)
    arguments = parser.parse_args()
    per_process = arguments.players // arguments.processes
    if per_process < 2 or per_process % 6 not in (0, 2, 3, 4, 5):
        print("load.py: players per process must be >= 2 and fill tables (not 1 left over)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        port = _free_port()
        command = [sys.executable, "-m", "hosting.cli"]
        host = subprocess.Popen(
            [*command, "host", "--port", str(port), "--data", str(directory / "data"),
             "--config", str(_room_file(directory, arguments.players))],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        try:
            assert host.stdout is not None
            for line in host.stdout:
                if line.startswith("Host key fingerprint"):
                    break
            started = time.perf_counter()
            bots = [subprocess.Popen(
                [*command, "bots", "--connect", f"127.0.0.1:{port}", "--count", str(per_process),
                 "--hands", str(arguments.hands)],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ | {"PYTHONHASHSEED": "0"},
            ) for _ in range(arguments.processes)]
            results = []
            for process in bots:
                out, err = process.communicate(timeout=1800)
                if process.returncode not in (0, 1) or not out.strip():
                    print(f"load.py: a bot process failed: {err.strip()[-500:]}", file=sys.stderr)
                    return 1
                results.append(json.loads(out.strip().splitlines()[-1]))
            elapsed = time.perf_counter() - started
        finally:
            host.terminate()
            host.wait(timeout=30)
    hands = sum(result["hands"] for result in results)
    print(json.dumps({
        "players": sum(result["players"] for result in results),
        "processes": arguments.processes,
        "hands": hands,
        "hands_per_second": round(hands / elapsed, 2),
        "p50_ms": max(result["p50_ms"] or 0 for result in results),
        "p99_ms": max(result["p99_ms"] or 0 for result in results),
        "fairness_verified": sum(result["fairness_verified"] for result in results),
        "fairness_failures": sum(result["fairness_failures"] for result in results),
        "illegal_rejected": sum(result["illegal_rejected"] for result in results),
        "chips_conserved": all(result["chips_conserved"] for result in results),
        "seconds": round(elapsed, 1),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
