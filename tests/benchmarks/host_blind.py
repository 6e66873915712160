"""Benchmark: host-blind dealing (fairness v2, engine/fairness_v2) — a full hold'em hand to showdown played in
process, every party's work metered on its own (``time.thread_time`` around each player's and the host's
calls). One JSON line.

``python tests/benchmarks/host_blind.py [HANDS]`` (default 3: the median hand counts).

- ``cpu_ms_per_player_hand``: mean CPU ms per player per hand at 2, 6 and 10 players (``max_``: the busiest
  player). Everyone shuffles up to 6 players; at 10 a committee of 6 shuffles (the six seats from the button),
  every player verifies every shuffle but his own. Key escrow (Feldman VSS) is counted in every hand.
- ``host_cpu_ms_per_hand``: the host's relay (chain, player signatures, its SSHSIG checkpoints, turn keeping).
- ``bytes_per_player_hand``: what a player sends and receives (JSON as the transcript holds it).
- ``added_wall_ms_per_hand``: 50 ms round trip per round plus the slowest party's CPU in that round;
  ``total`` counts every round, ``shuffle_ahead`` leaves out the escrow and shuffle rounds (run during the
  previous hand, so nobody waits for them); betting rounds count only their CPU (a round trip per action
  exists without fairness too).
- the same for both group backends: ``secp256k1`` (coincurve, the default) and ``ristretto255`` (rbcl).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

import _on_path  # noqa: F401 - first: as a file, the repository's tests package (_on_path.py)

from engine.fairness_v2.group import RISTRETTO255, SECP256K1, Group
from tests.engine.fairness_v2_play import make_players, play

ROUND_TRIP_MS = 50.0
SIZES = (2, 6, 10)


def one_hand(group: Group, players: int, number: int) -> dict[str, float]:
    cpu: dict[tuple[str, str], float] = defaultdict(float)

    @contextmanager
    def meter(party: str, round_name: str) -> Iterator[None]:
        start = time.thread_time()
        try:
            yield
        finally:
            cpu[party, round_name] += time.thread_time() - start

    seated = make_players(players, group=group, seed=f"bench/{players}/{number}")
    played = play(seated, hand=f"h{number}", button=number % players, meter=meter)
    assert not played.host_outcome.void and len(played.host_outcome.board) == 5
    per_player = [sum(value for (party, _), value in cpu.items() if party == str(seat)) for seat in range(players)]
    rounds: dict[str, float] = defaultdict(float)
    for (_party, round_name), value in cpu.items():
        rounds[round_name] = max(rounds[round_name], value)
    total = ahead = 0.0
    for round_name, slowest in rounds.items():
        trip = 0.0 if round_name.startswith(("bet/", "start", "end")) else ROUND_TRIP_MS / 1000
        total += trip + slowest
        if not round_name.startswith(("escrow", "shuffle")):
            ahead += trip + slowest
    sent = [played.bytes_by_party[str(seat)] for seat in range(players)]
    return {"cpu": 1000 * statistics.mean(per_player), "max": 1000 * max(per_player),
            "host": 1000 * sum(value for (party, _), value in cpu.items() if party == "host"),
            "bytes": statistics.mean(sent), "total": 1000 * total, "ahead": 1000 * ahead}


def backend(group: Group, hands: int) -> dict[str, dict[str, float]]:
    result: dict[str, dict[str, float]] = defaultdict(dict)
    for players in SIZES:
        runs = [one_hand(group, players, number) for number in range(hands)]
        median = sorted(runs, key=lambda run: run["cpu"])[len(runs) // 2]
        key = str(players)
        result["cpu_ms_per_player_hand"][key] = round(median["cpu"], 1)
        result["max_cpu_ms_per_player_hand"][key] = round(median["max"], 1)
        result["host_cpu_ms_per_hand"][key] = round(median["host"], 1)
        result["bytes_per_player_hand"][key] = round(median["bytes"])
        result["added_wall_ms_per_hand"][key] = {"total": round(median["total"]),  # type: ignore[assignment]
                                                 "shuffle_ahead": round(median["ahead"])}
    return dict(result)


def main(hands: int) -> dict[str, object]:
    secp = backend(SECP256K1, hands)
    return {**secp, "shufflers": {"2": 2, "6": 6, "10": 6}, "round_trip_ms": ROUND_TRIP_MS,
            "backends": {"secp256k1": secp, "ristretto255": backend(RISTRETTO255, hands)}}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)))
