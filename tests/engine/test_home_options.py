"""Home-game table options (issue 19, docs/rules-home.md): the worked hands of R-HOME-1..4 as assertions, and the
errors a bad plan or action gets."""

from __future__ import annotations

import pytest

from engine.actions import BetOrRaise, Call, Check, Fold, RunItTwice
from engine.cards import Card, parse_cards
from engine.errors import IllegalAction, NotYourTurn
from engine.events import (
    AntePosted,
    BettingRoundStarted,
    BlindPosted,
    BoardDealt,
    BoardPotAwarded,
    BombPotStarted,
    HandEnded,
    HandShown,
    PotAwarded,
    RunItTwiceAnswered,
    RunItTwiceDecided,
    RunItTwiceOffered,
    SecondBoardDealt,
    SevenDeuceBountyPaid,
)
from engine.hand import ForcedBets, Hand, HandConfig
from engine.home import HomeOptions, check_home_options
from engine.home.bomb_pot import as_bomb_pot, is_bomb_pot
from engine.home.rabbit_hunt import rabbit_cards, rabbit_problem
from engine.structures import BettingStructure
from engine.variants import OMAHA, SEVEN_CARD_STUD, TEXAS_HOLDEM


def holdem_deck(order: str) -> list[Card]:
    """``order`` first (the engine's deal order), then every other card."""
    first = list(parse_cards(order))
    return first + [card for card in TEXAS_HOLDEM.deck if card not in first]


def config(**options: int | bool) -> HandConfig:
    return HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit(), home=HomeOptions(**options))  # type: ignore[arg-type]


# R-HOME-1 worked hand (docs/rules-home.md): A (seat 0, small blind 5) 301 chips, B (seat 1, big blind 10) 1,000,
# C (seat 2, button) 1,000. C shoves, A and B call: main pot 903 (A, B, C), side pot 1,398 (B, C).
RUN_TWICE_DECK = "As Ks Qs Ad Kd Qd 2c 7h 9d 3s 4c Qh 8c 5d Jh 2s"
BLINDS = ForcedBets(button_seat=2, small_blind_seat=0, small_blind=5, big_blind_seat=1, big_blind=10)


def all_in_three_ways(hand_config: HandConfig) -> Hand:
    hand = Hand.start(hand_config, {0: 301, 1: 1000, 2: 1000}, holdem_deck(RUN_TWICE_DECK), BLINDS)
    hand.act(2, BetOrRaise(1000))
    hand.act(0, Call())
    hand.act(1, Call())
    return hand


def test_run_it_twice_asks_every_player_all_in_in_order_from_the_button_left() -> None:
    hand = all_in_three_ways(config(run_it_twice=True))
    offered = [event for event in hand.events if isinstance(event, RunItTwiceOffered)]
    assert offered == [RunItTwiceOffered((0, 1, 2))]
    assert hand.board == ()
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.can_run_twice and not legal.can_fold
    with pytest.raises(NotYourTurn):
        hand.act(1, RunItTwice(True))
    with pytest.raises(IllegalAction):
        hand.act(0, Check())


def test_run_it_twice_halves_each_pot_the_odd_chip_to_the_first_board_side_pots_separately() -> None:
    """R-HOME-1: main 903 → A 452 on the first board, C 451 on the second; side 1,398 → B 699, C 699."""
    hand = all_in_three_ways(config(run_it_twice=True))
    for seat in (0, 1, 2):
        hand.act(seat, RunItTwice(True))
    assert hand.is_over
    assert hand.board == tuple(parse_cards("2c 7h 9d 3s 4c"))
    assert hand.second_board == tuple(parse_cards("Qh 8c 5d Jh 2s"))
    second = [event for event in hand.events if isinstance(event, SecondBoardDealt)]
    assert [(event.street, event.cards) for event in second] == [
        ("flop", tuple(parse_cards("Qh 8c 5d"))), ("turn", tuple(parse_cards("Jh"))),
        ("river", tuple(parse_cards("2s")))]
    awards = [(event.board, event.pot_index, event.seat, event.amount, event.pot_total)
              for event in hand.events if isinstance(event, BoardPotAwarded)]
    assert awards == [(1, 1, 1, 699, 699), (2, 1, 2, 699, 699), (1, 0, 0, 452, 452), (2, 0, 2, 451, 451)]
    assert hand.final_stacks() == {0: 452, 1: 699, 2: 1150}
    assert sum(hand.final_stacks().values()) == 2301
    names = {(event.board, event.seat): event.description for event in hand.events
             if isinstance(event, BoardPotAwarded)}
    assert names[(2, 2)] == "three queens"
    # both runs came from the deck top-down: 6 hole cards, then board 1 (6-10), then board 2 (11-15)
    assert hand.cards_dealt == 16


