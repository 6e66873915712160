"""Differential tests: fixed-limit 7-card stud, stud Hi/Lo, Razz, 2-7 Triple Draw, badugi and no-limit 2-7 Single
Draw against PokerKit 0.7.7 (issues 4 and 16).

Each hand: 2-7 players (2-6 for triple draw) with short random stacks (frequent all-ins, also on the
antes), a random deck, random actions among those both engines allow, random discards. Both engines must
agree on who acts (bring-in by the lowest up card with clubs lowest, best hand showing later; in Razz the highest
up card, aces low, brings in and the lowest hand showing opens later; draws from the left of the button) and what a
call costs, and on the finishing stacks to the chip.

Known, documented difference (RULES.md wins): R-POT-2 in stud Hi/Lo — when no player eligible for a side
pot has a qualifying low but another player in the hand has one, RULES gives the high hand the whole side
pot; PokerKit hands the low half to the eligible players without a low (as in the Omaha Hi/Lo
differential test). Such hands are counted and skipped (asserted rare).

R-POT-2 odd chips and the R-BET-ALLIN short big blind (turn 2): see ``tests/engine/pokerkit_differences.py``
— odd chips are moved PokerKit's way before the stacks are compared; triple-draw deals with a short big blind
are not compared (their own rule tests assert them).

The engine deals replacements from the stub and then from reshuffled discards; PokerKit is handed the
very same cards. The count per game is ``CROUPIER_DIFFERENTIAL_HANDS`` (2,000, the issue's minimum, with
``CROUPIER_FULL=1``; a sample of 500 by default).
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pokerkit = pytest.importorskip("pokerkit")

from pokerkit import (  # noqa: E402
    Automation,
    FixedLimitBadugi,
    FixedLimitDeuceToSevenLowballTripleDraw,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    NoLimitDeuceToSevenLowballSingleDraw,
)

from engine.actions import BetOrRaise, BringIn, Call, Check, Draw, Fold  # noqa: E402
from engine.cards import full_deck  # noqa: E402
from engine.evaluate import best_low_eight  # noqa: E402
from engine.events import HandShown  # noqa: E402
from engine.hand import ForcedBets, Hand, HandConfig, Phase  # noqa: E402
from engine.structures import BettingStructure  # noqa: E402
from engine.variants import (  # noqa: E402
    BADUGI,
    DEUCE_TO_SEVEN_SINGLE_DRAW,
    DEUCE_TO_SEVEN_TRIPLE_DRAW,
    RAZZ,
    SEVEN_CARD_STUD,
    SEVEN_CARD_STUD_HI_LO,
)
from tests.engine.pokerkit_differences import pokerkit_finishing_stacks  # noqa: E402
from tests.sweeps import sweep  # noqa: E402

HANDS = sweep("CROUPIER_DIFFERENTIAL_HANDS", 500, 2000)
pytestmark = pytest.mark.slow

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)

ANTE, BRING_IN, SMALL_BET, BIG_BET = 1, 2, 4, 8
SMALL_BLIND, BIG_BLIND = 1, 2
STUD_GAMES: dict[str, tuple[Any, Any]] = {
    "seven_card_stud": (SEVEN_CARD_STUD, FixedLimitSevenCardStud),
    "seven_card_stud_hi_lo": (SEVEN_CARD_STUD_HI_LO, FixedLimitSevenCardStudHighLowSplitEightOrBetter),
    "razz": (RAZZ, FixedLimitRazz),
}
DRAW_GAMES = ("deuce_to_seven_triple_draw", "deuce_to_seven_single_draw", "badugi")


def _start(game: str, stacks: list[int], deck: list[Any]) -> tuple[Hand, Any]:
    count = len(stacks)
    seats = dict(enumerate(stacks))
    if game in DRAW_GAMES:
        plan = (ForcedBets(button_seat=1, small_blind_seat=1, small_blind=SMALL_BLIND, big_blind_seat=0,
                           big_blind=BIG_BLIND) if count == 2 else
                ForcedBets(button_seat=count - 1, small_blind_seat=0, small_blind=SMALL_BLIND, big_blind_seat=1,
                           big_blind=BIG_BLIND))
        if game == "deuce_to_seven_single_draw":
            hand = Hand.start(HandConfig(DEUCE_TO_SEVEN_SINGLE_DRAW, BettingStructure.no_limit()), seats, deck, plan)
            state = NoLimitDeuceToSevenLowballSingleDraw.create_state(
                AUTOMATIONS, True, 0, (SMALL_BLIND, BIG_BLIND), BIG_BLIND, stacks, count)
            return hand, state
        if game == "badugi":
            hand = Hand.start(HandConfig(BADUGI, BettingStructure.fixed_limit(BIG_BLIND)), seats, deck, plan)
            state = FixedLimitBadugi.create_state(
                AUTOMATIONS, True, 0, (SMALL_BLIND, BIG_BLIND), BIG_BLIND, 2 * BIG_BLIND, stacks, count)
            return hand, state
        hand = Hand.start(HandConfig(DEUCE_TO_SEVEN_TRIPLE_DRAW, BettingStructure.fixed_limit(BIG_BLIND)),
                          seats, deck, plan)
        state = FixedLimitDeuceToSevenLowballTripleDraw.create_state(
            AUTOMATIONS, True, 0, (SMALL_BLIND, BIG_BLIND), BIG_BLIND, 2 * BIG_BLIND, stacks, count)
        return hand, state
    variant, game_class = STUD_GAMES[game]
    plan = ForcedBets(button_seat=count - 1, small_blind_seat=None, small_blind=0, big_blind_seat=None,
                      big_blind=0, ante=ANTE, bring_in=BRING_IN)
    hand = Hand.start(HandConfig(variant, BettingStructure.fixed_limit(SMALL_BET, BIG_BET)), seats, deck, plan)
    state = game_class.create_state(AUTOMATIONS, True, ANTE, BRING_IN, SMALL_BET, BIG_BET, stacks, count)
    return hand, state


def _deal_pokerkit(hand: Hand, state: Any) -> None:
    """Hand PokerKit the cards the engine dealt (hole cards one at a time; draw replacements per player)."""
    while state.can_deal_hole():
        seat = state.hole_dealee_index
        ours = list(hand.hole_cards(seat))
        theirs = [repr(card) for card in state.hole_cards[seat]]
        missing = [str(card) for card in ours if str(card) not in theirs]
        wanted = len(state.hole_dealing_statuses[seat])
        if state.street.hole_dealing_statuses:  # a dealing street: one card at a time, in deal order
            state.deal_hole(missing[0])
        else:  # replacements after a draw
            assert len(missing) == wanted, (missing, wanted)
            state.deal_hole("".join(missing))


def _low_quirk(hand: Hand) -> bool:
    """Whether the R-POT-2 hi/lo side-pot difference with PokerKit applies to this finished hand."""
    lows = {seat: best_low_eight(hand.hole_cards(seat), hand.board) is not None
            for seat in hand.seats if hand.in_hand(seat) and len(hand.hole_cards(seat)) + len(hand.board) >= 5}
    if not any(lows.values()):
        return False
    return any(not any(lows.get(seat, False) for seat in pot.eligible) for pot in hand.pots())


def play_one(game: str, rng: random.Random) -> tuple[bool, bool, bool]:
    """Play one random hand in both engines; returns (someone was all-in, hands were shown down, the
    documented hi/lo difference applied)."""
    count = rng.randint(2, 6 if game in DRAW_GAMES else 7)
    stacks = [rng.choice((rng.randint(1, 12), rng.randint(1, 40), rng.randint(20, 120))) for _ in range(count)]
    deck = list(full_deck())
    rng.shuffle(deck)
    if game in DRAW_GAMES and stacks[0 if count == 2 else 1] < BIG_BLIND:
        return True, False, False  # a short big blind: not compared (pokerkit_differences.short_big_blind)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hand, state = _start(game, stacks, deck)
        while True:
            _deal_pokerkit(hand, state)
            legal = hand.legal_actions()
            if legal is None:
                assert not state.status, "croupier ended the hand, PokerKit did not"
                break
            assert state.status, "PokerKit ended the hand, croupier did not"
            if hand.phase is Phase.DRAW:
                assert state.stand_patter_or_discarder_index == legal.seat, (state.stand_patter_or_discarder_index,
                                                                            legal.seat)
                own = hand.hole_cards(legal.seat)
                discards = tuple(card for card in own if rng.random() < 0.4)
                state.stand_pat_or_discard("".join(str(card) for card in discards))
                hand.act(legal.seat, Draw(discards))
                continue
            assert state.actor_index == legal.seat, (state.actor_index, legal.seat, hand.events)
            choices: list[Any] = []
            if legal.bring_in_amount is not None:
                assert state.can_post_bring_in()
                choices.append(BringIn())
            else:
                assert (legal.call_amount or 0) == state.checking_or_calling_amount, (legal, hand.events)
                choices.append(Check() if legal.can_check else Call())
                if not legal.can_check and state.can_fold():
                    choices += [Fold(), Fold()]
            if legal.can_raise and state.can_complete_bet_or_raise_to():
                assert legal.min_raise_to is not None and legal.max_raise_to is not None
                low = max(legal.min_raise_to, state.min_completion_betting_or_raising_to_amount)
                high = min(legal.max_raise_to, state.max_completion_betting_or_raising_to_amount)
                if game != "deuce_to_seven_single_draw":  # no limit: PokerKit stops at what others can match
                    assert (low, high) == (legal.min_raise_to, legal.max_raise_to), (legal, low, high)
                if low <= high:
                    choices += [BetOrRaise(low), BetOrRaise(high), BetOrRaise(rng.randint(low, high))]
            action = rng.choice(choices)
            hand.act(legal.seat, action)
            if isinstance(action, Fold):
                state.fold()
            elif isinstance(action, BetOrRaise):
                state.complete_bet_or_raise_to(action.to)
            elif isinstance(action, BringIn):
                state.post_bring_in()
            else:
                state.check_or_call()
        ours = pokerkit_finishing_stacks(hand.events)
        theirs = list(state.stacks)
        quirk = ours != theirs and game == "seven_card_stud_hi_lo" and _low_quirk(hand)
        assert ours == theirs or quirk, f"{game}: croupier {ours} != PokerKit {theirs}; stacks {stacks}; {hand.events}"
    all_in = any(getattr(event, "all_in", False) for event in hand.events)
    shown = sum(isinstance(event, HandShown) for event in hand.events) >= 2
    return all_in, shown, quirk


@pytest.mark.parametrize("game", [*STUD_GAMES, *DRAW_GAMES])
def test_finishing_stacks_match_pokerkit(game: str) -> None:
    rng = random.Random(f"croupier-differential-{game}")
    results = [play_one(game, rng) for _ in range(HANDS)]
    # Every hand agrees, except the documented hi/lo side-pot difference, which must stay rare.
    assert sum(quirk for _, _, quirk in results) <= HANDS * 0.02
    # The sample really exercises all-ins and showdowns (short random stacks).
    assert sum(all_in for all_in, _, _ in results) >= HANDS * 0.3
    assert sum(shown for _, shown, _ in results) >= HANDS * 0.2
