"""The one reducer (engine.view.HandView) against the engine's own state, on random hands of every game.

Property (hypothesis, every game × no limit and fixed limit, blinds or antes, dead antes or not, rake or not,
players leaving out of turn and artificial all-ins): after every action the engine takes, the view folded from
the events each viewer may see — the host's whole log, every seat's view, a spectator's — holds the engine's
stacks, bets (in a betting round), chips committed, pots, board and who is still in; each seat sees its own
cards as the engine holds them; nobody sees a card that is still face down in another player's hand. After
every single event, chips are conserved in the view (stacks + pot + rake = starting total).

Examples per game and structure: ``CROUPIER_VIEW_EXAMPLES`` (tests/sweeps.py: a sample of 40 by default, 200 with
``CROUPIER_FULL=1``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, BetOrRaise, BringIn, Call, Check, Draw, Fold, LegalActions, Muck, Show, Split
from engine.cards import Card, parse_cards
from engine.draw import seeded_reshuffle
from engine.events import (
    BettingRoundStarted,
    BlindPosted,
    Called,
    Event,
    HandEnded,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    UncalledBetReturned,
    UpCardsDealt,
    view_for,
)
from engine.hand import ForcedBets, Hand, HandConfig, Phase
from engine.rake import WHITE_LABEL_NO_LIMIT
from engine.structures import BettingStructure
from engine.table_events import HandPlanned, TurnStarted
from engine.variants import VARIANTS, ForcedBetKind, Variant
from engine.view import HandView
from tests.sweeps import sweep

EXAMPLES = sweep("CROUPIER_VIEW_EXAMPLES", 40, 200)
pytestmark = pytest.mark.slow
STRUCTURES: dict[str, Callable[[], BettingStructure]] = {
    "no_limit": BettingStructure.no_limit, "fixed_limit": lambda: BettingStructure.fixed_limit(10)}
PAIRS = [(variant, structure) for variant in sorted(VARIANTS) for structure in STRUCTURES]


def random_action(legal: LegalActions, hand: Hand, rng: random.Random) -> Action:
    """One of the actions ``legal`` lists (raises to the minimum, the maximum or between; random discards)."""
    choices: list[Action] = []
    if legal.can_show:
        choices += [Show(), Show()]
    if legal.can_muck:
        choices.append(Muck())
    if legal.can_fold:
        choices.append(Fold())
    if legal.can_check:
        choices += [Check(), Check()]
    if legal.can_call:
        choices += [Call(), Call()]
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        choices += [BetOrRaise(legal.min_raise_to), BetOrRaise(legal.max_raise_to),
                    BetOrRaise(rng.randint(legal.min_raise_to, legal.max_raise_to))]
    if legal.bring_in_amount is not None:
        choices.append(BringIn())
    if legal.can_split:
        choices.append(Split())
    if legal.max_discards is not None:
        own = list(hand.hole_cards(legal.seat))
        rng.shuffle(own)
        choices += [Draw(tuple(own[:rng.randint(0, legal.max_discards)])), Draw(timed_out=True)]
    return rng.choice(choices)


def forced_bets(variant: Variant, count: int, button: int, rng: random.Random) -> ForcedBets:
    order = [(button + step) % count for step in range(1, count + 1)]
    dead_antes = rng.random() < 0.3
    if variant.forced_bets is ForcedBetKind.ANTE_BRING_IN:
        return ForcedBets(button_seat=button, small_blind_seat=None, small_blind=0, big_blind_seat=None,
                          big_blind=10, ante=rng.choice([1, 3, 5]), bring_in=rng.choice([0, 3, 5]),
                          dead_antes=dead_antes)
    heads_up = count == 2
    plan = ForcedBets(button_seat=button, small_blind_seat=button if heads_up else order[0], small_blind=5,
                      big_blind_seat=order[0] if heads_up else order[1], big_blind=10, ante=rng.choice([0, 0, 2]),
                      dead_antes=dead_antes)
    if count >= 4 and rng.random() < 0.3:
        plan = replace(plan, straddle_seat=order[2], straddle=20)
    return plan


class Viewers:
    """The host's view (the whole log), every seat's and a spectator's, fed incrementally."""

    def __init__(self, seats: Sequence[int], plan: ForcedBets) -> None:
        big_blind = plan.big_blind if plan.big_blind_seat is not None else 0
        self.host = HandView(None, dead_antes=plan.dead_antes, big_blind=big_blind)
        self.spectator = HandView(None, dead_antes=plan.dead_antes, big_blind=big_blind)
        self.players = {seat: HandView(seat, dead_antes=plan.dead_antes, big_blind=big_blind) for seat in seats}
        self.fed = 0
        self.public: set[Card] = set()  # cards a spectator may know: board, up cards, shown hands

    def all(self) -> list[HandView]:
        return [self.host, self.spectator, *self.players.values()]

    def feed(self, events: Sequence[Event], total: int) -> None:
        for event in events[self.fed:]:
            if isinstance(event, UpCardsDealt | HandShown):
                self.public.update(event.cards)
            self.host.apply(event)
            for seen in view_for([event], None):
                self.spectator.apply(seen)
            for seat, view in self.players.items():
                for seen in view_for([event], seat):
                    view.apply(seen)
            for view in self.all():  # chips are conserved after every single event
                assert sum(view.stacks().values()) + view.pot_total + view.rake == total, (event, view.seats)
        self.fed = len(events)


