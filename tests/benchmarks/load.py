"""Load run (issue 20): one ``croupier host`` process and P bot processes over SSH on loopback.

    python tests/benchmarks/load.py --players 240 --processes 4 --think 0 --hands 30
    python tests/benchmarks/load.py --players 1000 --processes 4 --think 1-4 --seconds 60
    python tests/benchmarks/load.py --sweep 250,500,1000,2000 --processes 4 --think 1-4 --seconds 60
    python tests/benchmarks/load.py --sweep 12,24,48 --processes 2 --think 1-4 --seconds 60 --dealing host-blind

Every bot is a real SSH client that verifies every hand (tests/benchmarks/load_worker.py); each bot process
gets its own tables (one 6-seat hold'em table per 6 of its players), so no two processes race for a seat. The
bots connect first, then sit down (``--sit-rate`` a second in all, as people arrive); the measured window opens
``--warmup`` seconds after the last one sat (the burst of sits and lobby updates is not what a room's evening
looks like) and ends after ``--seconds`` or when every table has dealt ``--hands`` hands, whichever comes first.

One JSON line per run: players, hands and hands per second in the window, action round-trip p50/p99 over every
bot (a bot sends its move -> it sees the room's next message about it) and by the move's kind (``by_kind``:
``call+street`` a call that dealt a street, ``fold+end`` a fold that ended the hand), fairness and chip checks, the room
process's CPU (% of one core) over the window and its RSS, the bot processes' CPU, how late the bot processes'
event loops woke (their p99 and worst, in ms: a round-trip includes it) and the machine's load average.
``--sweep`` runs one fresh room per count and ends with a line naming the largest count whose p99 stayed under
100 ms.

The room file is benchmark-only: loopback bots all come from 127.0.0.1, so it raises that address's login
rate and pending-login bounds (``connections_per_minute``, ``pending_logins_per_address``); the defaults a
real room starts with are untouched. Not collected by pytest (a script, no ``test_`` prefix).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

import _on_path  # noqa: F401 - first: as a file, the repository's tests package (_on_path.py)

from hosting.bots import parse_think
from tests.room_process import start_room_process

P99_TARGET_MS = 100.0
WORKER = Path(__file__).with_name("load_worker.py")
TICKS = os.sysconf("SC_CLK_TCK")


def split(players: int, processes: int) -> list[list[int]]:
    """Each process's table sizes: players spread as evenly as can be, each process's over its own 6-seat tables
    (no table with a single player). ``ValueError`` when some process would get fewer than 2 players."""
    counts = [players // processes + (index < players % processes) for index in range(processes)]
    if min(counts) < 2:
        raise ValueError(f"{players} players over {processes} processes leaves a process fewer than 2 players")
    layout = []
    for count in counts:
        tables = math.ceil(count / 6)
        layout.append([count // tables + (index < count % tables) for index in range(tables)])
    return layout


def room_file(directory: Path, tables: int, dealing: str = "commit-reveal") -> Path:
    """The benchmark's room: ``tables`` hold'em tables, logins from one address allowed at load speed;
    ``dealing = "host-blind"``: every table deals host-blind (the bots' clients shuffle and open the cards)."""
    text = ("[room]\nname = \"load\"\nconnections_per_minute = 10000\nlogins_per_address = 10000\n"
            "registrations_per_address = 100000\n"
            "max_pending_logins = 10000\npending_logins_per_address = 1000\nlogin_seconds = 120\nready_screens = 0\n")
    for index in range(tables):
        text += (f"\n[[tables]]\nid = \"load-{index}\"\ngame = \"texas_holdem\"\nstructure = \"no_limit\"\n"
                 f"stakes = [1, 2]\nseats = 6\nbuy_in = [40, 200]\ndealing = \"{dealing}\"\n")
    path = directory / "room.toml"
    path.write_text(text)
    return path


def cpu_seconds(pid: int) -> float:
    """User + system CPU of one process so far (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mib(pid: int, key: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def percentile(values: list[float], share: float) -> float | None:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else None


def _read_json(stream: IO[str], what: str) -> dict[str, Any]:
    line = stream.readline()
    if not line:
        raise RuntimeError(f"a bot process ended before {what}")
    result: dict[str, Any] = json.loads(line)
    return result


def start_host(directory: Path, config: Path, profile: Path | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """``croupier host`` on a loopback port the system picks, with ``config``, its data and log in ``directory``;
    under cProfile writing ``profile`` when it stops, if given."""
    profiler = ["-m", "cProfile", "-o", str(profile.resolve())] if profile else []
    room = start_room_process(directory / "data", directory / "host.log", "--config", str(config),
                              command=[sys.executable, *profiler, "-m", "hosting.cli"])
    return room.process, room.port


def run_point(players: int, processes: int, hands: int, think: str, seconds: float, warmup: float = 0.0,
              profile: Path | None = None, sit_rate: float = 1e9, dealing: str = "commit-reveal") -> dict[str, Any]:
    """One room, ``players`` bots over ``processes`` processes; the JSON line's fields. ``profile``: the room
    runs under cProfile (slower: its CPU is not comparable) and writes its statistics there when it stops."""
    layout = split(players, processes)
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        host, port = start_host(directory, room_file(directory, sum(len(tables) for tables in layout), dealing),
                                profile)
        workers: list[subprocess.Popen[str]] = []
        try:
            first = 0
            for number, tables in enumerate(layout):
                ids = ",".join(f"load-{first + index}" for index in range(len(tables)))
                first += len(tables)
                workers.append(subprocess.Popen(
                    [sys.executable, str(WORKER), "--connect", f"127.0.0.1:{port}", "--tables", ids, "--count",
                     str(sum(tables)), "--hands", str(hands), "--think", think, "--seed", str(number),
                     "--prefix", f"p{number}b", "--sit-rate", str(sit_rate / processes)],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
            connect_started = time.perf_counter()
            for worker in workers:
                assert worker.stdout is not None
                _read_json(worker.stdout, "its bots connected")
            connect_seconds = time.perf_counter() - connect_started
            _tell(workers, "go")
            for worker in workers:
                assert worker.stdout is not None
                _read_json(worker.stdout, "its bots sat")
            time.sleep(warmup)  # the burst of sits and lobby updates passes: play as it goes on
            host_cpu, bot_cpu = cpu_seconds(host.pid), sum(cpu_seconds(worker.pid) for worker in workers)
            started = time.perf_counter()
            _tell(workers, "mark")
            ended = _wait_window(workers, started + seconds)
            host_cpu = cpu_seconds(host.pid) - host_cpu
            bot_cpu = sum(cpu_seconds(worker.pid) for worker in workers) - bot_cpu
            host_rss, host_peak = rss_mib(host.pid), rss_mib(host.pid, "VmHWM")
            measured = ended - started
            results = []
            for worker in workers:
                assert worker.stdout is not None
                results.append(_read_json(worker.stdout, "its report"))
                worker.wait(timeout=120)
            if any(result["bot_errors"] for result in results):  # what the room said about it
                print("load.py: bots failed; the room's log ends:\n" + "\n".join(
                    (directory / "host.log").read_text(errors="replace").splitlines()[-15:]), file=sys.stderr)
        finally:
            for worker in workers:
                if worker.poll() is None:
                    worker.kill()
            host.send_signal(signal.SIGINT)  # the room stops as on Ctrl+C (cProfile writes its file then)
            try:  # a room stopping lets a hand in play end on its clocks: not worth minutes unless profiled
                host.wait(timeout=120 if profile else 20)
            except subprocess.TimeoutExpired:
                host.kill()
    latencies = [latency for result in results for latency in result["latencies_ms"]]
    hands_done = sum(result["hands"] for result in results)
    window = max(result["window_seconds"] for result in results)  # the bots' own go-to-stop (without leaving)
    return {
        "players": sum(result["players"] for result in results), "processes": processes, "think": think,
        "dealing": dealing, "hands": hands_done, "hands_per_second": round(hands_done / window, 2),
        "actions": len(latencies), "p50_ms": percentile(latencies, 0.5), "p99_ms": percentile(latencies, 0.99),
        "by_kind": by_kind(results),
        "fairness_verified": sum(result["fairness_verified"] for result in results),
        "fairness_failures": sum(result["fairness_failures"] for result in results),
        "illegal_rejected": sum(result["illegal_rejected"] for result in results),
        "violation_kinds": _merged(result["violation_kinds"] for result in results),
        "fairness_unverified": _merged(result["fairness_unverified"] for result in results),
        "fairness_notes": _merged(result["fairness_notes"] for result in results),
        "refusal_codes": _merged(result["refusal_codes"] for result in results),
        "first_violation": next((result["first_violation"] for result in results if result["first_violation"]), None),
        "chips_conserved": all(result["chips_conserved"] for result in results),
        "bot_errors": sum(result["bot_errors"] for result in results),
        "first_bot_error": next((result["first_error"] for result in results if result["first_error"]), None),
        "host_cpu_percent": round(100 * host_cpu / measured, 1), "host_rss_mib": host_rss,
        "host_peak_rss_mib": host_peak, "bot_cpu_percent": round(100 * bot_cpu / measured, 1),
        "bot_loop_lag_p99_ms": max((result["loop_lag_p99_ms"] or 0) for result in results),
        "bot_loop_lag_max_ms": max((result["loop_lag_max_ms"] or 0) for result in results),
        "load_average": round(os.getloadavg()[0], 1),
        "window_seconds": round(window, 1), "warmup_seconds": warmup, "connect_seconds": round(connect_seconds, 1),
    }


def by_kind(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The round trips by the move's kind (``+street``: it dealt a street, ``+end``: it ended the hand): count,
    p50, p99 and worst, in ms — where the tail comes from."""
    found: dict[str, list[float]] = {}
    for result in results:
        for kind, latency in zip(result.get("latency_kinds", ()), result["latencies_ms"], strict=False):
            found.setdefault(kind, []).append(latency)
    return {kind: {"n": len(values), "p50": percentile(values, 0.5), "p99": percentile(values, 0.99),
                   "max": max(values)} for kind, values in sorted(found.items())}


def _merged(counts: Iterable[dict[str, int]]) -> dict[str, int]:
    total: Counter[str] = Counter()
    for count in counts:
        total.update(count)
    return dict(total)


def _tell(workers: list[subprocess.Popen[str]], line: str) -> None:
    """One control line to every worker still listening (one whose tables are done may have ended)."""
    for worker in workers:
        assert worker.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            worker.stdin.write(line + "\n")
            worker.stdin.flush()


def _wait_window(workers: list[subprocess.Popen[str]], deadline: float) -> float:
    """Until the deadline (then ``stop`` to every worker) or until every worker has finished its hands (it
    then prints its report unasked); the window's end."""
    import selectors

    waiting = selectors.DefaultSelector()
    for worker in workers:
        assert worker.stdout is not None
        waiting.register(worker.stdout, selectors.EVENT_READ)
    ready: set[Any] = set()
    while len(ready) < len(workers) and (left := deadline - time.perf_counter()) > 0:
        for key, _ in waiting.select(left):
            ready.add(key.fileobj)
            waiting.unregister(key.fileobj)
    ended = time.perf_counter()
    _tell([worker for worker in workers if worker.stdout not in ready], "stop")
    return ended


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=24)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--hands", type=int, default=10**9, help="stop when every table has dealt this many")
    parser.add_argument("--seconds", type=float, default=None,
                        help="stop the window after this long (default 60; none when --hands is given at --think 0)")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds after everyone sat before the window opens (default 10 with --think, else 0)")
    parser.add_argument("--sit-rate", type=float, default=50.0,
                        help="players sitting down per second at the start, in all (default 50: not all at once)")
    parser.add_argument("--think", default="0", help="seconds per decision, MIN-MAX (e.g. 1-4); 0: at once")
    parser.add_argument("--sweep", default=None, metavar="N,N,...", help="one fresh room per player count")
    parser.add_argument("--dealing", choices=("commit-reveal", "host-blind"), default="commit-reveal",
                        help="how every table deals (host-blind: the bots' clients shuffle and open the cards)")
    parser.add_argument("--profile", type=Path, default=None, metavar="FILE",
                        help="run the room under cProfile, statistics to FILE (its CPU then reads high)")
    arguments = parser.parse_args()
    try:
        bounds = parse_think(arguments.think)
        counts = [int(text) for text in arguments.sweep.split(",")] if arguments.sweep else [arguments.players]
        for count in counts:
            split(count, arguments.processes)
    except ValueError as problem:
        print(f"load.py: {problem}", file=sys.stderr)
        return 2
    warmup = arguments.warmup if arguments.warmup is not None else (10.0 if bounds[1] > 0 else 0.0)
    seconds = arguments.seconds or (60.0 if bounds[1] > 0 or arguments.hands == 10**9 else 7 * 86400.0)
    points = []
    for count in counts:
        profile = arguments.profile.with_suffix(f".{count}{arguments.profile.suffix}") \
            if arguments.profile and arguments.sweep else arguments.profile
        point = run_point(count, arguments.processes, arguments.hands, arguments.think, seconds, warmup, profile,
                          arguments.sit_rate, arguments.dealing)
        points.append(point)
        print(json.dumps(point), flush=True)
    if arguments.sweep:
        holding = [point["players"] for point in points
                   if point["p99_ms"] is not None and point["p99_ms"] < P99_TARGET_MS and point["bot_errors"] == 0]
        print(json.dumps({"think": arguments.think, "dealing": arguments.dealing, "p99_target_ms": P99_TARGET_MS,
                          "largest_players_p99_under_target": max(holding, default=None)}))
    return 0 if all(point["fairness_failures"] == 0 and point["chips_conserved"] for point in points) else 1


if __name__ == "__main__":
    sys.exit(main())
