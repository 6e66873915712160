"""Hands per second: croupier's engine against PokerKit on random-action 6-max hands (issue 3).

Both engines play the same number of hands from the same seeds in one process: 6 players, 200 big blinds
each, blinds 1/2, a random action at every decision (fold when facing a bet, check/call, or a bet/raise
to a random legal amount, each equally likely). PokerKit runs with every automation on. croupier deals from
a deck shuffled with the hand's seed. Prints one JSON line:

    {"croupier_nlhe": …, "pokerkit_nlhe": …, "ratio_nlhe": …, "croupier_plo": …, "pokerkit_plo": …, "ratio_plo": …}

Usage: python tests/benchmarks/simulate.py [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import time
import warnings
from typing import Any

from engine.actions import Action, BetOrRaise, Call, Check, Fold
from engine.cards import full_deck
from engine.hand import ForcedBets, Hand, HandConfig
from engine.structures import BettingStructure
from engine.variants import OMAHA, TEXAS_HOLDEM

PLAYERS = 6
STACK = 400
SMALL_BLIND, BIG_BLIND = 1, 2


def croupier_hands(game: str, hands: int, seed: int) -> float:
    """Hands per second for croupier."""
    variant, structure = (TEXAS_HOLDEM, BettingStructure.no_limit()) if game == "nlhe" else (
        OMAHA, BettingStructure.pot_limit())
    config = HandConfig(variant, structure)
    plan = ForcedBets(button_seat=PLAYERS - 1, small_blind_seat=0, small_blind=SMALL_BLIND, big_blind_seat=1,
                      big_blind=BIG_BLIND)
    seats = dict.fromkeys(range(PLAYERS), STACK)
    deck = list(full_deck())
    begin = time.perf_counter()
    for number in range(hands):
        rng = random.Random(seed + number)
        rng.shuffle(deck)
        hand = Hand.start(config, seats, deck, plan)
        while (legal := hand.legal_actions()) is not None:
            choices: list[Action] = [Check() if legal.can_check else Call()]
            if not legal.can_check:
                choices.append(Fold())
            if legal.min_raise_to is not None and legal.max_raise_to is not None:
                choices.append(BetOrRaise(rng.randint(legal.min_raise_to, legal.max_raise_to)))
            hand.act(legal.seat, rng.choice(choices))
    return hands / (time.perf_counter() - begin)


def pokerkit_hands(game: str, hands: int, seed: int) -> float:
    """Hands per second for PokerKit with every automation on."""
    from pokerkit import Automation, NoLimitTexasHoldem, PotLimitOmahaHoldem

    automations = tuple(Automation)
    factory: Any = NoLimitTexasHoldem if game == "nlhe" else PotLimitOmahaHoldem
    stacks = [STACK] * PLAYERS
    begin = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for number in range(hands):
            rng = random.Random(seed + number)
            state = factory.create_state(automations, True, 0, (SMALL_BLIND, BIG_BLIND), BIG_BLIND, stacks, PLAYERS)
            while state.status:
                facing = state.checking_or_calling_amount
                choices = ["call"]
                if facing:
                    choices.append("fold")
                if state.can_complete_bet_or_raise_to():
                    choices.append("raise")
                choice = rng.choice(choices)
                if choice == "fold":
                    state.fold()
                elif choice == "raise":
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(rng.randint(low, high))
                else:
                    state.check_or_call()
    return hands / (time.perf_counter() - begin)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per engine and game (default 1000)")
    parser.add_argument("--seed", type=int, default=2024)
    arguments = parser.parse_args()
    result: dict[str, float] = {}
    for game in ("nlhe", "plo"):
        ours = croupier_hands(game, arguments.hands, arguments.seed)
        theirs = pokerkit_hands(game, arguments.hands, arguments.seed)
        result[f"croupier_{game}"] = round(ours, 1)
        result[f"pokerkit_{game}"] = round(theirs, 1)
        result[f"ratio_{game}"] = round(ours / theirs, 2)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
