"""tests.waiting: a hang guard fails only after its whole quiet period with nothing moving."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.waiting import Stall, cpu_ticks, until, wait_until


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_stall_is_only_a_quiet_period_with_no_change() -> None:
    clock, state = Clock(), [0]
    stall = Stall(60, lambda: state[0], clock)
    for second in range(1, 600):  # ten minutes, moving every 50 s: never stalled
        clock.now = second
        if second % 50 == 0:
            state[0] += 1
        assert not stall.stalled()
    clock.now, state[0] = 600, state[0] + 1
    assert not stall.stalled()
    clock.now = 660
    assert not stall.stalled()  # exactly the quiet period since the last move: not yet
    clock.now = 660.5
    assert stall.stalled()
    assert stall.failure("the lobby").startswith("nothing moved for 60 s while waiting for the lobby (")


def test_without_progress_the_quiet_period_is_the_whole_wait() -> None:
    clock = Clock()
    stall = Stall(60, None, clock)
    clock.now = 59
    assert not stall.stalled()
    clock.now = 61
    assert stall.stalled()


def test_wait_until_returns_the_value_or_says_what_it_waited_for() -> None:
    values = iter([0, 0, "found"])
    assert wait_until(lambda: next(values), "a value", quiet=5, step=0) == "found"
    with pytest.raises(AssertionError, match=r"nothing moved for 0\.05 s while waiting for never"):
        wait_until(lambda: False, "never", quiet=0.05, step=0.01)


async def test_until_keeps_waiting_while_the_watched_value_moves() -> None:
    ticks = [0]

    def moving() -> int:
        ticks[0] += 1
        return ticks[0]

    assert await until(lambda: ticks[0] >= 30, "thirty moves", quiet=0.05, progress=moving, step=0.005)
    with pytest.raises(AssertionError, match="while waiting for a stuck room"):
        await until(lambda: False, "a stuck room", quiet=0.05, progress=lambda: ticks[0], step=0.005)


def test_cpu_ticks_counts_a_busy_child_and_not_an_idle_one() -> None:
    busy = subprocess.Popen([sys.executable, "-c", "while 1: pass"])
    idle = subprocess.Popen(["sleep", "60"])
    try:
        first = cpu_ticks(busy.pid)
        wait_until(lambda: cpu_ticks(busy.pid) > first, "the busy loop to use CPU", quiet=30, step=0.05)
        used = cpu_ticks(busy.pid)
        assert cpu_ticks(os.getpid(), below_only=True) >= used > 0
        settled = cpu_ticks(idle.pid)
        wait_until(lambda: cpu_ticks(busy.pid) > first + 20, "more CPU", quiet=30, step=0.05)
        assert cpu_ticks(idle.pid) - settled <= 2
    finally:
        busy.kill()
        idle.kill()
        busy.wait()
        idle.wait()
