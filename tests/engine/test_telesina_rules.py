"""Telesina with worked numbers: the vela, five betting rounds, the heads-up exception per pot (R-RANK-6)."""

from __future__ import annotations

from engine.actions import BetOrRaise, BringIn, Call, Check, Fold
from engine.events import BettingRoundStarted, BoardDealt, PotAwarded
from engine.hand import ForcedBets, Hand, HandConfig
from engine.rake import WHITE_LABEL_DEFAULT
from engine.structures import BettingStructure
from engine.variants import TELESINA
from tests.engine.deal_helpers import stacked_deck

LIMIT = BettingStructure.fixed_limit(100, 200)
PLAN = ForcedBets(button_seat=2, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=0,
                  ante=10, bring_in=25)
# Seat 0: junk (two pair with the vela); seat 1: the royal flush in hearts; seat 2: A-7-8-9-T of spades.
HANDS = ["7c Kc 7d 8c 8d", "Ah Kh Qh Jh Th", "As Ts 7s 8s 9s"]


def _check_down(hand: Hand) -> None:
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, Check() if legal.can_check else Call())


def test_vela_and_five_betting_rounds_and_exception_only_heads_up() -> None:
    deck = stacked_deck(TELESINA, HANDS, board="9c")
    hand = Hand.start(HandConfig(TELESINA, LIMIT), {0: 60, 1: 1000, 2: 1000}, deck, PLAN)
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1  # up cards Kc, Kh, Ts: Kh (hearts over clubs) brings in
    hand.act(1, BringIn())
    hand.act(2, BetOrRaise(100))
    hand.act(0, Call())  # all-in for 50 more
    hand.act(1, Call())
    _check_down(hand)
    rounds = [event.street for event in hand.events if isinstance(event, BettingRoundStarted)]
    assert rounds == ["second", "third", "fourth", "fifth", "vela"]
    vela = [event for event in hand.events if isinstance(event, BoardDealt)]
    assert [str(card) for card in vela[0].cards] == ["9c"] and vela[0].street == "vela"
    awards = [(event.pot_index, event.seat, event.amount) for event in hand.events if isinstance(event, PotAwarded)]
    # Side pot 100 (seats 1 and 2 only): heads-up, the lowest straight flush beats the royal flush.
    # Main pot 180 (3 antes + 3 x 50): three players contest it, the royal flush wins (R-RANK-6).
    assert awards == [(1, 2, 100), (0, 1, 180)]
    assert hand.final_stacks() == {0: 0, 1: 1070, 2: 990}


def test_heads_up_pot_lowest_straight_flush_wins() -> None:
    deck = stacked_deck(TELESINA, HANDS[1:], board="9c")
    plan = ForcedBets(button_seat=1, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=0,
                      ante=10, bring_in=25)
    hand = Hand.start(HandConfig(TELESINA, LIMIT), {0: 1000, 1: 1000}, deck, plan)
    hand.act(0, BringIn())
    hand.act(1, Call())
    _check_down(hand)
    assert hand.final_stacks() == {0: 965, 1: 1035}


def test_telesina_is_raked_even_before_the_vela() -> None:
    deck = stacked_deck(TELESINA, HANDS[1:], board="9c")
    plan = ForcedBets(button_seat=1, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=0,
                      ante=10, bring_in=25)
    hand = Hand.start(HandConfig(TELESINA, LIMIT, rake=WHITE_LABEL_DEFAULT), {0: 1000, 1: 1000}, deck, plan)
    hand.act(0, BringIn())
    hand.act(1, BetOrRaise(100))
    hand.act(0, Call())
    hand.act(0, BetOrRaise(100))
    hand.act(1, Fold())
    # Pot 220 (2 antes + 2 x 100; the uncalled 100 returned): 2.5 % = 5 chips, not "no flop, no drop" (R-RAKE-1).
    assert hand.rake == 5 and hand.final_stacks() == {0: 1105, 1: 890}
