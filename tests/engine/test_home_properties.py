"""Chip conservation with the home-game options on (issue 19, R-HOME-1/3/4), over random hands: run it twice
(random answers, side pots, hi/lo), bomb pots and the 7-2 bounty, with rake; every step keeps stacks + pot =
the chips brought, the end keeps final stacks + rake = the chips brought, no card is dealt twice, and a hand run
twice dealt both boards top-down from the one deck (R-FAIR-1). Examples: ``CROUPIER_PROPERTY_EXAMPLES``."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, BetOrRaise, Call, Check, Fold, Muck, RunItTwice, Show
from engine.cards import full_deck
from engine.events import BoardPotAwarded, HandEnded, SevenDeuceBountyPaid
from engine.hand import ForcedBets, Hand, HandConfig
from engine.home import HomeOptions
from engine.home.bomb_pot import as_bomb_pot
from engine.rake import WHITE_LABEL_NO_LIMIT
from engine.structures import BettingStructure
from engine.variants import OMAHA, OMAHA_HI_LO, TEXAS_HOLDEM
from engine.view import HandView

EXAMPLES = int(os.environ.get("CROUPIER_PROPERTY_EXAMPLES", "30"))
GAMES = {"texas_holdem": TEXAS_HOLDEM, "omaha": OMAHA, "omaha_hi_lo": OMAHA_HI_LO}
STRUCTURES = {"no_limit": BettingStructure.no_limit, "pot_limit": BettingStructure.pot_limit,
              "fixed_limit": lambda: BettingStructure.fixed_limit(10)}


def choices(hand: Hand, data: st.DataObject) -> list[Action]:
    legal = hand.legal_actions()
    assert legal is not None
    if legal.can_run_twice:
        return [RunItTwice(True), RunItTwice(True), RunItTwice(False)]
    actions: list[Action] = []
    if legal.can_show:
        actions += [Show(), Muck()]
    if legal.can_fold:
        actions.append(Fold())
    if legal.can_check:
        actions.append(Check())
    if legal.can_call:
        actions += [Call(), Call()]  # calls make all-ins, so run-outs, more often
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        actions += [BetOrRaise(legal.max_raise_to),
                    BetOrRaise(data.draw(st.integers(legal.min_raise_to, legal.max_raise_to), label="raise"))]
    return actions


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("structure", STRUCTURES)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_home_options_conserve_chips(game: str, structure: str, data: st.DataObject) -> None:
    variant = GAMES[game]
    count = data.draw(st.integers(2, 6), label="players")
    stacks = data.draw(st.lists(st.integers(1, 300), min_size=count, max_size=count), label="stacks")
    deck = list(data.draw(st.permutations(full_deck()), label="deck"))
    button = data.draw(st.integers(0, count - 1), label="button")
    order = [(button + step) % count for step in range(1, count + 1)]
    heads_up = count == 2
    plan = ForcedBets(button_seat=button, small_blind_seat=button if heads_up else order[0], small_blind=5,
                      big_blind_seat=order[0] if heads_up else order[1], big_blind=10)
    bomb = data.draw(st.booleans(), label="bomb pot")
    plan = as_bomb_pot(plan, hand_number=4 if bomb else 3, every=4, ante=data.draw(st.integers(1, 60), label="ante"))
    bounty = data.draw(st.sampled_from([0, 5, 100]), label="7-2 bounty") if variant is TEXAS_HOLDEM else 0
    if bounty and data.draw(st.booleans(), label="deal someone 7-2"):
        seven = data.draw(st.sampled_from([card for card in deck if card.rank == 7]), label="seven")
        deuce = data.draw(st.sampled_from([card for card in deck if card.rank == 2]), label="deuce")
        holder = data.draw(st.integers(0, count - 1), label="7-2 position")
        for card, place in ((seven, holder), (deuce, holder + count)):  # hold'em: one card a round
            where = deck.index(card)
            deck[where], deck[place] = deck[place], deck[where]
    options = HomeOptions(run_it_twice=True, seven_deuce_bounty=bounty)
    rake = data.draw(st.sampled_from([None, WHITE_LABEL_NO_LIMIT]), label="rake")
    hand = Hand.start(HandConfig(variant, STRUCTURES[structure](), rake=rake, manual_showdown=True, home=options),
                      dict(enumerate(stacks)), deck, plan)
    total = sum(stacks)
    for _ in range(300):
        if hand.legal_actions() is None:
            break
        assert sum(hand.stacks().values()) + hand.pot_total == total
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, data.draw(st.sampled_from(choices(hand, data)), label="action"))
    assert hand.is_over
    ended = hand.events[-1]
    assert isinstance(ended, HandEnded)
    assert sum(hand.final_stacks().values()) + hand.rake == total
    assert all(stack >= 0 for stack in hand.final_stacks().values())
    # the one reducer folds the new events to the same stacks before it reads the hand's last event
    folded = HandView.replay(hand.events[:-1])
    assert folded.stacks() == hand.final_stacks() and folded.second_board == list(hand.second_board)
    holes = [card for seat in hand.seats for card in hand.hole_cards(seat)]
    second = hand.second_board[_shared(hand):]  # the second run's own cards
    dealt = holes + list(hand.board) + list(second)
    assert len(set(dealt)) == len(dealt), "a card was dealt twice"
    if hand.second_board:
        # both runs top-down from the one deck: the second board's own cards follow the first board's
        assert tuple(deck[hand.cards_dealt - len(second):hand.cards_dealt]) == tuple(second)
        halves = [event for event in hand.events if isinstance(event, BoardPotAwarded)]
        assert {event.board for event in halves} <= {1, 2}
    for paid in (event for event in hand.events if isinstance(event, SevenDeuceBountyPaid)):
        assert paid.total == sum(chips for _, chips in paid.paid) and all(0 < chips <= bounty
                                                                         for _, chips in paid.paid)


def _shared(hand: Hand) -> int:
    """Board cards both runs share: the common prefix of the two boards."""
    shared = 0
    for first, second in zip(hand.board, hand.second_board, strict=False):
        if first != second:
            break
        shared += 1
    return shared
