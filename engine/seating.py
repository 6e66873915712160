"""The people at a cash table: one :class:`SeatedPlayer` per occupied seat, and the waiting list.

Only data and small questions about it; :class:`engine.table.Table` changes them and emits the events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from engine.button import SeatState
from engine.clock import PlayerClock


class BlindChoice(Enum):
    """What a player who owes blinds (new, or back after missing them) wants, remembered (R-BLIND-3)."""

    POST = "post"
    """Post now: the big blind live out of position, plus the small blind dead if missed too."""
    WAIT_FOR_BIG_BLIND = "wait_for_big_blind"
    """Sit until the big blind reaches the seat, then post it in turn (no dead money)."""


@dataclass(slots=True)
class SeatedPlayer:
    """One player in one seat. ``stack``: chips on the table (in the current hand's accounting while he is
    dealt in, brought up to date when it ends).

    ``new``: not dealt in since sitting down. ``owes_big_blind`` / ``owes_small_blind``: missed blinds
    (R-BLIND-3). ``sitting_out`` (asked, or no chips), ``away`` (timed out, R-DISC-1) and ``disconnected`` (the
    runner says his connection dropped, R-DISC-1) keep him out of new hands; ``inactive_since`` starts the
    seat-hold timer. ``leaving``: left during a hand he is in.
    ``auto_post_blinds`` off: he is dealt in only when he has confirmed (``blinds_confirmed``) the blinds of
    the next hand. ``straddle``: post a straddle whenever allowed (R-BLIND-2).
    """

    player: str
    seat: int
    stack: int
    clock: PlayerClock
    blind_choice: BlindChoice = BlindChoice.WAIT_FOR_BIG_BLIND
    auto_post_blinds: bool = True
    blinds_confirmed: bool = False
    straddle: bool = False
    auto_muck: bool = False
    """Muck at showdown, without being asked, a hand that cannot win (R-SHOW-1: the client can auto-muck)."""
    new: bool = True
    owes_big_blind: bool = False
    owes_small_blind: bool = False
    sitting_out: bool = False
    away: bool = False
    inactive_since: float | None = None
    disconnected: bool = False
    leaving: bool = False

    @property
    def can_play(self) -> bool:
        """Whether he could be dealt into the next hand, blinds aside (R-DISC-1: Away players are not, nor
        players disconnected when it starts)."""
        return not (self.sitting_out or self.away or self.leaving or self.disconnected) and self.stack > 0

    @property
    def owes(self) -> bool:
        """Whether he owes any blind."""
        return self.owes_big_blind or self.owes_small_blind

    def seat_state(self) -> SeatState:
        """The view :func:`engine.button.plan_blinds` needs."""
        return SeatState(
            seat=self.seat,
            active=self.can_play,
            owes_big_blind=self.owes_big_blind,
            owes_small_blind=self.owes_small_blind,
            posts_when_owing=self.blind_choice is BlindChoice.POST,
            new=self.new,
            wants_straddle=self.straddle,
        )


@dataclass(slots=True)
class WaitingList:
    """Players waiting for a seat, first come first served."""

    players: list[str] = field(default_factory=list)

    def __contains__(self, player: object) -> bool:
        return player in self.players

    def __len__(self) -> int:
        return len(self.players)

    def position(self, player: str) -> int:
        """1-based place of ``player``; ``ValueError`` if absent."""
        return self.players.index(player) + 1

    def first(self) -> str | None:
        """The next player to be offered a seat, or ``None``."""
        return self.players[0] if self.players else None
