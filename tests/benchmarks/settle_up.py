"""Settle-up speed (engine.settle_up): the exact fewest-transfers search at a home game's sizes.

Run: ``python tests/benchmarks/settle_up.py`` (``--seed``, ``--repeats``). Prints one JSON line: for each
number of players with a non-zero net (5, 10, 15 exact; 40 greedy), the slowest of ``--repeats`` random
nights in milliseconds and the transfers it found, e.g. ``{"players_15_ms": …, "players_15_transfers": …}``.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from engine.settle_up import minimal_transfers


def night(players: int, rng: random.Random) -> dict[str, int]:
    """Random nets summing to zero, none of them zero."""
    nets = [rng.choice((-1, 1)) * rng.randint(1, 500) for _ in range(players - 1)]
    last = -sum(nets)
    if last == 0:
        nets[0] += 1
        last = -1
    return {f"p{index}": net for index, net in enumerate([*nets, last])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--repeats", type=int, default=5)
    arguments = parser.parse_args(argv)
    rng = random.Random(arguments.seed)
    result: dict[str, float | int] = {}
    for players in (5, 10, 15, 40):
        slowest, transfers = 0.0, 0
        for _ in range(arguments.repeats):
            nets = night(players, rng)
            started = time.perf_counter()
            found = minimal_transfers(nets)
            slowest = max(slowest, time.perf_counter() - started)
            transfers = max(transfers, len(found))
        result[f"players_{players}_ms"] = round(slowest * 1000, 2)
        result[f"players_{players}_transfers"] = transfers
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
