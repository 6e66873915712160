"""Tournament money to the chip (issue 26; RULES.md "Decisions (turn 3), tournament money"): every worked
number of the decisions is an assertion here."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.events import HandEnded
from engine.tournament.deals import DealKind, chip_chop_deal, chip_proportional_deal, deal, equal_deal, icm_deal
from engine.tournament.director import Phase, Tournament
from engine.tournament.events import Completed, DealProposed, Eliminated, PrizeAwarded, Ranked
from engine.tournament.formats import (
    SPIN_MULTIPLIERS,
    Format,
    SpinRow,
    fifty50_shares,
    half_out_shares,
    spin_expected_return,
)
from engine.tournament.money import Balance, EntryPrice
from engine.tournament.settings import PayoutKind, TournamentSettings
from tests.engine.tournament.helpers import LEVELS, first, of_type, play_hand, rigged_deck, running


def _settings(**changes: object) -> TournamentSettings:
    values: dict[str, object] = {"tournament_id": "t", "schedule": LEVELS, "starting_stack": 1_000,
                                 "price": EntryPrice(100, 10), "seats_per_table": 6}
    values.update(changes)
    return TournamentSettings(**values)  # type: ignore[arg-type]


def _awards(events: list[object]) -> list[tuple[str, int, int]]:
    return sorted((e.player, e.place, e.amount) for e in events if isinstance(e, PrizeAwarded))


def _tie_at_the_cut(fmt: Format) -> tuple[Tournament, list[object], dict[int, int]]:
    """6 × 100, 3 paid. Hand 1: p1's aces bust p2 and p3 (6 → 4 left). Hand 2: p4 and p5, 1,000 chips each,
    move in against p1's aces and bust together: they tie for 3rd, the last paid place."""
    tournament = running(_settings(format=fmt, sit_and_go_size=6), 6)
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc", 3: "Qd Qc"}, "2c 7d 9h 8s 3s")
    events: list[object] = list(play_hand(tournament, 1, deck, 10, shovers={1, 2, 3}))
    assert tournament.live_count == 4 and tournament.phase is not Phase.COMPLETE
    stacks = {entry: tournament.stack_of(entry) for entry in (4, 5, 6)}
    assert stacks[4] == stacks[5]  # equal stacks: they tie (TDA 2022 Rule 21)
    seats = {entry: tournament.tables[1].seat_of(entry) for entry in (1, 6)}
    deck = rigged_deck(tournament, 1, {1: "Ad Ac", 4: "Kh Ks", 5: "Qh Qs"}, "2d 7h 9c 8d 3h")
    hand = play_hand(tournament, 1, deck, 20, shovers={1, 4, 5})
    events += hand
    assert tournament.phase is Phase.COMPLETE
    ended = [event for event in hand if isinstance(event, HandEnded)][-1]
    return tournament, events, {entry: dict(ended.stacks)[seat] for entry, seat in seats.items() if seat is not None}


def test_double_or_nothing_tie_at_the_cut_shares_only_the_last_paid_place() -> None:
    tournament, events, _ = _tie_at_the_cut(Format.DOUBLE_OR_NOTHING)
    # Survivors 200 + 200, the tied pair 100 + 100 (today: four players 150 each).
    assert [(player, amount) for player, _, amount in _awards(events)] == [
        ("p1", 200), ("p4", 100), ("p5", 100), ("p6", 200)]
    assert {(e.player, e.place) for e in of_type(events, PrizeAwarded)} >= {("p4", 3), ("p5", 3)}  # type: ignore[attr-defined]
    assert tournament.cashier.pool == 0 and tournament.cashier.balanced()


def test_fifty50_tie_at_the_cut_shares_the_last_place_and_rounds_once() -> None:
    tournament, events, stacks = _tie_at_the_cut(Format.FIFTY50)
    assert stacks == {1: 5_000, 6: 1_000}
    # Each paid place: 300 / 3 = 100 equally; 300 by chips between the survivors (250 / 50); the tied pair
    # shares 3rd place's 100 (today 278 / 172 / 75 / 75 on other stacks: four players in the money).
    assert [(player, amount) for player, _, amount in _awards(events)] == [
        ("p1", 350), ("p4", 50), ("p5", 50), ("p6", 150)]
    assert tournament.cashier.pool == 0 and tournament.cashier.balanced()
    assert half_out_shares(600, 3, [[5_000], [1_000], [0, 0]], fifty50=True) == [[350], [150], [50, 50]]


def test_fifty50_rounds_once_largest_remainder_ties_to_the_larger_stack() -> None:
    # 1,000 for 3,000 / 2,000 / 1,000 chips → 417 / 333 / 250 (today 417 / 334 / 249).
    assert fifty50_shares(1_000, [3_000, 2_000, 1_000]) == [417, 333, 250]
    assert fifty50_shares(1_000, [1_000, 3_000, 2_000]) == [250, 417, 333]
    assert sum(fifty50_shares(1_001, [7, 5, 3, 1])) == 1_001


