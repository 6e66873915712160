"""Bounds on what one player can do to a tournament from the wire (issue 18, found by attacking it).

* :class:`PasswordGuard`: a private tournament's password is guessed online no faster than the room's own
  password: wrong answers counted per name, per key and per address group (an IPv6 /64, as the room password
  counts them: fresh names and keys cost a guesser nothing), the first few free, then a doubling wait
  (:class:`hosting.identity.GuessThrottle`); an answer sent sooner is refused unchecked. An address gets more
  free answers than a name (:data:`ADDRESS_FREE_GUESSES`): players behind one NAT or tunnel share it, and a
  stranger's first guesses must not lock them out.
* :class:`StateThrottle`: the tournament screen (``state``) costs the host ~10 ms at 3,000 entrants, so the
  message rate alone (200 a second) let one connection take two cores; each name gets ``burst`` answers, then
  ``per_second``, and a request over that is answered once, late, with the state of then (a client is never
  refused for asking: the TUI asks after many events).
* :class:`EntryThrottle`: each register and unregister is a store transaction (ledger rows, the director's state);
  toggling them at the message rate wrote 400 ledger rows a second. Per name and tournament: ``burst`` at once,
  then one every ``seconds``; sooner is refused.
* :class:`DealGuard`: a final-table deal cannot hold the table still — an unanswered deal is off after
  ``seconds`` (silence is no consent: the first finalist who did not accept is named as declining), and each
  finalist proposes at most once per hand dealt, so he cannot propose again after every decline.
"""

from __future__ import annotations

import hmac
import logging
import math

from hosting.errors import RoomError
from hosting.identity import GuessThrottle
from hosting.protocol import TokenBucket

security_log = logging.getLogger("croupier.security")

WRONG_PASSWORD = "wrong_password"
DEAL_SECONDS = 60.0
"""How long a proposed deal waits for every finalist's answer before it is off (the table waits meanwhile)."""


ADDRESS_FREE_GUESSES = 10
"""Wrong tournament passwords an address group gives before its answers wait (a name or a key: 3). Fresh names
with fresh keys from one address made 891 checked guesses in 30 s (issue 25 item 7); now some 14."""


class PasswordGuard:
    """Wrong passwords of the room's private tournaments, per name, per key and per address group."""

    def __init__(self) -> None:
        self._names = GuessThrottle()
        self._keys = GuessThrottle()
        self._addresses = GuessThrottle(free=ADDRESS_FREE_GUESSES)

    def check(self, tournament: str, expected: str, given: str | None, name: str, key: str, now: float,
              address: str = "unknown") -> None:
        """Raise :class:`RoomError` unless ``given`` is ``expected``; a wrong answer counts, and one sent before
        its wait is over is refused without being checked."""
        if given is None:  # no answer is no guess
            raise RoomError(WRONG_PASSWORD, "this tournament is private: send its password")
        wait = max(self._names.wait(name, now), self._keys.wait(f"key {key}", now),
                   self._addresses.wait(address, now))
        if wait > 0:
            raise RoomError(WRONG_PASSWORD, f"too many wrong passwords: try again in {math.ceil(wait)} s")
        if hmac.compare_digest(given.encode(), expected.encode()):
            # the address's count is not cleared: a neighbour's right answer must not reset a guesser behind it
            self._names.right(name)
            self._keys.right(f"key {key}")
            return
        count = max(self._names.wrong(name, now), self._keys.wrong(f"key {key}", now))
        from_address = self._addresses.wrong(address, now)
        security_log.warning("wrong password for private tournament %s (%d from %s, %d from %s)", tournament,
                             count, name, from_address, address)
        raise RoomError(WRONG_PASSWORD, "this tournament is private: wrong password")


class StateThrottle:
    """``state`` answers per name: ``burst`` at once, then ``per_second``; over that, one late answer."""

    def __init__(self, burst: float = 8.0, per_second: float = 2.0) -> None:
        self.burst, self.per_second = burst, per_second
        self._buckets: dict[str, TokenBucket] = {}
        self._waiting: set[tuple[str, str]] = set()  # (name, tournament) with a late answer to come

    def allow(self, name: str, now: float) -> bool:
        """Whether ``name`` may be answered at ``now`` (spends his token)."""
        if len(self._buckets) > 10_000:  # forget the names whose bucket refilled: the table stays bounded
            self._buckets = {key: bucket for key, bucket in self._buckets.items()
                             if bucket.tokens(now) < bucket.capacity}
        bucket = self._buckets.setdefault(name, TokenBucket(self.burst, self.per_second, now))
        return bucket.take(now)

    def later(self, name: str, tournament: str) -> float | None:
        """Seconds until ``name``'s late answer for ``tournament`` (None: one is already to come)."""
        if (name, tournament) in self._waiting:
            return None
        self._waiting.add((name, tournament))
        return 1.0 / self.per_second

    def answered(self, name: str, tournament: str) -> None:
        self._waiting.discard((name, tournament))


class EntryThrottle:
    """Registrations and unregistrations per (name, tournament): ``burst``, then one every ``seconds``."""

    def __init__(self, burst: float = 4.0, seconds: float = 30.0) -> None:
        self.burst, self.seconds = burst, seconds
        self._buckets: dict[tuple[str, str], TokenBucket] = {}

    def check(self, name: str, tournament: str, now: float) -> None:
        """Raise :class:`RoomError` when ``name`` may not (un)register at ``tournament`` now."""
        bucket = self._buckets.get((name, tournament))
        if bucket is not None and bucket.tokens(now) < 1:
            wait = math.ceil((1 - bucket.tokens(now)) * self.seconds)
            raise RoomError("tournament_rule", f"you registered or unregistered too often here: try again in "
                                               f"{wait} s")

    def done(self, name: str, tournament: str, now: float) -> None:
        """``name`` registered or unregistered: it counts."""
        if len(self._buckets) > 10_000:  # forget the full buckets: the table stays bounded
            self._buckets = {key: bucket for key, bucket in self._buckets.items()
                             if bucket.tokens(now) < bucket.capacity}
        self._buckets.setdefault((name, tournament), TokenBucket(self.burst, 1.0 / self.seconds, now)).take(now)


class DealGuard:
    """One tournament's deal proposals: who proposed since the last hand, and since when a deal waits."""

    def __init__(self, seconds: float = DEAL_SECONDS) -> None:
        self.seconds = seconds
        self._proposed: set[str] = set()
        self._since: float | None = None

    def may_propose(self, name: str) -> None:
        if name in self._proposed:
            raise RoomError("tournament_rule", "you proposed a deal this hand already: propose again after the "
                                               "next hand")

    def proposed(self, name: str, now: float) -> None:
        self._proposed.add(name)
        self._since = now

    def hand_dealt(self) -> None:
        self._proposed.clear()

    def expired(self, on_table: bool, now: float) -> bool:
        """Whether the deal on the table (``on_table``) has waited its time; a deal found without a start (a
        restored tournament's) waits from ``now``."""
        if not on_table:
            self._since = None
            return False
        if self._since is None:
            self._since = now
        return now - self._since >= self.seconds
