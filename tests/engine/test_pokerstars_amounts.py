"""PokerStars-style text, read back: every player's chips per street equal the engine's events (issue: stud
exports wrote "bets 6" / "bets 0" for bets of 8, the amount minus an earlier street's bet).

The reader below knows the lines PokerStars writes for money: "posts the ante N", "posts small blind N",
"brings in for N", "completes it to N", "bets N", "raises A to B", "calls N", "Uncalled bet (N) returned to X".
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from datetime import datetime

import pytest

from engine.actions import BetOrRaise, BringIn, Call, Check, Fold
from engine.cards import parse_cards
from engine.events import (
    AntePosted,
    BetPlaced,
    BettingRoundStarted,
    BlindPosted,
    BringInPosted,
    Called,
    Event,
    Raised,
    UncalledBetReturned,
)
from engine.hand import ForcedBets, Hand, HandConfig
from engine.history import pokerstars_text
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
from tests.engine.test_phh import GAMES, play_random_hand
from tests.engine.test_stud_history import LIMIT, play_random

NAMES = {seat: f"Player {seat + 1}" for seat in range(10)}
_MONEY_LINE = re.compile(
    r"^(?P<name>.+?): (?:posts (?:the ante|small blind|big blind|dead small blind|straddle) (?P<posted>\d+)"
    r"|brings in for (?P<bring_in>\d+)|completes it to (?P<completed>\d+)|bets (?P<bet>\d+)"
    r"|raises (?P<increment>\d+) to (?P<raised>\d+)|calls (?P<called>\d+))(?: and is all-in)?$")
_RETURNED = re.compile(r"^Uncalled bet \((?P<amount>\d+)\) returned to (?P<name>.+)$")
# Headers that open a new betting street (HOLE CARDS does not: the blinds before it belong to that street).
_NEW_STREET = re.compile(r"^\*\*\* (?!HOLE CARDS|SHOW DOWN|SUMMARY)[^*]+\*\*\*")


def contributions_from_text(text: str, big_blind: int = 0) -> tuple[dict[str, int], list[dict[str, int]]]:
    """(antes by name, [chips by name] for each street with money), read from the PokerStars text.

    ``big_blind``: the table's big blind; a big blind all-in for less is still called in full (R-BET-ALLIN), so a
    raise's increment counts from at least the big blind on the street the big blind was posted."""
    antes: dict[str, int] = {}
    streets: list[dict[str, int]] = [{}]
    to_call = 0
    for line in text.splitlines():
        if line.startswith("*** SUMMARY"):
            break
        if _NEW_STREET.match(line):
            streets.append({})
            to_call = 0
            continue
        street = streets[-1]
        if returned := _RETURNED.match(line):
            street[returned["name"]] -= int(returned["amount"])
            continue
        match = _MONEY_LINE.match(line)
        if match is None:
            assert not re.search(r": (bets|raises|calls|completes|brings in|posts)", line), line
            continue
        name = match["name"]
        if match["posted"] is not None and "posts big blind" in line:
            to_call = big_blind
        if match["posted"] is not None and "ante" in line:
            antes[name] = antes.get(name, 0) + int(match["posted"])
        elif to := match["completed"] or match["raised"]:
            if match["increment"] is not None:
                assert int(match["increment"]) == int(to) - max(*street.values(), to_call, 0), line
            street[name] = int(to)
        else:
            street[name] = street.get(name, 0) + int(match["posted"] or match["bring_in"] or match["bet"]
                                                      or match["called"])
    return antes, [street for street in streets if any(street.values())]


