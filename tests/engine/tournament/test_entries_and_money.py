"""Entries and money (R-TOUR-2, R-TOUR-3; seed 000 "Torneos"): worked numbers, every unit accounted."""

from __future__ import annotations

import pytest

from engine.errors import InvalidAmount, TableRuleError
from engine.tournament.director import Phase, Tournament
from engine.tournament.events import Credited, Eliminated, LateRegistrationClosed, Paid, Rebought, RebuyOffered
from engine.tournament.money import Balance, Cashier, EntryPrice, Free, Ticket
from engine.tournament.settings import AddOn, Rebuys, TournamentSettings
from tests.engine.tournament.helpers import LEVELS, first, of_type, play_hand, rigged_deck, running


def test_entry_splits_into_pool_fee_and_knockout_part() -> None:
    cashier = Cashier(EntryPrice(buy_in=100, fee=10, knockout=50))
    cashier.pay_entry("ana", 1, Balance())
    cashier.pay_entry("bob", 2, Balance())
    assert (cashier.paid_in, cashier.pool, cashier.fees, cashier.bounty_fund) == (320, 200, 20, 100)
    assert cashier.balanced()


def test_ticket_worth_more_credits_the_excess_when_the_setting_is_on() -> None:
    cashier = Cashier(EntryPrice(10, 1), excess_ticket_credit=True)
    events = cashier.pay_entry("ana", 1, Ticket(15, "t-1"))
    assert events == [Paid("ana", 1, "entry", "ticket", 15), Credited("ana", 4, "excess_ticket_value")]
    assert (cashier.pool, cashier.fees, cashier.paid_out) == (10, 1, 4)
    assert cashier.balanced()


def test_ticket_worth_more_adds_the_excess_to_the_pool_when_the_setting_is_off() -> None:
    cashier = Cashier(EntryPrice(10, 1), excess_ticket_credit=False)
    cashier.pay_entry("ana", 1, Ticket(15, "t-1"))
    assert (cashier.pool, cashier.fees, cashier.paid_out) == (14, 1, 0)
    assert cashier.balanced()


def test_ticket_worth_less_or_for_another_tournament_is_refused_and_nothing_changes() -> None:
    cashier = Cashier(EntryPrice(10, 1), tournament_id="sunday")
    with pytest.raises(InvalidAmount, match="worth 10, the entry costs 11"):
        cashier.pay_entry("ana", 1, Ticket(10, "t-1"))
    with pytest.raises(TableRuleError, match="for tournament monday"):
        cashier.pay_entry("ana", 1, Ticket(11, "t-2", valid_for="monday"))
    assert (cashier.paid_in, cashier.pool, cashier.fees) == (0, 0, 0)


@pytest.mark.parametrize(("credit", "as_money", "net_out"), [
    (True, False, 15), (True, True, 15), (False, False, 15), (False, True, 15),
])
def test_unregister_refunds_the_way_it_was_paid_and_the_player_ends_where_he_started(
    credit: bool, as_money: bool, net_out: int,
) -> None:
    cashier = Cashier(EntryPrice(10, 1), excess_ticket_credit=credit, ticket_refund_as_money=as_money)
    cashier.pay_entry("ana", 1, Ticket(15, "t-1"))
    events = cashier.refund_entry(1)
    assert cashier.by_player_out["ana"] == net_out == cashier.by_player_in["ana"]
    assert (cashier.pool, cashier.fees) == (0, 0)
    assert cashier.balanced()
    refund = next(e for e in events if isinstance(e, Credited) and e.reason == "refund")
    assert refund.as_ticket == (None if as_money else "t-1")


def test_unregister_before_the_start_refunds_balance_money() -> None:
    settings = TournamentSettings("t", start_time=1_000, schedule=LEVELS, price=EntryPrice(100, 10))
    tournament = Tournament(settings, first)
    tournament.open_registration(0)
    tournament.register("ana", Balance(), 1)
    events = tournament.unregister("ana", 2)
    assert of_type(events, Credited) == [Credited("ana", 110, "refund")]
    assert tournament.entries == {} and tournament.cashier.pool == 0 and tournament.cashier.balanced()


