"""Fast-fold pool at bot speed (R-FAST-1): one ``croupier host`` process with a 6-max pool, 18 bots over SSH.

    python tests/benchmarks/fast_fold.py --players 18 --hands 300
    python tests/benchmarks/fast_fold.py --players 12 --hands 60 --dealing both   # the host-blind wait per hand

Each bot folds a share of its turns outright (``--fold-rate``, a tight player's share) and otherwise plays the
simple strategy, acting at once. Prints one JSON line: hands dealt, seconds, ``hands_per_player_hour`` (hands each
player was dealt, per hour of play), ``players_per_hand`` (a hand is dealt short-handed when the first player
waiting has waited the pool's ``fill_seconds``, 0.25 here), ``fold_to_next_cards_ms`` p50/p99 (from sending a
fold to seeing the next hand's hole cards: the room moving him on, a fresh group seated, the reveal of his
ticket, the deal) and the fairness and chip checks. Not collected by pytest (a script, no ``test_`` prefix).

``--dealing host-blind`` deals the pool host-blind (no rake there): a fold then waits for a whole dealing of the
next group's hand — keys, escrows, every shuffle with its proof checked, the deal shares — since nobody knows the
group (and so its joint key) before it is seated. ``--dealing both`` runs commit–reveal then host-blind on the
same seed and prints one line with both and ``added_wait_ms`` (host-blind minus commit–reveal, p50 and p99).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import _on_path  # noqa: F401 - first: as a file, the repository's tests package (_on_path.py)
import asyncssh

from hosting.bots import play
from hosting.client import RoomClient
from tests.hosting.room_files import pool_block, room_block
from tests.room_process import start_room_process


def room_file(rake: str, dealing: str) -> str:
    """The benchmark's room: one 6-max pool at 5/10, logins from loopback unthrottled (the bots are many)."""
    return room_block("fast-fold benchmark", connections_per_minute=10000, logins_per_address=10000,
                      registrations_per_address=100000) + pool_block(
        "zoom", stakes=(5, 10), buy_in=(200, 500), fill_seconds=0.25, rake=rake, dealing=dealing)


def _percentile(values: list[float], share: float) -> float | None:
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1) if ordered else None


async def _play(port: int, players: int, hands: int, fold_rate: float, seed: int) -> dict[str, Any]:
    clients = [await RoomClient.connect("127.0.0.1", port, f"bot{index:02}", host_blind=True,
                                        client_keys=[asyncssh.generate_private_key("ssh-ed25519")])
               for index in range(players)]
    rng = random.Random(seed)
    done = asyncio.Event()
    dealt: set[str] = set()

    async def count() -> None:  # the pool's hands, as the bots see them dealt
        while len(dealt) < hands:
            await asyncio.sleep(0.05)
            dealt.update(*(report_hands(client) for client in clients))
        done.set()

    started = time.perf_counter()
    counter = asyncio.ensure_future(count())
    try:
        reports = await asyncio.gather(*(play(client, "zoom", 10**9, random.Random(rng.random()), done=done,
                                                   fold_rate=fold_rate) for client in clients))
    finally:
        counter.cancel()
        for client in clients:
            await client.close()
    elapsed = time.perf_counter() - started
    latencies = [latency for report in reports for latency in report.fold_to_next_cards]
    per_player = sum(len(report.dealt) for report in reports) / players
    hands_dealt = len({hand for report in reports for hand in report.dealt})
    return {
        "players": players, "seats": 6,
        "hands": hands_dealt,
        "players_per_hand": round(per_player * players / max(1, hands_dealt), 2),  # short-handed after fill_seconds
        "seconds": round(elapsed, 1),
        "hands_per_player_hour": round(per_player / elapsed * 3600),
        "fold_to_next_cards_ms": {"p50": _percentile(latencies, 0.5), "p99": _percentile(latencies, 0.99)},
        "folds_timed": len(latencies),
        "fairness_verified": sum(report.verified for report in reports),
        "fairness_failures": sum(report.failures for report in reports),
        "unverified_hands": sum(len(report.dealt - report.hands) for report in reports),
        "illegal_rejected": sum(report.illegal_rejected for report in reports),
    }


def report_hands(client: RoomClient) -> set[str]:
    """The hands ``client`` was asked to reveal for (or, host-blind, was sent the header of) so far: dealt into."""
    return {str(message["hand"]) for message in client.received
            if message.get("type") in ("reveal_request", "blind_header")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=18)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--fold-rate", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--dealing", choices=("commit-reveal", "host-blind", "both"), default="commit-reveal")
    arguments = parser.parse_args()
    if arguments.dealing != "both":
        result = _run(arguments, arguments.dealing)
    else:
        runs = {dealing: _run(arguments, dealing) for dealing in ("commit-reveal", "host-blind")}
        waits = {dealing: run["fold_to_next_cards_ms"] for dealing, run in runs.items()}
        result = {"dealing": "both", "runs": runs, "added_wait_ms": {
            share: None if None in (waits["host-blind"][share], waits["commit-reveal"][share]) else
            round(waits["host-blind"][share] - waits["commit-reveal"][share], 1) for share in ("p50", "p99")}}
    print(json.dumps(result))
    return 0


def _run(arguments: argparse.Namespace, dealing: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        rake = "none" if dealing == "host-blind" else "white-label"
        (directory / "room.toml").write_text(room_file(rake, dealing))
        host = start_room_process(directory / "data", directory / "host.out", "--config",
                                  str(directory / "room.toml"))
        try:
            result = asyncio.run(_play(host.port, arguments.players, arguments.hands, arguments.fold_rate,
                                       arguments.seed))
        finally:
            host.stop(signal.SIGTERM, timeout=30)
        audit = subprocess.run([sys.executable, "-m", "hosting.cli", "audit", "--data", str(directory / "data")],
                               capture_output=True, text=True)
        result["audit_clean"] = audit.returncode == 0
        result["dealing"] = dealing
    return result


if __name__ == "__main__":
    sys.exit(main())
