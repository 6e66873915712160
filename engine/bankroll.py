"""The play-money bankroll: opening credits, buy-in debits, cash-outs and free refills (R-PLAY-1).

Pure: the caller passes the time (``now``, monotonic seconds, any origin) to every call that depends on it.
Credits are integer chips. The policy's defaults are the rulebook's numbers: a new account gets 1,000
credits (a guest 500); a refill of 150 may be asked for only while the balance is under 50, arrives two
hours after the request, and at most 2 refills may be asked for in any 24 hours.

"A day" is a rolling 24-hour window ending at ``now`` (the engine has no calendar; a rolling window can
not be gamed by asking at 23:59 and again at 00:01).

>>> account = PlayMoneyAccount.open("ana", PlayMoneyPolicy())
>>> account.balance
1000
>>> _ = account.withdraw(960)
>>> account.request_refill(now=0.0)
RefillRequested(player='ana', amount=150, requested_at=0.0, arrives_at=7200.0)
>>> account.collect_refills(now=7199.0), account.balance
([], 40)
>>> account.collect_refills(now=7200.0)[0].balance
190
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import BankrollError
from engine.events import Event


@dataclass(frozen=True, slots=True)
class PlayMoneyPolicy:
    """The host's play-money settings (R-PLAY-1); every number can be changed.

    ``refill_allowed_below``: a refill may be asked for only while balance (plus chips the player has at
    tables, if the room passes them) is strictly under this. ``refill_delay_seconds``: time from the request
    until the credits arrive. ``max_refills_per_day``: requests allowed in any ``day_seconds`` window.
    """

    new_account_credits: int = 1_000
    guest_credits: int = 500
    refill_amount: int = 150
    refill_allowed_below: int = 50
    refill_delay_seconds: float = 2 * 60 * 60
    max_refills_per_day: int = 2
    day_seconds: float = 24 * 60 * 60

    def __post_init__(self) -> None:
        for name in ("new_account_credits", "guest_credits", "refill_amount", "refill_allowed_below"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name} must be a whole number of credits ≥ 0, got {value!r}")
        if self.max_refills_per_day < 0:
            raise ValueError(f"max_refills_per_day must be ≥ 0, got {self.max_refills_per_day}")
        if self.refill_delay_seconds < 0 or self.day_seconds <= 0:
            raise ValueError("refill_delay_seconds must be ≥ 0 and day_seconds > 0")


@dataclass(frozen=True, slots=True)
class AccountOpened(Event):
    """A play-money account was created with its opening ``credits`` (1,000, or 500 for a guest)."""

    player: str
    credits: int
    guest: bool


@dataclass(frozen=True, slots=True)
class CreditsWithdrawn(Event):
    """``amount`` credits left the balance (e.g. a buy-in or top-up); ``balance`` is what remains."""

    player: str
    amount: int
    balance: int


@dataclass(frozen=True, slots=True)
class CreditsDeposited(Event):
    """``amount`` credits came back to the balance (e.g. chips returned from a table)."""

    player: str
    amount: int
    balance: int


@dataclass(frozen=True, slots=True)
class RefillRequested(Event):
    """A refill of ``amount`` was granted; the credits arrive at ``arrives_at`` (seconds)."""

    player: str
    amount: int
    requested_at: float
    arrives_at: float


@dataclass(frozen=True, slots=True)
class RefillArrived(Event):
    """A refill's credits were added; ``balance`` is the new balance."""

    player: str
    amount: int
    balance: int