def check_against_engine(viewers: Viewers, hand: Hand) -> None:
    stacks = hand.stacks()
    board = list(hand.board)
    pots = [(pot.amount, sorted(pot.eligible)) for pot in hand.pots()]
    for view in viewers.all():
        assert view.stacks() == stacks
        assert view.board == board
        assert view.pot_total == hand.pot_total
        assert {seat: info.contesting for seat, info in view.seats.items()} == {
            seat: hand.in_hand(seat) for seat in hand.seats}
        if hand.phase is Phase.BETTING:  # between rounds the engine has gathered the bets; the felt has not
            assert view.bets() == hand.bets()
            legal = hand.legal_actions()
            if legal is not None and legal.call_amount is not None:  # the bet to match (R-BET-ALLIN included)
                mine = view.seats[legal.seat]
                assert legal.call_amount == min(view.highest_bet - mine.bet, mine.stack)
        if not hand.is_over:
            assert [(pot.amount, sorted(pot.eligible)) for pot in view.pots()] == pots
            assert sum(info.committed for info in view.seats.values()) + view.dead_money == hand.pot_total
    for seat, view in viewers.players.items():
        assert view.seats[seat].cards == list(hand.hole_cards(seat))
        for other, info in view.seats.items():
            if other != seat:
                assert set(info.cards) <= viewers.public
    for info in viewers.spectator.seats.values():
        assert set(info.cards) <= viewers.public
        assert not info.down_cards or info.shown


@pytest.mark.parametrize(("variant_id", "structure_id"), PAIRS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_view_matches_the_engine_after_every_action(variant_id: str, structure_id: str, seed: int) -> None:
    rng = random.Random(seed)
    variant = VARIANTS[variant_id]
    count = rng.randint(2, min(variant.max_players, 7))
    stacks = {seat: rng.randint(1, 400) for seat in range(count)}
    deck = list(variant.deck)
    rng.shuffle(deck)
    plan = forced_bets(variant, count, rng.randrange(count), rng)
    rake = rng.choice([None, WHITE_LABEL_NO_LIMIT])
    config = HandConfig(variant, STRUCTURES[structure_id](), rake=rake, manual_showdown=rng.random() < 0.5)
    hand = Hand.start(config, stacks, deck, plan, reshuffle=seeded_reshuffle(b"view"))
    total = sum(stacks.values())
    viewers = Viewers(range(count), plan)
    viewers.feed(hand.events, total)
    check_against_engine(viewers, hand)
    for _ in range(500):
        legal = hand.legal_actions()
        if legal is None:
            break
        happens = rng.random()
        if happens < 0.04:
            hand.leave(rng.choice([seat for seat in hand.seats if hand.in_hand(seat)]))
        elif happens < 0.07 and legal.can_fold and hand.phase is Phase.BETTING:
            hand.artificial_all_in(legal.seat)
        else:
            hand.act(legal.seat, random_action(legal, hand, rng))
        viewers.feed(hand.events, total)
        check_against_engine(viewers, hand)
    assert hand.is_over
    ended = hand.events[-1]
    assert isinstance(ended, HandEnded)
    awards = [event for event in hand.events if isinstance(event, PotAwarded)]
    for view in viewers.all():
        assert view.ended and view.final_stacks == dict(ended.stacks) and view.rake == ended.rake
        assert view.awards == awards
        assert view.pot_total == 0 and all(info.bet == 0 for info in view.seats.values())


def test_spectator_view_of_a_shown_down_hand_holds_only_the_shown_cards() -> None:
    events: list[Event] = [
        HandStarted("texas_holdem", "no_limit", 1, ((0, 100), (1, 100))),
        BlindPosted(1, "small_blind", 1), BlindPosted(0, "big_blind", 2),
        HoleCardsDealt(0, parse_cards("As Kd")), HoleCardsDealt(1, parse_cards("7h 7c")),
        Called(1, 1), BettingRoundStarted(0, "preflop", 4),
        HandShown(1, parse_cards("7h 7c"), "pair of sevens"),
    ]
    spectator = HandView.replay(view_for(events, None))
    assert spectator.seats[0].cards == [] and spectator.seats[0].face_down == 2
    assert [str(card) for card in spectator.seats[1].cards] == ["7h", "7c"]
    assert spectator.seats[1].description == "pair of sevens" and spectator.seats[1].face_down == 0
    player = HandView.replay(view_for(events, 0), seat=0)
    assert player.mine is not None and [str(card) for card in player.mine.cards] == ["As", "Kd"]


def test_uncalled_bet_goes_back_to_the_stack_and_out_of_the_pot() -> None:
    """R-BET-UNCALLED: 100 bet, nobody calls: 100 back behind, the pot is what was matched."""
    view = HandView.replay([
        HandStarted("texas_holdem", "no_limit", 1, ((0, 500), (1, 500))),
        BlindPosted(1, "small_blind", 5), BlindPosted(0, "big_blind", 10),
        BettingRoundStarted(0, "preflop", 15),
        UncalledBetReturned(0, 5),
    ])
    assert view.stacks() == {0: 495, 1: 495}
    assert view.pot_total == 10 and [(pot.amount, pot.eligible) for pot in view.pots()] == [(10, (0, 1))]


def test_the_table_says_the_blinds_and_whose_turn() -> None:
    view = HandView(seat=None)
    view.apply(HandPlanned(4, 1, 2, 0, None, (0, 1, 2), False, False))
    view.apply(HandStarted("texas_holdem", "no_limit", 1, ((2, 100), (0, 100), (1, 100))))
    view.apply(TurnStarted(1, "bob", 10.0, 40.0))
    assert (view.button_seat, view.small_blind_seat, view.big_blind_seat, view.to_act) == (1, 2, 0, 1)
    assert view.order == (2, 0, 1)
