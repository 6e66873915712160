"""Players' settle-up requests, answered without letting them take the host's time (issue 25 item 3).

A settle-up reads the ledger and searches the fewest transfers in a worker thread: 0.12–0.27 s each on a busy
room. 870 of them from one login (each channel a new budget) slowed every other player's ping from 1 ms to a
41 ms median. Now the room computes one at a time; an answer is kept :data:`FRESH_SECONDS` and given to every
request for the same session meanwhile (requests waiting for the one being computed share it too); after each
computation the next waits :data:`REST_FACTOR` times as long as it took, so settle-ups take at most a fifth of
the host's time whatever the requests; and at most :data:`MAX_WAITING` different sessions wait their turn (more
is refused: "busy"). Each name's own requests are limited besides (``hosting.room.MESSAGE_LIMITS``).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Final

from hosting import protocol
from hosting.errors import RoomError

FRESH_SECONDS: Final = 2.0
REST_FACTOR: Final = 4.0
MIN_REST_SECONDS: Final = 0.05
MAX_WAITING: Final = 16
MAX_KEPT: Final = 32

Answer = Callable[[dict[str, Any] | None, BaseException | None], None]
"""Called with the settle-up (or the problem) for one request."""
Compute = Callable[[str | None, float], dict[str, Any]]
"""The settle-up of a session (``None``: the latest) at a wall-clock time; run in a worker thread."""


class SettleUpAnswers:
    """Settle-ups computed one at a time, kept briefly, shared by the requests that wait for the same one."""

    def __init__(self, compute: Compute, clock: Callable[[], float] = time.monotonic) -> None:
        self.compute = compute
        self.clock = clock
        self.computed = 0
        """Settle-ups computed so far (each a worker thread's read of the ledger)."""
        self._kept: OrderedDict[str | None, tuple[float, dict[str, Any]]] = OrderedDict()
        self._waiting: OrderedDict[str | None, list[Answer]] = OrderedDict()
        self._worker: asyncio.Task[None] | None = None
        self._rest_until = float("-inf")

    def ask(self, wanted: str | None, answer: Answer) -> None:
        """Answer the settle-up of ``wanted`` (now if a fresh one is kept, else when computed). :class:`RoomError`
        (``rate_limited``) when too many other sessions wait already."""
        kept = self._kept.get(wanted)
        if kept is not None and self.clock() - kept[0] <= FRESH_SECONDS:
            answer(kept[1], None)
            return
        waiting = self._waiting.get(wanted)
        if waiting is not None:
            waiting.append(answer)
            return
        if len(self._waiting) >= MAX_WAITING:
            raise RoomError(protocol.RATE_LIMITED, "the settle-up is busy: try again in a few seconds")
        self._waiting[wanted] = [answer]
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._work())

    async def _work(self) -> None:
        loop = asyncio.get_running_loop()
        while self._waiting:
            rest = self._rest_until - self.clock()
            if rest > 0:  # however the requests come, in one stream or one after another's answer
                await asyncio.sleep(rest)
            wanted = next(iter(self._waiting))
            started = self.clock()
            result: dict[str, Any] | None = None
            problem: BaseException | None = None
            try:
                result = await loop.run_in_executor(None, self.compute, wanted, time.time())
            except Exception as error:  # the players are told (a session that does not exist, a read error)
                problem = error
            self.computed += 1
            took = self.clock() - started
            if result is not None:
                self._kept[wanted] = (self.clock(), result)
                self._kept.move_to_end(wanted)
                while len(self._kept) > MAX_KEPT:
                    self._kept.popitem(last=False)
            self._rest_until = self.clock() + max(MIN_REST_SECONDS, REST_FACTOR * took)
            for answer in self._waiting.pop(wanted, []):
                answer(result, problem)

    def close(self) -> None:
        """The room stops: no more computations (requests still waiting are not answered)."""
        self._waiting.clear()
        if self._worker is not None:
            self._worker.cancel()
