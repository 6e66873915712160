"""Property tests for the hand state machine (issue 3), every game × every structure:

- chips are conserved at every step: stacks + chips in the pot (+ rake at the end) = starting total;
- ``legal_actions()`` is never empty until the hand ends, and then ``HandEnded`` is the last event;
- every listed legal action is accepted (``can_act``), and the one taken is applied without error;
- a random illegal action is rejected with ``IllegalAction`` (or a subclass) and the hand is unchanged;
- the same holds with players leaving out of turn (R-BET-UNCALLED) and artificial all-ins (R-DISC-2);
- stud and draw games (issue 4): the same, plus bring-ins, draws (stand pat on a timed-out clock, seeded
  reshuffles) and split offers; no card is ever held twice.

Examples per game/structure pair: ``CROUPIER_PROPERTY_EXAMPLES`` (default 30).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, BetOrRaise, BringIn, Call, Check, Draw, Fold, LegalActions, Muck, Show, Split
from engine.cards import Card, full_deck
from engine.draw import seeded_reshuffle
from engine.errors import IllegalAction
from engine.events import HandEnded
from engine.hand import ForcedBets, Hand, HandConfig
from engine.rake import WHITE_LABEL_NO_LIMIT
from engine.structures import BettingStructure
from engine.variants import (
    AMERICANA,
    DEUCE_TO_SEVEN_TRIPLE_DRAW,
    FIVE_CARD_DRAW,
    OMAHA,
    OMAHA_FIVE_CARD,
    OMAHA_HI_LO,
    SEVEN_CARD_STUD,
    SEVEN_CARD_STUD_HI_LO,
    TELESINA,
    TEXAS_HOLDEM,
    THIRTY_TWO_CARD_DRAW,
    Variant,
    five_card_omaha,
)

EXAMPLES = int(os.environ.get("CROUPIER_PROPERTY_EXAMPLES", "30"))

STRUCTURES: dict[str, Callable[[], BettingStructure]] = {
    "fixed_limit": lambda: BettingStructure.fixed_limit(10),
    "fixed_limit_heads_up_uncapped": lambda: BettingStructure.fixed_limit(10, uncapped_heads_up=True),
    "pot_limit": BettingStructure.pot_limit,
    "half_pot_limit": BettingStructure.half_pot_limit,
    "no_limit": BettingStructure.no_limit,
    "spread_limit": lambda: BettingStructure.spread_limit(20, 40, 60, max_raises=3),
}
VARIANTS: dict[str, Variant] = {
    "texas_holdem": TEXAS_HOLDEM,
    "omaha": OMAHA,
    "omaha_five_card": OMAHA_FIVE_CARD,
    "omaha_five_card_3_hole": five_card_omaha(must_use_hole=3),
    "omaha_hi_lo": OMAHA_HI_LO,
}
PAIRS = [(variant, structure) for variant in VARIANTS for structure in STRUCTURES]


def snapshot(hand: Hand) -> tuple[Any, ...]:
    return (len(hand.events), hand.stacks(), hand.bets(), hand.pot_total, hand.phase, hand.board,
            hand.legal_actions(), hand.pots(), hand.deals)


def assert_the_hand_knows_its_deals(hand: Hand, deck: Sequence[Card], draws: bool = False) -> None:
    """``Hand.deals``: deck positions 0, 1, 2… with no gap (the engine never burns), each to the seat that holds
    its card (a draw game's seats hold what they kept and drew: not checked there) or to the board, in order."""
    deals = hand.deals
    assert [deal.position for deal in deals] == list(range(len(deals)))
    assert [deck[deal.position] for deal in deals if deal.recipient == "board"] == list(hand.board)
    if not draws:
        for seat in hand.seats:
            assert tuple(deck[deal.position] for deal in deals if deal.recipient == seat) == hand.hole_cards(seat)


def listed_actions(legal: LegalActions, draw: Callable[[st.SearchStrategy[int]], int]) -> list[Action]:
    actions: list[Action] = []
    if legal.can_show:
        actions.append(Show())
    if legal.can_muck:
        actions.append(Muck())
    if legal.can_fold:
        actions.append(Fold())
    if legal.can_check:
        actions.append(Check())
    if legal.can_call:
        actions.append(Call())
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        low, high = legal.min_raise_to, legal.max_raise_to
        actions += [BetOrRaise(low), BetOrRaise(high), BetOrRaise(draw(st.integers(low, high)))]
    return actions


@pytest.mark.parametrize(("variant_id", "structure_id"), PAIRS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hand_invariants(variant_id: str, structure_id: str, data: st.DataObject) -> None:
    variant = VARIANTS[variant_id]
    count = data.draw(st.integers(2, min(variant.max_players, 7)), label="players")
    stacks = data.draw(st.lists(st.integers(1, 400), min_size=count, max_size=count), label="stacks")
    deck = data.draw(st.permutations(full_deck()), label="deck")
    button = data.draw(st.integers(0, count - 1), label="button")
    order = [(button + step) % count for step in range(1, count + 1)]
    heads_up = count == 2
    small_blind_seat = button if heads_up else order[0]
    big_blind_seat = order[0] if heads_up else order[1]
    plan: dict[str, Any] = {
        "button_seat": button, "small_blind_seat": small_blind_seat, "small_blind": 5,
        "big_blind_seat": big_blind_seat, "big_blind": 10,
        "ante": data.draw(st.sampled_from([0, 0, 1, 3]), label="ante"),
    }
    if count >= 4 and data.draw(st.booleans(), label="straddle"):
        plan.update(straddle_seat=order[2], straddle=20)
    if count >= 5 and data.draw(st.booleans(), label="returning player"):
        plan.update(dead_small_blinds=(order[3],), big_blinds_out_of_position=(order[3],))
    rake = data.draw(st.sampled_from([None, WHITE_LABEL_NO_LIMIT]), label="rake")
    manual = data.draw(st.booleans(), label="manual showdown")
    auto_muck = data.draw(st.sets(st.integers(0, count - 1)), label="auto muck")
    config = HandConfig(variant, STRUCTURES[structure_id](), rake=rake, manual_showdown=manual)
    hand = Hand.start(config, dict(enumerate(stacks)), deck, ForcedBets(**plan), auto_muck=auto_muck)
    total = sum(stacks)
    for _ in range(500):
        legal = hand.legal_actions()
        if legal is None:
            break
        assert sum(hand.stacks().values()) + hand.pot_total == total
        assert all(stack >= 0 for stack in hand.stacks().values())
        actions = listed_actions(legal, data.draw)
        assert actions, f"legal_actions() lists nothing: {legal}"
        for action in actions:
            assert hand.can_act(legal.seat, action), (legal, action)
        # A random illegal action is refused and changes nothing.
        seat = data.draw(st.sampled_from([*range(count), 99]), label="illegal seat")
        amount = data.draw(st.integers(-5, 1000), label="illegal amount")
        wrong = data.draw(st.sampled_from([Fold(), Check(), Call(), BetOrRaise(amount), Show(), Muck(), Draw(),
                                           BringIn()]), label="illegal action")
        if seat != legal.seat or not legal.allows(wrong):
            before = snapshot(hand)
            with pytest.raises(IllegalAction):
                hand.act(seat, wrong)
            assert snapshot(hand) == before
        # Now and then a player leaves out of turn, or a disconnected player is given an artificial all-in.
        event = data.draw(st.sampled_from(["act"] * 12 + ["leave", "artificial_all_in"]), label="what happens")
        if event == "leave":
            leaver = data.draw(st.sampled_from([seat for seat in range(count) if hand.in_hand(seat)]), label="leaver")
            hand.leave(leaver)
        elif event == "artificial_all_in" and legal.can_fold:
            hand.artificial_all_in(legal.seat)
        else:
            action = data.draw(st.sampled_from(actions), label="action")
            hand.act(legal.seat, action)
    assert hand.is_over, "hand did not end within 500 actions"
    ended = hand.events[-1]
    assert isinstance(ended, HandEnded)
    assert sum(hand.final_stacks().values()) + hand.rake == total
    assert ended.rake == hand.rake and dict(ended.stacks) == hand.final_stacks()
    assert_the_hand_knows_its_deals(hand, deck)


# ---------------------------------------------------------------------------------------------- stud and draw

ANTE_GAMES = (SEVEN_CARD_STUD, SEVEN_CARD_STUD_HI_LO, AMERICANA, TELESINA)
DRAW_GAMES = (FIVE_CARD_DRAW, DEUCE_TO_SEVEN_TRIPLE_DRAW, THIRTY_TWO_CARD_DRAW)
# Every game × every structure (issue 15: the turn-2 rules — spread-limit bring-in, per-player reopening, the
# 32-card draw and stud showdown orders, Telesina and Americana ties — hold in all of them).
NEW_PAIRS = [(variant.id, structure) for variant in (*ANTE_GAMES, *DRAW_GAMES) for structure in STRUCTURES]
NEW_VARIANTS = {variant.id: variant for variant in (*ANTE_GAMES, *DRAW_GAMES)}


def full_snapshot(hand: Hand) -> tuple[Any, ...]:
    return (*snapshot(hand), tuple(hand.hole_cards(seat) for seat in hand.seats))


@pytest.mark.parametrize(("variant_id", "structure_id"), NEW_PAIRS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_stud_and_draw_invariants(variant_id: str, structure_id: str, data: st.DataObject) -> None:
    variant = NEW_VARIANTS[variant_id]
    count = data.draw(st.integers(2, variant.max_players), label="players")
    stacks = data.draw(st.lists(st.integers(1, 400), min_size=count, max_size=count), label="stacks")
    deck = data.draw(st.permutations(variant.deck), label="deck")
    button = data.draw(st.integers(0, count - 1), label="button")
    order = [(button + step) % count for step in range(1, count + 1)]
    if variant in ANTE_GAMES:
        plan = ForcedBets(button_seat=button, small_blind_seat=None, small_blind=0, big_blind_seat=None,
                          big_blind=10, ante=data.draw(st.sampled_from([1, 3, 5]), label="ante"),
                          bring_in=data.draw(st.sampled_from([0, 3, 5]), label="bring-in"))
    else:
        heads_up = count == 2
        plan = ForcedBets(button_seat=button, small_blind_seat=button if heads_up else order[0], small_blind=5,
                          big_blind_seat=order[0] if heads_up else order[1], big_blind=10)
    rake = data.draw(st.sampled_from([None, WHITE_LABEL_NO_LIMIT]), label="rake")
    manual = data.draw(st.booleans(), label="manual showdown")
    config = HandConfig(variant, STRUCTURES[structure_id](), rake=rake, manual_showdown=manual)
    hand = Hand.start(config, dict(enumerate(stacks)), deck, plan, reshuffle=seeded_reshuffle(b"property"))
    total = sum(stacks)
    for _ in range(500):
        legal = hand.legal_actions()
        if legal is None:
            break
        assert sum(hand.stacks().values()) + hand.pot_total == total
        assert all(stack >= 0 for stack in hand.stacks().values())
        dealt = sum(len(hand.hole_cards(seat)) for seat in hand.seats) + len(hand.board)
        assert len({card for seat in hand.seats for card in hand.hole_cards(seat)} | set(hand.board)) == dealt
        actions = listed_actions(legal, data.draw)
        if legal.bring_in_amount is not None:
            actions.append(BringIn())
        if legal.can_split:
            actions.append(Split())
        if legal.max_discards is not None:
            own = list(hand.hole_cards(legal.seat))
            size = data.draw(st.integers(0, legal.max_discards), label="discards")
            actions += [Draw(tuple(data.draw(st.permutations(own), label="order")[:size])), Draw(timed_out=True)]
        assert actions, f"legal_actions() lists nothing: {legal}"
        for action in actions:
            assert hand.can_act(legal.seat, action), (legal, action)
        seat = data.draw(st.sampled_from([*range(count), 99]), label="illegal seat")
        amount = data.draw(st.integers(-5, 1000), label="illegal amount")
        foreign = [card for card in variant.deck if card not in hand.hole_cards(legal.seat)][:2]
        wrong = data.draw(st.sampled_from([Fold(), Check(), Call(), BetOrRaise(amount), Show(), Muck(), Draw(),
                                           BringIn(), Split(), Draw(tuple(foreign)),
                                           Draw(hand.hole_cards(legal.seat)[:1], timed_out=True)]),
                          label="illegal action")
        if seat != legal.seat or not (legal.allows(wrong) and hand.can_act(seat, wrong)):
            before = full_snapshot(hand)
            with pytest.raises(IllegalAction):
                hand.act(seat, wrong)
            assert full_snapshot(hand) == before
        if data.draw(st.sampled_from(["act"] * 15 + ["leave"]), label="what happens") == "leave":
            hand.leave(data.draw(st.sampled_from([seat for seat in range(count) if hand.in_hand(seat)]),
                                 label="leaver"))
        else:
            hand.act(legal.seat, data.draw(st.sampled_from(actions), label="action"))
    assert hand.is_over, "hand did not end within 500 actions"
    ended = hand.events[-1]
    assert isinstance(ended, HandEnded)
    assert sum(hand.final_stacks().values()) + hand.rake == total
    assert_the_hand_knows_its_deals(hand, deck, draws=variant in DRAW_GAMES)