def contributions_from_events(events: Sequence[Event]) -> tuple[dict[str, int], list[dict[str, int]]]:
    """The same, from the engine's events: per betting round, what each seat put in (less returns)."""
    antes: dict[str, int] = {}
    streets: list[dict[str, int]] = [{}]
    for event in events:
        if isinstance(event, BettingRoundStarted) and event.round_index > 0:
            streets.append({})
        elif isinstance(event, AntePosted):
            antes[NAMES[event.seat]] = antes.get(NAMES[event.seat], 0) + event.amount
        elif isinstance(event, BlindPosted | BringInPosted | Called | BetPlaced | Raised | UncalledBetReturned):
            amount = event.added if isinstance(event, BetPlaced | Raised) else event.amount
            sign = -1 if isinstance(event, UncalledBetReturned) else 1
            name = NAMES[event.seat]
            streets[-1][name] = streets[-1].get(name, 0) + sign * amount
    return antes, [street for street in streets if any(street.values())]


@pytest.mark.parametrize("variant", [SEVEN_CARD_STUD, SEVEN_CARD_STUD_HI_LO, AMERICANA, TELESINA,
                                     DEUCE_TO_SEVEN_TRIPLE_DRAW, FIVE_CARD_DRAW, THIRTY_TWO_CARD_DRAW],
                         ids=lambda variant: variant.id)
@pytest.mark.parametrize("structure", [LIMIT, BettingStructure.pot_limit(), BettingStructure.no_limit()],
                         ids=["fixed_limit", "pot_limit", "no_limit"])
def test_text_amounts_read_back_equal_the_events(variant: Variant, structure: BettingStructure) -> None:
    rng = random.Random(f"amounts-{variant.id}-{structure.kind.value}")
    for number in range(60):
        hand, plan = play_random(variant, rng, structure)
        text = pokerstars_text(hand.events, HandConfig(variant, structure), plan, hand_id=number, players=NAMES)
        assert contributions_from_text(text, plan.big_blind) == contributions_from_events(hand.events), text
        assert " bets 0" not in text and " bets -" not in text


@pytest.mark.parametrize("code", sorted(GAMES))
def test_board_game_amounts_read_back_equal_the_events(code: str) -> None:
    rng = random.Random(f"amounts-{code}")
    for number in range(40):
        hand, config, plan = play_random_hand(rng, code, ante=rng.choice((0, 10)), straddle=number % 3 == 0)
        text = pokerstars_text(hand.events, config, plan, hand_id=number, players=NAMES)
        assert contributions_from_text(text, plan.big_blind) == contributions_from_events(hand.events), text


def test_worked_stud_hand_with_a_bring_in_a_completion_and_raises() -> None:
    """Limit stud 4/8, ante 1, bring-in 2. Pot: antes 3 + 3rd street 8×3 + 4th 8×2 + 5th 8×2 + 6th 8×2 = 75
    (the river bet of 8 is returned uncalled)."""
    plan = ForcedBets(button_seat=2, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=4,
                      ante=1, bring_in=2)
    deck = parse_cards("5d 9c 2s 6s 9d 8h As 7h Jc 4h Tc 3h 4s 6d Td Ac 8c 9s 2d 6h 3d 2h 7d Kc Ks Qs Qd 8s")
    config = HandConfig(SEVEN_CARD_STUD, BettingStructure.fixed_limit(4, 8))
    hand = Hand.start(config, {0: 100, 1: 100, 2: 100}, deck, plan)
    for action in [BringIn(), BetOrRaise(4), BetOrRaise(8), Call(), Call(),  # 3rd: Bob, Cy, Ann, Bob, Cy
                   BetOrRaise(4), BetOrRaise(8), Fold(), Call(),  # 4th: Ann (ace high) first
                   Check(), BetOrRaise(8), Call(), BetOrRaise(8), Call(), Check(), BetOrRaise(8), Fold()]:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, action)
    assert hand.is_over
    text = pokerstars_text(hand.events, config, plan, hand_id=7, players={0: "Ann", 1: "Bob", 2: "Cy"},
                           table_name="Stud", seat_count=8, played_at=datetime(2026, 11, 29, 16, 0))
    assert text == EXPECTED_STUD


