"""Payouts (R-TOUR-5), ICM and deals: the rulebook's and the issue's worked numbers."""

from __future__ import annotations

import itertools
import time

import pytest

from engine.tournament.deals import DealKind, chip_chop_deal, deal, equal_deal, icm_deal
from engine.tournament.icm import icm_equities
from engine.tournament.payouts import (
    Prize,
    default_payouts,
    places_paid,
    split_tied_places,
    table_payouts,
    ticket_payouts,
    winner_takes_all,
    with_secondary_prize,
)
from engine.tournament.shares import apportion


def test_rulebook_ticket_example_35_entries_of_1_and_a_ticket_of_10() -> None:
    # Seed 000: pool 35, ticket 10 → three tickets, 5 in cash to 4th place.
    prizes = ticket_payouts(35 * 1, 10, "main-event")
    assert [(p.amount, p.ticket_to) for p in prizes] == [(10, "main-event")] * 3 + [(5, None)]
    assert sum(p.amount for p in prizes) == 35


def test_satellite_with_an_exact_multiple_pays_only_tickets() -> None:
    assert [(p.amount, p.is_ticket) for p in ticket_payouts(60, 20, "sunday")] == [(20, True)] * 3


def test_default_schedule_pays_about_15_percent_top_heavy_and_the_whole_pool() -> None:
    assert [places_paid(n) for n in (2, 3, 4, 6, 7, 10, 11, 100, 1_000, 3_000)] == \
        [1, 1, 2, 2, 3, 3, 3, 15, 150, 450]
    assert [p.amount for p in default_payouts(6, 600)] == [390, 210]
    assert [p.amount for p in default_payouts(100, 10_000)][:4] == [3014, 1507, 1005, 753]
    big = [p.amount for p in default_payouts(3_000, 300_000)]
    assert len(big) == 450 and sum(big) == 300_000
    assert big[0] == 44_859 and big[-1] == 100  # first ~15% of the pool, last place one buy-in
    assert all(a >= b for a, b in itertools.pairwise(big))


def test_winner_takes_all_and_a_payout_table() -> None:
    assert winner_takes_all(900) == (Prize(900),)
    assert [p.amount for p in table_payouts(1_000, [50, 30, 20])] == [500, 300, 200]
    with pytest.raises(ValueError, match="sum to 100"):
        table_payouts(1_000, [50, 30])
    with pytest.raises(ValueError, match="never pays more"):
        table_payouts(1_000, [30, 70])


def test_secondary_prize_goes_to_the_next_places() -> None:
    prizes = with_secondary_prize(default_payouts(9, 900), 2, 20, "free entry to Friday")
    assert [(p.amount, p.secondary) for p in prizes] == [
        (450, None), (270, None), (180, None), (20, "free entry to Friday"), (20, "free entry to Friday")]


def test_tied_places_share_their_prizes_equally() -> None:
    prizes = [Prize(500), Prize(300), Prize(201)]
    assert [p.amount for p in split_tied_places(prizes, 2, 2)] == [251, 250]
    assert [p.amount for p in split_tied_places(prizes, 3, 2)] == [101, 100]  # 3rd and 4th share 201
    assert [p.amount for p in split_tied_places(prizes, 4, 2)] == [0, 0]


def test_shares_pay_the_total_exactly_with_the_remainder_by_largest_fraction() -> None:
    assert apportion(100, [1, 1, 1]) == [34, 33, 33]
    assert apportion(10, [1, 1, 1, 1]) == [3, 3, 2, 2]
    assert apportion(7, [0.5, 0.25, 0.25]) == [3, 2, 2]


def test_icm_worked_check_three_players() -> None:
    equities = icm_equities([5_000, 3_000, 2_000], [50, 30, 20])
    assert [round(value, 2) for value in equities] == [38.39, 32.75, 28.86]


def test_icm_worked_check_four_players_three_prizes() -> None:
    equities = icm_equities([4_000, 3_000, 2_000, 1_000], [50, 30, 20])
    assert [round(value, 2) for value in equities] == [33.60, 29.49, 23.59, 13.32]


def test_icm_matches_the_permutation_definition() -> None:
    stacks, prizes = [7, 5, 3, 2, 1], [40, 25, 15, 12, 8]
    expected = [0.0] * len(stacks)
    for order in itertools.permutations(range(len(stacks))):
        probability, left = 1.0, sum(stacks)
        for player in order:
            probability *= stacks[player] / left
            left -= stacks[player]
        for place, player in enumerate(order):
            expected[player] += probability * prizes[place]
    assert icm_equities(stacks, prizes) == pytest.approx(expected, abs=1e-9)


def test_icm_deal_of_ten_players_is_exact_and_fast() -> None:
    stacks = [12_000, 9_500, 8_000, 7_000, 6_500, 5_000, 4_000, 3_000, 2_500, 1_000]
    prizes = [3_000, 2_000, 1_400, 1_000, 800, 600, 450, 350, 250, 150]
    started = time.perf_counter()
    shares = icm_deal(stacks, prizes)
    elapsed = time.perf_counter() - started
    assert sum(shares) == sum(prizes)
    assert shares == sorted(shares, reverse=True)
    assert elapsed < 1.0  # ~20 ms on these machines; far under the "well under a second"


def test_icm_deal_in_whole_units_pays_the_remaining_pool_exactly() -> None:
    assert icm_deal([5_000, 3_000, 2_000], [5_000, 3_000, 2_000]) == [3_839, 3_275, 2_886]
    assert icm_deal([4_000, 3_000, 2_000, 1_000], [5_000, 3_000, 2_000]) == [3_360, 2_949, 2_359, 1_332]


def test_chip_chop_deal_matches_betmgm_published_example_to_the_cent() -> None:
    # help.nj.betmgm.com: remaining 570.00, next payout 57.00 → 155.28/135.63/122.52/96.32/60.28.
    shares = chip_chop_deal([15_000, 12_000, 10_000, 6_000, 500], [20_000, 13_000, 10_000, 8_300, 5_700])
    assert shares == [15_528, 13_562, 12_252, 9_631, 6_027]
    assert sum(shares) == 57_000
    assert all(abs(a - b) <= 1 for a, b in zip(shares, [15_528, 13_563, 12_252, 9_632, 6_028], strict=True))


def test_equal_deal_gives_odd_units_to_the_bigger_stacks() -> None:
    assert equal_deal([1_000, 3_000, 2_000], [50, 30, 20]) == [33, 34, 33]
    assert deal(DealKind.EQUAL, [5, 5], [7, 0]) == [4, 3]
