"""Draw games with worked numbers: 2-7 Triple Draw and 5-card draw (R-DRAW-1, R-BET-FL, R-BET-PL, R-RANK-4)."""

from __future__ import annotations

import pytest

from engine.actions import BetOrRaise, Call, Check, Draw, Fold
from engine.cards import Card, full_deck, parse_cards
from engine.draw import seeded_reshuffle
from engine.errors import IllegalAction, NotYourTurn
from engine.events import CardsDrawn, DrawnCardsDealt, PotAwarded, view_for
from engine.hand import ForcedBets, Hand, HandConfig, Phase
from engine.structures import BettingStructure
from engine.variants import DEUCE_TO_SEVEN_TRIPLE_DRAW, FIVE_CARD_DRAW
from tests.engine.deal_helpers import stacked_deck

LIMIT = BettingStructure.fixed_limit(100, 200)


def _blinds(count: int) -> ForcedBets:
    if count == 2:
        return ForcedBets(button_seat=1, small_blind_seat=1, small_blind=50, big_blind_seat=0, big_blind=100)
    return ForcedBets(button_seat=count - 1, small_blind_seat=0, small_blind=50, big_blind_seat=1, big_blind=100)


def _limp_around(hand: Hand) -> None:
    while hand.phase is not Phase.DRAW:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, Check() if legal.can_check else Call())


def test_reshuffled_stub_never_gives_a_player_its_own_discards() -> None:
    deck = list(full_deck())
    received: list[tuple[Card, ...]] = []

    def record_order(discards: tuple[Card, ...], number: int) -> tuple[Card, ...]:
        received.append(discards)
        return discards

    hand = Hand.start(HandConfig(DEUCE_TO_SEVEN_TRIPLE_DRAW, LIMIT), dict.fromkeys(range(6), 1000), deck,
                      _blinds(6), reshuffle=record_order)
    _limp_around(hand)
    own = {seat: hand.hole_cards(seat) for seat in range(6)}
    for seat in range(4):  # seats 0-3 throw all five: 20 of the 22 stub cards are dealt
        hand.act(seat, Draw(own[seat]))
    assert hand.hole_cards(3) == tuple(deck[45:50])
    hand.act(4, Draw())
    events = hand.act(5, Draw(own[5]))
    dealt = next(event for event in events if isinstance(event, DrawnCardsDealt))
    # Seat 5 gets the last 2 stub cards, then 3 from the reshuffled discards of seats 0-3 (not its own).
    assert dealt.cards[:2] == (deck[50], deck[51])
    assert received == [tuple(card for seat in range(4) for card in own[seat])]
    assert dealt.cards[2:] == own[0][:3]
    assert not set(dealt.cards) & set(own[5])
    assert hand.phase is Phase.BETTING


def test_seeded_reshuffle_is_a_deterministic_permutation_without_own_discards() -> None:
    deck = list(full_deck())
    hands = []
    for seed in (b"a", b"b"):
        hand = Hand.start(HandConfig(DEUCE_TO_SEVEN_TRIPLE_DRAW, LIMIT), dict.fromkeys(range(6), 1000), deck,
                          _blinds(6), reshuffle=seeded_reshuffle(seed))
        _limp_around(hand)
        for seat in range(6):
            thrown = hand.hole_cards(seat)
            hand.act(seat, Draw(thrown))
            assert not set(hand.hole_cards(seat)) & set(thrown)
        hands.append(hand.hole_cards(5))
    assert hands[0] != hands[1]  # another seed, another order


def test_draw_order_and_bad_discards_leave_the_hand_unchanged() -> None:
    hand = Hand.start(HandConfig(DEUCE_TO_SEVEN_TRIPLE_DRAW, LIMIT), dict.fromkeys(range(3), 1000),
                      list(full_deck()), _blinds(3))
    _limp_around(hand)
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.max_discards) == (0, 5)  # left of the button draws first
    before = (len(hand.events), hand.hole_cards(0))
    foreign = hand.hole_cards(1)[0]
    with pytest.raises(IllegalAction, match="not in your hand"):
        hand.act(0, Draw((foreign,)))
    with pytest.raises(IllegalAction, match="timed-out draw stands pat"):
        hand.act(0, Draw(hand.hole_cards(0)[:1], timed_out=True))
    with pytest.raises(IllegalAction, match="this is a draw"):
        hand.act(0, Check())
    with pytest.raises(NotYourTurn):
        hand.act(1, Draw())
    assert (len(hand.events), hand.hole_cards(0)) == before
    events = hand.act(0, Draw(hand.hole_cards(0)[:2]))
    assert CardsDrawn(0, 2) in events
    # The count is public, the cards private (R-DRAW-1 visibility).
    assert not [event for event in view_for(events, 1) if isinstance(event, DrawnCardsDealt)]
    assert [event for event in view_for(events, 0) if isinstance(event, DrawnCardsDealt)]


