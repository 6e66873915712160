"""Differential tests: croupier's hand engine against PokerKit 0.7.7 on random hands (issue 3; short-deck hold'em,
issue 16).

Each hand: 2-6 players with short random stacks (frequent all-ins), a random deck, random actions
chosen among those both engines allow. Both engines must agree on who acts, what a call costs, and the
finishing stacks to the chip.

Known, documented differences (RULES.md wins; the action chooser only takes actions both allow):
- R-BET-FL: RULES caps a round at 1 bet + 3 raises with the big blind counting as the preflop bet;
  PokerKit allows 4 raises preflop.
- R-BET-ALLIN: a short all-in raise does not reopen the action for players who already acted; PokerKit
  also refuses a raise to a player who has not acted (e.g. the big blind) when the amount to call is
  smaller than the last raise, and lets limpers re-raise after a short all-in preflop raise.
- R-POT-2 odd chips and the R-BET-ALLIN short big blind (turn 2): see ``tests/engine/pokerkit_differences.py``
  — odd chips are moved PokerKit's way before the stacks are compared; deals with a short big blind are
  counted and not compared (they are asserted by their own rule tests).
- R-POT-2 (Omaha Hi/Lo): when no player eligible for a side pot has a qualifying low but another player
  in the hand has one, RULES gives the high hand the whole side pot; PokerKit hands the low half to the
  eligible players without a low. Such hands are counted and skipped (asserted rare).

The count per game is ``CROUPIER_DIFFERENTIAL_HANDS`` (2,000, the issue's minimum, with ``CROUPIER_FULL=1``; a
sample of 500 by default).
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest

pokerkit = pytest.importorskip("pokerkit")

from pokerkit import (  # noqa: E402
    Automation,
    FixedLimitPokerMixin,
    FixedLimitTexasHoldem,
    Holdem,
    NoLimitShortDeckHoldem,
    NoLimitTexasHoldem,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    OmahaHoldemMixin,
    PotLimitOmahaHoldem,
)

from engine.actions import BetOrRaise, Call, Check, Fold  # noqa: E402
from engine.evaluate import best_low_eight  # noqa: E402
from engine.events import HandShown  # noqa: E402
from engine.hand import ForcedBets, Hand, HandConfig  # noqa: E402
from engine.structures import BettingStructure  # noqa: E402
from engine.variants import OMAHA, OMAHA_HI_LO, SHORT_DECK_HOLDEM, TEXAS_HOLDEM, Variant  # noqa: E402
from tests.engine.pokerkit_differences import pokerkit_finishing_stacks, short_big_blind  # noqa: E402
from tests.sweeps import sweep  # noqa: E402

HANDS = sweep("CROUPIER_DIFFERENTIAL_HANDS", 500, 2000)
pytestmark = pytest.mark.slow

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class FixedLimitOmahaHiLo(FixedLimitPokerMixin, OmahaHoldemMixin, Holdem):  # type: ignore[misc]
    """PokerKit 0.7.7's FixedLimitOmahaHoldemHighLowSplitEightOrBetter inherits the pot-limit mixin;
    this is the same game composed from the fixed-limit mixin."""

    hand_types = (OmahaHoldemHand, OmahaEightOrBetterLowHand)


SMALL_BLIND, BIG_BLIND = 1, 2


def _pokerkit_state(game: str, stacks: list[int]) -> Any:
    blinds = (SMALL_BLIND, BIG_BLIND)
    count = len(stacks)
    if game == "nlhe":
        return NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, blinds, BIG_BLIND, stacks, count)
    if game == "nlsd":
        return NoLimitShortDeckHoldem.create_state(AUTOMATIONS, True, 0, blinds, BIG_BLIND, stacks, count)
    if game == "flhe":
        return FixedLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, blinds, BIG_BLIND, 2 * BIG_BLIND, stacks, count)
    if game == "plo":
        return PotLimitOmahaHoldem.create_state(AUTOMATIONS, True, 0, blinds, BIG_BLIND, stacks, count)
    if game == "flo8":
        return FixedLimitOmahaHiLo(AUTOMATIONS, True, 0, blinds, BIG_BLIND, 2 * BIG_BLIND)(stacks, count)
    raise AssertionError(game)


GAMES: dict[str, tuple[Variant, Callable[[], BettingStructure]]] = {
    "nlhe": (TEXAS_HOLDEM, BettingStructure.no_limit),
    "flhe": (TEXAS_HOLDEM, lambda: BettingStructure.fixed_limit(BIG_BLIND)),
    "plo": (OMAHA, BettingStructure.pot_limit),
    "flo8": (OMAHA_HI_LO, lambda: BettingStructure.fixed_limit(BIG_BLIND)),
    "nlsd": (SHORT_DECK_HOLDEM, BettingStructure.no_limit),  # issue 16: the corpus's NS record
}


def _pk_cards(cards: tuple[Any, ...]) -> str:
    return "".join(str(card) for card in cards)


def _low_quirk(hand: Hand) -> bool:
    """Whether the R-POT-2 hi/lo side-pot difference with PokerKit applies to this finished hand."""
    board = hand.board
    if len(board) < 5:
        return False
    lows = {}
    for seat in hand.seats:
        if hand.in_hand(seat):
            lows[seat] = best_low_eight(hand.hole_cards(seat), board, must_use_hole=2) is not None
    if not any(lows.values()):
        return False
    return any(not any(lows.get(seat, False) for seat in pot.eligible) for pot in hand.pots())


def play_one(game: str, rng: random.Random) -> tuple[str, bool, bool]:
    """Play one random hand in both engines; returns ("same" or "quirk" for a documented difference,
    whether someone was all-in, whether hands were shown down)."""
    variant, structure = GAMES[game]
    count = rng.randint(2, 6)
    stacks = [rng.choice((rng.randint(1, 12), rng.randint(1, 40), rng.randint(20, 120))) for _ in range(count)]
    deck = list(variant.deck)
    rng.shuffle(deck)
    button = count - 1
    if count == 2:
        plan = ForcedBets(button_seat=1, small_blind_seat=1, small_blind=SMALL_BLIND, big_blind_seat=0,
                          big_blind=BIG_BLIND)
    else:
        plan = ForcedBets(button_seat=button, small_blind_seat=0, small_blind=SMALL_BLIND, big_blind_seat=1,
                          big_blind=BIG_BLIND)
    hand = Hand.start(HandConfig(variant, structure()), dict(enumerate(stacks)), deck, plan)
    if short_big_blind(dict(enumerate(stacks)), plan):
        return "short big blind", True, False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = _pokerkit_state(game, stacks)
        holes = [hand.hole_cards(seat) for seat in range(count)]
        for card_index in range(len(holes[0])):
            for seat in range(count):
                state.deal_hole(str(holes[seat][card_index]))
        dealt_board = 0
        while True:
            if state.can_deal_board():
                wanted = len(hand.board)
                assert wanted > dealt_board, "PokerKit deals a board croupier did not"
                take = 3 if dealt_board == 0 else 1
                state.deal_board(_pk_cards(hand.board[dealt_board:dealt_board + take]))
                dealt_board += take
                continue
            legal = hand.legal_actions()
            if legal is None:
                assert not state.status, "croupier ended the hand, PokerKit did not"
                break
            assert state.status, "PokerKit ended the hand, croupier did not"
            assert state.actor_index == legal.seat, (state.actor_index, legal.seat)
            pk_call = state.checking_or_calling_amount
            assert (legal.call_amount or 0) == pk_call, (legal, pk_call)
            choices: list[Any] = [Check() if legal.can_check else Call()]
            if not legal.can_check and state.can_fold():
                choices.append(Fold())
                choices.append(Fold())
            if legal.can_raise and state.can_complete_bet_or_raise_to():
                assert legal.min_raise_to is not None and legal.max_raise_to is not None
                low = max(legal.min_raise_to, state.min_completion_betting_or_raising_to_amount)
                high = min(legal.max_raise_to, state.max_completion_betting_or_raising_to_amount)
                if low <= high:
                    choices += [BetOrRaise(low), BetOrRaise(high), BetOrRaise(rng.randint(low, high))]
            action = rng.choice(choices)
            hand.act(legal.seat, action)
            if isinstance(action, Fold):
                state.fold()
            elif isinstance(action, BetOrRaise):
                state.complete_bet_or_raise_to(action.to)
            else:
                state.check_or_call()
        ours = pokerkit_finishing_stacks(hand.events)
        theirs = list(state.stacks)
        if ours != theirs:
            if game == "flo8" and _low_quirk(hand):
                return "quirk", True, True
            raise AssertionError(f"{game}: croupier {ours} != PokerKit {theirs}; stacks {stacks}; events {hand.events}")
    all_in = any(getattr(event, "all_in", False) for event in hand.events)
    shown = sum(isinstance(event, HandShown) for event in hand.events) >= 2
    return "same", all_in, shown


@pytest.mark.parametrize("game", sorted(GAMES))
def test_finishing_stacks_match_pokerkit(game: str) -> None:
    rng = random.Random(f"croupier-differential-{game}")
    results = [play_one(game, rng) for _ in range(HANDS)]
    same = sum(outcome == "same" for outcome, _, _ in results)
    compared = HANDS - sum(outcome == "short big blind" for outcome, _, _ in results)
    # Every hand agrees, except the documented hi/lo side-pot difference, which must stay rare.
    assert compared >= HANDS * 0.9 and same >= compared * 0.98, f"{game}: only {same} of {compared} hands identical"
    # The sample really exercises all-ins and showdowns (short random stacks).
    assert sum(all_in for _, all_in, _ in results) >= HANDS * 0.3
    assert sum(shown for _, _, shown in results) >= HANDS * 0.2
