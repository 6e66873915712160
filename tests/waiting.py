"""Hang guards that measure progress, not the clock (issue 24).

A wait fails only when nothing it watches has moved for ``quiet`` seconds: the screen, the messages, a
process's output or CPU time. Each change starts the quiet period again, so a busy machine makes a test
slower, never red; a hung one still fails (and pytest-timeout ends a test that moves forever).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
Progress = Callable[[], object]
"""Returns a snapshot of what the wait watches; any change from the last snapshot is progress."""

QUIET = 60.0
"""The house's shortest hang guard: a minute with nothing moving (HOUSE.md)."""


class Stall:
    """One guard's clock: started again whenever ``progress()`` returns something new."""

    def __init__(self, quiet: float, progress: Progress | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet = quiet
        self.progress = progress
        self.clock = clock
        self.last = progress() if progress is not None else None
        self.started = self.since = clock()
        self.moves = 0

    def stalled(self) -> bool:
        now = self.clock()
        if self.progress is not None:
            state = self.progress()
            if state != self.last:
                self.last, self.since = state, now
                self.moves += 1
        return now - self.since > self.quiet

    def failure(self, what: str) -> str:
        waited = self.clock() - self.started
        return (f"nothing moved for {self.quiet:g} s while waiting for {what} "
                f"({waited:.0f} s in all, {self.moves} moves seen before it stopped)")


def wait_until(condition: Callable[[], T], what: str, *, quiet: float = QUIET,
               progress: Progress | None = None, step: float = 0.2) -> T:
    """Poll ``condition()`` until it returns a true value, and return it; AssertionError once nothing moved
    for ``quiet`` seconds (without ``progress``: ``quiet`` seconds in all)."""
    stall = Stall(quiet, progress)
    while True:
        value = condition()
        if value:
            return value
        if stall.stalled():
            raise AssertionError(stall.failure(what))
        time.sleep(step)


async def until(condition: Callable[[], T], what: str, *, quiet: float = QUIET, progress: Progress | None = None,
                pause: Callable[[float], Awaitable[object]] = asyncio.sleep, step: float = 0.02) -> T:
    """:func:`wait_until` in a running event loop; ``pause`` is ``pilot.pause`` for a Textual app."""
    stall = Stall(quiet, progress)
    while True:
        value = condition()
        if value:
            return value
        if stall.stalled():
            raise AssertionError(stall.failure(what))
        await pause(step)


def cpu_ticks(pid: int, *, below_only: bool = False) -> int:
    """CPU time (clock ticks) used by ``pid`` and every process under it, those already ended included;
    ``below_only``: the processes under it only (a test's own polling uses CPU too).

    A process that is starting (imports, a pip install) changes no screen but uses CPU: that is progress.
    Linux's /proc only; elsewhere 0, and the screen alone counts.
    """
    children: dict[int, list[int]] = {}
    used: dict[int, int] = {}
    proc = Path("/proc")
    for entry in proc.iterdir() if (proc / "self" / "stat").exists() else ():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
            used[int(entry.name)] = sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
    total, stack = 0, list(children.get(pid, [])) if below_only else [pid]
    while stack:
        current = stack.pop()
        total += used.get(current, 0)
        stack += children.get(current, [])
    return total