def test_freeroll_entry_costs_nothing_and_the_house_funds_the_pool() -> None:
    settings = TournamentSettings("free", start_time=10, schedule=LEVELS, price=EntryPrice(0), freeroll_pool=500)
    tournament = running(settings, 4)
    assert (tournament.cashier.paid_in, tournament.cashier.house_funded, tournament.cashier.pool) == (0, 500, 500)
    with pytest.raises(InvalidAmount):
        Cashier(EntryPrice(10)).pay_entry("x", 1, Free())


def test_guarantee_overlay_tops_up_the_pool_when_prizes_are_fixed() -> None:
    # 4 × 100 = 400 collected, 1,000 guaranteed: the house adds a 600 overlay.
    settings = TournamentSettings("g", start_time=10, schedule=LEVELS, price=EntryPrice(100, 10), guarantee=1_000)
    tournament = running(settings, 4)
    assert tournament.cashier.pool == 1_000 and tournament.cashier.house_funded == 600
    assert [prize.amount for prize in tournament.prizes or ()] == [650, 350]
    assert tournament.cashier.balanced()


def test_guarantee_below_the_collected_pool_adds_nothing() -> None:
    settings = TournamentSettings("g", start_time=10, schedule=LEVELS, price=EntryPrice(100, 10), guarantee=300)
    tournament = running(settings, 4)
    assert (tournament.cashier.pool, tournament.cashier.house_funded) == (400, 0)


def _rebuy_settings(**changes: object) -> TournamentSettings:
    values: dict[str, object] = {
        "tournament_id": "r", "start_time": 0.0, "schedule": LEVELS, "price": EntryPrice(100, 10),
        "starting_stack": 1_000, "seats_per_table": 6,
        "rebuys": Rebuys(until_seconds=1_200, threshold=1_000, chips=1_000, price=100, fee=10),
        "add_on": AddOn(chips=2_000, price=100, fee=10, window_seconds=300),
    }
    values.update(changes)
    return TournamentSettings(**values)  # type: ignore[arg-type]


def test_rebuy_refused_above_the_threshold_and_allowed_at_it() -> None:
    tournament = running(_rebuy_settings(), 3)
    tournament.tables[1].seats[tournament.tables[1].seat_of(1) or 0].stack = 1_001  # above 1,000
    with pytest.raises(InvalidAmount, match="1000 chips or fewer; entry 1 has 1001"):
        tournament.rebuy(1, Balance(), 10)
    before = tournament.cashier.pool
    events = tournament.rebuy(2, Balance(), 10)  # exactly at the threshold
    assert of_type(events, Rebought) == [Rebought("p2", 2, 1_000, 1)]
    assert tournament.stack_of(2) == 2_000 and tournament.cashier.pool == before + 100
    assert tournament.cashier.fees == 3 * 10 + 10 and tournament.cashier.balanced()


def test_rebuy_refused_after_the_rebuy_period() -> None:
    tournament = running(_rebuy_settings(), 3)
    with pytest.raises(TableRuleError, match="rebuy period is over"):
        tournament.rebuy(1, Balance(), 1_200)


def test_busted_player_is_offered_a_rebuy_and_stays_in_when_he_takes_it() -> None:
    tournament = running(_rebuy_settings(), 2)
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc"}, "2c 7d 9h Js 3s")
    events = play_hand(tournament, 1, deck, 10, shovers={1, 2})
    assert of_type(events, RebuyOffered) == [RebuyOffered("p2", 2)]
    assert not of_type(events, Eliminated)
    tournament.rebuy(2, Balance(), 11)
    assert tournament.stack_of(2) == 1_000 and tournament.entries[2].live


def test_busted_player_who_declines_the_rebuy_is_out() -> None:
    tournament = running(_rebuy_settings(), 3)
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc"}, "2c 7d 9h Js 3s")
    play_hand(tournament, 1, deck, 10, shovers={1, 2})
    events = tournament.decline_rebuy(2, 12)
    assert [(e.player, e.place) for e in of_type(events, Eliminated)] == [("p2", 3)]  # type: ignore[attr-defined]