def test_stand_pat_penalty_lasts_one_betting_round() -> None:
    hand = Hand.start(HandConfig(DEUCE_TO_SEVEN_TRIPLE_DRAW, LIMIT), {0: 1000, 1: 1000}, list(full_deck()),
                      _blinds(2))
    hand.act(1, Call())
    hand.act(0, Check())
    hand.act(0, Draw(timed_out=True))  # the clock ran out: stands pat
    hand.act(1, Draw(hand.hole_cards(1)[:1]))
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0
    assert legal.can_check and legal.min_raise_to is None
    with pytest.raises(IllegalAction, match="draw clock expired"):
        hand.act(0, BetOrRaise(100))
    hand.act(0, Check())
    hand.act(1, BetOrRaise(100))
    legal = hand.legal_actions()
    assert legal is not None and legal.call_amount == 100 and legal.min_raise_to is None  # call or fold only
    hand.act(0, Call())
    hand.act(0, Draw())  # in time: the penalty is lifted
    hand.act(1, Draw())
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.min_raise_to) == (0, 200)  # third round: the big bet


def test_triple_draw_bet_sizes_and_deuce_to_seven_showdown() -> None:
    # Seat 0: 7-5-4-3-2 (the best low); seat 1: 8-6-4-3-2.
    deck = stacked_deck(DEUCE_TO_SEVEN_TRIPLE_DRAW, ["7c 5d 4h 3s 2c", "8c 6d 4c 3d 2d"])
    hand = Hand.start(HandConfig(DEUCE_TO_SEVEN_TRIPLE_DRAW, LIMIT), {0: 1000, 1: 1000}, deck, _blinds(2))
    sizes = []
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.max_discards is not None:
            hand.act(legal.seat, Draw())
            continue
        if legal.min_raise_to is not None and (legal.is_bet or hand.street == "predraw") and legal.seat == 1:
            sizes.append((hand.street, legal.min_raise_to))
            hand.act(legal.seat, BetOrRaise(legal.min_raise_to))
            continue
        hand.act(legal.seat, Check() if legal.can_check else Call())
    assert sizes == [("predraw", 200), ("first_draw", 100), ("second_draw", 200), ("third_draw", 200)]
    awards = [(event.seat, event.amount) for event in hand.events if isinstance(event, PotAwarded)]
    assert awards == [(0, 1400)]  # 2 x (200 + 100 + 200 + 200)
    assert hand.final_stacks() == {0: 1700, 1: 300}


def test_five_card_draw_pot_limit_and_a_fold_to_one() -> None:
    deck = stacked_deck(FIVE_CARD_DRAW, ["Ac Ad As 2c 3d", "Kc Kd 7s 8h 9c", "4c 5d 6h Jc Qs"])
    plan = ForcedBets(button_seat=2, small_blind_seat=0, small_blind=5, big_blind_seat=1, big_blind=10)
    hand = Hand.start(HandConfig(FIVE_CARD_DRAW, BettingStructure.pot_limit()), dict.fromkeys(range(3), 1000),
                      deck, plan)
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.min_raise_to, legal.max_raise_to) == (2, 20, 35)
    hand.act(2, Fold())
    hand.act(0, Call())
    hand.act(1, Check())
    hand.act(0, Draw(parse_cards("2c 3d")))
    hand.act(1, Draw(parse_cards("7s 8h 9c")))
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.min_raise_to, legal.max_raise_to) == (0, 10, 20)
    hand.act(0, BetOrRaise(20))
    hand.act(1, Fold())
    assert hand.final_stacks() == {0: 1010, 1: 990, 2: 1000}
