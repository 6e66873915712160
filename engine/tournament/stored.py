"""A tournament director's state as data (issue 28, "Stored state is data, versioned").

A room keeps its tournaments across restarts and crashes (R-CRASH-1): a snapshot of each director now and then,
and the calls that changed it since (:mod:`engine.tournament.journal`). The snapshot is a
:class:`TournamentRecord`: typed records (msgspec structs, the wire's library) of the director's settings, money,
bounties, entries and tables, built from a director by :func:`record_of` and made into one again by
:func:`director_of`. Nothing of Python's own object layout is kept, so renaming a class or an attribute of the
engine changes only these two functions; changing a record's shape is a new version of the stored format, with a
migration (:mod:`hosting.tournament_state`, which encodes and decodes these records and knows the versions).

What is not kept: the director's fair draw (the room gives the one it trusts when it loads the state), its
journal, and a hand the director deals on its own tables — a room plays every tournament hand on its own tables
(``Tournament.hand_dealt`` / ``hand_played``), so a snapshot with such a hand running is refused.

Dictionaries are kept in their order (a director walks its tables, seats and entries in it); sets as sorted lists.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from msgspec import Struct

from engine.button import Positions
from engine.structures import StructureKind
from engine.tournament.bounties import Bounties, BountySettings
from engine.tournament.deals import DealKind
from engine.tournament.director import Entry, Phase, Tournament, _Deal
from engine.tournament.formats import Format, SpinRow
from engine.tournament.levels import Break, Level, Stage
from engine.tournament.money import Balance, Cashier, EntryPrice, Free, Payment, Ticket, _EntryPayment
from engine.tournament.payouts import Prize
from engine.tournament.seating import Draw
from engine.tournament.settings import AddOn, PayoutKind, Rebuys, TournamentSettings
from engine.tournament.table import TournamentSeat, TournamentTable
from engine.variants import Variant, five_card_omaha, variant_by_id

# --- settings ----------------------------------------------------------------------------------------------------


class LevelRecord(Struct, frozen=True, tag="level"):
    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: int = 0
    bring_in: int = 0
    duration: float = 600.0


class BreakRecord(Struct, frozen=True, tag="break"):
    duration: float


StageRecord = LevelRecord | BreakRecord


class PriceRecord(Struct, frozen=True):
    buy_in: int
    fee: int
    knockout: int


class RebuysRecord(Struct, frozen=True):
    until_seconds: float
    threshold: int
    chips: int
    price: int
    fee: int
    max_rebuys: int | None


class AddOnRecord(Struct, frozen=True):
    chips: int
    price: int
    fee: int
    window_seconds: float


class SpinRowRecord(Struct, frozen=True):
    multiplier: int
    chances: int
    percentages: list[int]


class BountySettingsRecord(Struct, frozen=True):
    progressive: bool
    progressive_share: str
    """A fraction as text: ``"1/2"``."""
    named: dict[str, int]
    pro_bounty: int
    pro_players: list[str]


class SettingsRecord(Struct, frozen=True):
    """:class:`~engine.tournament.settings.TournamentSettings`; the game by its id (``engine.variants``)."""

    tournament_id: str
    format: Format
    variant: str
    structure: StructureKind
    seats_per_table: int
    price: PriceRecord
    starting_stack: int
    schedule: list[StageRecord]
    min_players: int
    max_players: int
    sit_and_go_size: int | None
    start_time: float | None
    password: str | None
    late_registration_seconds: float
    late_registration_ends_at_first_elimination: bool
    re_entries: int
    entries_per_player: int
    rebuys: RebuysRecord | None
    add_on: AddOnRecord | None
    guarantee: int
    freeroll_pool: int
    payout: PayoutKind
    payout_percentages: list[int]
    ticket_value: int
    ticket_to: str | None
    secondary_places: int
    secondary_amount: int
    secondary_description: str
    bounties: BountySettingsRecord | None
    deals_allowed: bool
    hand_for_hand: bool
    time_limit_seconds: float | None
    spin_table: list[SpinRowRecord]
    excess_ticket_credit: bool
    ticket_refund_as_money: bool


# --- money -------------------------------------------------------------------------------------------------------


class BalancePaid(Struct, frozen=True, tag="balance"):
    pass


class TicketPaid(Struct, frozen=True, tag="ticket"):
    value: int
    ticket_id: str
    valid_for: str | None


class FreeEntry(Struct, frozen=True, tag="free"):
    pass


PaymentRecord = BalancePaid | TicketPaid | FreeEntry


class EntryPaymentRecord(Struct, frozen=True):
    entry: int
    player: str
    payment: PaymentRecord
    cost: int
    buy_in: int
    fee: int
    knockout: int


class CashierRecord(Struct, frozen=True):
    price: PriceRecord
    excess_ticket_credit: bool
    ticket_refund_as_money: bool
    tournament_id: str
    paid_in: int
    house_funded: int
    pool: int
    fees: int
    bounty_fund: int
    paid_out: int
    by_player_in: dict[str, int]
    by_player_out: dict[str, int]
    entries: list[EntryPaymentRecord]


class BountiesRecord(Struct, frozen=True):
    settings: BountySettingsRecord
    heads: dict[int, int]
    owner: dict[int, str]


# --- entries and tables ------------------------------------------------------------------------------------------


class EntryRecord(Struct, frozen=True, omit_defaults=True):
    """One entry (a field of thousands: the values an entry starts with are left out)."""

    number: int
    player: str
    table: int | None = None
    live: bool = True
    played: bool = False
    rebuys: int = 0
    added_on: bool = False
    place: int | None = None
    tied: int = 1
    busted_order: int | None = None
    pending_rebuy: bool = False
    knocked_by: tuple[int, ...] = ()
    prize: int = 0


class SeatRecord(Struct, frozen=True, omit_defaults=True):
    seat: int
    entry: int
    player: str
    stack: int
    waits_one_hand: bool = False
    absent: bool = False


class PositionsRecord(Struct, frozen=True):
    button_position: int
    small_blind_position: int
    big_blind_seat: int


class TableRecord(Struct, frozen=True):
    number: int
    variant: str
    seat_count: int
    structure: StructureKind
    seats: list[SeatRecord]
    level: LevelRecord | None
    """Written before issue 28 (a table kept a copy of the level); now always None, never read: the
    director's level is the one."""
    hands_played: int
    positions: PositionsRecord | None
    external: list[int] | None
    """The entries dealt into the room's hand running at this table (None: no hand runs)."""