def test_one_add_on_in_its_window_only() -> None:
    tournament = running(_rebuy_settings(), 3)
    with pytest.raises(TableRuleError, match="end of the rebuy period"):
        tournament.add_on(1, Balance(), 100)
    tournament.add_on(1, Balance(), 1_250)
    assert tournament.stack_of(1) == 3_000
    with pytest.raises(TableRuleError, match="already took the add-on"):
        tournament.add_on(1, Balance(), 1_260)
    with pytest.raises(TableRuleError, match="end of the rebuy period"):
        tournament.add_on(2, Balance(), 1_500)


def test_late_registration_closes_at_the_first_elimination() -> None:
    settings = TournamentSettings("late", start_time=0.0, schedule=LEVELS, seats_per_table=6,
                                  late_registration_seconds=3_600, starting_stack=1_000)
    tournament = running(settings, 3)
    assert tournament.late_registration_open
    tournament.register("late1", Balance(), 5)  # seated at once
    assert tournament.entries[4].table == 1
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc"}, "2c 7d 9h Js 3s")
    events = play_hand(tournament, 1, deck, 10, shovers={1, 2})
    assert of_type(events, LateRegistrationClosed) == [LateRegistrationClosed("first_elimination", 4)]
    assert [(e.player, e.place) for e in of_type(events, Eliminated)] == [("p2", 4)]  # type: ignore[attr-defined]
    with pytest.raises(TableRuleError, match="registration is closed"):
        tournament.register("late2", Balance(), 11)


def test_late_registration_closes_at_its_time() -> None:
    settings = TournamentSettings("late", start_time=0.0, schedule=LEVELS, late_registration_seconds=900)
    tournament = running(settings, 3)
    events = tournament.tick(900)
    assert of_type(events, LateRegistrationClosed) == [LateRegistrationClosed("time", 3)]


def test_re_entry_during_late_registration_then_places_given_when_it_closes() -> None:
    settings = TournamentSettings("re", start_time=0.0, schedule=LEVELS, seats_per_table=6, starting_stack=1_000,
                                  late_registration_seconds=900, re_entries=1)
    tournament = running(settings, 3)
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc"}, "2c 7d 9h Js 3s")
    events = play_hand(tournament, 1, deck, 10, shovers={1, 2})
    assert [(e.player, e.place) for e in of_type(events, Eliminated)] == [("p2", None)]  # type: ignore[attr-defined]
    with pytest.raises(TableRuleError, match="already has 1 live entry"):
        tournament.register("p1", Balance(), 11)
    tournament.register("p2", Balance(), 12)  # re-entry: a new entry, a new buy-in
    assert tournament.entries[4].player == "p2" and tournament.cashier.pool == 400
    with pytest.raises(TableRuleError, match="every entry and re-entry"):
        tournament.entries[4].live = False
        tournament.register("p2", Balance(), 13)
    tournament.entries[4].live = True
    events = tournament.tick(900)
    assert [(e.entry, e.place) for e in events if type(e).__name__ == "Ranked"] == [(2, 4)]  # type: ignore[attr-defined]


def test_multi_entry_lets_a_player_hold_two_live_entries() -> None:
    settings = TournamentSettings("multi", start_time=10.0, schedule=LEVELS, entries_per_player=2)
    tournament = Tournament(settings, first)
    tournament.open_registration(0)
    tournament.register("ana", Balance(), 1)
    tournament.register("ana", Balance(), 2)
    with pytest.raises(TableRuleError, match="already has 2 live entries"):
        tournament.register("ana", Balance(), 3)
    tournament.register("bob", Balance(), 3)
    tournament.tick(10)
    assert tournament.phase is Phase.FINAL_TABLE and sorted(tournament.entries) == [1, 2, 3]


def test_private_tournament_needs_the_password() -> None:
    settings = TournamentSettings("p", start_time=10.0, schedule=LEVELS, password="s3cret")
    tournament = Tournament(settings, first)
    tournament.open_registration(0)
    with pytest.raises(TableRuleError, match="wrong password"):
        tournament.register("ana", Balance(), 1, password="guess")
    tournament.register("ana", Balance(), 1, password="s3cret")
    assert len(tournament.entries) == 1
