"""A tournament's settings (R-TOUR-1..3; issue 17), checked once: one ``ValueError`` naming the bad setting.

Times are seconds on the tournament clock (elapsed since the start, breaks included): late registration
until ``late_registration_seconds``, rebuys until ``rebuy_seconds``, the add-on from then for
``add_on_seconds`` (normally the break after the rebuy period).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from engine.structures import StructureKind
from engine.tournament.bounties import BountySettings
from engine.tournament.formats import SPIN_MULTIPLIERS, Format, SpinRow
from engine.tournament.levels import Stage, check_schedule, turbo_schedule
from engine.tournament.money import EntryPrice
from engine.variants import TEXAS_HOLDEM, Variant

MIN_PLAYERS = 2
MAX_PLAYERS = 3_000


class PayoutKind(Enum):
    """How the pool is paid (seed 000: "Tabla" or "El ganador se lo lleva todo"; tickets for satellites)."""

    DEFAULT = "default"
    TABLE = "table"
    WINNER_TAKES_ALL = "winner_takes_all"
    TICKETS = "tickets"


@dataclass(frozen=True, slots=True)
class Rebuys:
    """Rebuys while the tournament clock is below ``until_seconds``, only when the stack is at or below
    ``threshold`` chips (R-TOUR-3), each adding ``chips`` for ``price`` (to the pool) + ``fee``; at most
    ``max_rebuys`` per entry (``None``: unlimited)."""

    until_seconds: float
    threshold: int
    chips: int
    price: int
    fee: int = 0
    max_rebuys: int | None = None


@dataclass(frozen=True, slots=True)
class AddOn:
    """One add-on per entry at the end of the rebuy period: ``chips`` for ``price`` + ``fee``, open for
    ``window_seconds`` after the rebuy period ends."""

    chips: int
    price: int
    fee: int = 0
    window_seconds: float = 300.0


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """Everything a host declares for one tournament (issue 18 reads it from room.toml)."""

    tournament_id: str
    format: Format = Format.SCHEDULED
    variant: Variant = TEXAS_HOLDEM
    structure: StructureKind = StructureKind.NO_LIMIT
    seats_per_table: int = 9
    price: EntryPrice = field(default_factory=lambda: EntryPrice(100, 10))
    starting_stack: int = 10_000
    schedule: tuple[Stage, ...] = field(default_factory=turbo_schedule)
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    sit_and_go_size: int | None = None
    start_time: float | None = None
    password: str | None = None
    late_registration_seconds: float = 0.0
    late_registration_ends_at_first_elimination: bool = True
    re_entries: int = 0
    entries_per_player: int = 1
    rebuys: Rebuys | None = None
    add_on: AddOn | None = None
    guarantee: int = 0
    freeroll_pool: int = 0
    payout: PayoutKind = PayoutKind.DEFAULT
    payout_percentages: tuple[int, ...] = ()
    ticket_value: int = 0
    ticket_to: str | None = None
    secondary_places: int = 0
    secondary_amount: int = 0
    secondary_description: str = ""
    bounties: BountySettings | None = None
    deals_allowed: bool = True
    hand_for_hand: bool = True
    time_limit_seconds: float | None = None
    spin_table: tuple[SpinRow, ...] = SPIN_MULTIPLIERS
    excess_ticket_credit: bool = True
    ticket_refund_as_money: bool = False

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.min_players <= self.max_players <= MAX_PLAYERS:
            raise ValueError(f"players: {MIN_PLAYERS} <= min_players <= max_players <= {MAX_PLAYERS}")
        check_schedule(self.schedule)
        if self.starting_stack <= 0:
            raise ValueError("starting_stack: more than 0 chips")
        seats = 2 if self.format is Format.HEADS_UP else 3 if self.format is Format.SPIN else None
        if seats is not None and self.seats_per_table != seats:
            raise ValueError(f"seats_per_table: a {self.format.value} table has {seats} seats")
        if self.format in (Format.SIT_AND_GO, Format.SPIN, Format.FIFTY50, Format.DOUBLE_OR_NOTHING,
                           Format.SHOOTOUT, Format.HEADS_UP) and self.sit_and_go_size is None:
            raise ValueError(f"sit_and_go_size: a {self.format.value} starts when this many have registered")
        if self.format is Format.SPIN and self.sit_and_go_size != 3:
            raise ValueError("sit_and_go_size: a Spin is for 3 players")
        if self.sit_and_go_size is not None:
            if not MIN_PLAYERS <= self.sit_and_go_size <= self.max_players:
                raise ValueError("sit_and_go_size: between 2 and max_players")
            if self.late_registration_seconds or self.re_entries:
                raise ValueError("late_registration_seconds: a Sit & Go has no late registration (seed 000)")
        if self.format is Format.SCHEDULED and self.start_time is None:
            raise ValueError("start_time: a scheduled tournament needs one")
        if self.format.ends_at_half and self.sit_and_go_size is not None and self.sit_and_go_size < 2:
            raise ValueError("sit_and_go_size: at least 2 for a half-out format")
        if self.entries_per_player < 1 or self.re_entries < 0:
            raise ValueError("entries_per_player >= 1 and re_entries >= 0")
        if self.re_entries and not self.late_registration_seconds:
            raise ValueError("re_entries: re-entry happens during late registration; set late_registration_seconds")
        if self.payout is PayoutKind.TABLE and sum(self.payout_percentages) != 100:
            raise ValueError("payout_percentages: a payout table sums to 100")
        if self.payout is PayoutKind.TICKETS and self.ticket_value <= 0:
            raise ValueError("ticket_value: ticket prizes are worth more than 0")
        if self.rebuys is not None and (self.rebuys.chips <= 0 or self.rebuys.threshold < 0):
            raise ValueError("rebuys: chips > 0 and threshold >= 0")
        if self.add_on is not None and self.rebuys is None:
            raise ValueError("add_on: comes at the end of a rebuy period")
        if self.price.total == 0 and not self.freeroll_pool and not self.guarantee:
            raise ValueError("freeroll_pool: a freeroll needs a house-funded pool")
        if self.format is Format.SPIN and self.payout is not PayoutKind.DEFAULT:
            raise ValueError("payout: a Spin pays by its multiplier table")

    @property
    def is_freeroll(self) -> bool:
        """No entry price (seed 000: "Los torneos que no tienen costo de entrada se llaman freerolls")."""
        return self.price.total == 0
