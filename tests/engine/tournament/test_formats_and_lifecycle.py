"""Lifecycle and formats (R-TOUR-1): Sit & Go, scheduled, heads-up, shootout, Spin, Fifty50,
Double-or-Nothing, time-limited, freeroll, satellite; deals at the final table; event visibility."""

from __future__ import annotations

import random

import pytest

from engine.errors import TableRuleError
from engine.tournament.bounties import BountySettings
from engine.tournament.deals import DealKind
from engine.tournament.director import Phase, Tournament
from engine.tournament.events import (
    Completed,
    Credited,
    DealAccepted,
    DealProposed,
    Paid,
    PrizeAwarded,
    Registered,
    ShootoutRound,
    SpinMultiplierDrawn,
    TournamentCancelled,
    TournamentStarted,
    view_for_player,
)
from engine.tournament.formats import Format, spin_row
from engine.tournament.money import Balance, EntryPrice, Free
from engine.tournament.settings import PayoutKind, TournamentSettings
from tests.engine.tournament.helpers import LEVELS, first, of_type, play_hand, rigged_deck, running
from tests.engine.tournament.simulation import play


def _settings(**changes: object) -> TournamentSettings:
    values: dict[str, object] = {"tournament_id": "t", "schedule": LEVELS, "starting_stack": 1_000,
                                 "price": EntryPrice(100, 10), "seats_per_table": 6}
    values.update(changes)
    return TournamentSettings(**values)  # type: ignore[arg-type]


def test_lifecycle_announced_registering_running_final_table_complete() -> None:
    tournament = Tournament(_settings(start_time=100.0), first)
    assert tournament.phase is Phase.ANNOUNCED
    with pytest.raises(TableRuleError, match="registration is closed"):
        tournament.register("p1", Balance(), 0)
    tournament.open_registration(0)
    assert tournament.phase is Phase.REGISTERING
    for name in ("p1", "p2"):
        tournament.register(name, Balance(), 1)
    assert tournament.tick(99) == [] and tournament.phase is Phase.REGISTERING
    events = tournament.tick(100)
    assert TournamentStarted(2, 1, 1_000) in events and tournament.phase is Phase.FINAL_TABLE
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc"}, "2c 7d 9h Js 3s")
    events = play_hand(tournament, 1, deck, 110, shovers={1, 2})
    assert tournament.phase is Phase.COMPLETE and Completed("p1", "last_player") in events
    assert of_type(events, PrizeAwarded) == [PrizeAwarded("p1", 1, 1, 200)]


def test_scheduled_start_with_too_few_players_is_cancelled_and_refunded() -> None:
    tournament = Tournament(_settings(start_time=100.0, min_players=3), first)
    tournament.open_registration(0)
    tournament.register("p1", Balance(), 1)
    tournament.register("p2", Balance(), 1)
    events = tournament.tick(100)
    assert events[0] == TournamentCancelled("2 registered, 3 needed")
    assert of_type(events, Credited) == [Credited("p1", 110, "cancelled"), Credited("p2", 110, "cancelled")]
    assert tournament.phase is Phase.CANCELLED and tournament.cashier.pool == 0 and tournament.cashier.balanced()


def test_sit_and_go_starts_when_full() -> None:
    tournament = Tournament(_settings(format=Format.SIT_AND_GO, sit_and_go_size=3), first)
    tournament.open_registration(0)
    tournament.register("p1", Balance(), 1)
    tournament.register("p2", Balance(), 2)
    assert tournament.phase is Phase.REGISTERING
    events = tournament.register("p3", Balance(), 3)
    assert TournamentStarted(3, 1, 1_000) in events
    with pytest.raises(TableRuleError):
        tournament.register("p4", Balance(), 4)


def test_settings_refuse_nonsense_with_the_setting_named() -> None:
    with pytest.raises(ValueError, match="a Sit & Go has no late registration"):
        _settings(format=Format.SIT_AND_GO, sit_and_go_size=6, late_registration_seconds=60)
    with pytest.raises(ValueError, match="max_players"):
        _settings(start_time=0.0, max_players=3_001)
    with pytest.raises(ValueError, match="start_time"):
        _settings()
    with pytest.raises(ValueError, match="seats_per_table"):
        _settings(format=Format.HEADS_UP, sit_and_go_size=4)


