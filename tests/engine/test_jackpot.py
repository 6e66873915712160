"""Bad-beat, Monte-Carlo and smart jackpots (R-JACK-1, R-JACK-2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.jackpot import (
    JackpotError,
    bad_beat_hand,
    contribution_from_rake,
    find_bad_beat,
    monte_carlo_hand,
    smart_jackpot_active,
    split_bad_beat,
    table_is_eligible,
)
from engine.rake import Percentage


def holdem(hole: str, board: str) -> str | None:
    value = bad_beat_hand("holdem", parse_cards(hole), parse_cards(board))
    return None if value is None else value.category


# --- Hold'em: four queens or better, both hole cards, pocket pair for quads ---------------------------------


def test_holdem_four_queens_with_pocket_queens_qualifies() -> None:
    assert holdem("Qs Qh", "Qd Qc 2s 7h 9d") == "four of a kind"


def test_holdem_four_jacks_do_not_qualify() -> None:
    assert holdem("Js Jh", "Jd Jc 2s 7h 9d") is None


def test_holdem_four_aces_with_pocket_aces_qualifies() -> None:
    assert holdem("As Ah", "Ad Ac 2s 7h 9d") == "four of a kind"


def test_holdem_quads_with_one_hole_card_do_not_qualify() -> None:
    # Queens on board three times, one queen in hand: both hole cards do not form a pocket pair.
    assert holdem("Qs 9h", "Qd Qc Qh 2s 7d") is None


def test_holdem_quads_on_the_board_do_not_qualify_even_with_a_pocket_pair() -> None:
    # Board AAAA: the best hand A-A-A-A-K uses one hole card only.
    assert holdem("Ks Kh", "As Ah Ad Ac 2d") is None


def test_holdem_straight_flush_with_both_hole_cards_qualifies() -> None:
    assert holdem("5h 6h", "7h 8h 9h Kd 2c") == "straight flush"
    assert holdem("Th Jh", "Qh Kh Ah 2d 2c") == "royal flush"


def test_holdem_straight_flush_using_one_hole_card_does_not_qualify() -> None:
    assert holdem("9h 2c", "5h 6h 7h 8h Kd") is None


# --- Omaha: straight flush 6-10 or better, 2 hole + 3 board -------------------------------------------------


def test_omaha_straight_flush_six_to_ten_qualifies_and_five_high_to_nine_does_not() -> None:
    assert bad_beat_hand("omaha", parse_cards("6h 7h 2c 2d"), parse_cards("8h 9h Th Ks Kd")) is not None
    assert bad_beat_hand("omaha", parse_cards("5h 6h 2c 2d"), parse_cards("7h 8h 9h Ks Kd")) is None
    assert bad_beat_hand("omaha", parse_cards("Ah 2h Kc Kd"), parse_cards("3h 4h 5h Ks 9d")) is None  # wheel


def test_omaha_four_aces_do_not_qualify() -> None:
    assert bad_beat_hand("omaha", parse_cards("As Ah Kc Kd"), parse_cards("Ad Ac 5h 6s 9d")) is None


def test_omaha_must_use_two_hole_cards() -> None:
    # Four hearts on board plus one heart in hand is no Omaha flush, let alone a straight flush.
    assert bad_beat_hand("omaha", parse_cards("Th 2c 3d 4s"), parse_cards("6h 7h 8h 9h Kd")) is None


# --- 5-card draw: four aces or better -----------------------------------------------------------------------


def test_five_card_draw_four_aces_qualify_four_kings_do_not() -> None:
    assert bad_beat_hand("five_card_draw", parse_cards("As Ah Ad Ac 2d")) is not None
    assert bad_beat_hand("five_card_draw", parse_cards("Ks Kh Kd Kc 2d")) is None
    assert bad_beat_hand("five_card_draw", parse_cards("2d 3d 4d 5d 6d")) is not None


def test_unknown_game_is_rejected() -> None:
    with pytest.raises(JackpotError, match="no bad-beat jackpot"):
        bad_beat_hand("razz", parse_cards("As Ah Ad Ac 2d"))  # type: ignore[arg-type]


# --- who wins -----------------------------------------------------------------------------------------------


def test_find_bad_beat_picks_the_best_qualifying_losing_hand() -> None:
    board = parse_cards("Qd Kd Ad Qc Kc")
    shown = {
        1: parse_cards("Qs Qh"),  # four queens, loses
        2: parse_cards("Ks Kh"),  # four kings, loses: the best losing hand
        6: parse_cards("Jd Td"),  # royal flush, wins
    }
    beat = find_bad_beat("holdem", shown, board, main_pot_winners={6})
    assert beat is not None
    assert beat.losers == (2,)
    assert beat.loser_hand.category == "four of a kind"
    assert beat.winners == (6,)


def test_find_bad_beat_ignores_winners_and_non_qualifying_hands() -> None:
    board = parse_cards("Qd Qc 2s 7h 9d")
    assert find_bad_beat("holdem", {1: parse_cards("Qs Qh"), 2: parse_cards("As Ks")}, board, {1}) is None
    assert find_bad_beat("holdem", {1: parse_cards("Js Jh"), 2: parse_cards("As Ks")}, board, {2}) is None


def test_find_bad_beat_needs_main_pot_winners() -> None:
    with pytest.raises(JackpotError, match="winners"):
        find_bad_beat("holdem", {1: parse_cards("Qs Qh")}, parse_cards("Qd Qc 2s 7h 9d"), set())


# --- the split ----------------------------------------------------------------------------------------------


def test_split_forty_twenty_twenty_twenty() -> None:
    payout = split_bad_beat(100_000, losers=[2], winners=[5], others=[1, 3])
    assert payout.shares == {2: 40_000, 5: 20_000, 1: 10_000, 3: 10_000}
    assert payout.next_pool == 20_000


def test_split_remainders_stay_for_the_next_jackpot() -> None:
    payout = split_bad_beat(10_001, losers=[1], winners=[2], others=[3, 4, 5])
    assert payout.shares == {1: 4_000, 2: 2_000, 3: 666, 4: 666, 5: 666}
    assert payout.next_pool == 10_001 - 4_000 - 2_000 - 3 * 666


def test_split_with_nobody_else_dealt_in_keeps_the_others_part() -> None:
    payout = split_bad_beat(1_000, losers=[1], winners=[2], others=[])
    assert payout.shares == {1: 400, 2: 200}
    assert payout.next_pool == 400


@given(
    pool=st.integers(min_value=0, max_value=10**9),
    losers=st.integers(min_value=1, max_value=2),
    winners=st.integers(min_value=1, max_value=3),
    others=st.integers(min_value=0, max_value=7),
)
def test_split_conserves_chips(pool: int, losers: int, winners: int, others: int) -> None:
    seats = list(range(losers + winners + others))
    payout = split_bad_beat(pool, seats[:losers], seats[losers:losers + winners], seats[losers + winners:])
    assert sum(payout.shares.values()) + payout.next_pool == pool
    assert payout.next_pool >= pool * 20 // 100
    assert all(share >= 0 for share in payout.shares.values())


@pytest.mark.parametrize(
    ("pool", "losers", "winners", "others", "message"),
    [(-1, [1], [2], [], "negative"), (100, [], [2], [], "losing"), (100, [1], [], [], "winning"),
     (100, [1], [1], [], "at once")],
)
def test_split_rejects_bad_input(pool: int, losers: list[int], winners: list[int], others: list[int],
                                 message: str) -> None:
    with pytest.raises(JackpotError, match=message):
        split_bad_beat(pool, losers, winners, others)


# --- funding and conditions ---------------------------------------------------------------------------------


def test_pool_funding_is_five_percent_of_the_rake() -> None:
    assert contribution_from_rake(300) == 15           # seeds/000: 5 % of $3 = 15 cents
    assert contribution_from_rake(39) == 1             # 1.95 rounds down
    assert contribution_from_rake(300, Percentage(10, 100)) == 30
    with pytest.raises(JackpotError):
        contribution_from_rake(-1)


@pytest.mark.parametrize(
    ("changes", "eligible"),
    [({}, True), ({"play_money": True}, False), ({"tournament": True}, False), ({"table_seats": 2}, False),
     ({"players_dealt_in": 2}, False), ({"big_blind": 9}, False), ({"players_dealt_in": 3}, True)],
)
def test_table_conditions(changes: dict[str, object], eligible: bool) -> None:
    settings: dict[str, object] = {
        "play_money": False, "tournament": False, "table_seats": 6, "players_dealt_in": 6,
        "big_blind": 10, "minimum_big_blind": 10,
    }
    settings.update(changes)
    assert table_is_eligible(**settings) is eligible  # type: ignore[arg-type]


# --- Monte-Carlo and smart jackpots -------------------------------------------------------------------------


def test_monte_carlo_full_house_needs_a_pocket_pair_and_both_cards() -> None:
    board = parse_cards("9s Kd Kc 2h 3c")
    assert monte_carlo_hand(parse_cards("9h 9d"), board, {"full house"}) is not None
    assert monte_carlo_hand(parse_cards("9h Kh"), board, {"full house"}) is None
    assert monte_carlo_hand(parse_cards("9h 9d"), board, {"flush"}) is None


def test_monte_carlo_flush_needs_both_hole_cards_but_no_pair() -> None:
    board = parse_cards("2h 5h 9h Kd Kc")
    assert monte_carlo_hand(parse_cards("Ah 3h"), board, {"flush"}) is not None
    with pytest.raises(JackpotError, match="unknown hand categories"):
        monte_carlo_hand(parse_cards("Ah 3h"), board, {"big flush"})


def test_smart_jackpot_hours() -> None:
    assert smart_jackpot_active(20, {20, 21})
    assert not smart_jackpot_active(19, {20, 21})
    with pytest.raises(JackpotError):
        smart_jackpot_active(24, {20})


def test_bad_beat_read_from_a_played_hand() -> None:
    from engine.actions import Call, Check
    from engine.hand import ForcedBets, Hand, HandConfig
    from engine.jackpot import bad_beat_from_events
    from engine.structures import BettingStructure
    from engine.variants import TEXAS_HOLDEM

    # Seat 0 holds Qs Qh, seat 1 Jd Td, seat 2 2c 3h; board Qd Qc 9d 8d Kd: four queens lose to a straight flush.
    deck = parse_cards("Qs Jd 2c Qh Td 3h Qd Qc 9d 8d Kd")
    plan = ForcedBets(button_seat=2, small_blind_seat=0, small_blind=50, big_blind_seat=1, big_blind=100)
    hand = Hand.start(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit()), {0: 5000, 1: 5000, 2: 5000}, deck,
                      plan)
    while (legal := hand.legal_actions()) is not None:
        hand.act(legal.seat, Check() if legal.can_check else Call())
    beat = bad_beat_from_events(hand.events, "holdem")
    assert beat is not None
    assert (beat.losers, beat.winners, beat.others) == ((0,), (1,), (2,))
    assert beat.loser_hand.category == "four of a kind"
    payout = split_bad_beat(50_000, beat.losers, beat.winners, beat.others)
    assert payout.shares == {0: 20_000, 1: 10_000, 2: 10_000} and payout.next_pool == 10_000
