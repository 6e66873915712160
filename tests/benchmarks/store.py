"""Benchmark: the store under 100 tables of bots, and the SIGKILL fault cycle (issue 7). One JSON line.

``python tests/benchmarks/store.py [SECONDS] [KILLS]`` (defaults 20 s, 50 kills; KILLS 0 skips the fault run).

- ``hands_per_second``: hands persisted (result, ledger rows and transcript committed) per second while 100
  tables play at once in one event loop, through the store's single writer task (group commit, WAL,
  ``synchronous=FULL``).
- ``store_delay_ms``: per hand, the time from handing the finished hand to the store until its commit is
  confirmed — what a table waits before its next hand if it waits for durability (p50 / p99 / max).
- ``fault``: the fault test's cycle (``tests/hosting/test_fault.py``) run ``KILLS`` times.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _on_path import REPOSITORY  # first: as a file, the repository's tests package (_on_path.py)

from hosting.ledger import audit
from hosting.store import Store, connect
from tests.hosting.store_play import BotTable, open_room


async def _table(table: BotTable, until: float, delays: list[float]) -> None:
    while time.perf_counter() < until:
        table.begin_hand(time.time())
        while table.step():
            await asyncio.sleep(0)  # other tables play between every action, as in a room
        handed = time.perf_counter()
        future = table.finish_hand()
        assert future is not None
        await future
        delays.append(time.perf_counter() - handed)


async def persist(seconds: float, tables: int = 100) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as directory:
        data_dir = Path(directory) / "room"
        store = Store.open(data_dir)
        store.start()
        room = open_room(store, tables, seed=42)
        await store.flush()
        delays: list[float] = []
        commits_before = store.commits
        started = time.perf_counter()
        await asyncio.gather(*(_table(table, started + seconds, delays) for table in room))
        elapsed = time.perf_counter() - started
        commits = store.commits - commits_before
        await store.close()
        reader = connect(data_dir, read_only=True)
        stored = reader.execute("SELECT COUNT(*) FROM hands WHERE status = 'finished'").fetchone()[0]
        findings = audit(reader)
        reader.close()
        size = (data_dir / "croupier.sqlite3").stat().st_size
    ordered = sorted(delays)
    return {
        "tables": tables, "seconds": round(elapsed, 2), "hands": len(delays), "hands_stored": stored,
        "hands_per_second": round(len(delays) / elapsed, 1), "commits": commits,
        "hands_per_commit": round(len(delays) / max(commits, 1), 1),
        "store_delay_ms": {"p50": round(statistics.median(ordered) * 1000, 2),
                           "p99": round(ordered[int(0.99 * (len(ordered) - 1))] * 1000, 2),
                           "max": round(ordered[-1] * 1000, 2)},
        "database_bytes_per_hand": size // max(stored, 1), "audit_findings": len(findings),
    }


def fault(kills: int) -> dict[str, object]:
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/hosting/test_fault.py", "-q", "-p", "no:cacheprovider", "-o",
         "timeout=3600"],
        cwd=REPOSITORY, capture_output=True, text=True, env={**os.environ, "CROUPIER_FAULT_KILLS": str(kills)})
    return {"kills": kills, "passed": result.returncode == 0, "seconds": round(time.perf_counter() - started, 1),
            "summary": result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr[-200:]}


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    kills = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    report: dict[str, object] = {"benchmark": "store", **asyncio.run(persist(seconds))}
    if kills:
        report["fault"] = fault(kills)
    print(json.dumps(report))