class PrizeRecord(Struct, frozen=True):
    amount: int
    ticket_to: str | None
    secondary: str | None


class DealRecord(Struct, frozen=True):
    kind: DealKind
    shares: dict[int, int]
    accepted: list[int]


class TournamentRecord(Struct, frozen=True, omit_defaults=True):
    """One director's whole state (what :class:`~engine.tournament.director.Tournament` holds). Fields added
    since version 1 have defaults and are written only when set (a version-1 state reads and writes as before)."""

    settings: SettingsRecord
    phase: Phase
    cashier: CashierRecord
    bounties: BountiesRecord
    entries: list[EntryRecord]
    tables: list[TableRecord]
    prizes: list[PrizeRecord] | None
    started_at: float | None
    level_number: int
    in_break: bool
    late_registration_open: bool
    hand_for_hand: bool
    busted: int
    chips_issued: int
    chips_retired: int
    moves: int
    tables_broken: int
    hands: int
    shootout_round: int
    spin_multiplier: int | None
    draw_proofs: list[dict[str, Any]]
    next_table: int
    clock_origin: float
    hand_for_hand_played: list[int]
    hand_for_hand_busts: list[tuple[int, int, int]]
    """(entry, starting stack, table) of each entry out in the hand-for-hand round not yet over."""
    early_busts: list[int]
    deal: DealRecord | None
    time_up: bool
    current_level: LevelRecord
    next_entry: int
    live: list[int]
    by_player: dict[str, list[int]]
    pending_rebuys: list[int]
    seated_counts: dict[int, int]
    bounties_won: dict[str, int]
    round_out: list[tuple[int, int]]
    """Shootout: (entry, the place he reached at his table) of each entry out in the round not yet over."""
    seats_by_draw: bool = False
    """The room draws the first seats by commit–reveal (a snapshot from before it: no)."""


# --- director → record -------------------------------------------------------------------------------------------