def test_heads_up_winners_meet_winners() -> None:
    tournament = running(_settings(format=Format.HEADS_UP, sit_and_go_size=4, seats_per_table=2,
                                   payout=PayoutKind.WINNER_TAKES_ALL), 4)
    assert sorted(t.player_count for t in tournament.tables.values()) == [2, 2]
    events: list[object] = []
    for number in sorted(tournament.tables):
        entries = sorted(s.entry for s in tournament.tables[number].seats.values())
        deck = rigged_deck(tournament, number, {entries[0]: "As Ah", entries[1]: "Kd Kc"}, "2c 7d 9h Js 3s")
        events += play_hand(tournament, number, deck, 10, shovers=set(entries))
    assert ShootoutRound(2, 2, 1) in events
    (table,) = tournament.tables.values()
    assert sorted(s.stack for s in table.seats.values()) == [1_000, 1_000]  # fresh stacks, level 1 again
    assert tournament.level_number == 1


def test_shootout_table_winners_advance_with_the_starting_stack() -> None:
    tournament = running(_settings(format=Format.SHOOTOUT, sit_and_go_size=6, seats_per_table=3), 6)
    assert len(tournament.tables) == 2
    played = play(tournament, random.Random(3))
    assert tournament.phase is Phase.COMPLETE and played.hands > 0
    assert sorted(e.place for e in tournament.entries.values() if e.place is not None)[0] == 1
    assert tournament.chips_issued == 6 * 1_000 + 2 * 1_000  # two round winners got fresh stacks
    assert tournament.chips_retired + tournament.chips_in_play() == tournament.chips_issued


@pytest.mark.parametrize(("draw", "multiplier", "prizes"), [
    (0, 2, [20]), (588_000, 3, [30]), (999_999, 1_000, [8_000, 1_000, 1_000]),
])
def test_spin_pool_is_one_buy_in_times_the_drawn_multiplier(draw: int, multiplier: int, prizes: list[int]) -> None:
    settings = _settings(format=Format.SPIN, sit_and_go_size=3, seats_per_table=3, price=EntryPrice(10, 1))
    tournament = Tournament(settings, first)
    tournament.open_registration(0)
    for name in ("a", "b", "c"):
        tournament.register(name, Balance(), 1)
    assert tournament.phase is Phase.REGISTERING  # waits for the multiplier draw
    events = tournament.start(2, spin_draw=draw)
    assert SpinMultiplierDrawn(multiplier, 10 * multiplier) in events
    assert [p.amount for p in tournament.prizes or ()] == prizes
    assert tournament.cashier.balanced()
    assert spin_row(draw).multiplier == multiplier


def _bust_three(tournament: Tournament) -> list[object]:
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc", 3: "Qd Qc", 4: "Jd Jc"}, "2c 7d 9h 8s 3s")
    return list(play_hand(tournament, 1, deck, 10, shovers={1, 2, 3, 4}))


def test_double_or_nothing_ends_when_half_are_out_with_equal_shares() -> None:
    tournament = running(_settings(format=Format.DOUBLE_OR_NOTHING, sit_and_go_size=6), 6)
    events = _bust_three(tournament)
    awarded = sorted((e.player, e.amount) for e in events if isinstance(e, PrizeAwarded))
    assert awarded == [("p1", 200), ("p5", 200), ("p6", 200)]  # 600 pool: each survivor doubles his 100
    assert Completed(None, "half_out") in events and tournament.cashier.pool == 0


def test_fifty50_half_equally_half_by_chips() -> None:
    tournament = running(_settings(format=Format.FIFTY50, sit_and_go_size=6), 6)
    events = _bust_three(tournament)
    # Survivors: p1 with 4,000 chips, p5 and p6 with 1,000 (they folded). Pool 600: 300 equally (100 each),
    # 300 by chips (200 / 50 / 50).
    awarded = sorted((e.player, e.place, e.amount) for e in events if isinstance(e, PrizeAwarded))
    assert awarded == [("p1", 1, 300), ("p5", 2, 150), ("p6", 2, 150)]
    assert Completed(None, "half_out") in events and tournament.cashier.pool == 0