@pytest.mark.parametrize(("percentages", "entrants", "pool", "expected"), [
    ((50, 30, 20), 2, 200, [125, 75]),          # 62.5 % / 37.5 % of the pool
    ((50, 30, 20), 2, 1_000, [625, 375]),
    ((40, 30, 20, 10), 3, 901, [401, 300, 200]),  # 4/9, 3/9, 2/9 of 901 = 400.4 / 300.3 / 200.2 → 401
])
def test_more_paid_places_than_entrants_share_the_whole_pool_in_proportion(
        percentages: tuple[int, ...], entrants: int, pool: int, expected: list[int]) -> None:
    settings = _settings(start_time=0.0, payout=PayoutKind.TABLE, payout_percentages=percentages,
                         price=EntryPrice(pool // entrants, 0))
    tournament = running(settings, entrants)
    tournament.cashier.fund(pool - tournament.cashier.pool)  # an overlay makes the pool the worked one
    tournament.prizes = None
    tournament._fix_prizes()
    assert [prize.amount for prize in tournament.prizes or ()] == expected


def test_two_entrants_on_a_three_place_table_leave_the_pool_empty() -> None:
    # 50/30/20 with 2 entrants of 100: today 100 + 60 paid and 40 kept in the pool.
    settings = _settings(start_time=0.0, payout=PayoutKind.TABLE, payout_percentages=(50, 30, 20),
                         price=EntryPrice(100, 0))
    tournament = running(settings, 2)
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc"}, "2c 7d 9h Js 3s")
    events = play_hand(tournament, 1, deck, 10, shovers={1, 2})
    assert Completed("p1", "last_player") in events
    assert _awards(list(events)) == [("p1", 1, 125), ("p2", 2, 75)]
    assert tournament.cashier.pool == 0


def test_a_satellite_with_more_tickets_than_entrants_gives_every_entrant_a_ticket_of_an_equal_share() -> None:
    settings = _settings(start_time=0.0, payout=PayoutKind.TICKETS, ticket_value=10, ticket_to="main",
                         price=EntryPrice(25, 0))
    tournament = running(settings, 2)  # pool 50: five tickets of 10, two entrants
    assert [(p.amount, p.ticket_to) for p in tournament.prizes or ()] == [(25, "main"), (25, "main")]


# --- deals -----------------------------------------------------------------------------------------------


def test_the_four_named_deals_on_the_worked_final_table() -> None:
    stacks, prizes = [5_000, 3_000, 2_000], [5_000, 3_000, 2_000]
    assert equal_deal(stacks, prizes) == [3_334, 3_333, 3_333]
    # chip-proportional: remaining prize money × stack / chips in play
    assert chip_proportional_deal(stacks, prizes) == [5_000, 3_000, 2_000]
    assert icm_deal(stacks, prizes) == [3_839, 3_275, 2_886]
    # chip-chop: the next payout (2,000) to everyone, the rest (4,000) by chips — what "chips" paid before
    assert chip_chop_deal(stacks, prizes) == [4_000, 3_200, 2_800]
    assert deal(DealKind.CHIPS, stacks, prizes) == [5_000, 3_000, 2_000]
    assert deal(DealKind.CHIP_CHOP, stacks, prizes) == [4_000, 3_200, 2_800]
    assert [kind.value for kind in DealKind] == ["equal", "chips", "icm", "chip_chop"]


def test_chip_proportional_pays_the_remaining_pool_exactly_with_odd_units_to_bigger_stacks() -> None:
    assert chip_proportional_deal([1, 1, 1], [50, 30, 20]) == [34, 33, 33]
    assert chip_proportional_deal([600, 300, 100], [1_001, 0, 0]) == [601, 300, 100]


def test_every_offer_shows_every_finalists_number_before_anyone_accepts() -> None:
    settings = _settings(start_time=0.0, payout=PayoutKind.TABLE, payout_percentages=(50, 30, 20),
                         price=EntryPrice(10_000 // 3, 0))
    tournament = running(settings, 3)
    tournament.cashier.fund(10_000 - tournament.cashier.pool)
    tournament.prizes = None
    tournament._fix_prizes()
    table = tournament.tables[1]
    for entry, stack in ((1, 5_000), (2, 3_000), (3, 2_000)):
        table.seats[table.seat_of(entry) or 0].stack = stack
    offers = tournament.deal_offers()
    assert offers == {
        "equal": [("p1", 3_334), ("p2", 3_333), ("p3", 3_333)],
        "chips": [("p1", 5_000), ("p2", 3_000), ("p3", 2_000)],
        "icm": [("p1", 3_839), ("p2", 3_275), ("p3", 2_886)],
        "chip_chop": [("p1", 4_000), ("p2", 3_200), ("p3", 2_800)],
    }
    events = tournament.propose_deal("p2", DealKind.CHIP_CHOP)
    proposed = of_type(events, DealProposed)[0]
    assert proposed.shares == (("p1", 4_000), ("p2", 3_200), ("p3", 2_800))  # type: ignore[attr-defined]
    tournament.accept_deal("p1")
    events = tournament.accept_deal("p3")
    assert _awards(events) == [("p1", 1, 4_000), ("p2", 2, 3_200), ("p3", 3, 2_800)]
    assert tournament.cashier.pool == 0


# --- Spin -----------------------------------------------------------------------------------------------


def test_the_default_spin_table_returns_the_three_buy_ins_on_average() -> None:
    expected = Fraction(sum(row.multiplier * row.chances for row in SPIN_MULTIPLIERS), 1_000_000)
    assert expected == 3  # one buy-in × the multiplier: the room keeps only the fees (today 2.624: 87.5 %)
    assert spin_expected_return() == 1
    host_table = (SpinRow(2, 750_000, (100,)), SpinRow(4, 250_000, (100,)))
    assert spin_expected_return(host_table) == Fraction(5, 6)  # a host's own table: 83.3 % back


def test_a_hosts_own_spin_table_is_played_as_published() -> None:
    table = (SpinRow(2, 750_000, (100,)), SpinRow(4, 250_000, (70, 30)))
    settings = _settings(format=Format.SPIN, sit_and_go_size=3, seats_per_table=3, price=EntryPrice(10, 1),
                         spin_table=table)
    tournament = Tournament(settings, first)
    tournament.open_registration(0)
    for name in ("a", "b", "c"):
        tournament.register(name, Balance(), 1)
    tournament.start(2, spin_draw=999_999)
    assert tournament.spin_multiplier == 4 and [p.amount for p in tournament.prizes or ()] == [28, 12]


# --- shootout -------------------------------------------------------------------------------------------


def test_shootout_players_out_in_one_round_rank_by_their_place_at_their_own_table() -> None:
    # 6 players, two tables of 3, 50/30/20 of 600. Round 1 busts, in time order: 3rd at table 1, 3rd at
    # table 2, 2nd at table 2, 2nd at table 1. The two 2nd places tie for 3rd–4th and share 3rd's 120;
    # the two 3rd places tie for 5th–6th (today the bust time across tables decided who got 120).
    settings = _settings(format=Format.SHOOTOUT, sit_and_go_size=6, seats_per_table=3,
                         payout=PayoutKind.TABLE, payout_percentages=(50, 30, 20), price=EntryPrice(100, 0))
    tournament = running(settings, 6)
    at = {number: sorted(s.entry for s in table.seats.values()) for number, table in tournament.tables.items()}
    assert at == {1: [1, 3, 5], 2: [2, 4, 6]}
    events: list[object] = []
    events += play_hand(tournament, 1, rigged_deck(tournament, 1, {1: "As Ah", 3: "Kd Kc"}, "2c 7d 9h 8s 3s"),
                        10, shovers={1, 3})
    events += play_hand(tournament, 2, rigged_deck(tournament, 2, {2: "As Ah", 6: "Kd Kc"}, "2c 7d 9h 8s 3s"),
                        11, shovers={2, 6})
    events += play_hand(tournament, 2, rigged_deck(tournament, 2, {2: "Ad Ac", 4: "Kh Ks"}, "2d 7h 9c 8d 3h"),
                        12, shovers={2, 4})
    assert not of_type(events, PrizeAwarded)  # the round is not over: nobody's place is known yet
    events += play_hand(tournament, 1, rigged_deck(tournament, 1, {1: "Ad Ac", 5: "Kh Ks"}, "2d 7h 9c 8d 3h"),
                        13, shovers={1, 5})
    assert tournament.shootout_round == 2
    places = {e.player: e.place for e in of_type(events, Ranked)}  # type: ignore[attr-defined]
    assert places == {"p3": 5, "p6": 5, "p4": 3, "p5": 3}
    assert _awards(events) == [("p4", 3, 60), ("p5", 3, 60)]
    assert all(e.place is None for e in of_type(events, Eliminated))  # type: ignore[attr-defined]
    assert {e.number: e.tied for e in tournament.entries.values() if e.number in (3, 4, 5, 6)} == \
        {3: 2, 4: 2, 5: 2, 6: 2}
    events = play_hand(tournament, next(iter(tournament.tables)),
                       rigged_deck(tournament, next(iter(tournament.tables)), {1: "As Ah", 2: "Kd Kc"},
                                   "2c 7d 9h Js 3s"), 20, shovers={1, 2})
    assert _awards(events) == [("p1", 1, 300), ("p2", 2, 180)]
    assert tournament.cashier.pool == 0
