"""Benchmark: host-blind dealing (fairness v2, engine/fairness_v2) — hold'em hands to showdown played in a row at
one table in process, each hand's escrow and shuffles run during the hand before it (shuffle ahead, as the room
does), every party's work metered on its own (``time.thread_time`` around each player's and the host's calls).
One JSON line.

``python tests/benchmarks/host_blind.py [HANDS]`` (default 3: the median of hands 1..HANDS counts; hand 0, which
nobody prepared ahead and which builds the process's fixed-base tables, is left out).

- ``cpu_ms_per_player_hand``: mean CPU ms per player per hand at 2, 6 and 10 players (``max_``: the busiest
  player), the hand's preparation during the hand before included. Everyone shuffles up to 6 players; at 10 a
  committee of 6 shuffles (the six seats from the button), every player verifies every shuffle but his own.
  Key escrow (Feldman VSS) is counted in every hand.
- ``host_cpu_ms_per_hand``: the host's relay (chain, player signatures, its SSHSIG checkpoints, turn keeping).
- ``bytes_per_player_hand``: what a player sends and receives (JSON as the transcript holds it).
- ``added_wall_ms_per_hand``: each protocol round costs a 50 ms round trip plus its slowest party's CPU.
  ``total``: every round of the hand one after the other (no shuffle ahead). ``shuffle_ahead``: what players
  wait for with shuffle ahead — the hand's own rounds (stacks, deal, board streets, shows) plus any part of
  its preparation the hand before did not cover (``waited_for_deck``); the hand before covers from its deal to
  its end, betting actions counted at one round trip each and no thinking time (bots at full speed: at human
  pace the wait is 0). Betting rounds add only their CPU (a round trip per action exists without fairness).
- the same for both group backends: ``secp256k1`` (coincurve, the default) and ``ristretto255`` (rbcl).
- ``mult_us``: what one variable-base multiplication cost during the run (best of 3 × 200), per backend — the
  machine's speed at the time: a player's hand is ≈ 1,800 of them at 6 players, so on a shared machine compare
  runs by it.
"""

from __future__ import annotations

import hashlib
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPOSITORY))

from engine.fairness_v2.group import RISTRETTO255, SECP256K1, Group  # noqa: E402
from engine.fairness_v2.play import PlayedHand  # noqa: E402
from tests.engine.fairness_v2_play import make_players, play_session  # noqa: E402

ROUND_TRIP_MS = 50.0
SIZES = (2, 6, 10)
Cpu = dict[tuple[str, str], float]


def _round_costs(played: PlayedHand, cpu: Cpu) -> list[tuple[str, float]]:
    """Each round of the hand in order with its wall time: a round trip (betting, start and end: none) plus its
    slowest party's CPU."""
    slowest: dict[str, float] = defaultdict(float)
    for (_party, round_name), value in cpu.items():
        slowest[round_name] = max(slowest[round_name], value)
    costs = []
    for round_name in dict.fromkeys(["start", *played.rounds, "end"]):
        trip = 0.0 if round_name.startswith(("bet/", "start", "end", "ahead/start")) else ROUND_TRIP_MS / 1000
        costs.append((round_name, trip + slowest.get(round_name, 0.0)))
    return costs


def _after_deal(costs: list[tuple[str, float]]) -> float:
    """The wall time a hand gives the next one's preparation: from its deal to its end (a betting action is at
    least one round trip)."""
    names = [name for name, _ in costs]
    start = names.index("deal") + 1 if "deal" in names else len(names)
    return sum(cost + (ROUND_TRIP_MS / 1000 if name.startswith("bet/") else 0.0) for name, cost in costs[start:])


def session(group: Group, players: int, hands: int) -> list[dict[str, float]]:
    meters: dict[int, Cpu] = defaultdict(lambda: defaultdict(float))

    def meter_for(number: int) -> Callable[[str, str], AbstractContextManager[None]]:
        @contextmanager
        def meter(party: str, round_name: str) -> Iterator[None]:
            start = time.thread_time()
            try:
                yield
            finally:
                meters[number][party, round_name] += time.thread_time() - start
        return meter

    seated = make_players(players, group=group, seed=f"bench/{players}")
    played = play_session(seated, hands + 1, meter_for=meter_for)
    results = []
    for number in range(1, hands + 1):
        hand, cpu = played[number], meters[number]
        assert not hand.host_outcome.void and len(hand.host_outcome.board) == 5
        costs = _round_costs(hand, cpu)
        ahead = sum(cost for name, cost in costs if name.startswith("ahead/"))
        visible = sum(cost for name, cost in costs if not name.startswith("ahead/"))
        waited = max(0.0, ahead - _after_deal(_round_costs(played[number - 1], meters[number - 1])))
        per_player = [sum(value for (party, _), value in cpu.items() if party == str(seat)) for seat in range(players)]
        results.append({
            "cpu": 1000 * statistics.mean(per_player), "max": 1000 * max(per_player),
            "host": 1000 * sum(value for (party, _), value in cpu.items() if party == "host"),
            "bytes": statistics.mean(hand.bytes_by_party[str(seat)] for seat in range(players)),
            "total": 1000 * (ahead + visible), "ahead": 1000 * (visible + waited), "waited": 1000 * waited})
    return results


def backend(group: Group, hands: int) -> dict[str, dict[str, object]]:
    result: dict[str, dict[str, object]] = defaultdict(dict)
    for players in SIZES:
        runs = session(group, players, hands)
        median = sorted(runs, key=lambda run: run["cpu"])[len(runs) // 2]
        key = str(players)
        result["cpu_ms_per_player_hand"][key] = round(median["cpu"], 1)
        result["max_cpu_ms_per_player_hand"][key] = round(median["max"], 1)
        result["host_cpu_ms_per_hand"][key] = round(median["host"], 1)
        result["bytes_per_player_hand"][key] = round(median["bytes"])
        result["added_wall_ms_per_hand"][key] = {"total": round(median["total"]),
                                                 "shuffle_ahead": round(median["ahead"]),
                                                 "waited_for_deck": round(median["waited"])}
    return dict(result)


def mult_us(group: Group) -> float:
    points = [group.hash_to_point(f"bench/{index}".encode()) for index in range(200)]
    # full-size scalars below n/2 (above it the backend multiplies n − s by −P: the same cost)
    scalars = [int.from_bytes(hashlib.sha256(f"bench/{index}".encode()).digest(), "big") % (group.order // 2)
               for index in range(200)]
    best = float("inf")
    for _ in range(3):
        start = time.thread_time()
        for point, scalar in zip(points, scalars, strict=True):
            group.mult(point, scalar)
        best = min(best, time.thread_time() - start)
    return round(best / 200 * 1e6, 1)


def main(hands: int) -> dict[str, object]:
    before = {group.name: mult_us(group) for group in (SECP256K1, RISTRETTO255)}
    secp = backend(SECP256K1, hands)
    ristretto = backend(RISTRETTO255, hands)
    after = {group.name: mult_us(group) for group in (SECP256K1, RISTRETTO255)}
    return {**secp, "shufflers": {"2": 2, "6": 6, "10": 6}, "round_trip_ms": ROUND_TRIP_MS,
            "mult_us": {name: round((before[name] + after[name]) / 2, 1) for name in before},
            "backends": {"secp256k1": secp, "ristretto255": ristretto}}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)))