def test_time_limited_tournament_pays_by_chip_count_when_time_expires() -> None:
    tournament = running(_settings(start_time=0.0, time_limit_seconds=1_000, payout=PayoutKind.TABLE,
                                   payout_percentages=(70, 30)), 3)
    tournament.tables[1].seats[tournament.tables[1].seat_of(1) or 0].stack = 1_500
    tournament.tables[1].seats[tournament.tables[1].seat_of(2) or 0].stack = 500
    events = tournament.tick(1_000)
    assert [(e.player, e.place, e.amount) for e in of_type(events, PrizeAwarded)] == [  # type: ignore[attr-defined]
        ("p1", 1, 210), ("p3", 2, 90)]
    assert Completed(None, "time") in events


def test_satellite_pays_tickets_to_the_named_tournament() -> None:
    settings = _settings(start_time=0.0, price=EntryPrice(1, 0), payout=PayoutKind.TICKETS, ticket_value=10,
                         ticket_to="main", seats_per_table=9, max_players=3_000)
    tournament = running(settings, 35)
    assert [(p.amount, p.ticket_to) for p in tournament.prizes or ()] == [(10, "main")] * 3 + [(5, None)]
    seen: list[PrizeAwarded] = []
    play(tournament, random.Random(7), after_step=lambda _, events: seen.extend(of_type(events, PrizeAwarded)))
    awarded = sorted((e.place, e.amount, e.ticket_to) for e in seen)
    assert [amount for _, amount, _ in awarded] in ([10, 10, 10, 5], [10, 10, 10, 3, 2])  # a tie splits the 5
    assert [ticket for _, _, ticket in awarded[:3]] == ["main"] * 3
    assert tournament.cashier.pool == 0 and tournament.cashier.balanced()


def test_freeroll_registers_for_free_and_pays_the_house_pool() -> None:
    settings = _settings(start_time=0.0, price=EntryPrice(0), freeroll_pool=90)
    tournament = Tournament(settings, first)
    tournament.open_registration(0)
    for name in ("a", "b", "c"):
        tournament.register(name, Free(), 0)
    tournament.tick(0)
    assert [p.amount for p in tournament.prizes or ()] == [90]
    play(tournament, random.Random(1), now=0.0)
    assert tournament.cashier.pool == 0 and tournament.cashier.paid_out == 90 and tournament.cashier.balanced()


def test_icm_deal_proposed_and_accepted_by_all_pays_and_completes() -> None:
    settings = _settings(start_time=0.0, payout=PayoutKind.TABLE, payout_percentages=(50, 30, 20),
                         price=EntryPrice(100, 0))
    tournament = running(settings, 3)
    table = tournament.tables[1]
    for entry, stack in ((1, 1_500), (2, 900), (3, 600)):
        table.seats[table.seat_of(entry) or 0].stack = stack
    events = tournament.propose_deal("p1", DealKind.ICM)
    proposed = of_type(events, DealProposed)[0]
    assert proposed.shares == (("p1", 115), ("p2", 98), ("p3", 87))  # type: ignore[attr-defined]
    assert not tournament.may_start_hand(1, 1)
    tournament.accept_deal("p2")
    events = tournament.accept_deal("p3")
    assert DealAccepted("p3") in events and Completed(None, "deal") in events
    assert sorted((e.player, e.amount) for e in of_type(events, PrizeAwarded)) == [  # type: ignore[attr-defined]
        ("p1", 115), ("p2", 98), ("p3", 87)]
    assert tournament.cashier.pool == 0 and tournament.cashier.balanced()


def test_declined_deal_lets_play_go_on() -> None:
    tournament = running(_settings(start_time=0.0), 3)
    tournament.propose_deal("p1", DealKind.EQUAL)
    tournament.decline_deal("p2")
    assert tournament.may_start_hand(1, 1)


def test_payment_details_are_private_to_the_payer() -> None:
    tournament = Tournament(_settings(start_time=10.0), first)
    tournament.open_registration(0)
    events = tournament.register("ana", Balance(), 1)
    assert Paid("ana", 1, "entry", "balance", 110) in view_for_player(events, "ana")
    assert view_for_player(events, "bob") == [Registered("ana", 1)]
    assert view_for_player(events, None) == [Registered("ana", 1)]


