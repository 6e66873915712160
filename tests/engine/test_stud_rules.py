"""7-card stud and stud Hi/Lo rules with worked numbers (R-STUD-1, R-BET-FL, R-GAME-DECK, R-POT-2)."""

from __future__ import annotations

import pytest

from engine.actions import BetOrRaise, BringIn, Call, Check, Fold
from engine.cards import parse_cards
from engine.errors import IllegalAction, InvalidAmount
from engine.events import (
    BettingRoundStarted,
    BoardDealt,
    BringInPosted,
    CardsDealtFaceDown,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    UpCardsDealt,
    view_for,
)
from engine.hand import ForcedBets, Hand, HandConfig
from engine.structures import BettingStructure
from engine.stud import best_showing_position, bring_in_position, showing_key
from engine.variants import SEVEN_CARD_STUD, SEVEN_CARD_STUD_HI_LO
from tests.engine.deal_helpers import stacked_deck

LIMIT = BettingStructure.fixed_limit(100, 200)


def _plan(count: int, ante: int = 10, bring_in: int = 25, minimum_bet: int = 0) -> ForcedBets:
    return ForcedBets(button_seat=count - 1, small_blind_seat=None, small_blind=0, big_blind_seat=None,
                      big_blind=minimum_bet, ante=ante, bring_in=bring_in)


FOUR_HANDS = [
    "As Ks 2h",
    "Qd Jd 2c 2d 3c Tc Jc",
    "9c 8c Kd Ah 4d Td Qc",
    "7h 6h 5s 5h 9d Th Qh",
]


def _four_handed() -> Hand:
    deck = stacked_deck(SEVEN_CARD_STUD, FOUR_HANDS, live=[[0, 1, 2, 3]] + [[1, 2, 3]] * 4)
    return Hand.start(HandConfig(SEVEN_CARD_STUD, LIMIT), dict.fromkeys(range(4), 1000), deck, _plan(4))


def test_lowest_up_card_brings_in_clubs_lowest_on_a_tie() -> None:
    hand = _four_handed()
    assert hand.pot_total == 40  # four antes of 10
    legal = hand.legal_actions()
    assert legal is not None
    # Up cards 2h, 2c, Kd, 5s: the deuces tie, clubs is the lowest suit -> seat 1 (2c).
    assert legal.seat == 1
    assert (legal.bring_in_amount, legal.min_raise_to, legal.max_raise_to) == (25, 100, 100)
    assert not legal.can_fold and not legal.can_call
    with pytest.raises(IllegalAction, match="bring-in or complete"):
        hand.act(1, Fold())
    with pytest.raises(InvalidAmount, match="exactly 100"):
        hand.act(1, BetOrRaise(50))


def test_completion_then_fixed_raises_and_the_bring_in_owes_the_difference() -> None:
    hand = _four_handed()
    events = hand.act(1, BringIn())
    assert BringInPosted(1, 25) in events
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2
    # Completing: to the full small bet of 100 (not 25 + 100).
    assert (legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (25, 100, 100)
    hand.act(2, BetOrRaise(100))
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call_amount, legal.min_raise_to) == (3, 100, 200)
    hand.act(3, BetOrRaise(200))
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call_amount, legal.min_raise_to) == (0, 200, 300)
    hand.act(0, Fold())
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call_amount) == (1, 175)  # 200 - the 25 bring-in
    hand.act(1, Call())
    hand.act(2, Call())
    assert hand.pot_total == 40 + 3 * 200


def test_best_showing_acts_first_and_bet_sizes_by_street() -> None:
    hand = _four_handed()
    for seat, action in [(1, BringIn()), (2, BetOrRaise(100)), (3, BetOrRaise(200)), (0, Fold()), (1, Call()),
                         (2, Call())]:
        hand.act(seat, action)
    # Fourth street: 2c 2d (seat 1), Kd Ah (seat 2), 5s 5h (seat 3): the pair of fives acts first.
    legal = hand.legal_actions()
    assert legal is not None and hand.street == "fourth"
    assert (legal.seat, legal.min_raise_to, legal.max_raise_to) == (3, 100, 100)
    hand.act(3, BetOrRaise(100))
    hand.act(1, Call())
    hand.act(2, Call())
    sizes = {}
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        sizes.setdefault(hand.street, (legal.seat, legal.min_raise_to))
        hand.act(legal.seat, Check())
    # Big bets (200) from fifth street (R-BET-FL); the fives stay the best showing hand.
    assert sizes == {"fifth": (3, 200), "sixth": (3, 200), "seventh": (3, 200)}
    # Seat 3 makes a heart flush (7h 6h 5h Th Qh) and wins 640 + 300.
    assert hand.final_stacks() == {0: 990, 1: 690, 2: 690, 3: 1630}