def record_of(director: Tournament) -> TournamentRecord:
    """The director's state as a record. ``ValueError`` while a hand runs on one of its own tables."""
    deal = director._deal
    return TournamentRecord(
        settings=_settings_record(director.settings), phase=director.phase, cashier=_cashier_record(director.cashier),
        bounties=BountiesRecord(_bounty_settings_record(director.bounties.settings), dict(director.bounties.heads),
                                dict(director.bounties.owner)),
        entries=[_entry_record(entry) for entry in director.entries.values()],
        tables=[_table_record(table) for table in director.tables.values()],
        prizes=None if director.prizes is None else [PrizeRecord(prize.amount, prize.ticket_to, prize.secondary)
                                                     for prize in director.prizes],
        started_at=director.started_at, level_number=director.level_number, in_break=director.in_break,
        late_registration_open=director.late_registration_open, hand_for_hand=director.hand_for_hand,
        busted=director.busted, chips_issued=director.chips_issued, chips_retired=director.chips_retired,
        moves=director.moves, tables_broken=director.tables_broken, hands=director.hands,
        shootout_round=director.shootout_round, spin_multiplier=director.spin_multiplier,
        draw_proofs=list(director.draw_proofs), next_table=director._next_table,
        clock_origin=director._clock_origin, hand_for_hand_played=sorted(director._hfh_played),
        hand_for_hand_busts=list(director._hfh_busts), early_busts=list(director._early_busts),
        deal=None if deal is None else DealRecord(deal.kind, dict(deal.shares), sorted(deal.accepted)),
        time_up=director._time_up, current_level=_level_record(director._current_level),
        next_entry=director._next_entry, live=list(director._live),
        by_player={player: list(numbers) for player, numbers in director._by_player.items()},
        pending_rebuys=sorted(director._pending), seated_counts=dict(director._counts),
        bounties_won=dict(director.bounties_won), round_out=list(director._round_out),
        seats_by_draw=director.seats_by_draw)


def _level_record(level: Level) -> LevelRecord:
    return LevelRecord(level.small_blind, level.big_blind, level.ante, level.big_blind_ante, level.bring_in,
                       level.duration)


def _stage_record(stage: Stage) -> StageRecord:
    return BreakRecord(stage.duration) if isinstance(stage, Break) else _level_record(stage)


def _price_record(price: EntryPrice) -> PriceRecord:
    return PriceRecord(price.buy_in, price.fee, price.knockout)


def _bounty_settings_record(settings: BountySettings) -> BountySettingsRecord:
    return BountySettingsRecord(settings.progressive, str(settings.progressive_share), dict(settings.named),
                                settings.pro_bounty, sorted(settings.pro_players))


def _settings_record(settings: TournamentSettings) -> SettingsRecord:
    rebuys, add_on = settings.rebuys, settings.add_on
    return SettingsRecord(
        tournament_id=settings.tournament_id, format=settings.format, variant=settings.variant.id,
        structure=settings.structure, seats_per_table=settings.seats_per_table, price=_price_record(settings.price),
        starting_stack=settings.starting_stack, schedule=[_stage_record(stage) for stage in settings.schedule],
        min_players=settings.min_players, max_players=settings.max_players,
        sit_and_go_size=settings.sit_and_go_size, start_time=settings.start_time, password=settings.password,
        late_registration_seconds=settings.late_registration_seconds,
        late_registration_ends_at_first_elimination=settings.late_registration_ends_at_first_elimination,
        re_entries=settings.re_entries, entries_per_player=settings.entries_per_player,
        rebuys=None if rebuys is None else RebuysRecord(rebuys.until_seconds, rebuys.threshold, rebuys.chips,
                                                        rebuys.price, rebuys.fee, rebuys.max_rebuys),
        add_on=None if add_on is None else AddOnRecord(add_on.chips, add_on.price, add_on.fee, add_on.window_seconds),
        guarantee=settings.guarantee, freeroll_pool=settings.freeroll_pool, payout=settings.payout,
        payout_percentages=list(settings.payout_percentages), ticket_value=settings.ticket_value,
        ticket_to=settings.ticket_to, secondary_places=settings.secondary_places,
        secondary_amount=settings.secondary_amount, secondary_description=settings.secondary_description,
        bounties=None if settings.bounties is None else _bounty_settings_record(settings.bounties),
        deals_allowed=settings.deals_allowed, hand_for_hand=settings.hand_for_hand,
        time_limit_seconds=settings.time_limit_seconds,
        spin_table=[SpinRowRecord(row.multiplier, row.chances, list(row.percentages)) for row in settings.spin_table],
        excess_ticket_credit=settings.excess_ticket_credit, ticket_refund_as_money=settings.ticket_refund_as_money)


def payment_record(payment: Payment) -> PaymentRecord:
    """How an entry, rebuy or add-on was paid, as a record (the journal's calls use it too)."""
    if isinstance(payment, Ticket):
        return TicketPaid(payment.value, payment.ticket_id, payment.valid_for)
    return FreeEntry() if isinstance(payment, Free) else BalancePaid()


