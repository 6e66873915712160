"""32-card poker (draw) and Americana with worked numbers (R-RANK-5, R-STUD-1, R-STUD-2, R-DRAW-1)."""

from __future__ import annotations

import pytest

from engine.actions import BetOrRaise, BringIn, Call, Check, Draw, Fold, Split
from engine.cards import parse_cards
from engine.errors import IllegalAction
from engine.evaluate import evaluate_thirty_two, thirty_two_strength
from engine.events import BettingRoundStarted, HandShown, PotAwarded, SplitAccepted
from engine.hand import ForcedBets, Hand, HandConfig
from engine.structures import BettingStructure
from engine.variants import AMERICANA, THIRTY_TWO_CARD_DRAW
from tests.engine.deal_helpers import stacked_deck

LIMIT = BettingStructure.fixed_limit(100, 200)


def _blinds(count: int) -> ForcedBets:
    if count == 2:
        return ForcedBets(button_seat=1, small_blind_seat=1, small_blind=50, big_blind_seat=0, big_blind=100)
    return ForcedBets(button_seat=count - 1, small_blind_seat=0, small_blind=50, big_blind_seat=1, big_blind=100)


def _heads_up_showdown(first: str, second: str) -> list[tuple[int, int]]:
    """Seat 0 and seat 1 limp, stand pat, check down; returns the awards."""
    deck = stacked_deck(THIRTY_TWO_CARD_DRAW, [first, second])
    hand = Hand.start(HandConfig(THIRTY_TWO_CARD_DRAW, LIMIT), {0: 1000, 1: 1000}, deck, _blinds(2))
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.max_discards is not None:
            assert legal.max_discards == 4  # R-GAME-32: draw 0-4
            hand.act(legal.seat, Draw())
        else:
            hand.act(legal.seat, Check() if legal.can_check else Call())
    return [(event.seat, event.amount) for event in hand.events if isinstance(event, PotAwarded)]


def test_ace_seven_eight_nine_ten_is_the_lowest_straight() -> None:
    lowest = evaluate_thirty_two(parse_cards("As 7d 8c 9h Th"))
    assert lowest.category == "straight"
    assert lowest < evaluate_thirty_two(parse_cards("7c 8d 9s Tc Jd"))
    assert lowest > evaluate_thirty_two(parse_cards("Ac Ad As Qd Jh"))  # still a straight: beats trips
    assert _heads_up_showdown("As 7d 8c 9h Th", "7c 8d 9s Tc Jd") == [(1, 200)]


def test_flush_beats_full_house() -> None:
    assert thirty_two_strength(parse_cards("Kh Jh 9h 8h 7h")) > thirty_two_strength(parse_cards("Ac Ad As Kc Kd"))
    assert _heads_up_showdown("Kh Jh 9h 8h 7h", "Ac Ad As Kc Kd") == [(0, 200)]


def test_suits_break_ties_hearts_over_spades() -> None:
    # Same ranks A-K-Q-J-9: the ace of hearts beats the ace of spades; no split.
    assert _heads_up_showdown("As Ks Qc Jd 9h", "Ah Kh Qd Jc 9s") == [(1, 200)]


def _three_with_short_stack() -> Hand:
    # Seat 0 (all-in for 100) holds trips; seats 1 and 2 hold one pair each.
    deck = stacked_deck(THIRTY_TWO_CARD_DRAW, ["Ac Ad As 7c 8d", "Kc Kd 9h Tc Jd", "Qc Qd 9s Th Jc"])
    hand = Hand.start(HandConfig(THIRTY_TWO_CARD_DRAW, LIMIT), {0: 100, 1: 1000, 2: 1000}, deck, _blinds(3))
    hand.act(2, Call())
    hand.act(0, Call())  # all-in: 100
    hand.act(1, BetOrRaise(200))
    hand.act(2, Call())
    for seat in range(3):
        hand.act(seat, Draw())
    return hand  # main pot 300 (seats 0, 1, 2), side pot 200 (seats 1, 2)