def test_no_limit_stud_highest_card_brings_in_spades_highest() -> None:
    hands = ["9c 8c Ah", "7d 7c As", "5h 4h 3d"]
    deck = stacked_deck(SEVEN_CARD_STUD, [hand + " " for hand in hands], live=[[0, 1, 2]] + [[]] * 4)
    hand = Hand.start(HandConfig(SEVEN_CARD_STUD, BettingStructure.no_limit()), dict.fromkeys(range(3), 1000),
                      deck, _plan(3, minimum_bet=100))
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1  # As over Ah
    assert (legal.bring_in_amount, legal.min_raise_to, legal.max_raise_to) == (25, 100, 990)


def test_spread_limit_stud_lowest_card_brings_in_as_in_fixed_limit() -> None:
    # R-STUD-1 (turn 2): "limit" is every limit structure; up cards Ah, 2d, 2c: the deuces tie, clubs lowest.
    hands = ["9c 8c Ah", "7d 7h 2d", "5h 4h 2c"]
    deck = stacked_deck(SEVEN_CARD_STUD, [hand + " " for hand in hands], live=[[0, 1, 2]] + [[]] * 4)
    spread = BettingStructure.spread_limit(200, 400, 400)
    hand = Hand.start(HandConfig(SEVEN_CARD_STUD, spread), dict.fromkeys(range(3), 1000), deck,
                      _plan(3, minimum_bet=100))
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2  # 2c, not the ace
    assert legal.bring_in_amount == 25 and legal.min_raise_to == 100


def test_stud_showdown_with_no_bet_on_the_last_round_best_showing_hand_shows_first() -> None:
    # Up cards at the end: seat 0 4d 9s Jh Kd, seat 1 5h 6d 8c Tc, seat 2 7h 7c 3s 3h (two pair showing).
    hands = ["2c 3c 4d 9s Jh Kd 5s", "As Ad 5h 6d 8c Tc 2d", "Qc Qd 7h 7c 3s 3h Ks"]
    deck = stacked_deck(SEVEN_CARD_STUD, hands)
    hand = Hand.start(HandConfig(SEVEN_CARD_STUD, LIMIT), dict.fromkeys(range(3), 1000), deck, _plan(3))
    hand.act(0, BringIn())  # 4d is the lowest up card
    hand.act(1, Call())
    hand.act(2, Call())
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, Check())
    # Nobody bet on seventh street: the best hand showing (seat 2) shows first, then clockwise.
    shown = [event.seat for event in hand.events if isinstance(event, HandShown)]
    assert shown == [2, 0, 1]
    assert hand.final_stacks() == {0: 965, 1: 965, 2: 1070}  # queens and sevens win the pot of 3 x 35


def test_showing_hands_count_pairs_not_straights_or_flushes() -> None:
    assert showing_key(parse_cards("9c 9d"), False) > showing_key(parse_cards("As Ks Qs Js"), False)
    assert showing_key(parse_cards("Kc Kd 2s 2h"), False) > showing_key(parse_cards("Ac Ad Kh Qs"), False)
    # Equal showings: the first player left of the button acts first.
    assert best_showing_position([parse_cards("Kc 9d"), None, parse_cards("Kh 9s")], False) == 0
    assert bring_in_position([parse_cards("3s"), parse_cards("3d")], lowest=True, thirty_two_card=False) == 1