def test_secondary_prizes_go_to_the_places_after_the_paid_ones_from_the_house() -> None:
    settings = _settings(start_time=0.0, seats_per_table=9, secondary_places=2, secondary_amount=20,
                         secondary_description="Friday freeroll seat")
    tournament = running(settings, 9)  # 900 pool: 450/270/180, then 4th and 5th a secondary prize
    seen: list[PrizeAwarded] = []
    play(tournament, random.Random(11), after_step=lambda _, events: seen.extend(of_type(events, PrizeAwarded)))
    secondary = sorted((e.place, e.amount) for e in seen if e.secondary is not None)
    money = sorted((e.place, e.amount) for e in seen if e.secondary is None)
    assert sum(amount for _, amount in money) == 900 and tournament.cashier.pool == 0
    assert sum(amount for _, amount in secondary) == 40 and all(place in (4, 5) for place, _ in secondary)
    assert tournament.cashier.house_funded == 40 and tournament.cashier.balanced()


def test_a_deal_divides_the_pool_not_the_house_secondary_prizes() -> None:
    settings = _settings(start_time=0.0, seats_per_table=9, payout=PayoutKind.TABLE, payout_percentages=(60, 40),
                         secondary_places=1, secondary_amount=20)
    tournament = running(settings, 3)
    assert tournament.remaining_prizes() == [180, 120, 0]
    events = tournament.propose_deal("p1", DealKind.EQUAL)
    assert of_type(events, DealProposed)[0].shares == (("p1", 100), ("p2", 100), ("p3", 100))  # type: ignore[attr-defined]


@pytest.mark.parametrize(("fmt", "size", "seats"), [
    (Format.SIT_AND_GO, 9, 9), (Format.HEADS_UP, 6, 2), (Format.SHOOTOUT, 20, 6), (Format.SPIN, 3, 3),
    (Format.FIFTY50, 10, 10), (Format.DOUBLE_OR_NOTHING, 7, 7),
])
def test_every_format_plays_to_completion_with_everything_accounted(fmt: Format, size: int, seats: int) -> None:
    bounties = BountySettings(progressive=True) if fmt is Format.SIT_AND_GO else None
    settings = _settings(format=fmt, sit_and_go_size=size, seats_per_table=seats, bounties=bounties,
                         price=EntryPrice(100, 10, 20 if bounties else 0))
    tournament = Tournament(settings, random.Random(size).randrange)
    tournament.open_registration(0)
    for index in range(size):
        tournament.register(f"p{index}", Balance(), 0)
    if tournament.phase is Phase.REGISTERING:
        tournament.start(0, spin_draw=123_456)
    play(tournament, random.Random(size))
    assert tournament.phase is Phase.COMPLETE
    cashier = tournament.cashier
    assert cashier.pool == 0 and cashier.bounty_fund == 0 and cashier.balanced()
    assert all(entry.place is not None for entry in tournament.entries.values())
    assert tournament.chips_retired + tournament.chips_in_play() == tournament.chips_issued


def test_disconnected_player_whose_clock_runs_out_is_folded_and_keeps_his_seat() -> None:
    # R-TOUR-6 through the runner's clock: time_out marks him absent; he is played for until he is back.
    tournament = running(_settings(start_time=0.0), 3)
    tournament.start_hand(1, rigged_deck(tournament, 1, {}, "2c 7d 9h Js 3s"), 1)
    table = tournament.tables[1]
    options = table.legal_actions()
    assert options is not None
    first_to_act = table.seats[options.seat].entry
    events = tournament.time_out(1, first_to_act, 30)
    assert any(type(e).__name__ == "TimedOut" for e in events)
    assert tournament.entries[first_to_act].table == 1 and table.seats[options.seat].absent
    tournament.reconnect(first_to_act)
    assert not table.seats[options.seat].absent


def test_spin_multiplier_is_drawn_once_and_only_when_the_three_are_in() -> None:
    settings = _settings(format=Format.SPIN, sit_and_go_size=3, seats_per_table=3, price=EntryPrice(10, 1))
    tournament = Tournament(settings, first)
    tournament.open_registration(0)
    tournament.register("a", Balance(), 1)
    with pytest.raises(TableRuleError, match="when the three players are in"):
        tournament.draw_spin(5)
    tournament.register("b", Balance(), 1)
    tournament.register("c", Balance(), 1)
    assert tournament.draw_spin(999_999) == [SpinMultiplierDrawn(1_000, 10_000)]
    with pytest.raises(TableRuleError, match="drawn once"):
        tournament.draw_spin(0)
    tournament.start(2)
    assert tournament.cashier.pool == 10_000 and tournament.cashier.house_funded == 10_000 - 30
