"""A growing wait before a player who keeps missing the shuffle may sit in again (issue 25 item 4).

A player who misses his commit or reveal deadline is sat out (:meth:`hosting.table_runner.TableRunner.
sit_out_for_missing`; in a fast-fold pool: out of the line, :meth:`hosting.pools.PoolOwner.shuffle_missed`)
until he sits in himself. Each miss costs everyone at his table the deadline (5 s by default). A slow
connection misses once: he sits in at once. One who sits back in after every miss waits longer each time —
``FIRST_WAIT`` seconds after his second miss, twice as long after each one after, at most ``LONGEST_WAIT`` —
so that his share of everyone's time shrinks (a miss costs a group of six 5 s each: 30 s of play). An hour
without a miss forgives them.

>>> misses = MissedShuffles()
>>> misses.missed("bo", now=0.0), misses.wait("bo", now=0.0)
(1, 0.0)
>>> misses.missed("bo", now=5.0), misses.wait("bo", now=5.0), misses.wait("bo", now=34.0)
(2, 30.0, 1.0)
>>> misses.missed("bo", now=40.0), misses.wait("bo", now=40.0)
(3, 60.0)
>>> misses.wait("bo", now=40.0 + FORGIVEN_AFTER), misses.missed("bo", now=40.0 + FORGIVEN_AFTER)
(0.0, 1)
"""

from __future__ import annotations

import math

FREE_MISSES = 1
"""Misses after which he may sit in again at once (a slow connection's)."""
FIRST_WAIT = 30.0
LONGEST_WAIT = 600.0
FORGIVEN_AFTER = 3600.0
"""Seconds without a miss after which his misses are forgotten."""
REMEMBERED = 2000
"""Names remembered at most (the oldest misses are forgotten first): the room's memory stays bounded."""


class MissedShuffles:
    """Each player's recent shuffle misses at one table or pool, and the wait they earn him."""

    def __init__(self) -> None:
        self._misses: dict[str, tuple[int, float]] = {}  # name → (misses, when the last one was)

    def missed(self, name: str, now: float) -> int:
        """``name`` missed a commit or reveal deadline at ``now``; how many he has missed (not yet forgiven)."""
        count = self._count(name, now) + 1
        self._misses.pop(name, None)
        self._misses[name] = (count, now)  # the newest last: the oldest go first when the memory is full
        while len(self._misses) > REMEMBERED:
            del self._misses[next(iter(self._misses))]
        return count

    def wait(self, name: str, now: float) -> float:
        """Seconds before ``name`` may sit in again (0: now)."""
        count = self._count(name, now)
        if count <= FREE_MISSES:
            return 0.0
        earned = min(LONGEST_WAIT, math.ldexp(FIRST_WAIT, min(30, count - FREE_MISSES - 1)))
        return max(0.0, self._misses[name][1] + earned - now)

    def refusal(self, name: str, now: float) -> str | None:
        """Why ``name`` may not sit in yet, in words, else ``None``."""
        wait = self.wait(name, now)
        if wait <= 0:
            return None
        return (f"you missed the shuffle {self._count(name, now)} times (your client sent no secret in time): "
                f"you can sit in again in {math.ceil(wait)} s")

    def _count(self, name: str, now: float) -> int:
        count, last = self._misses.get(name, (0, 0.0))
        return count if now - last < FORGIVEN_AFTER else 0