def test_eight_players_get_a_community_seventh_card_without_betting() -> None:
    count = 8
    hands = [" ".join(str(card) for card in SEVEN_CARD_STUD.deck[6 * seat:6 * seat + 6]) for seat in range(count)]
    deck = stacked_deck(SEVEN_CARD_STUD, hands, live=[range(count)] * 4 + [[]])
    hand = Hand.start(HandConfig(SEVEN_CARD_STUD, LIMIT), dict.fromkeys(range(count), 1000), deck, _plan(count))
    while hand.street != "showdown" and not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, BringIn() if legal.bring_in_amount else (Check() if legal.can_check else Call()))
    # 48 cards dealt to 8 players, 4 left: the 7th card is one community card, face up (R-GAME-DECK).
    assert len(hand.board) == 1 and all(len(hand.hole_cards(seat)) == 6 for seat in range(count))
    assert next(event for event in hand.events if isinstance(event, BoardDealt)).street == "seventh"
    rounds = [event.street for event in hand.events if isinstance(event, BettingRoundStarted)]
    assert rounds == ["third", "fourth", "fifth", "sixth"]  # no betting on the community card
    assert sum(hand.final_stacks().values()) == 8000


def test_stud_hi_lo_splits_with_the_odd_chip_to_high() -> None:
    hands = ["As Ks Kd Kh Kc Qs Qd", "Ac 2d 3h 4s 5c 9d 9h", "Jc Jd 8c"]
    deck = stacked_deck(SEVEN_CARD_STUD_HI_LO, hands, live=[[0, 1, 2]] + [[0, 1]] * 4)
    hand = Hand.start(HandConfig(SEVEN_CARD_STUD_HI_LO, LIMIT), dict.fromkeys(range(3), 1000), deck,
                      _plan(3, ante=5))
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1  # 3h is the lowest up card
    hand.act(1, BringIn())
    hand.act(2, Fold())
    hand.act(0, Call())
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, Check())
    awards = [(event.seat, event.amount, event.share) for event in hand.events if isinstance(event, PotAwarded)]
    # Pot 65 = 3 antes of 5 + 25 + 25: quads take the high half 33 (odd chip), the wheel the low half 32.
    assert awards == [(0, 33, "high"), (1, 32, "low")]
    assert hand.final_stacks() == {0: 1003, 1: 1002, 2: 995}


def test_stud_refuses_blinds() -> None:
    deck = stacked_deck(SEVEN_CARD_STUD, ["As Ks 2h", "Qd Jd 2c"], live=[[0, 1]] + [[]] * 4)
    plan = ForcedBets(button_seat=1, small_blind_seat=0, small_blind=5, big_blind_seat=1, big_blind=10)
    with pytest.raises(ValueError, match="antes and a bring-in, not blinds"):
        Hand.start(HandConfig(SEVEN_CARD_STUD, LIMIT), {0: 100, 1: 100}, deck, plan)


def test_player_all_in_on_the_ante_still_contests_the_antes() -> None:
    # Seat 0 has just the ante: all-in before the cards, it may still win the 3 x 10 it matched.
    hands = ["Ac Ad As Ah Kc Kd Ks", "2c 3d 4h 9s Tc Qd 7h", "2d 3h 5c 9d Th Qs 8c"]
    deck = stacked_deck(SEVEN_CARD_STUD, hands)
    hand = Hand.start(HandConfig(SEVEN_CARD_STUD, LIMIT), {0: 10, 1: 1000, 2: 1000}, deck, _plan(3))
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, BringIn() if legal.bring_in_amount else (Check() if legal.can_check else Call()))
    finals = hand.final_stacks()
    assert finals[0] == 30 and sum(finals.values()) == 2010


def test_up_cards_are_public_and_down_cards_private() -> None:
    hand = _four_handed()
    view = view_for(hand.events, 0)
    others_down = [event for event in view if isinstance(event, CardsDealtFaceDown)]
    assert [(event.seat, event.count) for event in others_down] == [(1, 2), (2, 2), (3, 2)]
    ups = {event.seat: event.cards for event in view if isinstance(event, UpCardsDealt)}
    assert ups == {0: parse_cards("2h"), 1: parse_cards("2c"), 2: parse_cards("Kd"), 3: parse_cards("5s")}
    assert [event.cards for event in view if isinstance(event, HoleCardsDealt)] == [parse_cards("As Ks")]