EXPECTED_STUD = """\
PokerStars Hand #7: 7 Card Stud Limit (4/8) - 2026/11/29 16:00:00 UTC
Table 'Stud' 8-max
Seat 1: Ann (100 in chips)
Seat 2: Bob (100 in chips)
Seat 3: Cy (100 in chips)
Ann: posts the ante 1
Bob: posts the ante 1
Cy: posts the ante 1
*** 3rd STREET ***
Dealt to Ann [5d 6s As]
Dealt to Bob [9c 9d 7h]
Dealt to Cy [2s 8h Jc]
Bob: brings in for 2
Cy: completes it to 4
Ann: raises 4 to 8
Bob: calls 6
Cy: calls 4
*** 4th STREET ***
Dealt to Ann [5d 6s As] [4h]
Dealt to Bob [9c 9d 7h] [Tc]
Dealt to Cy [2s 8h Jc] [3h]
Ann: bets 4
Bob: raises 4 to 8
Cy: folds
Ann: calls 4
*** 5th STREET ***
Dealt to Ann [5d 6s As 4h] [4s]
Dealt to Bob [9c 9d 7h Tc] [6d]
Ann: checks
Bob: bets 8
Ann: calls 8
*** 6th STREET ***
Dealt to Ann [5d 6s As 4h 4s] [Td]
Dealt to Bob [9c 9d 7h Tc 6d] [Ac]
Ann: bets 8
Bob: calls 8
*** RIVER ***
Dealt to Ann [5d 6s As 4h 4s Td] [8c]
Dealt to Bob [9c 9d 7h Tc 6d Ac] [9s]
Ann: checks
Bob: bets 8
Ann: folds
Uncalled bet (8) returned to Bob
Bob collected 75 from pot
*** SUMMARY ***
Total pot 75 | Rake 0
Seat 1: Ann folded on the River
Seat 2: Bob collected (75)
Seat 3: Cy folded on the 4th Street
"""


def test_a_stud_players_copy_shows_his_cards_and_the_others_up_cards() -> None:
    """Bob's export of the worked hand: his down cards, the others' up cards only; no line for their river."""
    from engine.events import view_for

    plan = ForcedBets(button_seat=2, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=4,
                      ante=1, bring_in=2)
    deck = parse_cards("5d 9c 2s 6s 9d 8h As 7h Jc 4h Tc 3h 4s 6d Td Ac 8c 9s 2d 6h 3d 2h 7d Kc Ks Qs Qd 8s")
    config = HandConfig(SEVEN_CARD_STUD, BettingStructure.fixed_limit(4, 8))
    hand = Hand.start(config, {0: 100, 1: 100, 2: 100}, deck, plan)
    for action in [BringIn(), BetOrRaise(4), BetOrRaise(8), Call(), Call(), BetOrRaise(4), BetOrRaise(8), Fold(),
                   Call(), Check(), BetOrRaise(8), Call(), BetOrRaise(8), Call(), Check(), BetOrRaise(8), Fold()]:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, action)
    text = pokerstars_text(view_for(hand.events, seat=1), config, plan, hand_id=7,
                           players={0: "Ann", 1: "Bob", 2: "Cy"})
    dealt = [line for line in text.splitlines() if line.startswith("Dealt to ")]
    assert dealt == [
        "Dealt to Ann [As]", "Dealt to Bob [9c 9d 7h]", "Dealt to Cy [Jc]",
        "Dealt to Ann [As] [4h]", "Dealt to Bob [9c 9d 7h] [Tc]", "Dealt to Cy [Jc] [3h]",
        "Dealt to Ann [As 4h] [4s]", "Dealt to Bob [9c 9d 7h Tc] [6d]",
        "Dealt to Ann [As 4h 4s] [Td]", "Dealt to Bob [9c 9d 7h Tc 6d] [Ac]",
        "Dealt to Bob [9c 9d 7h Tc 6d Ac] [9s]",
    ]