def test_one_no_runs_it_once_and_nobody_after_is_asked() -> None:
    hand = all_in_three_ways(config(run_it_twice=True))
    hand.act(0, RunItTwice(True))
    hand.act(1, RunItTwice(False))
    assert [event for event in hand.events if isinstance(event, RunItTwiceAnswered | RunItTwiceDecided)] == [
        RunItTwiceAnswered(0, True), RunItTwiceAnswered(1, False), RunItTwiceDecided(False)]
    assert hand.is_over and hand.second_board == ()
    assert not any(isinstance(event, BoardPotAwarded | SecondBoardDealt) for event in hand.events)
    assert hand.final_stacks() == {0: 903, 1: 1398, 2: 0}  # aces hold on the one board: A main, B side


def test_a_table_without_the_option_never_asks() -> None:
    hand = all_in_three_ways(config())
    assert hand.is_over and not any(isinstance(event, RunItTwiceOffered) for event in hand.events)
    assert hand.final_stacks() == {0: 903, 1: 1398, 2: 0}


def test_run_it_twice_from_the_flop_shares_the_flop() -> None:
    """All-in on the flop: only the turn and the river are run twice; both boards share the flop."""
    deck = holdem_deck("As Ks Ad Kd 2c 7h 9d 3s 4c Kh 8c")
    heads_up = ForcedBets(button_seat=1, small_blind_seat=1, small_blind=5, big_blind_seat=0, big_blind=10)
    hand = Hand.start(config(run_it_twice=True), {0: 500, 1: 500}, deck, heads_up)
    hand.act(1, Call())
    hand.act(0, Check())
    hand.act(0, BetOrRaise(490))
    hand.act(1, Call())
    assert hand.board == tuple(parse_cards("2c 7h 9d"))
    hand.act(0, RunItTwice(True))
    hand.act(1, RunItTwice(True))
    assert hand.board == tuple(parse_cards("2c 7h 9d 3s 4c"))
    assert hand.second_board == tuple(parse_cards("2c 7h 9d Kh 8c"))
    # aces win the first board (500), the set of kings the second (500)
    assert hand.final_stacks() == {0: 500, 1: 500}


def test_run_it_twice_is_not_offered_when_the_board_is_complete_or_only_one_player_is_in() -> None:
    hand = all_in_three_ways(config(run_it_twice=True))
    assert hand.phase.value == "run_it_twice"
    assert not check_home_options(HomeOptions(run_it_twice=True), "texas_holdem")
    assert check_home_options(HomeOptions(run_it_twice=True), "seven_card_stud") == (
        "run_it_twice: 7-Card Stud has no board to run twice (Hold'em and Omaha games only)"
        if SEVEN_CARD_STUD.name == "7-Card Stud" else
        f"run_it_twice: {SEVEN_CARD_STUD.name} has no board to run twice (Hold'em and Omaha games only)")


def test_leaving_while_asked_answers_no() -> None:
    hand = all_in_three_ways(config(run_it_twice=True))
    hand.act(0, RunItTwice(True))
    hand.leave(2)
    assert RunItTwiceAnswered(2, False) in hand.events and RunItTwiceDecided(False) in hand.events
    assert hand.is_over


# R-HOME-2 worked hand: heads-up, the hand ends preflop; hole cards took deck positions 0-3.
def test_rabbit_hunt_shows_the_next_deck_cards_street_by_street_and_changes_nothing() -> None:
    deck = holdem_deck("As Ks Ad Kd 2c 7h 9d 3s 4c")
    heads_up = ForcedBets(button_seat=1, small_blind_seat=1, small_blind=5, big_blind_seat=0, big_blind=10)
    hand = Hand.start(config(rabbit_hunt=True), {0: 500, 1: 500}, deck, heads_up)
    hand.act(1, Fold())
    events_before = list(hand.events)
    hunt = rabbit_cards(TEXAS_HOLDEM, deck, cards_dealt=hand.cards_dealt, board=hand.board)
    assert hunt is not None and hunt.first_position == 4
    assert [(street, cards) for street, cards in hunt.streets] == [
        ("flop", tuple(parse_cards("2c 7h 9d"))), ("turn", tuple(parse_cards("3s"))),
        ("river", tuple(parse_cards("4c")))]
    assert hand.events == events_before and hand.final_stacks() == {0: 505, 1: 495}
    assert rabbit_problem(deck, 4, hunt.cards) is None
    assert rabbit_problem(deck, 4, parse_cards("7h 2c 9d 3s 4c")) is not None


