"""The real room for the fault test: ``croupier host``'s room (SSH, table runners, store) with bots over SSH.

``python -m tests.hosting.fault_room DATA_DIR RUN``. Starts the room on a free loopback port (recovering from
the previous kill, R-CRASH-1) and prints ``{"voided": [...], "returned": chips}``, connects six bots (new names
per run, keys drawn now) to two tables, prints ``ready``, then ``finished <hand id>`` whenever a bot receives a
hand's transcript — which the table runner sends only after the store committed the hand's result.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path

import asyncssh

from hosting import bots
from hosting.client import RoomClient
from hosting.config import RoomConfig, TableConfig
from hosting.server import start_room
from hosting.table_runner import RunnerSettings

FAST = RunnerSettings(commit_seconds=2.0, reveal_seconds=2.0, pause_between_hands=0.0)
TABLES = (TableConfig("t1", "Hold'em 1/2", "texas_holdem", "no_limit", 1, 2, 6, 40, 200, rake="white-label"),
          TableConfig("t2", "Omaha 1/2", "omaha", "pot_limit", 1, 2, 6, 40, 200))


async def _announce(clients: list[RoomClient]) -> None:
    seen: set[str] = set()
    read = [0] * len(clients)
    while True:
        for index, client in enumerate(clients):
            for message in client.received[read[index]:]:
                if message["type"] == "seeds" and message["hand"] not in seen:
                    seen.add(message["hand"])
                    print(f"finished {message['hand']}", flush=True)
            read[index] = len(client.received)
        await asyncio.sleep(0.01)


async def main(data_dir: Path, run: str) -> None:
    running = await start_room(RoomConfig("fault room", TABLES), data_dir, host="127.0.0.1", port=0,
                               runner_settings=FAST)
    store = running.room.store
    assert store is not None
    print(json.dumps({"voided": store.recovery.voided,
                      "returned": sum(amount for _, _, amount in store.recovery.returned)}), flush=True)
    clients: list[tuple[str, RoomClient]] = []
    for table in ("t1", "t2"):
        for seat in range(3):
            key = asyncssh.generate_private_key("ssh-ed25519")
            client = await RoomClient.connect("127.0.0.1", running.port, f"{run}{table}b{seat}", client_keys=[key])
            clients.append((table, client))
    print("ready", flush=True)
    rng = random.Random(run)
    done = {table: asyncio.Event() for table in ("t1", "t2")}
    await asyncio.gather(_announce([client for _, client in clients]), *(
        bots.play(client, table, 10**9, random.Random(rng.random()), illegal_rate=0.0, buy_in=200,
                  done=done[table], timeout=60) for table, client in clients))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2]))
