"""Hands per second: croupier's engine against PokerKit on random-action 6-max hands (issues 3 and 4).

Both engines play the same number of hands from the same seeds in one process: 6 players, 200 big blinds
each, blinds 1/2, a random action at every decision (fold when facing a bet, check/call, or a bet/raise
to a random legal amount, each equally likely). PokerKit runs with every automation on. croupier deals from
a deck shuffled with the hand's seed. Fixed-limit 7-card stud (ante 1, bring-in 1, bets 2/4; a random choice
between bringing in and completing) and fixed-limit 2-7 Triple Draw (blinds 1/2, bets 2/4; each card
discarded with probability 1/3) are played the same way.

Fairness on a shared machine: each engine's rate is measured in CPU time of this process
(``time.process_time``), so time the OS gives to other processes counts for neither engine; the engines
alternate pass by pass and the best pass of each counts; garbage left by one engine's pass is collected
before the next pass starts, so neither pays for the other's. Prints one JSON line:

    {"croupier_nlhe": …, "pokerkit_nlhe": …, "ratio_nlhe": …, "croupier_plo": …, …, "ratio_stud": …, "ratio_td": …}

Usage: python tests/benchmarks/simulate.py [--hands N] [--seed S] [--passes P]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time
import warnings
from typing import Any

from engine.actions import Action, BetOrRaise, BringIn, Call, Check, Draw, Fold
from engine.cards import full_deck
from engine.hand import ForcedBets, Hand, HandConfig
from engine.structures import BettingStructure
from engine.variants import DEUCE_TO_SEVEN_TRIPLE_DRAW, OMAHA, SEVEN_CARD_STUD, TEXAS_HOLDEM, Variant

PLAYERS = 6
STACK = 400
SMALL_BLIND, BIG_BLIND = 1, 2


def _clock() -> float:
    """CPU seconds used by this process (both engines are timed with it)."""
    return time.process_time()


def _between(rng: random.Random, low: int, high: int) -> int:
    """A uniform whole number in ``low..high`` (cheaper than ``randint``; both engines' drivers use it)."""
    return low + int(rng.random() * (high - low + 1))


def croupier_hands(game: str, hands: int, seed: int) -> float:
    """Hands per second for croupier."""
    games: dict[str, tuple[Variant, BettingStructure]] = {
        "nlhe": (TEXAS_HOLDEM, BettingStructure.no_limit()),
        "plo": (OMAHA, BettingStructure.pot_limit()),
        "stud": (SEVEN_CARD_STUD, BettingStructure.fixed_limit(BIG_BLIND)),
        "td": (DEUCE_TO_SEVEN_TRIPLE_DRAW, BettingStructure.fixed_limit(BIG_BLIND)),
    }
    variant, structure = games[game]
    config = HandConfig(variant, structure)
    if game == "stud":
        plan = ForcedBets(button_seat=PLAYERS - 1, small_blind_seat=None, small_blind=0, big_blind_seat=None,
                          big_blind=0, ante=1, bring_in=1)
    else:
        plan = ForcedBets(button_seat=PLAYERS - 1, small_blind_seat=0, small_blind=SMALL_BLIND, big_blind_seat=1,
                          big_blind=BIG_BLIND)
    seats = dict.fromkeys(range(PLAYERS), STACK)
    deck = list(full_deck())
    gc.collect()
    begin = _clock()
    for number in range(hands):
        rng = random.Random(seed + number)
        rng.shuffle(deck)
        hand = Hand.start(config, seats, deck, plan)
        while (legal := hand.legal_actions()) is not None:
            if legal.max_discards is not None:
                own = hand.hole_cards(legal.seat)
                hand.act(legal.seat, Draw(tuple(card for card in own if rng.random() < 1 / 3)))
                continue
            choices: list[Action]
            if legal.bring_in_amount is not None:
                choices = [BringIn()]
            else:
                choices = [Check() if legal.can_check else Call()]
                if not legal.can_check:
                    choices.append(Fold())
            if legal.min_raise_to is not None and legal.max_raise_to is not None:
                choices.append(BetOrRaise(_between(rng, legal.min_raise_to, legal.max_raise_to)))
            hand.act(legal.seat, choices[int(rng.random() * len(choices))])
    return hands / (_clock() - begin)


def pokerkit_hands(game: str, hands: int, seed: int) -> float:
    """Hands per second for PokerKit with every automation on."""
    from pokerkit import (
        Automation,
        FixedLimitDeuceToSevenLowballTripleDraw,
        FixedLimitSevenCardStud,
        NoLimitTexasHoldem,
        PotLimitOmahaHoldem,
    )

    automations = tuple(Automation)
    stacks = [STACK] * PLAYERS

    def create() -> Any:
        if game == "nlhe":
            return NoLimitTexasHoldem.create_state(automations, True, 0, (SMALL_BLIND, BIG_BLIND), BIG_BLIND, stacks,
                                                   PLAYERS)
        if game == "plo":
            return PotLimitOmahaHoldem.create_state(automations, True, 0, (SMALL_BLIND, BIG_BLIND), BIG_BLIND,
                                                    stacks, PLAYERS)
        if game == "stud":
            return FixedLimitSevenCardStud.create_state(automations, True, 1, 1, BIG_BLIND, 2 * BIG_BLIND, stacks,
                                                        PLAYERS)
        return FixedLimitDeuceToSevenLowballTripleDraw.create_state(
            automations, True, 0, (SMALL_BLIND, BIG_BLIND), BIG_BLIND, 2 * BIG_BLIND, stacks, PLAYERS)

    gc.collect()
    begin = _clock()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for number in range(hands):
            rng = random.Random(seed + number)
            state = create()
            while state.status:
                if state.can_stand_pat_or_discard():
                    index = state.stand_patter_or_discarder_index
                    discards = [card for card in state.hole_cards[index] if rng.random() < 1 / 3]
                    state.stand_pat_or_discard(discards)
                    continue
                if state.can_post_bring_in():
                    choices = ["bring_in", "raise"]
                    if rng.random() < 0.5:
                        state.post_bring_in()
                    else:
                        state.complete_bet_or_raise_to(state.min_completion_betting_or_raising_to_amount)
                    continue
                facing = state.checking_or_calling_amount
                choices = ["call"]
                if facing:
                    choices.append("fold")
                if state.can_complete_bet_or_raise_to():
                    choices.append("raise")
                choice = choices[int(rng.random() * len(choices))]
                if choice == "fold":
                    state.fold()
                elif choice == "raise":
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(_between(rng, low, high))
                else:
                    state.check_or_call()
    return hands / (_clock() - begin)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per engine and game (default 1000)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--passes", type=int, default=5,
                        help="interleaved passes per engine and game; the best rate of each counts (default 5),"
                             " so a busy shared machine disturbs both engines alike")
    arguments = parser.parse_args()
    result: dict[str, float] = {}
    for game in ("nlhe", "plo", "stud", "td"):
        ours = theirs = 0.0
        for _ in range(max(1, arguments.passes)):
            ours = max(ours, croupier_hands(game, arguments.hands, arguments.seed))
            theirs = max(theirs, pokerkit_hands(game, arguments.hands, arguments.seed))
        result[f"croupier_{game}"] = round(ours, 1)
        result[f"pokerkit_{game}"] = round(theirs, 1)
        result[f"ratio_{game}"] = round(ours / theirs, 2)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