@dataclass(slots=True)
class PlayMoneyAccount:
    """One player's play-money balance and refill history (R-PLAY-1).

    Build with :meth:`open`. ``balance`` is credits not at any table. ``pending_refills`` are
    (arrives_at, amount) not yet added; ``refill_requests`` are the request times still inside the
    rolling day window (older ones are dropped when seen).
    """

    player: str
    policy: PlayMoneyPolicy
    balance: int
    pending_refills: list[tuple[float, int]] = field(default_factory=list)
    refill_requests: list[float] = field(default_factory=list)

    @classmethod
    def open(cls, player: str, policy: PlayMoneyPolicy, *, guest: bool = False) -> PlayMoneyAccount:
        """A new account with ``policy.new_account_credits`` (or ``guest_credits`` for a guest)."""
        credits = policy.guest_credits if guest else policy.new_account_credits
        return cls(player=player, policy=policy, balance=credits)

    def opened_event(self, *, guest: bool = False) -> AccountOpened:
        """The event recording this account's opening (for the store's ledger)."""
        return AccountOpened(self.player, self.balance, guest)

    # --- debits and credits -------------------------------------------------------------------------

    def verify_withdraw(self, amount: int) -> None:
        """Raise :class:`BankrollError` unless ``amount`` (whole credits > 0) is at most the balance."""
        _check_whole_amount(amount)
        if amount > self.balance:
            raise BankrollError(
                f"{self.player} has {self.balance} credits; cannot take {amount}"
            )

    def withdraw(self, amount: int) -> CreditsWithdrawn:
        """Take ``amount`` credits from the balance (a buy-in). Raises :class:`BankrollError`, balance unchanged."""
        self.verify_withdraw(amount)
        self.balance -= amount
        return CreditsWithdrawn(self.player, amount, self.balance)

    def deposit(self, amount: int) -> CreditsDeposited:
        """Add ``amount`` credits (≥ 0; chips returned from a table). Raises :class:`BankrollError` if negative."""
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise BankrollError(f"a deposit must be a whole number of credits ≥ 0, got {amount!r}")
        self.balance += amount
        return CreditsDeposited(self.player, amount, self.balance)

    # --- refills (R-PLAY-1) ---------------------------------------------------------------------------

    def refills_left_today(self, now: float) -> int:
        """How many more refills may be asked for in the 24 hours ending at ``now``."""
        return max(0, self.policy.max_refills_per_day - len(self._recent_requests(now)))

    def verify_refill(self, now: float, *, chips_at_tables: int = 0) -> None:
        """Raise :class:`BankrollError` saying why a refill can not be asked for now (R-PLAY-1).

        Refused when balance + ``chips_at_tables`` is not under ``policy.refill_allowed_below``, when a refill
        is already on its way, or when ``max_refills_per_day`` were asked for in the last day.
        """
        total = self.balance + chips_at_tables
        if total >= self.policy.refill_allowed_below:
            where = f" ({self.balance} in the account, {chips_at_tables} at tables)" if chips_at_tables else ""
            raise BankrollError(
                f"a refill needs fewer than {self.policy.refill_allowed_below} credits; "
                f"{self.player} has {total}{where}"
            )
        if self.pending_refills:
            arrives = self.pending_refills[0][0]
            raise BankrollError(f"a refill is already on its way (arrives at {arrives:g} s)")
        recent = self._recent_requests(now)
        if len(recent) >= self.policy.max_refills_per_day:
            next_allowed = recent[0] + self.policy.day_seconds
            raise BankrollError(
                f"at most {self.policy.max_refills_per_day} refills a day; the next may be asked for at "
                f"{next_allowed:g} s"
            )

    def can_request_refill(self, now: float, *, chips_at_tables: int = 0) -> bool:
        """Whether :meth:`request_refill` would be granted now."""
        try:
            self.verify_refill(now, chips_at_tables=chips_at_tables)
        except BankrollError:
            return False
        return True

    def request_refill(self, now: float, *, chips_at_tables: int = 0) -> RefillRequested:
        """Ask for a refill: granted credits arrive ``policy.refill_delay_seconds`` later (collect them with
        :meth:`collect_refills`). Raises :class:`BankrollError` (see :meth:`verify_refill`), state unchanged."""
        self.verify_refill(now, chips_at_tables=chips_at_tables)
        self.refill_requests = [*self._recent_requests(now), now]
        arrives_at = now + self.policy.refill_delay_seconds
        self.pending_refills.append((arrives_at, self.policy.refill_amount))
        return RefillRequested(self.player, self.policy.refill_amount, now, arrives_at)

    def next_refill_at(self) -> float | None:
        """When the next pending refill arrives, or ``None``: the room's timer for :meth:`collect_refills`."""
        return min((arrives for arrives, _ in self.pending_refills), default=None)

    def collect_refills(self, now: float) -> list[RefillArrived]:
        """Add every pending refill due at or before ``now`` to the balance; one event each."""
        arrived: list[RefillArrived] = []
        still_pending: list[tuple[float, int]] = []
        for arrives_at, amount in sorted(self.pending_refills):
            if arrives_at <= now:
                self.balance += amount
                arrived.append(RefillArrived(self.player, amount, self.balance))
            else:
                still_pending.append((arrives_at, amount))
        self.pending_refills = still_pending
        return arrived

    def _recent_requests(self, now: float) -> list[float]:
        window_start = now - self.policy.day_seconds
        return [asked for asked in self.refill_requests if asked > window_start]


def _check_whole_amount(amount: int) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise BankrollError(f"an amount must be a whole number of credits > 0, got {amount!r}")
