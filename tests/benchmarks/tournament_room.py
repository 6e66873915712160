"""Benchmark: one room process runs a tournament of N entrants to a winner (issue 18, Must show).

The entrants are in-process bot clients (:class:`tui.connection.LocalConnection`: every message goes through the
room's own session code, encoded and decoded as on the wire, and each client checks each hand's commit–reveal
shuffle), so this measures the room, not SSH. The room is the real one: its table runners (commit–reveal, clocks),
the tournament owner mirroring the director's tables, the store keeping every step's money and state. The bots
play cheaply (push or fold when short, else a simple call/check/raise: :func:`hosting.tournament_bots.quick_move`)
so the room's work dominates.

Run: ``python -m tests.benchmarks.tournament_room [ENTRANTS] [--level-seconds S] [--timeout S]`` (default 3,000
entrants, levels of 60 s, turbo-like: 10/20 doubling roughly every level from 1,500 chips). The store's writer
runs as in the server (commits in its thread, in batches); the bots read their lines on their own loop turn
(:attr:`tui.connection.LocalConnection.reads_later`), so a step's time is the room's. Prints one JSON line:
``entrants``, ``completed`` (true/false: a winner within ``--timeout``), ``director_step_ms`` ``{p50, p99}``
(each director step as the owner times it: the director's calls since the step before, its money and state kept,
its tables mirrored and woken, its messages written; also the periodic mirror of every table),
``director_step_cpu_ms`` ``{p50, p99, max}`` (the same in the room thread's CPU time: on a shared machine the wall
time includes waiting for a core), ``director_step_max_ms``, ``steps``, ``hands``,
``hands_per_second`` (hands dealt over the wall time from the start to the winner), ``seconds``, ``cpu_seconds``,
``peak_rss_mib`` (the room and its in-process bots together), ``rss_before_bots_mib`` (the room with its store,
before any bot connects), ``state_kib`` (the director's stored state at the start, its largest: what the room keeps
per tournament) and ``restore_ms`` / ``restore_steps`` / ``restore_kib`` (what a restart half-way would read and
replay: the last snapshot and the steps since). Target: 3,000 entrants completed, p99 director step < 50 ms,
RSS < 1 GiB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import _on_path  # noqa: F401 - first: as a file, the repository's tests package (_on_path.py)

from engine.tournament.director import Phase
from engine.tournament.formats import Format
from engine.tournament.levels import Level
from engine.tournament.money import EntryPrice
from engine.tournament.settings import TournamentSettings
from hosting.store import Store
from hosting.tournament_bots import TournamentBot, quick_move
from hosting.tournament_config import TournamentConfig
from hosting.tournament_state import encode_snapshot, load_director
from tests.hosting.tournament_play import tournament_room
from tui.connection import LocalConnection

BLINDS = (10, 15, 25, 40, 60, 100, 150, 250, 400, 600, 1_000, 1_500, 2_500, 4_000, 6_000, 10_000, 15_000, 25_000,
          40_000, 60_000, 100_000, 150_000, 250_000)


def config(entrants: int, level_seconds: float) -> TournamentConfig:
    levels = tuple(Level(small, small * 2, duration=level_seconds) for small in BLINDS)
    settings = TournamentSettings("bench", Format.SIT_AND_GO, sit_and_go_size=entrants, max_players=entrants,
                                  seats_per_table=9, price=EntryPrice(100, 10), starting_stack=1_500,
                                  schedule=levels)
    return TournamentConfig(settings, f"Benchmark {entrants}")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


async def run(entrants: int, level_seconds: float, timeout: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        store = Store.open(data / "store")
        names = [f"p{index:04d}" for index in range(entrants)]
        for name in names:
            store.register(name, f"ssh-ed25519 AAAA{name}")
        tournament = config(entrants, level_seconds)
        room = tournament_room(data / "room", store, (tournament,))
        store.start()  # as the server does (hosting.server): commits in the writer's thread, in batches
        room.start()
        rss_before_bots = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        rng = random.Random(18)
        bots: list[TournamentBot] = []
        for name in names:
            connection = await LocalConnection.attach(room, name, f"ssh-ed25519 AAAA{name}")
            connection.reads_later = True  # the bot reads on its own loop turn: the room's step is the room's work
            bot = TournamentBot(name, connection, connection.receive, "bench", rng=random.Random(rng.random()),
                                chooser=quick_move)
            bot.task = asyncio.get_running_loop().create_task(bot.play())
            bots.append(bot)
        owner = room.tournaments.owners["bench"]
        for bot in bots:
            await bot.register()
        state_kib = len(encode_snapshot(owner.director)) / 1024  # at its largest
        started = time.perf_counter()
        cpu_started = time.process_time()
        deadline = started + timeout
        restore: dict[str, Any] = {}
        while not owner.over and time.perf_counter() < deadline:
            await asyncio.sleep(0.5)
            if not restore and owner.director.live_count <= entrants // 2:
                restore = await restore_time(store)
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        completed = owner.director.phase is Phase.COMPLETE
        steps_ms = [1000 * value for value in owner.step_seconds]
        steps_cpu_ms = [1000 * value for value in owner.step_cpu_seconds]
        hands = owner.director.hands
        for bot in bots:
            if bot.task is not None:
                bot.task.cancel()
        await room.stop()
        await store.flush()
        await store.close()
    return {
        "entrants": entrants,
        "completed": completed,
        "director_step_ms": {"p50": round(statistics.median(steps_ms), 2) if steps_ms else None,
                             "p99": round(percentile(steps_ms, 0.99), 2) if steps_ms else None},
        "director_step_cpu_ms": {"p50": round(statistics.median(steps_cpu_ms), 2) if steps_cpu_ms else None,
                                 "p99": round(percentile(steps_cpu_ms, 0.99), 2) if steps_cpu_ms else None,
                                 "max": round(max(steps_cpu_ms), 2) if steps_cpu_ms else None},
        "director_step_max_ms": round(max(steps_ms), 2) if steps_ms else None,
        "steps": len(steps_ms),
        "hands": hands,
        "hands_per_second": round(hands / seconds, 1) if seconds else None,
        "seconds": round(seconds, 1),
        "cpu_seconds": round(cpu, 1),
        "level_seconds": level_seconds,
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "rss_before_bots_mib": round(rss_before_bots, 1),
        "state_kib": round(state_kib, 1),
        **restore,
    }


async def restore_time(store: Store) -> dict[str, Any]:
    """What a restart would do with the tournament half-way: read its snapshot and steps, replay them."""
    await store.flush()
    began = time.perf_counter()
    (saved,) = [item for item in store.saved_tournaments() if item.id == "bench"]
    load_director(saved.state, saved.steps)
    return {"restore_ms": round(1000 * (time.perf_counter() - began), 1), "restore_steps": len(saved.steps),
            "restore_kib": round((len(saved.state) + sum(map(len, saved.steps))) / 1024, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("entrants", type=int, nargs="?", default=3_000)
    parser.add_argument("--level-seconds", type=float, default=60.0)
    parser.add_argument("--timeout", type=float, default=3_600.0, help="give up (completed: false) after this")
    arguments = parser.parse_args()
    print(json.dumps(asyncio.run(run(arguments.entrants, arguments.level_seconds, arguments.timeout))), flush=True)


if __name__ == "__main__":
    main()
