"""Action clocks and time banks of a cash table (R-DISC-1). Pure: times are seconds given by the caller.

A player to act has ``action_seconds`` (suggested 20). Past that, the overtime is drawn from a bank:
the **time bank** while connected (suggested 60 s), the separate **disconnection time bank** while
disconnected. When the bank in use is empty the turn has timed out (the table then checks if free, else
folds, and marks the player Away). Banks refill by a setting every N hands the player is dealt in, never
above their maximum.

Whichever bank is in use when the overtime is charged pays for all of it: a player who disconnects during
his overtime spends the disconnection bank, not the time bank (he can not act anyway).

>>> settings = ClockSettings()
>>> clock = PlayerClock.fresh(settings)
>>> clock.deadline(turn_started_at=100.0, settings=settings, disconnected=False)
180.0
>>> clock.charge(turn_started_at=100.0, now=135.0, settings=settings, disconnected=False)
15.0
>>> clock.time_bank
45.0
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """A table's clock settings, in seconds (R-DISC-1).

    ``action_seconds``: free time per action. ``time_bank_seconds``: the bank a player sits down with and its
    maximum. ``time_bank_refill_seconds`` are added every ``refill_every_hands`` hands dealt in (0 = never).
    ``disconnection_bank_seconds`` / ``disconnection_bank_refill_seconds``: the same for the separate bank used
    while disconnected. ``seat_hold_seconds``: how long the seat of an Away or sitting-out player is kept
    before it is freed and the chips go back to the balance. ``draw_seconds``: free time per draw in draw games,
    a clock of its own (R-DRAW-1); ``None``: the game's (:attr:`engine.variants.Variant.draw_seconds`).
    """

    action_seconds: float = 20.0
    time_bank_seconds: float = 60.0
    time_bank_refill_seconds: float = 10.0
    disconnection_bank_seconds: float = 60.0
    disconnection_bank_refill_seconds: float = 10.0
    refill_every_hands: int = 10
    seat_hold_seconds: float = 5 * 60.0
    draw_seconds: float | None = None

    def __post_init__(self) -> None:
        if self.draw_seconds is not None and self.draw_seconds < 0:
            raise ValueError(f"draw_seconds must be ≥ 0 seconds, got {self.draw_seconds}")
        for name in (
            "action_seconds", "time_bank_seconds", "time_bank_refill_seconds",
            "disconnection_bank_seconds", "disconnection_bank_refill_seconds", "seat_hold_seconds",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be ≥ 0 seconds, got {getattr(self, name)}")
        if self.refill_every_hands < 0:
            raise ValueError(f"refill_every_hands must be ≥ 0, got {self.refill_every_hands}")


@dataclass(frozen=True, slots=True)
class BanksRefilled:
    """Seconds added to each bank by :meth:`PlayerClock.hand_played` (both 0 when it was not a refill hand)."""

    time_bank: float
    disconnection_bank: float


@dataclass(slots=True)
class PlayerClock:
    """One seated player's banks, in seconds, and the hands counted toward the next refill."""

    time_bank: float
    disconnection_bank: float
    hands_toward_refill: int = 0

    @classmethod
    def fresh(cls, settings: ClockSettings) -> PlayerClock:
        """Full banks, as a player sits down."""
        return cls(settings.time_bank_seconds, settings.disconnection_bank_seconds)

    def bank(self, *, disconnected: bool) -> float:
        """The seconds left in the bank in use (the disconnection bank when ``disconnected``)."""
        return self.disconnection_bank if disconnected else self.time_bank

    def deadline(self, turn_started_at: float, settings: ClockSettings, *, disconnected: bool,
                 free_seconds: float | None = None) -> float:
        """The time at which a turn that started at ``turn_started_at`` times out. ``free_seconds``: the turn's
        free time when it is not ``action_seconds`` (a draw's clock, R-DRAW-1)."""
        free = settings.action_seconds if free_seconds is None else free_seconds
        return turn_started_at + free + self.bank(disconnected=disconnected)

    def charge(self, turn_started_at: float, now: float, settings: ClockSettings, *, disconnected: bool,
               free_seconds: float | None = None) -> float:
        """End a turn at ``now``: take the overtime beyond the free time (``action_seconds``, or
        ``free_seconds``) from the bank in use (never below 0). Returns the seconds taken."""
        free = settings.action_seconds if free_seconds is None else free_seconds
        overtime = max(0.0, now - turn_started_at - free)
        if disconnected:
            used = min(overtime, self.disconnection_bank)
            self.disconnection_bank -= used
        else:
            used = min(overtime, self.time_bank)
            self.time_bank -= used
        return used

    def hand_played(self, settings: ClockSettings) -> BanksRefilled:
        """Count one hand dealt in; every ``refill_every_hands`` hands add the refill seconds (capped at the
        maximum). Returns what was added."""
        if settings.refill_every_hands == 0:
            return BanksRefilled(0.0, 0.0)
        self.hands_toward_refill += 1
        if self.hands_toward_refill < settings.refill_every_hands:
            return BanksRefilled(0.0, 0.0)
        self.hands_toward_refill = 0
        before = (self.time_bank, self.disconnection_bank)
        self.time_bank = min(settings.time_bank_seconds, self.time_bank + settings.time_bank_refill_seconds)
        self.disconnection_bank = min(
            settings.disconnection_bank_seconds,
            self.disconnection_bank + settings.disconnection_bank_refill_seconds,
        )
        return BanksRefilled(self.time_bank - before[0], self.disconnection_bank - before[1])
