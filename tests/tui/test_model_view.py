"""The table model draws the one reducer's hand (engine.view): after every action of random hands of hold'em,
Omaha hi/lo, stud and triple draw, a player's model shows the engine's stacks, bets (in a betting round), chips in,
board and folds, its own cards as the engine holds them, and no card another player still holds face down."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action, BetOrRaise, BringIn, Call, Check, Draw, Fold
from engine.events import HandShown, PotAwarded, UpCardsDealt, view_for
from engine.hand import ForcedBets, Hand, HandConfig, Phase
from engine.structures import BettingStructure
from engine.variants import VARIANTS
from tui.model import TableModel


def random_action(hand: Hand, rng: random.Random) -> tuple[int, Action]:
    legal = hand.legal_actions()
    assert legal is not None
    if legal.max_discards is not None:
        own = hand.hole_cards(legal.seat)
        return legal.seat, Draw(tuple(card for card in own if rng.random() < 0.3)[:legal.max_discards])
    if legal.bring_in_amount is not None:
        return legal.seat, BringIn()
    choices: list[Action] = [Check() if legal.can_check else Call(), Fold()]
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        choices += [BetOrRaise(legal.min_raise_to), BetOrRaise(legal.max_raise_to)]
    return legal.seat, rng.choice(choices)


@pytest.mark.parametrize("game", ["texas_holdem", "omaha_hi_lo", "seven_card_stud", "deuce_to_seven_triple_draw"])
def test_the_model_shows_the_engines_hand_after_every_action(game: str) -> None:
    variant = VARIANTS[game]
    stud = game == "seven_card_stud"
    rng = random.Random(game)
    for number in range(15):
        count = rng.randint(2, 5)
        stacks = {seat: rng.randint(3, 120) for seat in range(count)}
        deck = list(variant.deck)
        rng.shuffle(deck)
        plan = ForcedBets(button_seat=count - 1, small_blind_seat=None if stud else 0, small_blind=0 if stud else 1,
                          big_blind_seat=None if stud else 1, big_blind=2, ante=1 if stud else 0,
                          bring_in=1 if stud else 0)
        structure = BettingStructure.fixed_limit(2) if stud or "draw" in game else BettingStructure.pot_limit()
        hand = Hand.start(HandConfig(variant, structure), stacks, deck, plan)
        me = rng.randrange(count)
        model = TableModel("t", f"p{me}", game=game)
        for seat in range(count):
            model.apply({"type": "table", "table": "t", "hand_running": False, "max_seats": 6,
                         "seats": [{"seat": seat, "name": f"p{seat}", "stack": stacks[seat]}
                                   for seat in range(count)]})
        fed = 0
        public = set()
        while True:
            seen = view_for(hand.events, me)
            for event in seen[fed:]:
                if isinstance(event, UpCardsDealt | HandShown):
                    public.update(str(card) for card in event.cards)
                model.apply({"type": "event", "table": "t", "hand": f"t-{number}", "event": event})
            fed = len(seen)
            assert {seat: model.seats[seat].stack for seat in hand.seats} == hand.stacks()
            assert model.board == [str(card) for card in hand.board]
            if hand.is_over:
                break
            assert model.pot_total == hand.pot_total
            if hand.phase is not Phase.SHOWDOWN:  # at showdown a mucked hand is out, not folded
                assert {seat: not model.seats[seat].folded for seat in hand.seats} == {
                    seat: hand.in_hand(seat) for seat in hand.seats}
            if hand.phase is Phase.BETTING:
                assert {seat: model.seats[seat].bet for seat in hand.seats} == hand.bets()
            assert model.seats[me].cards == [str(card) for card in hand.hole_cards(me)]
            for seat in hand.seats:
                if seat != me:
                    assert set(model.seats[seat].cards) <= public
            hand.act(*random_action(hand, rng))
        awarded = [event for event in hand.events if isinstance(event, PotAwarded)]
        assert sum(chips for _, chips, _ in model.results) == sum(model.seats[seat].won for seat in hand.seats) \
            == sum(award.amount for award in awarded)
