"""One bot process of ``tests/benchmarks/load.py``: its own tables, so no two processes race for a seat.

    python tests/benchmarks/load_worker.py --connect 127.0.0.1:2222 --tables load-0,load-1 --count 12 --think 1-4

Each bot is a real SSH client (:class:`hosting.client.RoomClient`, as ``croupier join`` uses) that verifies every
hand's shuffle, playing :func:`hosting.bots.play`. The process talks to load.py in lines:

1. connects its ``--count`` bots (a few logins at a time), then prints ``{"ready": N}``;
2. on ``go`` (stdin) the bots sit, ``--sit-rate`` a second, spread evenly over ``--tables``, and play; once
   all sat it prints ``{"seated": N}``;
3. on ``mark`` (stdin) it forgets the round-trips and hands so far: the measured window starts;
4. on ``stop`` (stdin), or when every table has dealt ``--hands`` hands, the bots leave and it prints one JSON
   line: the action round-trips of the window (ms), the hands finished in it, fairness and chip checks.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import secrets
import sys
import time
from collections import Counter
from collections.abc import Coroutine
from typing import Any

import asyncssh

from hosting.bots import BotReport, fairness_tally, parse_think, play, stop_all
from hosting.client import RoomClient
from hosting.commands.bots import parse_address

CONNECTS_AT_ONCE = 8  # logins in flight per process: the room bounds pending logins per address
CONNECT_TRIES = 3


async def _connect(host: str, port: int, name: str, gate: asyncio.Semaphore) -> RoomClient:
    """One bot's login, tried again on a refused or timed-out handshake (a loaded host)."""
    for attempt in range(CONNECT_TRIES):
        async with gate:
            try:
                client = await RoomClient.connect(host, port, name, timeout=60.0, host_blind=True,
                                                  client_keys=[asyncssh.generate_private_key("ssh-ed25519")])
                await client.pass_gates()
                return client
            except (TimeoutError, OSError, asyncssh.Error):
                if attempt == CONNECT_TRIES - 1:
                    raise
        await asyncio.sleep(1.0 + attempt)
    raise AssertionError("unreachable")


async def _lines() -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    return reader


async def _forget_received(clients: list[RoomClient], every: float = 5.0) -> None:
    """Empty each client's ``received`` log now and then: the bots read their queue, and a long run's log would
    grow the bot process by hundreds of MiB (its CPU and memory are measured)."""
    while True:
        await asyncio.sleep(every)
        for client in clients:
            client.received.clear()


async def _sit_later(delay: float, playing: Coroutine[Any, Any, BotReport]) -> BotReport:
    """People come to the tables one by one: ``playing`` (sit, then play) starts after ``delay`` seconds."""
    await asyncio.sleep(delay)
    return await playing


async def _watch_loop(lags: list[float], every: float = 0.05) -> None:
    """How late this process's event loop wakes for a timer (ms): a bot's round-trip includes that delay, so a
    late loop (a starved bot process on a busy machine) is told apart from a slow room."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(every)
        lags.append(round(1000 * (loop.time() - asked - every), 2))


def _say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def run(arguments: argparse.Namespace) -> dict[str, Any]:
    host, port = parse_address(arguments.connect)
    think = parse_think(arguments.think)
    tables = arguments.tables.split(",")
    token = secrets.token_hex(3)
    gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
    clients = list(await asyncio.gather(*(
        _connect(host, port, f"{arguments.prefix}{index}-{token}", gate) for index in range(arguments.count))))
    forgetting = asyncio.ensure_future(_forget_received(clients))
    control = await _lines()
    _say({"ready": len(clients)})
    if (await control.readline()).strip() != b"go":
        raise SystemExit("load_worker: expected go")
    rng = random.Random(arguments.seed)
    done = {table: asyncio.Event() for table in tables}
    reports = [BotReport(str(client.hello.get("name", "?"))) for client in clients]
    seating = [tables[index % len(tables)] for index in range(len(clients))]  # even: no table left with one bot
    started = time.perf_counter()
    tasks = [asyncio.ensure_future(_sit_later(index / arguments.sit_rate, play(
        client, table, arguments.hands, random.Random(rng.random()), done=done[table], think=think, report=report)))
             for index, (client, table, report) in enumerate(zip(clients, seating, reports, strict=True))]
    finished = asyncio.ensure_future(asyncio.wait(tasks))
    lags: list[float] = []
    watching = asyncio.ensure_future(_watch_loop(lags))
    while not all(report.seated for report in reports) and not any(task.done() for task in tasks):
        await asyncio.sleep(0.2)
    _say({"seated": sum(report.seated for report in reports)})
    while True:  # "mark": the warm-up is over, the window starts now; "stop" (or every table done): it ends
        line = asyncio.ensure_future(control.readline())
        await asyncio.wait([line, finished], return_when=asyncio.FIRST_COMPLETED)
        if not line.done():
            line.cancel()
            break
        if line.result().strip() != b"mark":
            break
        for report in reports:
            report.latencies.clear()
            report.latency_kinds.clear()
            report.hands.clear()
        lags.clear()
        started = time.perf_counter()
    window = time.perf_counter() - started
    watching.cancel()
    lag = sorted(lags)
    latencies = [round(1000 * latency, 2) for report in reports for latency in report.latencies]
    kinds = [kind for report in reports for kind in report.latency_kinds]
    hands = len(set().union(*(report.hands for report in reports)))
    for event in done.values():
        event.set()  # every bot leaves at its next message (the transcripts of its hands verified first)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(finished), 60)
    await stop_all(tasks)
    errors = [repr(task.exception()) for task in tasks if not task.cancelled() and task.exception() is not None]
    # violations (their kinds, the first's evidence) apart from hands a slow connection kept from a full check
    fairness = fairness_tally((str(client.hello.get("name")), client.fairness) for client in clients)
    for client in clients:  # host-blind hands: each client's own referee of them
        for violations in (client.host_blind.results.values() if client.host_blind is not None else ()):
            fairness["fairness_verified"] += not violations
            fairness["fairness_failures"] += bool(violations)
    refusals = Counter(str(refused["reply"].get("code")) for report in reports for refused in report.refused_moves)
    for client in clients:
        with contextlib.suppress(OSError, asyncssh.Error):
            await client.close()
    forgetting.cancel()
    return {"players": len(clients), "hands": hands, "window_seconds": round(window, 2), "latencies_ms": latencies,
            "latency_kinds": kinds,
            **fairness, "illegal_rejected": sum(report.illegal_rejected for report in reports),
            "refusal_codes": dict(refusals),
            "chips_conserved": all(report.chips_conserved for report in reports),
            "loop_lag_p99_ms": lag[min(len(lag) - 1, int(0.99 * len(lag)))] if lag else None,
            "loop_lag_max_ms": lag[-1] if lag else None,
            "bot_errors": len(errors), "first_error": errors[0] if errors else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connect", required=True)
    parser.add_argument("--tables", required=True, help="this process's tables, comma-separated")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--hands", type=int, default=10**9)
    parser.add_argument("--think", default="0")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--prefix", default="bot")
    parser.add_argument("--sit-rate", type=float, default=1e9, help="this process's sits per second")
    arguments = parser.parse_args()
    _say(asyncio.run(run(arguments)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
