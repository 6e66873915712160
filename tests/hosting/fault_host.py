"""A host process for the fault test and benchmark: bot tables playing into the store until it is killed.

``python -m tests.hosting.fault_host DATA_DIR TABLES RUN [THINK_SECONDS]``. At start it opens the store (which
recovers from the previous kill, R-CRASH-1) and prints one JSON line ``{"voided": [...], "returned": chips}``,
then ``ready``; afterwards one line ``finished <hand id>`` after each hand's result has been committed. Bots
think ``THINK_SECONDS`` between actions, so a kill finds hands in the middle as well as between hands.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

from hosting.store import Store
from tests.hosting.store_play import BotTable, open_room


async def _table_loop(table: BotTable, think: float) -> None:
    while True:
        hand_id = await table.play_hand_slowly(time.time(), think)
        print(f"finished {hand_id}", flush=True)


async def main(data_dir: Path, tables: int, run: str, think: float) -> None:
    store = Store.open(data_dir)
    recovery = store.recovery
    print(json.dumps({"voided": recovery.voided,
                      "returned": sum(amount for _, _, amount in recovery.returned)}), flush=True)
    store.start()
    room = open_room(store, tables, seed=hash(run) & 0xFFFF, run=f"{run}-")
    await store.flush()
    print("ready", flush=True)
    await asyncio.gather(*(_table_loop(table, think) for table in room))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3],
                     float(sys.argv[4]) if len(sys.argv) > 4 else 0.002))
