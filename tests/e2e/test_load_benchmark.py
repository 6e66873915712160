"""tests/benchmarks/load.py at a tiny size (issue 20): a real ``croupier host`` process, two bot processes each at
its own table (no race for seats: ``--players 120 --processes 4`` once failed with ``table_full``), bots thinking
0.05-0.1 s a move. Checks the JSON line's keys and that every hand was verified and every chip kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.benchmarks.load import split

LOAD = Path(__file__).parents[1] / "benchmarks" / "load.py"
KEYS = {"players", "processes", "think", "dealing", "hands", "hands_per_second", "actions", "p50_ms", "p99_ms",
        "fairness_verified", "fairness_failures", "illegal_rejected", "chips_conserved", "bot_errors",
        "first_bot_error", "violation_kinds", "first_violation", "fairness_unverified", "fairness_notes",
        "refusal_codes", "host_cpu_percent", "host_rss_mib",
        "host_peak_rss_mib", "bot_cpu_percent", "bot_loop_lag_p99_ms", "bot_loop_lag_max_ms", "load_average",
        "window_seconds", "warmup_seconds", "connect_seconds", "by_kind"}


@pytest.mark.parametrize(("players", "processes", "layout"), [
    (120, 4, [[6] * 5] * 4),  # the failing run: each process its own five full tables
    (7, 1, [[4, 3]]),  # never one player alone at a table
    (14, 2, [[4, 3], [4, 3]]),
    (13, 2, [[4, 3], [6]]),
])
def test_each_bot_process_gets_its_own_tables(players: int, processes: int, layout: list[list[int]]) -> None:
    assert split(players, processes) == layout


def test_too_few_players_per_process_is_one_line() -> None:
    result = subprocess.run([sys.executable, str(LOAD), "--players", "3", "--processes", "2"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == "load.py: 3 players over 2 processes leaves a process fewer than 2 players\n"


def test_load_benchmark_two_processes_thinking_bots() -> None:
    result = subprocess.run(
        [sys.executable, str(LOAD), "--players", "4", "--processes", "2", "--think", "0.05-0.1", "--hands", "2"],
        capture_output=True, text=True, timeout=300, env=os.environ | {"CROUPIER_HAND_PAUSE": "0.05"})
    assert result.returncode == 0, result.stderr[-2000:]
    line = json.loads(result.stdout.strip().splitlines()[-1])
    assert set(line) == KEYS
    assert (line["players"], line["processes"], line["think"], line["dealing"]) == (4, 2, "0.05-0.1", "commit-reveal")
    assert line["hands"] >= 4  # two tables, each to its second hand
    assert line["fairness_failures"] == 0 and line["fairness_verified"] >= 2 * line["hands"]
    assert line["chips_conserved"] is True and line["refusal_codes"] == {}
    assert line["violation_kinds"] == {} and line["first_violation"] is None
    assert line["fairness_unverified"] == {} and line["fairness_notes"] == {}  # a quiet room: every hand in time
    assert line["bot_errors"] == 0 and line["first_bot_error"] is None and line["illegal_rejected"] == 0
    assert line["actions"] > 0 and 0 < line["p50_ms"] <= line["p99_ms"]
    # every round trip has its move's kind (e.g. "call+street": it dealt a street), each kind its own percentiles
    kinds = line["by_kind"]
    assert sum(kind["n"] for kind in kinds.values()) == line["actions"]
    assert all(0 < kind["p50"] <= kind["p99"] <= kind["max"] for kind in kinds.values()), kinds
    assert any(name.endswith("+end") for name in kinds), kinds  # the hands ended on a move
    assert 10 < line["host_rss_mib"] <= line["host_peak_rss_mib"]
    # a second of a quiet room can take under one clock tick (10 ms) of CPU: 0.0 is a true reading here
    assert 0 <= line["bot_loop_lag_p99_ms"] <= line["bot_loop_lag_max_ms"]
    assert 0 <= line["host_cpu_percent"] <= 200 and 0 <= line["bot_cpu_percent"] <= 200 * 2
