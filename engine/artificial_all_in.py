"""The artificial all-in quota (R-DISC-2): how often a disconnected player may be protected per 24 hours.

On limit tables with the option on, a player whose disconnection time bank runs out is treated as all-in
for what he has already put in, instead of being folded, at most ``per_day`` times in any rolling 24 hours.
The quota belongs to the player, not the table: the room shares one :class:`ArtificialAllInQuota` between
all its tables. Pure: the caller passes ``now`` (seconds).

>>> quota = ArtificialAllInQuota(per_day=2)
>>> quota.use("ana", now=0.0), quota.use("ana", now=10.0), quota.remaining("ana", now=20.0)
(1, 0, 0)
>>> quota.remaining("ana", now=86_400.5)
1
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import TableRuleError


@dataclass(slots=True)
class ArtificialAllInQuota:
    """Times each player was given an artificial all-in; ``per_day`` allowed per ``window_seconds``."""

    per_day: int = 2
    window_seconds: float = 24 * 60 * 60
    _used: dict[str, list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.per_day < 0 or self.window_seconds <= 0:
            raise ValueError("per_day must be ≥ 0 and window_seconds > 0")

    def remaining(self, player: str, now: float) -> int:
        """How many artificial all-ins ``player`` may still get in the window ending at ``now``."""
        return max(0, self.per_day - len(self._recent(player, now)))

    def use(self, player: str, now: float) -> int:
        """Spend one; returns how many remain. Raises :class:`TableRuleError` when none is left (unchanged)."""
        recent = self._recent(player, now)
        if len(recent) >= self.per_day:
            raise TableRuleError(
                f"{player} has used all {self.per_day} artificial all-ins of the last 24 hours"
            )
        self._used[player] = [*recent, now]
        return self.per_day - len(self._used[player])

    def _recent(self, player: str, now: float) -> list[float]:
        start = now - self.window_seconds
        return [used for used in self._used.get(player, ()) if used > start]