def test_split_accepted_by_everyone_in_the_side_pot_only_splits_that_pot() -> None:
    hand = _three_with_short_stack()
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.can_split  # R-DRAW-32: first after the big blind
    assert SplitAccepted(2) in hand.act(2, Split())
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.can_split
    hand.act(1, Split())
    awards = [(event.pot_index, event.seat, event.amount, event.share) for event in hand.events
              if isinstance(event, PotAwarded)]
    # The side pot (seats 1 and 2, both accepted) is shared 100/100; seat 0 never accepted: the main pot
    # of 300 goes to showdown, where its trips win.
    assert awards == [(1, 1, 100, "split"), (1, 2, 100, "split"), (0, 0, 300, "whole")]
    assert hand.final_stacks() == {0: 300, 1: 900, 2: 900}


def test_split_declined_ends_the_offer() -> None:
    hand = _three_with_short_stack()
    hand.act(2, Split())
    hand.act(1, Check())  # declines
    awards = [(event.pot_index, event.seat, event.amount) for event in hand.events if isinstance(event, PotAwarded)]
    assert awards == [(1, 1, 200), (0, 0, 300)]  # kings beat queens for the side pot
    assert hand.final_stacks() == {0: 300, 1: 1000, 2: 800}


def test_split_offer_only_before_any_bet_and_only_while_unbroken() -> None:
    hand = _three_with_short_stack()
    hand.act(2, Check())
    legal = hand.legal_actions()
    assert legal is not None and not legal.can_split
    with pytest.raises(IllegalAction, match="no split is on offer"):
        hand.act(1, Split())


def test_heads_up_split_needs_no_showdown() -> None:
    deck = stacked_deck(THIRTY_TWO_CARD_DRAW, ["Ac Ad As 7c 8d", "Kc Kd 9h Tc Jd"])
    hand = Hand.start(HandConfig(THIRTY_TWO_CARD_DRAW, BettingStructure.no_limit()), {0: 1000, 1: 1001}, deck,
                      _blinds(2))
    hand.act(1, Call())
    hand.act(0, Check())
    hand.act(0, Draw())
    hand.act(1, Draw())
    hand.act(1, Split())  # R-DRAW-32: heads-up the first player after the big blind is the button
    hand.act(0, Split())
    assert not [event for event in hand.events if isinstance(event, HandShown)]
    assert hand.final_stacks() == {0: 1000, 1: 1001}


def _four_handed_draw_checked_down() -> Hand:
    """Seats 0 (small blind), 1 (big blind), 2 and 3 (button); seat 2 folds, the others limp and stand pat."""
    deck = stacked_deck(THIRTY_TWO_CARD_DRAW, ["Ac Ad 7s 8h 9c", "Kc Kd 7c 8d 9h", "Qc Qd 7d 8c 9d",
                                               "Jc Jd 7h 8s 9s"])
    hand = Hand.start(HandConfig(THIRTY_TWO_CARD_DRAW, LIMIT), dict.fromkeys(range(4), 1000), deck, _blinds(4))
    hand.act(2, Fold())
    hand.act(3, Call())
    hand.act(0, Call())
    hand.act(1, Check())
    for seat in (0, 1, 3):
        hand.act(seat, Draw())
    return hand


def test_thirty_two_card_draw_first_active_player_after_the_big_blind_acts_first_after_the_draw() -> None:
    # R-DRAW-32: the big blind is seat 1, seat 2 folded: seat 3 (the button) opens the betting after the draw
    # (the engine used to open left of the button, seat 0).
    hand = _four_handed_draw_checked_down()
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 3 and legal.can_split and legal.min_raise_to == 200
    order = []
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        order.append(legal.seat)
        hand.act(legal.seat, Check())
    assert order == [3, 0, 1]


