"""settle_hand (R-JACK-1): one finished hand's drop and bad beat, on engine hands dealt from stacked decks."""

from __future__ import annotations

from collections.abc import Collection

import pytest

from engine.actions import Call, Check
from engine.cards import Rank, parse_cards
from engine.events import Event, HandMucked, HandShown
from engine.hand import ForcedBets, Hand, HandConfig
from engine.jackpot import DEFAULT_QUALIFYING_QUADS, QUALIFYING_QUADS, JackpotError, settle_hand, settle_monte_carlo
from engine.rake import Percentage, RakeSchedule
from engine.structures import BettingStructure
from engine.variants import TEXAS_HOLDEM

FIVE_PERCENT_RAKE = RakeSchedule(Percentage(5, 100), name="five percent")


def _played(top: str, auto_muck: Collection[int] = ()) -> list[Event]:
    """Three seats, 500/1,000 blinds, button seat 2; everyone checks or calls down; pot 3,000, rake 150."""
    cards = parse_cards(top)
    deck = cards + tuple(card for card in TEXAS_HOLDEM.deck if card not in cards)
    plan = ForcedBets(button_seat=2, small_blind_seat=0, small_blind=500, big_blind_seat=1, big_blind=1000)
    config = HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit(), rake=FIVE_PERCENT_RAKE)
    hand = Hand.start(config, {0: 50_000, 1: 50_000, 2: 50_000}, deck, plan, auto_muck=auto_muck)
    while (legal := hand.legal_actions()) is not None:
        hand.act(legal.seat, Check() if legal.can_check else Call())
    return list(hand.events)


def test_a_bad_beat_is_paid_from_the_pool_with_this_hands_drop_in_it() -> None:
    # Seat 0 Qs Qh (four queens, both hole cards) loses to seat 1's Jd Td straight flush; seat 2 is the other.
    events = _played("Qs Jd 2c Qh Td 3h Qd Qc 9d 8d Kd")
    outcome = settle_hand(20_000, events, "holdem", share=Percentage(10, 100), eligible=True)
    # rake 5 % of 3,000 = 150; drop 10 % of 150 = 15; pool 20,015: 8,006 / 4,003 / 4,003, 4,003 + 0 left.
    assert outcome.drop == 15 and outcome.pool_before == 20_000
    assert outcome.paid == {0: 8_006, 1: 4_003, 2: 4_003}
    assert outcome.pool_after == 20_015 - 16_012 == 4_003
    assert outcome.beat is not None and outcome.beat.loser_hand.category == "four of a kind"


def test_a_mucked_qualifying_hand_is_no_bad_beat() -> None:
    # Seat 2 (on the button, shows last) holds the pocket queens and auto-mucks them: only the drop happens.
    events = _played("2c Jd Qs 3h Td Qh Qd Qc 9d 8d Kd", auto_muck={2})
    assert any(isinstance(event, HandMucked) and event.seat == 2 for event in events)
    assert not any(isinstance(event, HandShown) and event.seat == 2 for event in events)
    outcome = settle_hand(20_000, events, "holdem", share=Percentage(10, 100), eligible=True)
    assert (outcome.drop, outcome.paid, outcome.pool_after) == (15, {}, 20_015)


def test_an_ineligible_hand_neither_feeds_nor_wins() -> None:
    events = _played("Qs Jd 2c Qh Td 3h Qd Qc 9d 8d Kd")
    outcome = settle_hand(20_000, events, "holdem", share=Percentage(10, 100), eligible=False)
    assert (outcome.drop, outcome.paid, outcome.beat, outcome.pool_after) == (0, {}, None, 20_000)


def test_settle_hand_refuses_a_negative_pool_and_an_unfinished_hand() -> None:
    events = _played("Qs Jd 2c Qh Td 3h Qd Qc 9d 8d Kd")
    with pytest.raises(JackpotError, match="negative"):
        settle_hand(-1, events, "holdem", share=Percentage(5, 100), eligible=True)
    with pytest.raises(JackpotError, match="HandEnded"):
        settle_hand(0, events[:-1], "holdem", share=Percentage(5, 100), eligible=True)


def test_r_jack_1_four_tens_lose_to_a_straight_flush_only_at_a_four_tens_table() -> None:
    # Seat 0 Ts Th (four tens, both hole cards) loses to seat 1's Jd 9d (queen-high straight flush).
    events = _played("Ts Jd 2c Th 9d 3h Td Tc 8d 7d Qd")
    default = settle_hand(20_000, events, "holdem", share=Percentage(10, 100), eligible=True)
    assert (default.beat, default.paid, default.pool_after) == (None, {}, 20_015)  # four queens needed
    preset = settle_hand(20_000, events, "holdem", share=Percentage(10, 100), eligible=True,
                         holdem_quads=QUALIFYING_QUADS["four_tens"])
    # Pool 20,000 + drop 15 = 20,015: 40 % 8,006 to the loser, 20 % 4,003 each to the winner and the other.
    assert preset.paid == {0: 8_006, 1: 4_003, 2: 4_003} and preset.pool_after == 4_003
    assert preset.beat is not None and preset.beat.losers == (0,)
    assert QUALIFYING_QUADS[DEFAULT_QUALIFYING_QUADS] == Rank.QUEEN


def test_r_jack_2_monte_carlo_four_queens_with_a_pocket_pair_win_eighty_percent() -> None:
    # Seat 0 Qs Qh wins with four queens (both hole cards, a pocket pair); seat 1 a diamond flush, seat 2 nothing.
    events = _played("Qs 2d 3c Qh 4d 5h Qd Qc 9d 8s Kd")
    outcome, hit = settle_monte_carlo(20_000, events, {"four of a kind"}, share=Percentage(10, 100), eligible=True)
    # Drop 15 (10 % of the 150 rake); pool 20,015: 80 % = 16,012 to the winner, 4,003 seed the next pool.
    assert outcome.paid == {0: 16_012} and outcome.pool_after == 4_003 and outcome.drop == 15
    assert hit is not None and hit.winners == (0,) and hit.hand.category == "four of a kind"
    missed, _ = settle_monte_carlo(20_000, events, {"straight flush", "royal flush"}, share=Percentage(10, 100),
                                   eligible=True)
    assert (missed.paid, missed.pool_after) == ({}, 20_015)  # not a configured hand: only the drop


def test_r_jack_2_monte_carlo_trips_without_a_pocket_pair_do_not_win() -> None:
    # Seat 0 Qs 9h wins with queens full of nines (one queen in hand, no pocket pair): no Monte-Carlo jackpot.
    events = _played("Qs 2d 3c 9h 4d 5h Qd Qc 9d 8s Ks")
    outcome, hit = settle_monte_carlo(20_000, events, {"full house"}, share=Percentage(10, 100), eligible=True)
    assert hit is None and (outcome.paid, outcome.pool_after) == ({}, 20_015)
