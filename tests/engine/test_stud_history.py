"""Hand histories of stud, draw and 32-card hands: PHH (F7S, F7S/8, F2L3D) replays in croupier and in PokerKit to
the same stacks; every game writes PokerStars-style text (the 32-card games and 5-card draw have no PHH code)."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

from engine.actions import BetOrRaise, BringIn, Call, Check, Draw, Fold, Split
from engine.draw import seeded_reshuffle
from engine.hand import ForcedBets, Hand, HandConfig
from engine.history import phh_text, pokerstars_text
from engine.phh import PhhError, loads, replay
from engine.structures import BettingStructure
from engine.variants import (
    AMERICANA,
    DEUCE_TO_SEVEN_TRIPLE_DRAW,
    FIVE_CARD_DRAW,
    SEVEN_CARD_STUD,
    SEVEN_CARD_STUD_HI_LO,
    TELESINA,
    THIRTY_TWO_CARD_DRAW,
    Variant,
)
from tests.engine.pokerkit_differences import pokerkit_agrees, short_big_blind
from tests.engine.test_stud_and_draw_differential import _low_quirk

LIMIT = BettingStructure.fixed_limit(4, 8)


def play_random(variant: Variant, rng: random.Random, structure: BettingStructure = LIMIT) -> tuple[Hand, ForcedBets]:
    count = rng.randint(2, min(variant.max_players, 6))
    stacks = {seat: rng.choice((rng.randint(1, 15), rng.randint(20, 200))) for seat in range(count)}
    if any(street.hole_up for street in variant.streets):
        plan = ForcedBets(button_seat=count - 1, small_blind_seat=None, small_blind=0, big_blind_seat=None,
                          big_blind=4, ante=1, bring_in=2)
    elif count == 2:
        plan = ForcedBets(button_seat=1, small_blind_seat=1, small_blind=2, big_blind_seat=0, big_blind=4)
    else:
        plan = ForcedBets(button_seat=count - 1, small_blind_seat=0, small_blind=2, big_blind_seat=1, big_blind=4)
    deck = list(variant.deck)
    rng.shuffle(deck)
    hand = Hand.start(HandConfig(variant, structure), stacks, deck, plan,
                      reshuffle=seeded_reshuffle(rng.randbytes(8)))
    while (legal := hand.legal_actions()) is not None:
        if legal.max_discards is not None:
            own = hand.hole_cards(legal.seat)
            hand.act(legal.seat, Draw(tuple(card for card in own if rng.random() < 0.3)[:legal.max_discards]))
            continue
        choices: list[Any] = [BringIn()] if legal.bring_in_amount is not None else [
            Check() if legal.can_check else Call()]
        if legal.can_fold and not legal.can_check:
            choices.append(Fold())
        if legal.can_split:
            choices.append(Split())
        if legal.min_raise_to is not None:
            choices.append(BetOrRaise(legal.min_raise_to))
        hand.act(legal.seat, rng.choice(choices))
    return hand, plan


@pytest.mark.parametrize("variant", [SEVEN_CARD_STUD, SEVEN_CARD_STUD_HI_LO, DEUCE_TO_SEVEN_TRIPLE_DRAW],
                         ids=lambda variant: variant.id)
def test_phh_of_random_hands_replays_in_croupier_and_pokerkit(variant: Variant) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    rng = random.Random(f"phh-{variant.id}")
    for _ in range(150):
        hand, plan = play_random(variant, rng)
        config = HandConfig(variant, LIMIT)
        text = phh_text(hand.events, config, plan)
        record = loads(text)
        result = replay(record)
        assert result.match is True, (result, text)
        if short_big_blind(hand.starting_stacks(), plan):
            continue  # PokerKit cannot replay a short big blind called in full (pokerkit_differences)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            history = pokerkit.HandHistory.loads(text)
            states = list(history)
        agrees = pokerkit_agrees(hand.events, plan, states[-1].stacks)
        if variant.low_eight and not agrees and _low_quirk(hand):
            continue  # the documented R-POT-2 side-pot difference (test_stud_and_draw_differential)
        assert agrees, text


@pytest.mark.parametrize("variant", [SEVEN_CARD_STUD, SEVEN_CARD_STUD_HI_LO, DEUCE_TO_SEVEN_TRIPLE_DRAW,
                                     FIVE_CARD_DRAW, THIRTY_TWO_CARD_DRAW, AMERICANA, TELESINA],
                         ids=lambda variant: variant.id)
def test_pokerstars_text_for_every_game(variant: Variant) -> None:
    rng = random.Random(f"text-{variant.id}")
    names = {seat: f"Player {seat + 1}" for seat in range(10)}
    for number in range(40):
        hand, plan = play_random(variant, rng)
        text = pokerstars_text(hand.events, HandConfig(variant, LIMIT), plan, hand_id=number, players=names)
        assert "*** SUMMARY ***" in text
        if variant.forced_bets.value == "ante_bring_in":
            assert "posts the ante" in text and ("*** 3rd STREET ***" in text or "*** 2nd STREET ***" in text)
        if variant.has_draws and any(event.__class__.__name__ == "CardsDrawn" for event in hand.events):
            assert "DRAW ***" in text


def test_games_without_a_phh_code_are_refused_by_phh() -> None:
    hand, plan = play_random(TELESINA, random.Random(1))
    with pytest.raises(PhhError, match="no variant code"):
        phh_text(hand.events, HandConfig(TELESINA, LIMIT), plan)