def test_thirty_two_card_draw_first_after_the_big_blind_shows_first_when_nobody_bet() -> None:
    hand = _four_handed_draw_checked_down()
    for seat in (3, 0, 1):
        hand.act(seat, Check())
    shown = [event.seat for event in hand.events if isinstance(event, HandShown)]
    assert shown == [3, 0, 1]
    assert hand.final_stacks() == {0: 1200, 1: 900, 2: 1000, 3: 900}  # the aces win the 3 x 100 pot


def test_americana_highest_card_brings_in_hearts_over_diamonds() -> None:
    hands = ["7c Ad Kc 8c 9c", "7d Ah Kd 8d 9d", "7h Qs Kh 8h 9h"]
    deck = stacked_deck(AMERICANA, hands)
    plan = ForcedBets(button_seat=2, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=0,
                      ante=10, bring_in=20)
    hand = Hand.start(HandConfig(AMERICANA, LIMIT), dict.fromkeys(range(3), 1000), deck, plan)
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1  # Ah beats Ad
    assert (legal.bring_in_amount, legal.min_raise_to) == (20, 100)
    hand.act(1, BringIn())
    hand.act(2, Call())
    hand.act(0, Call())
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, Check())
    rounds = [event.street for event in hand.events if isinstance(event, BettingRoundStarted)]
    assert rounds == ["second", "third", "fourth", "fifth"]  # four betting rounds
    # Own five cards only: seats 0 and 1 both hold A-K-9-8-7 (no flush: four suited cards), seat 2 K-Q-9-8-7.
    awards = [(event.seat, event.amount) for event in hand.events if isinstance(event, PotAwarded)]
    assert awards == [(0, 45), (1, 45)]  # R-RANK-5 (turn 2): equal Americana hands split, suits do not count


def test_americana_equal_hands_split_the_pot_no_suit_tiebreak() -> None:
    # The hands: K♥Q♦J♣9♠8♥ and K♦Q♣J♠9♥8♦ (the engine used to give the whole pot to the hearts).
    hands = ["Kh Qd Jc 9s 8h", "Kd Qc Js 9h 8d"]
    deck = stacked_deck(AMERICANA, hands)
    plan = ForcedBets(button_seat=1, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=0,
                      ante=10, bring_in=20)
    hand = Hand.start(HandConfig(AMERICANA, LIMIT), {0: 1000, 1: 1000}, deck, plan)
    hand.act(0, BringIn())  # Qd over Qc brings in (highest card, hearts > diamonds > clubs > spades)
    hand.act(1, BetOrRaise(100))
    hand.act(0, Call())
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, Check())
    # Pot 2 x 10 antes + 2 x 100 = 220: 110 each.
    awards = [(event.seat, event.amount) for event in hand.events if isinstance(event, PotAwarded)]
    assert awards == [(0, 110), (1, 110)]
    assert hand.final_stacks() == {0: 1000, 1: 1000}


def test_class_constants_match_the_classes_built_on_first_use() -> None:
    import subprocess
    import sys

    from engine.evaluate.classes import STRAIGHT_FLUSH
    from engine.evaluate.thirty_two import LOWEST_STRAIGHT_FLUSH_CLASS, ROYAL_FLUSH_CLASS, thirty_two_classes

    classes = thirty_two_classes()
    assert len(classes) == ROYAL_FLUSH_CLASS == 840
    straight_flushes = [strength for strength, hand_class in enumerate(classes, 1)
                        if hand_class.category == STRAIGHT_FLUSH]
    assert min(straight_flushes) == LOWEST_STRAIGHT_FLUSH_CLASS == 836
    probe = ("import engine.evaluate.thirty_two as t; print(len(t._PLAIN), len(t._CLASSES)); "
             "t.thirty_two_strength([50, 46, 42, 38, 34]); print(len(t._PLAIN) > 0, len(t._CLASSES))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "0", "True", "1"]  # nothing built at import; built by the first evaluation
