"""PokerStars-style hand histories (issue 3, issue 7): exact layout, and PokerKit's parser replays them."""

from __future__ import annotations

import random
import warnings
from datetime import datetime

import pytest

from engine.actions import BetOrRaise, Call, Check, Fold
from engine.cards import parse_cards
from engine.events import view_for
from engine.hand import ForcedBets, Hand, HandConfig
from engine.history import HistoryError, game_title, phh_text, pokerstars_text
from engine.phh import loads, replay
from engine.structures import BettingStructure
from engine.variants import OMAHA_HI_LO, TEXAS_HOLDEM
from tests.engine.pokerkit_differences import pokerkit_agrees, short_big_blind
from tests.engine.test_phh import play_random_hand

NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}
PLAN = ForcedBets(button_seat=2, small_blind_seat=0, small_blind=50, big_blind_seat=1, big_blind=100)
CONFIG = HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit())


def small_hand() -> Hand:
    # Deal order: one card at a time from the small blind (seat 0), then the flop.
    deck = parse_cards("2c 9d Ah 7s Td As Kh 8h 3c 4d 5s")
    hand = Hand.start(CONFIG, {0: 5000, 1: 5000, 2: 5000}, deck, PLAN)
    for seat, action in [(2, BetOrRaise(300)), (0, Fold()), (1, Call()), (1, Check()), (2, BetOrRaise(400)),
                         (1, Fold())]:
        hand.act(seat, action)
    assert hand.is_over
    return hand


def test_pokerstars_layout_of_a_small_hand() -> None:
    text = pokerstars_text(small_hand().events, CONFIG, PLAN, hand_id=42, players=NAMES, table_name="Bar",
                           seat_count=6, played_at=datetime(2026, 11, 29, 13, 5, 0))
    assert text == """\
PokerStars Hand #42: Hold'em No Limit (50/100) - 2026/11/29 13:05:00 UTC
Table 'Bar' 6-max Seat #3 is the button
Seat 1: Ann (5000 in chips)
Seat 2: Bob (5000 in chips)
Seat 3: Cy (5000 in chips)
Ann: posts small blind 50
Bob: posts big blind 100
*** HOLE CARDS ***
Dealt to Ann [2c 7s]
Dealt to Bob [9d Td]
Dealt to Cy [Ah As]
Cy: raises 200 to 300
Ann: folds
Bob: calls 200
*** FLOP *** [Kh 8h 3c]
Bob: checks
Cy: bets 400
Bob: folds
Uncalled bet (400) returned to Cy
Cy collected 650 from pot
*** SUMMARY ***
Total pot 650 | Rake 0
Board [Kh 8h 3c]
Seat 1: Ann (small blind) folded before Flop
Seat 2: Bob (big blind) folded on the Flop
Seat 3: Cy (button) collected (650)
"""


def test_one_players_export_shows_only_that_players_cards() -> None:
    hand = small_hand()
    text = pokerstars_text(view_for(hand.events, seat=1), CONFIG, PLAN, hand_id=42, players=NAMES)
    assert "Dealt to Bob [9d Td]" in text
    assert "Ann [" not in text.replace("Seat 1: Ann (", "") and "As" not in text


def test_money_formatting_and_titles() -> None:
    text = pokerstars_text(small_hand().events, CONFIG, PLAN, hand_id=1, players=NAMES, chip_value=100,
                           currency="$")
    assert "(50/100)" not in text and "($0.50/$1)" in text
    assert "Cy: raises $2 to $3" in text and "Uncalled bet ($4) returned to Cy" in text
    assert "Seat 1: Ann ($50 in chips)" in text
    assert game_title(HandConfig(OMAHA_HI_LO, BettingStructure.fixed_limit(100))) == "Omaha Hi/Lo Limit"


def test_unfinished_hand_is_refused() -> None:
    deck = parse_cards("2c 9d Ah 7s Td As Kh 8h 3c 4d 5s")
    hand = Hand.start(CONFIG, {0: 5000, 1: 5000, 2: 5000}, deck, PLAN)
    with pytest.raises(HistoryError, match="whole hand"):
        pokerstars_text(hand.events, CONFIG, PLAN, hand_id=1, players=NAMES)


def test_phh_text_of_the_small_hand_replays() -> None:
    text = phh_text(small_hand().events, CONFIG, PLAN, players=NAMES)
    record = loads(text)
    assert record.players == ("Ann", "Bob", "Cy")
    assert record.finishing_stacks == (4950, 4700, 5350)
    assert replay(record).match is True


def test_all_in_run_out_shows_hands_before_the_board_and_the_showdown_after() -> None:
    deck = parse_cards("2c 9d Ah 7s Td As Kh 8h 3c 4d 5s")
    hand = Hand.start(CONFIG, {0: 5000, 1: 5000, 2: 5000}, deck, PLAN)
    for seat, action in [(2, BetOrRaise(5000)), (0, Fold()), (1, Call())]:
        hand.act(seat, action)
    text = pokerstars_text(hand.events, CONFIG, PLAN, hand_id=7, players=NAMES)
    assert text.index("Cy: shows [Ah As]") < text.index("*** FLOP ***") < text.index("*** SHOW DOWN ***")
    assert "Cy: raises 4900 to 5000 and is all-in" in text and "Bob: calls 4900 and is all-in" in text
    assert "Cy collected 10050 from pot" in text


def test_pokerkit_parses_the_text_and_replays_to_the_same_stacks() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    rng = random.Random("pokerstars-text")
    hands = 500  # issue 7 asks for at least 500; PokerKit 0.7.7 parses only no-limit hold'em PokerStars text
    showdowns = compared = 0
    for number in range(hands):
        hand, config, plan = play_random_hand(rng, "NT")
        if short_big_blind(hand.starting_stacks(), plan):
            continue  # PokerKit lets players call a short big blind; R-BET-ALLIN does not (pokerkit_differences)
        compared += 1
        names = {seat: f"Player {seat + 1}" for seat in range(10)}
        text = pokerstars_text(hand.events, config, plan, hand_id=number + 1, players=names, seat_count=6,
                               played_at=datetime(2026, 11, 29, 12, 0, 0))
        showdowns += "*** SHOW DOWN ***" in text
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = list(pokerkit.HandHistory.from_pokerstars(text, error_status=True))
        assert len(parsed) == 1, text
        final = list(list(parsed[0])[-1].stacks)
        assert pokerkit_agrees(hand.events, plan, final), text
    assert compared >= hands * 0.9 and showdowns > hands // 10


def test_rake_appears_in_the_summary_and_as_a_phh_user_field() -> None:
    from engine.rake import WHITE_LABEL_NO_LIMIT
    from tests.engine.test_rake import play_check_down

    events = play_check_down(WHITE_LABEL_NO_LIMIT, fold_preflop=False)
    config = HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit(), rake=WHITE_LABEL_NO_LIMIT)
    plan = ForcedBets(button_seat=2, small_blind_seat=0, small_blind=500, big_blind_seat=1, big_blind=1_000)
    text = pokerstars_text(events, config, plan, hand_id=3, players=NAMES)
    assert "Total pot 3000 | Rake 75" in text
    assert "_rake = 75" in phh_text(events, config, plan)