def test_rabbit_hunt_after_the_flop_shows_only_turn_and_river_and_nothing_after_a_full_board() -> None:
    deck = holdem_deck("As Ks Ad Kd 2c 7h 9d 3s 4c")
    assert [street for street, _ in rabbit_cards(TEXAS_HOLDEM, deck, cards_dealt=7,  # type: ignore[union-attr]
                                                 board=deck[4:7]).streets] == ["turn", "river"]
    assert rabbit_cards(TEXAS_HOLDEM, deck, cards_dealt=9, board=deck[4:9]) is None
    assert rabbit_cards(SEVEN_CARD_STUD, list(SEVEN_CARD_STUD.deck), cards_dealt=6, board=()) is None


# R-HOME-3 worked hand: four players, big blind 2, bomb-pot ante 10; seat 3 has only 5 chips.
def test_bomb_pot_antes_everyone_skips_preflop_and_opens_on_the_flop_left_of_the_button() -> None:
    plan = ForcedBets(button_seat=3, small_blind_seat=0, small_blind=1, big_blind_seat=1, big_blind=2)
    bomb = as_bomb_pot(plan, hand_number=10, every=10, ante=10)
    assert as_bomb_pot(plan, hand_number=9, every=10, ante=10) is plan
    hand = Hand.start(config(), {0: 100, 1: 100, 2: 100, 3: 5}, holdem_deck(""), bomb)
    assert hand.events[1] == BombPotStarted(10)
    assert [(event.seat, event.amount) for event in hand.events if isinstance(event, AntePosted)] == [
        (0, 10), (1, 10), (2, 10), (3, 5)]
    assert not any(isinstance(event, BlindPosted) for event in hand.events)
    rounds = [event for event in hand.events if isinstance(event, BettingRoundStarted)]
    assert rounds == [BettingRoundStarted(0, "flop", 35)]
    assert len(hand.board) == 3
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.min_raise_to, legal.can_check) == (0, 2, True)
    assert [(pot.amount, pot.eligible) for pot in hand.pots()] == [(20, (0, 1, 2, 3)), (15, (0, 1, 2))]


def test_bomb_pot_every_n_hands() -> None:
    assert [number for number in range(1, 31) if is_bomb_pot(number, every=10)] == [10, 20, 30]
    with pytest.raises(ValueError, match="no blinds"):
        Hand.start(config(), {0: 100, 1: 100}, holdem_deck(""),
                   ForcedBets(button_seat=1, small_blind_seat=1, small_blind=1, big_blind_seat=0, big_blind=2,
                              ante=10, bomb_pot=True))
    with pytest.raises(ValueError, match="ante of at least 1"):
        Hand.start(config(), {0: 100, 1: 100}, holdem_deck(""),
                   ForcedBets(button_seat=1, small_blind_seat=None, small_blind=0, big_blind_seat=None,
                              big_blind=2, bomb_pot=True))


# R-HOME-4 worked hand: bounty 5, blinds 1/2, four players with 100; seat 2 raises to 6 with 7-2, all fold.
def test_seven_deuce_uncontested_winner_shows_and_collects_from_every_player_dealt_in() -> None:
    plan = ForcedBets(button_seat=3, small_blind_seat=0, small_blind=1, big_blind_seat=1, big_blind=2)
    deck = holdem_deck("Ah Kh 7c 9s Ad Kd 2d 9h")
    hand = Hand.start(config(seven_deuce_bounty=5), {0: 100, 1: 100, 2: 100, 3: 100}, deck, plan)
    hand.act(2, BetOrRaise(6))
    hand.act(3, Fold())
    hand.act(0, Fold())
    hand.act(1, Fold())
    assert HandShown(2, tuple(parse_cards("7c 2d"))) in hand.events
    assert SevenDeuceBountyPaid(2, ((3, 5), (0, 5), (1, 5)), 15) in hand.events
    assert hand.final_stacks() == {0: 94, 1: 93, 2: 118, 3: 95}
    ended = hand.events[-1]
    assert isinstance(ended, HandEnded) and sum(stack for _, stack in ended.stacks) == 400


