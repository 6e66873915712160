"""What one player may spend, kept per name and key rather than per channel (issue 25 item 3).

Every limit of a connection — its message rate and error budget (:class:`hosting.protocol.InboundStream`), its
chat, reports, sits, seat requests and settle-ups (``hosting.room.MESSAGE_LIMITS``) — is a
:class:`~hosting.protocol.TokenBucket`. Held by the channel, each was new again on the next channel: one SSH
login opening, spending and closing ``croupier`` channels sent 4,660 lobby chat lines in 30 s. A
:class:`Budget` is the name's (with the key that holds it): every channel of the name, on any login, spends the
same buckets.

:class:`BudgetBook` holds them. A budget whose buckets are all full is the same as a new one, so the book
forgets those when it grows: it stays bounded, and nothing a player spent is ever given back by forgetting.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from hosting.identity import normalize_key
from hosting.protocol import Limits, TokenBucket

MAX_BUDGETS: Final = 10_000
"""Budgets kept before the full (unspent) ones are forgotten."""


@dataclass
class Budget:
    """One name's buckets: the message rate and the error budget of its channels, and the per-kind limits."""

    messages: TokenBucket
    errors: TokenBucket
    limits: dict[str, TokenBucket] = field(default_factory=dict)

    def unspent(self, now: float) -> bool:
        """Whether every bucket is full at ``now`` (a new budget would be the same)."""
        buckets = [self.messages, self.errors, *self.limits.values()]
        return all(bucket.tokens(now) >= bucket.capacity for bucket in buckets)


class BudgetBook:
    """The room's budgets, one per (name, key), with the room's channel ``limits``."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self._budgets: dict[tuple[str, str], Budget] = {}

    def __len__(self) -> int:
        return len(self._budgets)

    def of(self, name: str, public_key: str, now: float) -> Budget:
        """The budget of ``name`` held by ``public_key`` (new and full if it has none)."""
        try:
            key = normalize_key(public_key)
        except ValueError:
            key = public_key
        budget = self._budgets.get((name, key))
        if budget is None:
            if len(self._budgets) >= MAX_BUDGETS:
                self._budgets = {held: kept for held, kept in self._budgets.items() if not kept.unspent(now)}
            limits = self.limits
            budget = Budget(TokenBucket(limits.message_burst, limits.messages_per_second, now),
                            TokenBucket(limits.error_burst, limits.errors_per_second, now))
            self._budgets[(name, key)] = budget
        return budget
