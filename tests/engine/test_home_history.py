"""A hand run twice as PokerStars text (R-HOME-1, issue 19): PokerStars' own words for it (FIRST/SECOND streets and
show downs, "Hand was run twice", "FIRST Board" / "SECOND Board"), PokerKit 0.7.7 reads the hand back (its
PokerStars parser has no pattern for FIRST/SECOND streets, so it reads players, stacks, actions and shown cards but
no board), and croupier's own replay of the text — PokerKit's actions, the two boards from the summary — deals the
same boards and ends with the same stacks. PHH cannot express a hand run twice, a bomb pot or a 7-2 bounty."""

from __future__ import annotations

import re

import pokerkit
import pytest

from engine.actions import Action, BetOrRaise, Call, Check, Fold, RunItTwice
from engine.cards import parse_cards
from engine.hand import ForcedBets, Hand
from engine.history import phh_text, pokerstars_text
from engine.home.bomb_pot import as_bomb_pot
from engine.phh import PhhError
from tests.engine.test_home_options import BLINDS, all_in_three_ways, config, holdem_deck

NAMES = {0: "ana", 1: "bob", 2: "cid"}


def run_twice_text() -> tuple[Hand, str]:
    hand = all_in_three_ways(config(run_it_twice=True))
    for seat in (0, 1, 2):
        hand.act(seat, RunItTwice(True))
    return hand, pokerstars_text(hand.events, hand.config, BLINDS, hand_id=7, players=NAMES, seat_count=6)


def test_a_hand_run_twice_uses_pokerstars_first_and_second_words() -> None:
    _, text = run_twice_text()
    lines = text.splitlines()
    start = lines.index("*** FIRST FLOP *** [2c 7h 9d]")
    assert lines[start:start + 13] == [
        "*** FIRST FLOP *** [2c 7h 9d]",
        "*** FIRST TURN *** [2c 7h 9d] [3s]",
        "*** FIRST RIVER *** [2c 7h 9d 3s] [4c]",
        "*** SECOND FLOP *** [Qh 8c 5d]",
        "*** SECOND TURN *** [Qh 8c 5d] [Jh]",
        "*** SECOND RIVER *** [Qh 8c 5d Jh] [2s]",
        "*** FIRST SHOW DOWN ***",
        "bob collected 699 from side pot-1",
        "ana collected 452 from main pot",
        "*** SECOND SHOW DOWN ***",
        "cid collected 699 from side pot-1",
        "cid collected 451 from main pot",
        "*** SUMMARY ***",
    ]
    assert lines[start + 13:] == [
        "Total pot 2301 | Rake 0",
        "Hand was run twice",
        "FIRST Board [2c 7h 9d 3s 4c]",
        "SECOND Board [Qh 8c 5d Jh 2s]",
        "Seat 1: ana (small blind) showed [As Ad] and won (452) with pair of aces, and lost",
        "Seat 2: bob (big blind) showed [Ks Kd] and won (699) with pair of kings, and lost",
        "Seat 3: cid (button) showed [Qs Qd] and lost, and won (1150) with three queens",
    ]


def test_a_hand_run_twice_from_the_flop_keeps_the_flop_plain() -> None:
    heads_up = ForcedBets(button_seat=1, small_blind_seat=1, small_blind=5, big_blind_seat=0, big_blind=10)
    hand = Hand.start(config(run_it_twice=True), {0: 500, 1: 500}, holdem_deck("As Ks Ad Kd 2c 7h 9d 3s 4c Kh 8c"),
                      heads_up)
    for seat, action in ((1, Call()), (0, Check()), (0, BetOrRaise(490)), (1, Call()), (0, RunItTwice(True)),
                         (1, RunItTwice(True))):
        hand.act(seat, action)
    text = pokerstars_text(hand.events, hand.config, heads_up, hand_id=8, players={0: "ana", 1: "bob"})
    assert "*** FLOP *** [2c 7h 9d]" in text and "*** FIRST TURN *** [2c 7h 9d] [3s]" in text
    assert "*** SECOND TURN *** [2c 7h 9d] [Kh]" in text and "*** SECOND RIVER *** [2c 7h 9d Kh] [8c]" in text
    assert "FIRST Board [2c 7h 9d 3s 4c]\nSECOND Board [2c 7h 9d Kh 8c]" in text


def _engine_action(action: str) -> Action:
    words = action.split()
    if words[1] == "f":
        return Fold()
    if words[1] == "cbr":
        return BetOrRaise(int(words[2]))
    return Call()


def test_pokerkit_reads_the_hand_and_croupiers_replay_of_the_text_matches() -> None:
    hand, text = run_twice_text()
    (history,) = pokerkit.HandHistory.from_pokerstars(text, error_status=True)
    assert list(history.starting_stacks) == [301, 1000, 1000]
    actions = list(history.actions)
    assert actions == ["d dh p1 AsAd", "d dh p2 KsKd", "d dh p3 QsQd", "p3 cbr 1000", "p1 cc", "p2 cc",
                       "p1 sm AsAd", "p2 sm KsKd", "p3 sm QsQd"]
    assert not any(action.startswith("d db") for action in actions)  # PokerKit 0.7.7 skips FIRST/SECOND streets
    # croupier's replay: PokerKit's players and actions, the two boards from the summary, everyone agreeing
    holes = [parse_cards(action.split()[3][:2] + " " + action.split()[3][2:]) for action in actions[:3]]
    first = re.search(r"^FIRST Board \[(.+)\]$", text, re.MULTILINE)
    second = re.search(r"^SECOND Board \[(.+)\]$", text, re.MULTILINE)
    assert first is not None and second is not None
    order = [holes[0][0], holes[1][0], holes[2][0], holes[0][1], holes[1][1], holes[2][1],
             *parse_cards(first[1]), *parse_cards(second[1])]
    replay = Hand.start(config(run_it_twice=True), dict(enumerate(history.starting_stacks)), holdem_deck(
        " ".join(map(str, order))), BLINDS)
    for action in actions[3:6]:
        replay.act(int(action.split()[0][1:]) - 1, _engine_action(action))
    for seat in (0, 1, 2):
        replay.act(seat, RunItTwice(True))
    assert replay.board == hand.board and replay.second_board == hand.second_board
    assert replay.final_stacks() == hand.final_stacks() == {0: 452, 1: 699, 2: 1150}
    won = {name: sum(int(amount) for amount in re.findall(r"won \((\d+)\)", line))
           for line in text.splitlines() if line.startswith("Seat ") and (name := line.split()[2])}
    assert won == {"ana": 452, "bob": 699, "cid": 1150}


def test_phh_refuses_the_home_options_it_cannot_express() -> None:
    hand, _ = run_twice_text()
    with pytest.raises(PhhError, match="a hand run twice"):
        phh_text(hand.events, hand.config, BLINDS)
    plan = ForcedBets(button_seat=1, small_blind_seat=0, small_blind=1, big_blind_seat=1, big_blind=2)
    bomb = as_bomb_pot(plan, hand_number=2, every=2, ante=5)
    bombed = Hand.start(config(), {0: 100, 1: 100}, holdem_deck(""), bomb)
    while not bombed.is_over:
        legal = bombed.legal_actions()
        assert legal is not None
        bombed.act(legal.seat, Check())
    with pytest.raises(PhhError, match="a bomb pot"):
        phh_text(bombed.events, bombed.config, bomb)
