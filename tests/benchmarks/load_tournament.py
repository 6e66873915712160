"""A tournament over SSH with thinking bots (issue 20, Must show): ``croupier host`` (its own process) with a
Sit & Go of N entrants declared in its room file, and P ``croupier bots --tournament ID --think MIN-MAX``
processes registering every entrant and playing it to a winner.

    python -m tests.benchmarks.load_tournament --entrants 100 --processes 4 --think 0.5-2
    python -m tests.benchmarks.load_tournament --entrants 1000 --processes 4 --think 0.5-2 --timeout 3600

One JSON line: entrants, completed (every bot heard the end, one winner), seconds (first bot started to the
last bot's report), hands and hands per second, fairness failures and hands a bot was dealt but did not verify,
``croupier audit`` clean, the prizes paid in the ledger against the pool (entrants x buy-in), the room process's
CPU (% of one core) and peak RSS. Levels are one minute (the room file's shortest) from 30 big blinds, so a field
of 1,000 ends in well under an hour. Not collected by pytest (a script, no ``test_`` prefix).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import _on_path  # noqa: F401 - first: as a file, the repository's tests package (_on_path.py)

from hosting.bots import parse_think
from hosting.store import connect
from tests.benchmarks.load import _merged, cpu_seconds, rss_mib, start_host

BUY_IN, FEE = 100, 10
TOURNAMENT = "load"


def room_file(directory: Path, entrants: int, starting_chips: int) -> Path:
    levels = ", ".join(f"{{ small_blind = {small}, big_blind = {small * 2}, minutes = 1 }}"
                       for small in (10, 15, 25, 40, 60, 100, 150, 250, 400, 600, 1_000, 1_500, 2_500, 4_000,
                                     6_000, 10_000, 15_000, 25_000, 40_000, 60_000, 100_000))
    path = directory / "room.toml"
    path.write_text(f"""
[room]
name = "tournament load"
connections_per_minute = 10000
logins_per_address = 10000
registrations_per_address = 100000
max_pending_logins = 10000
pending_logins_per_address = 1000
login_seconds = 120
ready_screens = 0

[[tournaments]]
id = "{TOURNAMENT}"
name = "Load {entrants}"
type = "sit_and_go"
sit_and_go_size = {entrants}
seats = 9
buy_in = {BUY_IN}
fee = {FEE}
starting_chips = {starting_chips}
levels = [{levels}]
""")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=100)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--think", default="0.5-2")
    parser.add_argument("--starting-chips", type=int, default=600)
    parser.add_argument("--timeout", type=float, default=3600.0, help="give up after this many seconds")
    arguments = parser.parse_args()
    try:
        parse_think(arguments.think)
    except ValueError as problem:
        print(f"load_tournament.py: {problem}", file=sys.stderr)
        return 2
    if arguments.entrants < 2 or not 1 <= arguments.processes <= arguments.entrants:
        print("load_tournament.py: at least 2 entrants and 1 to ENTRANTS processes", file=sys.stderr)
        return 2
    line = run(arguments)
    print(json.dumps(line))
    return 0 if line["completed"] and line["fairness_failures"] == 0 and line["audit_clean"] else 1


def run(arguments: argparse.Namespace) -> dict[str, Any]:
    entrants, processes = arguments.entrants, arguments.processes
    groups = [entrants // processes + (index < entrants % processes) for index in range(processes)]
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        host, port = start_host(directory, room_file(directory, entrants, arguments.starting_chips))
        bots: list[subprocess.Popen[str]] = []
        started = time.perf_counter()
        try:
            for number, count in enumerate(groups):
                bots.append(subprocess.Popen(
                    [sys.executable, "-m", "hosting.cli", "bots", "--connect", f"127.0.0.1:{port}", "--count",
                     str(count), "--tournament", TOURNAMENT, "--think", arguments.think, "--seed", str(number)],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
            summaries, errors = [], []
            for bot in bots:
                out, err = bot.communicate(timeout=max(1.0, arguments.timeout - (time.perf_counter() - started)))
                lines = out.strip().splitlines()
                if lines:
                    summaries.append(json.loads(lines[-1]))
                if bot.returncode != 0:
                    errors.append(err.strip()[-300:])
            seconds = time.perf_counter() - started
            host_cpu, host_peak = cpu_seconds(host.pid), rss_mib(host.pid, "VmHWM")
        finally:
            for bot in bots:
                if bot.poll() is None:
                    bot.kill()
            host.terminate()
            host.wait(timeout=60)
        audit = subprocess.run([sys.executable, "-m", "hosting.cli", "audit", "--data", str(directory / "data")],
                               capture_output=True, text=True, timeout=600)
        prizes, hands = _prizes_and_hands(directory / "data")
    winners = {summary["winner"] for summary in summaries}
    return {
        "entrants": entrants, "processes": processes, "think": arguments.think,
        "completed": len(summaries) == processes and all(summary["completed"] for summary in summaries)
        and len(winners) == 1 and None not in winners,
        "seconds": round(seconds, 1), "hands": hands, "hands_per_second": round(hands / seconds, 2),
        "fairness_verified": sum(summary["fairness_verified"] for summary in summaries),
        "fairness_failures": sum(summary["fairness_failures"] for summary in summaries),
        "unverified": sum(summary["unverified"] for summary in summaries),
        "violation_kinds": _merged(summary["violation_kinds"] for summary in summaries),
        "fairness_unverified": _merged(summary["fairness_unverified"] for summary in summaries),
        "fairness_notes": _merged(summary["fairness_notes"] for summary in summaries),
        "first_violation": next((summary["first_violation"] for summary in summaries if summary["first_violation"]),
                                None),
        "illegal_rejected": sum(summary["illegal_rejected"] for summary in summaries),
        "audit_clean": audit.returncode == 0, "prizes_paid": prizes, "pool": entrants * BUY_IN,
        "prizes_equal_pool": prizes == entrants * BUY_IN,
        "prizes_heard_by_bots": sum(summary["prizes"] for summary in summaries),
        "host_cpu_percent": round(100 * host_cpu / seconds, 1), "host_peak_rss_mib": host_peak,
        "bot_errors": errors,
    }


def _prizes_and_hands(data: Path) -> tuple[int, int]:
    """Chips the ledger moved from the tournament's pool to players' balances; hands the room recorded (its only
    tables are the tournament's)."""
    connection = connect(data, read_only=True)
    try:
        (paid,) = connection.execute("SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE table_id = ? AND "
                                     "source = 'tournament' AND destination = 'balance'", (TOURNAMENT,)).fetchone()
        (hands,) = connection.execute("SELECT COUNT(*) FROM hands").fetchone()
    finally:
        connection.close()
    return int(paid), int(hands)


if __name__ == "__main__":
    sys.exit(main())
