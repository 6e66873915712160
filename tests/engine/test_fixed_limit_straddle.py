"""Fixed limit over a straddle (R-BLIND-2, R-BET-FL) and the big-blind ante (tournaments, PHH)."""

from __future__ import annotations

from engine.actions import BetOrRaise, Call, Fold
from engine.cards import full_deck
from engine.events import AntePosted
from engine.hand import ForcedBets, Hand, HandConfig
from engine.structures import BettingStructure
from engine.variants import OMAHA, TEXAS_HOLDEM


def test_fixed_limit_raise_over_a_straddle_is_one_small_bet() -> None:
    # Blinds 50/100, small bet 100, straddle 200 (a raise, counted for the cap): the next raise is to 300,
    # not 400 — every fixed-limit raise is one bet of the round (R-BET-FL; PokerKit agrees).
    plan = ForcedBets(button_seat=4, small_blind_seat=0, small_blind=50, big_blind_seat=1, big_blind=100,
                      straddle_seat=2, straddle=200)
    hand = Hand.start(HandConfig(TEXAS_HOLDEM, BettingStructure.fixed_limit(100)), dict.fromkeys(range(5), 1000),
                      list(full_deck()), plan)
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (
        3, 200, 300, 300)
    hand.act(3, BetOrRaise(300))
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (400, 400)
    hand.act(4, BetOrRaise(400))  # the cap: blind, straddle, 300, 400 = 1 bet + 3 raises
    legal = hand.legal_actions()
    assert legal is not None and legal.min_raise_to is None


def test_big_blind_ante_is_dead_money_in_the_pot_limit_maximum() -> None:
    plan = ForcedBets(button_seat=2, small_blind_seat=0, small_blind=50, big_blind_seat=1, big_blind=100,
                      big_blind_ante=100, dead_antes=True)
    hand = Hand.start(HandConfig(OMAHA, BettingStructure.pot_limit()), dict.fromkeys(range(3), 10_000),
                      list(full_deck()), plan)
    assert AntePosted(1, 100) in hand.events and hand.pot_total == 250
    legal = hand.legal_actions()
    # Pot 250 + the call of 100: the button may raise to 100 + 350 = 450.
    assert legal is not None and (legal.seat, legal.max_raise_to) == (2, 450)
    hand.act(2, Fold())
    hand.act(0, Call())
    hand.act(1, BetOrRaise(200))  # the big blind's option
    hand.act(0, Fold())
    assert hand.final_stacks() == {0: 9_900, 1: 10_100, 2: 10_000}


def test_big_blind_all_in_for_the_ante_still_contests_the_antes() -> None:
    plan = ForcedBets(button_seat=2, small_blind_seat=0, small_blind=50, big_blind_seat=1, big_blind=100,
                      big_blind_ante=100, dead_antes=True)
    hand = Hand.start(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit()), {0: 1000, 1: 100, 2: 1000},
                      list(full_deck()), plan)
    assert AntePosted(1, 100, all_in=True) in hand.events
    # The dead ante is contested by everyone still in; the small blind's live 50 only by those who match it.
    assert [(pot.amount, pot.eligible) for pot in hand.pots()] == [(100, (0, 1, 2)), (50, (0,))]