def _cashier_record(cashier: Cashier) -> CashierRecord:
    return CashierRecord(
        price=_price_record(cashier.price), excess_ticket_credit=cashier.excess_ticket_credit,
        ticket_refund_as_money=cashier.ticket_refund_as_money, tournament_id=cashier.tournament_id,
        paid_in=cashier.paid_in, house_funded=cashier.house_funded, pool=cashier.pool, fees=cashier.fees,
        bounty_fund=cashier.bounty_fund, paid_out=cashier.paid_out, by_player_in=dict(cashier.by_player_in),
        by_player_out=dict(cashier.by_player_out),
        entries=[EntryPaymentRecord(number, paid.player, payment_record(paid.payment), paid.cost, paid.buy_in, paid.fee,
                                    paid.knockout) for number, paid in cashier._entries.items()])


def _entry_record(entry: Entry) -> EntryRecord:
    return EntryRecord(entry.number, entry.player, entry.table, entry.live, entry.played, entry.rebuys, entry.added_on,
                       entry.place, entry.tied, entry.busted_order, entry.pending_rebuy, entry.knocked_by, entry.prize)


def _table_record(table: TournamentTable) -> TableRecord:
    if table.hand is not None:
        raise ValueError(f"table {table.number} deals a hand of its own: a director's state is kept between its "
                         "own hands (a room plays every hand on its tables)")
    positions = table.positions
    return TableRecord(
        number=table.number, variant=table.variant.id, seat_count=table.seat_count, structure=table.structure,
        seats=[SeatRecord(seat, seated.entry, seated.player, seated.stack, seated.waits_one_hand, seated.absent)
               for seat, seated in table.seats.items()],
        level=None, hands_played=table.hands_played,  # a table keeps no level: the director's is the one
        positions=None if positions is None else PositionsRecord(positions.button_position,
                                                                 positions.small_blind_position,
                                                                 positions.big_blind_seat),
        external=None if table.external is None else sorted(table.external))


# --- record → director -------------------------------------------------------------------------------------------


def director_of(record: TournamentRecord, draw: Draw) -> Tournament:
    """The director ``record`` holds, drawing seats and buttons with ``draw`` from now on. ``ValueError`` when the
    record does not describe a tournament (a setting out of bounds, an unknown game, an index that does not
    match its entries)."""
    settings = _settings(record.settings)
    director = Tournament(settings, draw)
    director.phase = record.phase
    director.cashier = _cashier(record.cashier)
    director.bounties = Bounties(_bounty_settings(record.bounties.settings), dict(record.bounties.heads),
                                 dict(record.bounties.owner))
    director.entries = {entry.number: _entry(entry) for entry in record.entries}
    director.tables = {table.number: _table(table) for table in record.tables}
    director.prizes = None if record.prizes is None else tuple(Prize(prize.amount, prize.ticket_to, prize.secondary)
                                                               for prize in record.prizes)
    director.started_at = record.started_at
    director.level_number = record.level_number
    director.in_break = record.in_break
    director.late_registration_open = record.late_registration_open
    director.hand_for_hand = record.hand_for_hand
    director.busted = record.busted
    director.chips_issued = record.chips_issued
    director.chips_retired = record.chips_retired
    director.moves = record.moves
    director.tables_broken = record.tables_broken
    director.hands = record.hands
    director.shootout_round = record.shootout_round
    director.spin_multiplier = record.spin_multiplier
    director.draw_proofs = list(record.draw_proofs)
    director.seats_by_draw = record.seats_by_draw
    director._next_table = record.next_table
    director._clock_origin = record.clock_origin
    director._hfh_played = set(record.hand_for_hand_played)
    director._hfh_busts = [(entry, stack, table) for entry, stack, table in record.hand_for_hand_busts]
    director._early_busts = list(record.early_busts)
    deal = record.deal
    director._deal = None if deal is None else _Deal(deal.kind, dict(deal.shares), set(deal.accepted))
    director._time_up = record.time_up
    director._current_level = _level(record.current_level)
    director._next_entry = record.next_entry
    try:
        director._live = {number: director.entries[number] for number in record.live}
    except KeyError as missing:
        raise ValueError(f"the live entries name entry {missing}, which the tournament does not hold") from None
    director._by_player = {player: list(numbers) for player, numbers in record.by_player.items()}
    director._pending = set(record.pending_rebuys)
    director._counts = dict(record.seated_counts)
    director.bounties_won.update(record.bounties_won)
    director._round_out.extend((entry, place) for entry, place in record.round_out)
    return director


def _level(record: LevelRecord) -> Level:
    return Level(record.small_blind, record.big_blind, record.ante, record.big_blind_ante, record.bring_in,
                 record.duration)


