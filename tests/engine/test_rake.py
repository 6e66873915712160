"""Rake schedules and the rulebooks' rake tables (R-RAKE-1). Amounts are cents of the rulebooks' currency."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import rake
from engine.events import Event
from engine.rake import (
    CARADEPOKER_BIG_BET_GAMES,
    CARADEPOKER_LIMIT_1_2,
    CARADEPOKER_LIMIT_2_4_UP,
    CARADEPOKER_LIMIT_MICRO,
    CARADEPOKER_TABLE,
    NO_RAKE,
    PRESETS,
    TITAN_BIG_BET_1_PER_20,
    TITAN_BIG_BET_5_PER_100,
    TITAN_BIG_BET_5_PER_100_HIGH,
    TITAN_BIG_BET_MICRO,
    TITAN_LIMIT_5_PER_100,
    TITAN_LIMIT_LADDER_TO_1,
    TITAN_LIMIT_LADDER_TO_5,
    TITAN_LIMIT_MICRO,
    WHITE_LABEL_DEFAULT,
    WHITE_LABEL_FIXED_LIMIT_HIGH,
    WHITE_LABEL_FIXED_LIMIT_LOW,
    WHITE_LABEL_FIXED_LIMIT_MIDDLE,
    WHITE_LABEL_NO_LIMIT,
    WHITE_LABEL_POT_LIMIT,
    WHITE_LABEL_TABLE,
    Ladder,
    Percentage,
    PerIncrement,
    RakeError,
    RakeSchedule,
    select_schedule,
)


def total(schedule: RakeSchedule, pot: int, players: int = 6, saw_flop: bool = True) -> int:
    return schedule.rake_for_total(pot, players_dealt_in=players, saw_flop=saw_flop)


# --- seed 000: the white-label room -------------------------------------------------------------------------


def test_seed_000_minimum_is_a_threshold_five_percent_not_less_than_one_means_no_rake_under_twenty() -> None:
    # "5% del bote, pero no puede ser menos de $1. Por lo tanto, no se tomará rake ... si el bote es inferior a $20"
    schedule = RakeSchedule(Percentage(5, 100), minimum=100)
    assert total(schedule, 1_999) == 0
    assert total(schedule, 2_000) == 100
    assert total(schedule, 4_000) == 200


@pytest.mark.parametrize(
    ("players", "expected"), [(2, 100), (3, 100), (4, 200), (5, 200), (6, 250), (10, 250)]
)
def test_white_label_no_limit_two_and_a_half_percent_with_caps_by_players(players: int, expected: int) -> None:
    # 2.5 % of 100.00 = 2.50; caps 1/2/3 for 2-3/4-5/6-10 players.
    assert total(WHITE_LABEL_NO_LIMIT, 10_000, players) == expected
    assert total(WHITE_LABEL_POT_LIMIT, 10_000, players) == expected


def test_white_label_cap_three_for_six_players_and_rounding_down() -> None:
    assert total(WHITE_LABEL_NO_LIMIT, 100_000, 6) == 300
    assert total(WHITE_LABEL_NO_LIMIT, 79, 6) == 1  # 1.975 chips round down
    assert total(WHITE_LABEL_DEFAULT, 100_000, 2) == 300


def test_white_label_fixed_limit_middle_band_has_minimum_two_cents() -> None:
    assert total(WHITE_LABEL_FIXED_LIMIT_MIDDLE, 79) == 0  # 1.975 → 1 < minimum 2 → nothing
    assert total(WHITE_LABEL_FIXED_LIMIT_MIDDLE, 80) == 2
    assert total(WHITE_LABEL_FIXED_LIMIT_LOW, 79) == 1
    assert total(WHITE_LABEL_FIXED_LIMIT_HIGH, 1_000_000, 2) == 300


@pytest.mark.parametrize(
    ("small_blind", "expected"),
    [(50, WHITE_LABEL_FIXED_LIMIT_LOW), (51, WHITE_LABEL_FIXED_LIMIT_MIDDLE), (1_000, WHITE_LABEL_FIXED_LIMIT_MIDDLE),
     (1_001, WHITE_LABEL_FIXED_LIMIT_HIGH)],
)
def test_white_label_fixed_limit_row_by_small_blind_band(small_blind: int, expected: RakeSchedule) -> None:
    assert WHITE_LABEL_TABLE.select("fixed_limit", small_blind, 2 * small_blind) is expected


def test_white_label_table_rows_by_structure() -> None:
    assert WHITE_LABEL_TABLE.select("pot_limit", 5, 10) is WHITE_LABEL_POT_LIMIT
    assert WHITE_LABEL_TABLE.select("half_pot_limit", 5, 10) is WHITE_LABEL_POT_LIMIT
    assert WHITE_LABEL_TABLE.select("no_limit", 5, 10) is WHITE_LABEL_NO_LIMIT
    assert WHITE_LABEL_TABLE.select("spread_limit", 5, 10) is WHITE_LABEL_DEFAULT


# --- seed 001: the Titan-style tables -----------------------------------------------------------------------


def test_titan_limit_micro_one_cent_per_twenty_capped_at_one() -> None:
    assert [total(TITAN_LIMIT_MICRO, pot) for pot in (19, 20, 39, 40, 2_000, 2_020, 50_000)] == [0, 1, 1, 2, 100, 100,
                                                                                                   100]


def test_titan_limit_ladder_to_one_dollar() -> None:
    pots = (99, 100, 249, 250, 500, 800, 1_200, 1_500, 1_999, 2_000, 9_000)
    assert [total(TITAN_LIMIT_LADDER_TO_1, pot) for pot in pots] == [0, 10, 10, 25, 50, 65, 75, 85, 85, 100, 100]


@pytest.mark.parametrize(("players", "expected"), [(2, 100), (3, 200), (4, 200), (5, 300), (10, 300)])
def test_titan_five_per_hundred_caps_one_two_three(players: int, expected: int) -> None:
    assert total(TITAN_LIMIT_5_PER_100, 10_000, players) == expected
    assert total(TITAN_BIG_BET_5_PER_100, 10_000, players) == expected
    assert total(TITAN_BIG_BET_5_PER_100, 1_999, players) == min(95, expected)


def test_titan_limit_ladder_to_five_dollars_by_players() -> None:
    assert total(TITAN_LIMIT_LADDER_TO_5, 9_999, 4) == 0
    assert total(TITAN_LIMIT_LADDER_TO_5, 10_000, 4) == 200
    assert total(TITAN_LIMIT_LADDER_TO_5, 17_500, 4) == 300
    assert total(TITAN_LIMIT_LADDER_TO_5, 35_000, 4) == 500
    assert total(TITAN_LIMIT_LADDER_TO_5, 35_000, 3) == 200  # 2-3 players: "-" after the first step, max 2.00


def test_titan_big_bet_micro_ladder() -> None:
    pots = (9, 10, 25, 40, 55, 70, 85, 100, 115, 130, 149, 150, 10_000)
    assert [total(TITAN_BIG_BET_MICRO, pot) for pot in pots] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 10, 10]


def test_titan_big_bet_one_per_twenty_and_high_caps() -> None:
    assert total(TITAN_BIG_BET_1_PER_20, 1_990) == 99
    assert total(TITAN_BIG_BET_1_PER_20, 5_000) == 100
    assert total(TITAN_BIG_BET_5_PER_100_HIGH, 20_000, 3) == 200
    assert total(TITAN_BIG_BET_5_PER_100_HIGH, 20_000, 4) == 500
    assert total(TITAN_BIG_BET_5_PER_100_HIGH, 5_050, 4) == 250


# --- seed 004: Caradepoker ----------------------------------------------------------------------------------


def test_caradepoker_big_bet_small_pots_pay_one_per_twenty_under_four_euros() -> None:
    assert total(CARADEPOKER_BIG_BET_GAMES, 399) == 19
    assert total(CARADEPOKER_BIG_BET_GAMES, 400) == 20
    assert total(CARADEPOKER_BIG_BET_GAMES, 499) == 20  # 5 per full 1.00 from 4.00 up
    assert total(CARADEPOKER_BIG_BET_GAMES, 1_999) == 95


@pytest.mark.parametrize(("players", "expected"), [(2, 75), (3, 200), (4, 200), (5, 300), (10, 300)])
def test_caradepoker_big_bet_caps(players: int, expected: int) -> None:
    assert total(CARADEPOKER_BIG_BET_GAMES, 100_000, players) == expected


def test_caradepoker_limit_tables() -> None:
    assert total(CARADEPOKER_LIMIT_MICRO, 199) == 9
    assert total(CARADEPOKER_LIMIT_MICRO, 200) == 10
    assert total(CARADEPOKER_LIMIT_MICRO, 10_000, 3) == 75
    assert total(CARADEPOKER_LIMIT_MICRO, 10_000, 4) == 100
    assert total(CARADEPOKER_LIMIT_1_2, 999) == 25
    assert total(CARADEPOKER_LIMIT_1_2, 1_000, 2) == 50
    assert total(CARADEPOKER_LIMIT_1_2, 5_000, 3) == 75
    assert total(CARADEPOKER_LIMIT_1_2, 5_000, 4) == 200
    assert total(CARADEPOKER_LIMIT_2_4_UP, 1_000, 4) == 100
    assert total(CARADEPOKER_LIMIT_2_4_UP, 1_000, 2) == 75


@pytest.mark.parametrize(
    ("structure", "big_blind", "expected"),
    [("no_limit", 2, CARADEPOKER_BIG_BET_GAMES), ("half_pot_limit", 1_000, CARADEPOKER_BIG_BET_GAMES),
     ("fixed_limit", 2, CARADEPOKER_LIMIT_MICRO), ("spread_limit", 50, CARADEPOKER_LIMIT_MICRO),
     ("fixed_limit", 100, CARADEPOKER_LIMIT_1_2), ("fixed_limit", 200, CARADEPOKER_LIMIT_2_4_UP)],
)
def test_caradepoker_table_rows(structure: str, big_blind: int, expected: RakeSchedule) -> None:
    assert CARADEPOKER_TABLE.select(structure, big_blind // 2, big_blind) is expected


# --- behaviour shared by every schedule ---------------------------------------------------------------------


@pytest.mark.parametrize("schedule", list(PRESETS.values()), ids=list(PRESETS))
def test_no_flop_no_drop_for_every_preset(schedule: RakeSchedule) -> None:
    assert schedule.rake_for_pots([5_000, 2_000], players_dealt_in=6, saw_flop=False) == [0, 0]


def test_every_preset_names_its_source() -> None:
    for schedule in PRESETS.values():
        assert schedule.name and ("seeds/" in schedule.source or schedule is NO_RAKE)


def test_tournaments_and_play_money_take_no_rake() -> None:
    assert select_schedule(WHITE_LABEL_TABLE, "no_limit", 50, 100, tournament=True) is NO_RAKE
    assert select_schedule(CARADEPOKER_TABLE, "fixed_limit", 50, 100, play_money=True) is NO_RAKE
    assert select_schedule(CARADEPOKER_TABLE, "fixed_limit", 50, 100) is CARADEPOKER_LIMIT_1_2
    assert NO_RAKE.rake_for_pots([100_000], players_dealt_in=9, saw_flop=True) == [0]


def test_rake_is_shared_among_pots_in_proportion_and_cap_is_for_the_hand() -> None:
    # 2.5 % of 140.00 is 3.50, capped at 1.00 for 3 players; 100.00 : 40.00 → 71.4 : 28.6 → 71 and 29.
    assert WHITE_LABEL_NO_LIMIT.rake_for_pots([10_000, 4_000], players_dealt_in=3, saw_flop=True) == [71, 29]
    # Uncapped: 2.5 % of 40.10 = 1.0025 → 100; shares 74.8, 24.9, 0.25 → 75, 25, 0.
    assert WHITE_LABEL_NO_LIMIT.rake_for_pots([3_000, 1_000, 10], players_dealt_in=6, saw_flop=True) == [75, 25, 0]


def test_games_without_no_flop_no_drop_rake_preflop_hands() -> None:
    schedule = RakeSchedule(PerIncrement(5, 100), no_flop_no_drop=False)
    assert schedule.rake_for_pots([1_000], players_dealt_in=2, saw_flop=False) == [50]


def test_scaled_preset_for_a_smaller_chip() -> None:
    scaled = CARADEPOKER_BIG_BET_GAMES.scaled(10)
    assert scaled.rake_for_total(3_990, players_dealt_in=2, saw_flop=True) == 190  # 1 per 200 under 4,000
    assert scaled.rake_for_total(1_000_000, players_dealt_in=2, saw_flop=True) == 750


@given(
    pots=st.lists(st.integers(min_value=0, max_value=200_000), min_size=1, max_size=6),
    players=st.integers(min_value=2, max_value=10),
    preset=st.sampled_from(sorted(PRESETS)),
)
def test_rake_allocation_conserves_chips_and_never_exceeds_a_pot(pots: list[int], players: int, preset: str) -> None:
    schedule = PRESETS[preset]
    shares = schedule.rake_for_pots(pots, players_dealt_in=players, saw_flop=True)
    assert sum(shares) == schedule.rake_for_total(sum(pots), players_dealt_in=players, saw_flop=True)
    assert all(0 <= share <= pot for share, pot in zip(shares, pots, strict=True))
    cap = schedule.cap_for(players)
    assert cap is None or sum(shares) <= cap


# --- bad input ----------------------------------------------------------------------------------------------


def test_negative_pot_is_rejected() -> None:
    with pytest.raises(RakeError, match="negative"):
        WHITE_LABEL_NO_LIMIT.rake_for_pots([100, -1], players_dealt_in=3, saw_flop=True)


def test_no_players_is_rejected() -> None:
    with pytest.raises(RakeError, match="players dealt in"):
        WHITE_LABEL_NO_LIMIT.rake_for_pots([100], players_dealt_in=0, saw_flop=True)


def test_unknown_structure_is_rejected() -> None:
    with pytest.raises(RakeError, match="unknown betting structure"):
        WHITE_LABEL_TABLE.select("table_stakes", 5, 10)


def test_table_without_a_row_is_rejected() -> None:
    table = rake.RakeTable("tiny", "test", (rake.RakeRow(frozenset({"no_limit"}), None, NO_RAKE),))
    with pytest.raises(RakeError, match="no row"):
        table.select("fixed_limit", 5, 10)


@pytest.mark.parametrize(
    "build",
    [
        lambda: Percentage(1, 0),
        lambda: PerIncrement(1, 0),
        lambda: Ladder(((100, 10), (50, 20))),
        lambda: Ladder(()),
        lambda: RakeSchedule(Percentage(1, 20), caps=((4, 100), (2, 200))),
        lambda: RakeSchedule(Percentage(1, 20), small_pot_limit=400),
        lambda: RakeSchedule(Percentage(1, 20), minimum=-1),
    ],
)
def test_malformed_schedules_are_rejected(build: object) -> None:
    with pytest.raises(RakeError):
        build()  # type: ignore[operator]


# --- the hand takes the rake (R-RAKE-1 through engine.hand) -------------------------------------------------


def play_check_down(schedule: RakeSchedule, fold_preflop: bool) -> list[Event]:
    from engine.actions import Call, Check, Fold
    from engine.cards import parse_cards
    from engine.hand import ForcedBets, Hand, HandConfig
    from engine.structures import BettingStructure
    from engine.variants import TEXAS_HOLDEM

    deck = parse_cards("As Kd 2c Ah Kh 3d 7s 8s 9c Td 4h")
    plan = ForcedBets(button_seat=2, small_blind_seat=0, small_blind=500, big_blind_seat=1, big_blind=1_000)
    config = HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit(), rake=schedule)
    hand = Hand.start(config, {0: 50_000, 1: 50_000, 2: 50_000}, deck, plan)
    while (legal := hand.legal_actions()) is not None:
        if fold_preflop and legal.can_fold and not legal.can_check:
            hand.act(legal.seat, Fold())
        else:
            hand.act(legal.seat, Check() if legal.can_check else Call())
    return list(hand.events)


def test_hand_takes_the_white_label_rake_and_conserves_chips() -> None:
    from engine.events import HandEnded, RakeTaken

    events = play_check_down(WHITE_LABEL_NO_LIMIT, fold_preflop=False)
    # Pot 3,000 chips (three big blinds) with 3 players: 2.5 % = 75, under the 3-player cap of 100.
    assert [event for event in events if isinstance(event, RakeTaken)] == [RakeTaken(0, 75)]
    ended = events[-1]
    assert isinstance(ended, HandEnded) and ended.rake == 75
    assert sum(stack for _, stack in ended.stacks) + ended.rake == 150_000


def test_hand_won_before_the_flop_pays_no_rake() -> None:
    from engine.events import HandEnded

    ended = play_check_down(WHITE_LABEL_NO_LIMIT, fold_preflop=True)[-1]
    assert isinstance(ended, HandEnded) and ended.rake == 0