def test_seven_deuce_pays_nothing_on_a_split_or_a_loss_and_nothing_without_the_option() -> None:
    plan = ForcedBets(button_seat=1, small_blind_seat=1, small_blind=5, big_blind_seat=0, big_blind=10)
    # both play the board's straight: a split pot pays no bounty
    deck = holdem_deck("7c 2h Ac 3h 8s 9s Td Jc Qd")
    hand = Hand.start(config(seven_deuce_bounty=5), {0: 100, 1: 100}, deck, plan)
    hand.act(1, Call())
    hand.act(0, Check())
    for _ in range(3):
        hand.act(0, Check())
        hand.act(1, Check())
    assert hand.is_over and not any(isinstance(event, SevenDeuceBountyPaid) for event in hand.events)
    assert hand.final_stacks() == {0: 100, 1: 100}
    without = Hand.start(config(), {0: 100, 1: 100}, holdem_deck("7c Ah 2d Kh"), plan)
    without.act(1, Fold())
    assert not any(isinstance(event, SevenDeuceBountyPaid | HandShown) for event in without.events)


def test_seven_deuce_short_payer_pays_what_he_has() -> None:
    """Bounty 50: seat 1 is all-in for 40 and loses to 7-2's two pair (nothing left to pay); seat 0 folded his
    small blind and has 25 left: he pays 25 and owes nothing more."""
    plan = ForcedBets(button_seat=2, small_blind_seat=0, small_blind=5, big_blind_seat=1, big_blind=10)
    deck = holdem_deck("9c Kc 7c 9d Kd 2d 7h 2h 3s 8s Jd")
    hand = Hand.start(config(seven_deuce_bounty=50), {0: 30, 1: 40, 2: 100}, deck, plan)
    hand.act(2, BetOrRaise(40))
    hand.act(0, Fold())
    hand.act(1, Call())
    assert hand.is_over
    paid = [event for event in hand.events if isinstance(event, SevenDeuceBountyPaid)]
    assert paid == [SevenDeuceBountyPaid(2, ((0, 25),), 25)]
    assert hand.final_stacks() == {0: 0, 1: 0, 2: 170}
    assert [event.amount for event in hand.events if isinstance(event, PotAwarded)] == [85]


def test_home_options_are_refused_where_they_do_not_fit() -> None:
    assert check_home_options(HomeOptions(seven_deuce_bounty=5), "omaha") is not None
    assert check_home_options(HomeOptions(bomb_pot_every=5), "texas_holdem") == (
        "bomb_pot_ante: a bomb pot needs an ante of at least 1 chip")
    assert check_home_options(HomeOptions(bomb_pot_ante=5), "texas_holdem") == (
        "bomb_pot_ante: set bomb_pot_every too (every how many hands)")
    assert check_home_options(HomeOptions(run_it_twice=True, rabbit_hunt=True, bomb_pot_every=3, bomb_pot_ante=2),
                              OMAHA.id) is None
    assert BoardDealt  # imported for the reader: the first board keeps the ordinary events


def test_a_tie_on_one_board_splits_that_half_with_the_clockwise_odd_chip() -> None:
    """R-HOME-1 with R-POT-2: 1,003 → 502 / 501; the first board to position 1, the second board tied: 251 to
    position 0 (first clockwise from the button), 250 to position 1."""
    from engine.home.run_it_twice import award_twice

    shares = award_twice(1003, [0, 1], ({0: 5, 1: 9}, {0: 7, 1: 7}), (None, None))
    assert shares == [(1, 1, 502, "whole"), (2, 0, 251, "whole"), (2, 1, 250, "whole")]
    assert sum(chips for _, _, chips, _ in shares) == 1003


def test_a_jackpot_judges_a_hand_run_twice_on_its_first_board() -> None:
    """Four kings lose the first board's main pot to a royal flush and win it on the second: the bad beat is
    judged on the first board, so the four kings are its losing hand (R-HOME-1 in docs/rules-home.md)."""
    from engine.events import HandStarted
    from engine.jackpot import bad_beat_from_events

    events = [HandStarted("texas_holdem", "no_limit", 2, ((0, 100), (1, 100), (2, 100))),
              HandShown(0, tuple(parse_cards("Kh Kd"))), HandShown(1, tuple(parse_cards("As Qs"))),
              BoardDealt("flop", tuple(parse_cards("Kc Ks Js")), tuple(parse_cards("Kc Ks Js"))),
              BoardDealt("turn", tuple(parse_cards("Ts")), tuple(parse_cards("Kc Ks Js Ts"))),
              BoardDealt("river", tuple(parse_cards("3h")), tuple(parse_cards("Kc Ks Js Ts 3h"))),
              BoardPotAwarded(0, 1, 100, "whole", 100, "royal flush", 1),
              BoardPotAwarded(0, 0, 100, "whole", 100, "four kings", 2),
              HandEnded(((0, 100), (1, 200), (2, 0)))]
    beat = bad_beat_from_events(events, "holdem")
    assert beat is not None and beat.losers == (0,) and beat.winners == (1,)