def _stage(record: StageRecord) -> Stage:
    return Break(record.duration) if isinstance(record, BreakRecord) else _level(record)


def _price(record: PriceRecord) -> EntryPrice:
    return EntryPrice(record.buy_in, record.fee, record.knockout)


def _bounty_settings(record: BountySettingsRecord) -> BountySettings:
    return BountySettings(record.progressive, Fraction(record.progressive_share), dict(record.named),
                          record.pro_bounty, frozenset(record.pro_players))


def _variant(variant_id: str) -> Variant:
    three_hole = five_card_omaha(must_use_hole=3)  # the house rule's game is not one of the engine's named games
    if variant_id == three_hole.id:
        return three_hole
    try:
        return variant_by_id(variant_id)
    except KeyError as unknown:
        raise ValueError(str(unknown)) from None


def _settings(record: SettingsRecord) -> TournamentSettings:
    rebuys, add_on = record.rebuys, record.add_on
    return TournamentSettings(
        tournament_id=record.tournament_id, format=record.format, variant=_variant(record.variant),
        structure=record.structure, seats_per_table=record.seats_per_table, price=_price(record.price),
        starting_stack=record.starting_stack, schedule=tuple(_stage(stage) for stage in record.schedule),
        min_players=record.min_players, max_players=record.max_players, sit_and_go_size=record.sit_and_go_size,
        start_time=record.start_time, password=record.password,
        late_registration_seconds=record.late_registration_seconds,
        late_registration_ends_at_first_elimination=record.late_registration_ends_at_first_elimination,
        re_entries=record.re_entries, entries_per_player=record.entries_per_player,
        rebuys=None if rebuys is None else Rebuys(rebuys.until_seconds, rebuys.threshold, rebuys.chips, rebuys.price,
                                                  rebuys.fee, rebuys.max_rebuys),
        add_on=None if add_on is None else AddOn(add_on.chips, add_on.price, add_on.fee, add_on.window_seconds),
        guarantee=record.guarantee, freeroll_pool=record.freeroll_pool, payout=record.payout,
        payout_percentages=tuple(record.payout_percentages), ticket_value=record.ticket_value,
        ticket_to=record.ticket_to, secondary_places=record.secondary_places,
        secondary_amount=record.secondary_amount, secondary_description=record.secondary_description,
        bounties=None if record.bounties is None else _bounty_settings(record.bounties),
        deals_allowed=record.deals_allowed, hand_for_hand=record.hand_for_hand,
        time_limit_seconds=record.time_limit_seconds,
        spin_table=tuple(SpinRow(row.multiplier, row.chances, tuple(row.percentages)) for row in record.spin_table),
        excess_ticket_credit=record.excess_ticket_credit, ticket_refund_as_money=record.ticket_refund_as_money)


def payment_of(record: PaymentRecord) -> Payment:
    """The payment a :func:`payment_record` describes."""
    if isinstance(record, TicketPaid):
        return Ticket(record.value, record.ticket_id, record.valid_for)
    return Free() if isinstance(record, FreeEntry) else Balance()


def _cashier(record: CashierRecord) -> Cashier:
    return Cashier(
        _price(record.price), record.excess_ticket_credit, record.ticket_refund_as_money, record.tournament_id,
        record.paid_in, record.house_funded, record.pool, record.fees, record.bounty_fund, record.paid_out,
        dict(record.by_player_in), dict(record.by_player_out),
        {paid.entry: _EntryPayment(paid.player, payment_of(paid.payment), paid.cost, paid.buy_in, paid.fee,
                                   paid.knockout) for paid in record.entries})


def _entry(record: EntryRecord) -> Entry:
    return Entry(record.number, record.player, record.table, record.live, record.played, record.rebuys,
                 record.added_on, record.place, record.tied, record.busted_order, record.pending_rebuy,
                 record.knocked_by, record.prize)


def _table(record: TableRecord) -> TournamentTable:
    table = TournamentTable(record.number, _variant(record.variant), seat_count=record.seat_count,
                            structure=record.structure)
    table.seats = {seat.seat: TournamentSeat(seat.entry, seat.player, seat.stack, seat.waits_one_hand, seat.absent)
                   for seat in record.seats}
    table.hands_played = record.hands_played
    positions = record.positions
    table.positions = None if positions is None else Positions(positions.button_position,
                                                               positions.small_blind_position,
                                                               positions.big_blind_seat)
    table.external = None if record.external is None else frozenset(record.external)
    return table
