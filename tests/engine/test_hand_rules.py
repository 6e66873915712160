"""RULES.md worked numbers and rule cases for the hand state machine (issue 3).

Decks are rigged: :func:`rigged_deck` lays out hole cards in deal order (one at a time clockwise from the
first seat left of the button) then the board, then the rest of the deck.
"""

from __future__ import annotations

import pytest

from engine.actions import BetOrRaise, Call, Check, Fold, Muck, Show
from engine.cards import Card, full_deck, parse_cards
from engine.errors import IllegalAction, InvalidAmount, NotYourTurn
from engine.events import (
    BlindPosted,
    BoardDealt,
    CardsDealtFaceDown,
    HandEnded,
    HandMucked,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    Raised,
    RakeTaken,
    TreatedAsAllIn,
    UncalledBetReturned,
    view_for,
)
from engine.hand import ForcedBets, Hand, HandConfig
from engine.rake import WHITE_LABEL_NO_LIMIT
from engine.structures import BettingStructure
from engine.variants import OMAHA_HI_LO, TEXAS_HOLDEM, Variant, five_card_omaha

NO_LIMIT = BettingStructure.no_limit()


def rigged_deck(holes: list[str], board: str = "") -> list[Card]:
    """Deck dealing ``holes[i]`` to the i-th player left of the button, then ``board``."""
    hands = [parse_cards(text) for text in holes]
    order = [hand[index] for index in range(len(hands[0])) for hand in hands]
    order += parse_cards(board)
    return order + [card for card in full_deck() if card not in order]


def start(
    stacks: list[int],
    *,
    holes: list[str] | None = None,
    board: str = "",
    structure: BettingStructure = NO_LIMIT,
    variant: Variant = TEXAS_HOLDEM,
    small_blind: int = 5,
    big_blind: int = 10,
    manual_showdown: bool = False,
    auto_muck: tuple[int, ...] = (),
    rake: object = None,
    **plan: object,
) -> Hand:
    """Seats 0..n-1, button the last seat, small blind seat 0, big blind seat 1 (heads-up: button SB)."""
    count = len(stacks)
    defaults: dict[str, object] = {
        "button_seat": count - 1,
        "small_blind_seat": count - 1 if count == 2 else 0,
        "small_blind": small_blind,
        "big_blind_seat": 0 if count == 2 else 1,
        "big_blind": big_blind,
    }
    defaults.update(plan)
    deck = rigged_deck(holes, board) if holes else list(full_deck())
    config = HandConfig(variant, structure, rake=rake, manual_showdown=manual_showdown)  # type: ignore[arg-type]
    return Hand.start(config, dict(enumerate(stacks)), deck, ForcedBets(**defaults), auto_muck=auto_muck)  # type: ignore[arg-type]


def play(hand: Hand, *moves: tuple[int, object]) -> None:
    for seat, action in moves:
        hand.act(seat, action)  # type: ignore[arg-type]


def awards(hand: Hand) -> dict[int, int]:
    won: dict[int, int] = {}
    for event in hand.events:
        if isinstance(event, PotAwarded):
            won[event.seat] = won.get(event.seat, 0) + event.amount
    return won


# ---------------------------------------------------------------- R-BET-PL / HPL / SL / FL sizes


def test_pot_limit_maximum_worked_example_pot_50_bet_10_call_10_raise_to_90() -> None:
    hand = start([1000] * 5, structure=BettingStructure.pot_limit())
    play(hand, (2, Call()), (3, Call()), (4, Call()), (0, Call()), (1, Check()))
    assert hand.pot_total == 50
    play(hand, (0, BetOrRaise(10)), (1, Call()))
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.min_raise_to, legal.max_raise_to) == (2, 20, 90)
    with pytest.raises(InvalidAmount, match="between 20 and 90, not 91"):
        hand.act(2, BetOrRaise(91))
    hand.act(2, BetOrRaise(90))


def test_pot_limit_preflop_maximum_counts_the_call_of_the_big_blind() -> None:
    # Blinds 5/10: call 10 then raise by the pot 25 → to 35.
    hand = start([1000] * 3, structure=BettingStructure.pot_limit())
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (20, 35)


def test_half_pot_limit_maximum_is_half_the_pot_limit_raise() -> None:
    hand = start([1000] * 5, structure=BettingStructure.half_pot_limit())
    play(hand, (2, Call()), (3, Call()), (4, Call()), (0, Call()), (1, Check()))
    play(hand, (0, BetOrRaise(10)), (1, Call()))
    legal = hand.legal_actions()
    # Pot after the call is 80; half of it is 40 → raise to 10 + 40 = 50.
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (20, 50)
    with pytest.raises(InvalidAmount, match="between 20 and 50, not 51"):
        hand.act(2, BetOrRaise(51))


def test_spread_limit_maxima_by_round_20_40_60() -> None:
    hand = start([1000] * 3, structure=BettingStructure.spread_limit(20, 40, 60))
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (20, 30)  # raise by 10..20
    play(hand, (2, Call()), (0, Call()), (1, Check()))
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (10, 20)  # flop: a = 20
    play(hand, (0, Check()), (1, Check()), (2, Check()))
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (10, 40)  # turn: b = 40
    play(hand, (0, BetOrRaise(25)))
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (50, 65)  # raise by 25..40
    play(hand, (1, Call()), (2, Call()))
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (10, 60)  # river: c = 60


def test_fixed_limit_sizes_small_bet_then_big_bet_and_cap_of_one_bet_three_raises() -> None:
    hand = start([1000] * 3, structure=BettingStructure.fixed_limit(10))
    legal = hand.legal_actions()
    assert legal is not None and (legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (10, 20, 20)
    with pytest.raises(InvalidAmount, match="exactly 20"):
        hand.act(2, BetOrRaise(25))
    # The big blind is the bet; three raises reach the cap (20, 30, 40).
    play(hand, (2, BetOrRaise(20)), (0, BetOrRaise(30)), (1, BetOrRaise(40)))
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and not legal.can_raise
    with pytest.raises(IllegalAction, match="capped"):
        hand.act(2, BetOrRaise(50))
    play(hand, (2, Call()), (0, Call()))
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (10, 10)  # flop: small bet
    play(hand, (0, BetOrRaise(10)), (1, BetOrRaise(20)), (2, BetOrRaise(30)), (0, BetOrRaise(40)))
    legal = hand.legal_actions()
    assert legal is not None and not legal.can_raise  # 1 bet + 3 raises
    play(hand, (1, Call()), (2, Call()))
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (20, 20)  # turn: big bet


def test_fixed_limit_cap_lifted_heads_up_when_configured() -> None:
    capped = start([1000] * 2, structure=BettingStructure.fixed_limit(10))
    uncapped = start([1000] * 2, structure=BettingStructure.fixed_limit(10, uncapped_heads_up=True))
    for hand in (capped, uncapped):
        play(hand, (1, BetOrRaise(20)), (0, BetOrRaise(30)), (1, BetOrRaise(40)))
    assert not capped.legal_actions().can_raise  # type: ignore[union-attr]
    assert uncapped.legal_actions().min_raise_to == 50  # type: ignore[union-attr]


def test_no_limit_minimum_raise_is_the_last_full_raise() -> None:
    hand = start([1000] * 4)
    play(hand, (2, BetOrRaise(35)))  # raise by 25
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (60, 1000)


# ---------------------------------------------------------------- R-BET-ALLIN


def test_short_all_in_does_not_reopen_action_for_players_who_already_acted() -> None:
    # Blinds 5/10. Seat 2 raises to 30 (a raise of 20); seat 3 is all-in for 40 (a raise of 10, short).
    hand = start([1000, 1000, 1000, 40, 1000])
    play(hand, (2, BetOrRaise(30)), (3, BetOrRaise(40)))
    assert [e for e in hand.events if isinstance(e, Raised)][-1].full is False
    # Seat 4 has not acted: it may raise (to at least 40 + 20).
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 4 and legal.min_raise_to == 60
    play(hand, (4, Call()), (0, Fold()), (1, Fold()))
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.call_amount == 10 and not legal.can_raise
    with pytest.raises(IllegalAction, match="does not reopen"):
        hand.act(2, BetOrRaise(100))


def test_short_all_ins_adding_up_to_a_full_raise_reopen_the_action() -> None:
    # Seat 2 bets... preflop: raise to 30 (by 20); seat 3 all-in to 40 (+10), seat 4 all-in to 50 (+10).
    hand = start([1000, 1000, 1000, 40, 50, 1000])
    play(hand, (2, BetOrRaise(30)), (3, BetOrRaise(40)), (4, BetOrRaise(50)), (5, Call()), (0, Fold()), (1, Fold()))
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.min_raise_to == 70


def _flop_with_short_all_ins() -> Hand:
    """RULES.md R-BET-ALLIN (turn 2) example on the flop: A (seat 0) bets 100, B (seat 1) all-in 150 (+50),
    C (seat 2) calls 150, D (seat 3) all-in 210 (+60). Everyone limped 10 preflop at 5/10."""
    hand = start([1000, 160, 1000, 220])
    play(hand, (2, Call()), (3, Call()), (0, Call()), (1, Check()))
    assert hand.street == "flop"
    play(hand, (0, BetOrRaise(100)), (1, BetOrRaise(150)), (2, Call()), (3, BetOrRaise(210)))
    return hand


def test_short_all_in_reopens_action_for_a_player_facing_a_full_raise_since_he_acted() -> None:
    hand = _flop_with_short_all_ins()
    # A faces +110 since his bet (50 + 60 >= the full raise of 100): he may raise, to 210 + 100 = 310 .. 990.
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.call_amount == 110
    assert (legal.min_raise_to, legal.max_raise_to) == (310, 990)


def test_short_all_in_does_not_reopen_action_for_callers() -> None:
    hand = _flop_with_short_all_ins()
    play(hand, (0, Call()))
    # C faces only +60 since he called 150: call 60 or fold, no raise (the engine used to offer 310..990).
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.call_amount == 60
    assert (legal.min_raise_to, legal.max_raise_to) == (None, None)
    with pytest.raises(IllegalAction, match="does not reopen"):
        hand.act(2, BetOrRaise(310))
    play(hand, (2, Call()))
    assert hand.street == "turn" and hand.pot_total == 40 + 150 + 3 * 210


def test_short_big_blind_is_called_in_full_and_the_minimum_raise_is_two_big_blinds() -> None:
    # R-BET-ALLIN short big blind: blinds 5/10, the big blind (seat 1) is all-in for 6.
    hand = start([1000, 6, 1000, 1000])
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2
    assert legal.call_amount == 10 and legal.min_raise_to == 20
    play(hand, (2, Call()), (3, Call()))
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.call_amount == 5 and legal.min_raise_to == 20
    play(hand, (0, Call()))
    # The big blind matched 6 of each 10: the main pot is 4 x 6 = 24, the side pot 3 x 4 = 12.
    assert hand.street == "flop" and [pot.amount for pot in hand.pots()] == [24, 12]


def test_odd_chips_one_each_clockwise_from_the_button_284_three_ways_is_95_95_94() -> None:
    # R-POT-2 (turn 2). Blinds 5/11, button seat 3: seat 2 raises to 91, seat 3 and seat 0 call, the big blind
    # folds: 3 x 91 + 11 = 284. The board (a royal flush) plays for everyone: a three-way tie. Clockwise from
    # the button: seat 0, seat 2, then the button (seat 3) last.
    hand = start([1000] * 4, big_blind=11, holes=["2c3d", "2d3c", "2h3s", "2s3h"], board="AsKsQsJsTs")
    play(hand, (2, BetOrRaise(91)), (3, Call()), (0, Call()), (1, Fold()))
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, Check())
    assert awards(hand) == {0: 95, 2: 95, 3: 94}


def test_all_in_for_less_than_a_call_or_minimum_is_always_allowed() -> None:
    hand = start([1000, 1000, 25])
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (20, 25)
    hand2 = start([1000, 1000, 15])
    legal = hand2.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (15, 15)
    hand3 = start([1000, 1000, 8])
    legal = hand3.legal_actions()
    assert legal is not None and legal.call_amount == 8 and not legal.can_raise


# ---------------------------------------------------------------- R-BET-ORDER / R-BLIND-*


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    hand = start([1000, 1000])
    posts = [(e.seat, e.kind) for e in hand.events if isinstance(e, BlindPosted)]
    assert posts == [(1, "small_blind"), (0, "big_blind")]
    assert hand.legal_actions().seat == 1  # type: ignore[union-attr]
    play(hand, (1, Call()), (0, Check()))
    assert hand.legal_actions().seat == 0  # type: ignore[union-attr]


def test_big_blind_has_the_option_when_limped_to() -> None:
    hand = start([1000] * 3)
    play(hand, (2, Call()), (0, Call()))
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.can_check and legal.min_raise_to == 20


def test_straddle_acts_last_preflop_with_the_option_and_sets_the_minimum_raise() -> None:
    hand = start([1000] * 5, straddle_seat=2, straddle=20)
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 3 and legal.call_amount == 20 and legal.min_raise_to == 40
    play(hand, (3, Call()), (4, Call()), (0, Call()), (1, Call()))
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.can_check and legal.can_raise


def test_dead_small_blind_goes_to_the_pot_and_out_of_position_big_blind_is_live() -> None:
    hand = start([1000] * 5, dead_small_blinds=(3,), big_blinds_out_of_position=(3,))
    posts = [(e.seat, e.kind, e.amount, e.live) for e in hand.events if isinstance(e, BlindPosted)]
    assert (3, "dead_small_blind", 5, False) in posts and (3, "big_blind_out_of_position", 10, True) in posts
    assert hand.pot_total == 30
    play(hand, (2, Call()))
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 3 and legal.can_check  # its live blind is a call already
    play(hand, (3, Check()), (4, Call()), (0, Call()), (1, Check()))
    assert hand.street == "flop" and hand.pot_total == 55


# ---------------------------------------------------------------- R-BET-UNCALLED


def test_uncalled_bet_rulebook_example_a_receives_1020_b_is_returned_9500() -> None:
    # Blinds 10/10; A (seat 2) bets 500, B (seat 3) raises to 10,000, the blinds fold, B leaves.
    hand = start([5_000, 5_000, 20_000, 20_000], small_blind=10, big_blind=10)
    play(hand, (2, BetOrRaise(500)), (3, BetOrRaise(10_000)), (0, Fold()), (1, Fold()))
    events = hand.leave(3)
    assert UncalledBetReturned(3, 9_500) in events
    assert awards(hand) == {2: 1_020}
    assert hand.final_stacks() == {0: 4_990, 1: 4_990, 2: 20_520, 3: 19_500}


def test_uncalled_bet_is_returned_when_everyone_folds() -> None:
    hand = start([1000] * 3)
    play(hand, (2, BetOrRaise(100)), (0, Fold()), (1, Fold()))
    assert UncalledBetReturned(2, 90) in hand.events
    assert hand.final_stacks() == {0: 995, 1: 990, 2: 1015}
    assert not [e for e in hand.events if isinstance(e, HandShown)]  # R-SHOW-2


# ---------------------------------------------------------------- R-POT-1 / R-POT-2


# Seats 0 (A), 1 (B), 2 (C, the button); blinds 5/10; C is all-in for 50, A and B put in 100 each.
def _three_way(holes: list[str], board: str) -> Hand:
    hand = start([100, 100, 50], holes=holes, board=board)
    play(hand, (2, BetOrRaise(50)), (0, BetOrRaise(100)), (1, Call()))
    assert hand.is_over
    return hand


def test_side_pot_worked_example_c_best_takes_150_second_best_takes_100() -> None:
    hand = _three_way(["Kc Kd", "Qc Qd", "Ac Ad"], "2s 7h 9d Jc 3s")
    assert awards(hand) == {2: 150, 0: 100}
    assert hand.final_stacks() == {0: 100, 1: 0, 2: 150}


def test_side_pot_worked_example_a_and_b_tie_behind_c_take_50_each() -> None:
    hand = _three_way(["Kc Qd", "Kd Qc", "Ac Ad"], "2s 7h 9d Jc 3s")
    assert awards(hand) == {2: 150, 0: 50, 1: 50}


def test_side_pot_worked_example_c_and_b_tie_best_c_75_b_175() -> None:
    hand = _three_way(["2c 4d", "Ac Kd", "Ad Kc"], "As Kh 9d Jc 3s")
    assert awards(hand) == {2: 75, 1: 175}
    assert hand.final_stacks() == {0: 0, 1: 175, 2: 75}


def test_side_pots_are_awarded_from_the_last_side_pot_to_the_main_pot() -> None:
    hand = _three_way(["Kc Kd", "Qc Qd", "Ac Ad"], "2s 7h 9d Jc 3s")
    pots = [e.pot_index for e in hand.events if isinstance(e, PotAwarded)]
    assert pots == sorted(pots, reverse=True) and pots[-1] == 0


def test_odd_chip_goes_to_the_first_tied_winner_clockwise_from_the_button() -> None:
    # Pot 25 (small blind folds its 5); big blind (seat 1) and button (seat 2) split a board royal flush.
    hand = start([1000] * 3, holes=["2c 3d", "4c 5d", "6c 7d"], board="As Ks Qs Js Ts")
    play(hand, (2, Call()), (0, Fold()), (1, Check()))
    for _ in range(3):
        play(hand, (1, Check()), (2, Check()))
    assert awards(hand) == {1: 13, 2: 12}


def test_odd_chip_goes_left_of_the_button_even_past_seat_zero() -> None:
    # Button seat 0: the first seat clockwise from it is seat 1, then 2.
    hand = start([1000] * 3, holes=["2c 3d", "4c 5d", "6c 7d"], board="As Ks Qs Js Ts",
                 button_seat=0, small_blind_seat=1, big_blind_seat=2)
    play(hand, (0, Call()), (1, Fold()), (2, Check()))
    for _ in range(3):
        play(hand, (2, Check()), (0, Check()))
    assert awards(hand) == {2: 13, 0: 12}


def test_hi_lo_pot_is_halved_with_the_odd_chip_to_high() -> None:
    # Pot 25: seat 1 has trip aces (high), seat 2 a seven-five low.
    hand = start([1000] * 3, variant=OMAHA_HI_LO, structure=BettingStructure.fixed_limit(10),
                 holes=["Kc Kd Qh Qs", "As Ah 9c 9d", "2c 7d Jh Js"], board="Ad 4s 5h Tc Kh")
    play(hand, (2, Call()), (0, Fold()), (1, Check()))
    for _ in range(3):
        play(hand, (1, Check()), (2, Check()))
    shares = sorted((e.seat, e.share, e.amount) for e in hand.events if isinstance(e, PotAwarded))
    assert shares == [(1, "high", 13), (2, "low", 12)]


def test_hi_lo_without_a_qualifying_low_high_scoops() -> None:
    hand = start([1000] * 3, variant=OMAHA_HI_LO, structure=BettingStructure.fixed_limit(10),
                 holes=["Kc Kd Qh Qs", "As Ah 9c 9d", "2c 3d Jh Js"], board="Ad Ks Qd Tc 9h")
    play(hand, (2, Call()), (0, Fold()), (1, Check()))
    for _ in range(3):
        play(hand, (1, Check()), (2, Check()))
    shares = [(e.seat, e.share, e.amount) for e in hand.events if isinstance(e, PotAwarded)]
    assert shares == [(1, "whole", 25)]


def test_five_card_omaha_three_hole_card_house_rule_changes_the_winner() -> None:
    # Board gives a flush only to a player using 3 hole hearts + 2 board hearts.
    holes = ["2h 3h 5h 2c 6d", "As Ad 7c 7d 8s"]
    board = "Jh Th 7s 4c 9d"
    standard = start([1000, 1000], variant=five_card_omaha(), holes=holes, board=board)
    house = start([1000, 1000], variant=five_card_omaha(must_use_hole=3), holes=holes, board=board)
    for hand in (standard, house):
        play(hand, (1, Call()), (0, Check()))
        for _ in range(3):
            play(hand, (0, Check()), (1, Check()))
    # 2+3: seat 0 has a pair of deuces, seat 1 a jack-high straight (8-7 with J-T-9).
    assert awards(standard) == {1: 20}
    # 3+2: seat 0 makes a flush (2-3-5 of hearts with J-T of hearts), seat 1 only trip sevens.
    assert awards(house) == {0: 20}


# ---------------------------------------------------------------- R-SHOW-1 / R-SHOW-2


def test_all_in_run_out_turns_hands_up_before_the_remaining_cards() -> None:
    hand = start([100, 1000, 1000], holes=["Ac Ad", "Kc Kd", "2c 7d"], board="2s 7h 9d Jc 3s")
    play(hand, (2, Fold()), (0, BetOrRaise(100)), (1, Call()))
    kinds = [type(e).__name__ for e in hand.events]
    first_board = kinds.index("BoardDealt")
    assert kinds[first_board - 2:first_board] == ["HandShown", "HandShown"]
    assert len([e for e in hand.events if isinstance(e, BoardDealt)]) == 3
    assert hand.final_stacks() == {0: 200, 1: 900, 2: 1000}


def test_showdown_order_last_aggressor_first_then_clockwise() -> None:
    hand = start([1000] * 3, holes=["Ac Ad", "Kc Kd", "Qc Qd"], board="2s 7h 9d Jc 3s")
    play(hand, (2, Call()), (0, Call()), (1, Check()))
    play(hand, (0, Check()), (1, Check()), (2, Check()))
    play(hand, (0, Check()), (1, Check()), (2, Check()))
    play(hand, (0, Check()), (1, BetOrRaise(10)), (2, Call()), (0, Call()))
    shown = [e.seat for e in hand.events if isinstance(e, HandShown)]
    assert shown == [1, 2, 0]


def test_showdown_order_without_a_bet_starts_left_of_the_button() -> None:
    hand = start([1000] * 3, holes=["Ac Ad", "Kc Kd", "Qc Qd"], board="2s 7h 9d Jc 3s")
    play(hand, (2, Call()), (0, Call()), (1, Check()))
    for _ in range(3):
        play(hand, (0, Check()), (1, Check()), (2, Check()))
    assert [e.seat for e in hand.events if isinstance(e, HandShown)] == [0, 1, 2]


def test_auto_muck_hides_a_hand_that_cannot_win() -> None:
    hand = start([1000] * 3, holes=["Ac Ad", "Kc Kd", "Qc Qd"], board="2s 7h 9d Jc 3s", auto_muck=(1, 2))
    play(hand, (2, Call()), (0, Call()), (1, Check()))
    for _ in range(3):
        play(hand, (0, Check()), (1, Check()), (2, Check()))
    assert [e.seat for e in hand.events if isinstance(e, HandShown)] == [0]
    assert [e.seat for e in hand.events if isinstance(e, HandMucked)] == [1, 2]
    assert hand.final_stacks() == {0: 1020, 1: 990, 2: 990}


def test_manual_showdown_players_show_or_muck_in_order() -> None:
    hand = start([1000] * 3, holes=["Ac Ad", "Kc Kd", "Qc Qd"], board="2s 7h 9d Jc 3s", manual_showdown=True)
    play(hand, (2, Call()), (0, Call()), (1, Check()))
    for _ in range(3):
        play(hand, (0, Check()), (1, Check()), (2, Check()))
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.can_show and legal.can_muck and not legal.can_fold
    with pytest.raises(NotYourTurn):
        hand.act(1, Show())
    with pytest.raises(IllegalAction, match="only show or muck"):
        hand.act(0, Check())
    play(hand, (0, Show()), (1, Muck()))
    assert not hand.is_over
    play(hand, (2, Show()))
    assert hand.final_stacks() == {0: 1020, 1: 990, 2: 990}


def test_manual_showdown_everyone_else_mucks_and_the_last_hand_wins_unshown() -> None:
    hand = start([1000] * 2, holes=["2c 3d", "Kc Kd"], board="2s 7h 9d Jc 3s", manual_showdown=True)
    play(hand, (1, Call()), (0, Check()))
    for _ in range(3):
        play(hand, (0, Check()), (1, Check()))
    play(hand, (0, Muck()))
    assert hand.is_over and awards(hand) == {1: 20}
    assert not [e for e in hand.events if isinstance(e, HandShown)]


# ---------------------------------------------------------------- R-RAKE-1


def test_rake_is_taken_per_pot_and_chips_are_conserved() -> None:
    hand = start([10_000] * 3, holes=["Ac Ad", "Kc Kd", "Qc Qd"], board="2s 7h 9d Jc 3s",
                 rake=WHITE_LABEL_NO_LIMIT)
    play(hand, (2, BetOrRaise(1_000)), (0, Call()), (1, Call()))
    for _ in range(3):
        play(hand, (0, Check()), (1, Check()), (2, Check()))
    rake = sum(e.amount for e in hand.events if isinstance(e, RakeTaken))
    assert rake > 0 and hand.rake == rake
    ended = hand.events[-1]
    assert isinstance(ended, HandEnded) and ended.rake == rake
    assert sum(hand.final_stacks().values()) + rake == 30_000


def test_no_flop_no_drop() -> None:
    hand = start([10_000] * 3, rake=WHITE_LABEL_NO_LIMIT)
    play(hand, (2, BetOrRaise(1_000)), (0, Fold()), (1, Fold()))
    assert hand.rake == 0 and sum(hand.final_stacks().values()) == 30_000


# ---------------------------------------------------------------- bad input


def test_acting_out_of_turn_raises_not_your_turn_and_changes_nothing() -> None:
    hand = start([1000] * 3)
    before = (len(hand.events), hand.stacks(), hand.legal_actions())
    with pytest.raises(NotYourTurn, match="seat 2's turn"):
        hand.act(0, Call())
    with pytest.raises(NotYourTurn, match="not dealt"):
        hand.act(7, Call())
    assert (len(hand.events), hand.stacks(), hand.legal_actions()) == before


def test_check_facing_a_bet_and_call_with_nothing_to_call_are_illegal() -> None:
    hand = start([1000] * 3)
    with pytest.raises(IllegalAction, match="cannot check: 10 to call"):
        hand.act(2, Check())
    play(hand, (2, Call()), (0, Call()))
    with pytest.raises(IllegalAction, match="nothing to call"):
        hand.act(1, Call())


def test_bad_amounts_raise_invalid_amount() -> None:
    hand = start([1000] * 3)
    with pytest.raises(InvalidAmount, match="between 20 and 1000, not 15"):
        hand.act(2, BetOrRaise(15))
    with pytest.raises(InvalidAmount, match="whole number"):
        hand.act(2, BetOrRaise(20.5))  # type: ignore[arg-type]
    with pytest.raises(InvalidAmount):
        hand.act(2, BetOrRaise(1001))


def test_acting_after_the_hand_is_over_is_illegal() -> None:
    hand = start([1000] * 2)
    play(hand, (1, Fold()))
    assert hand.is_over and hand.legal_actions() is None
    with pytest.raises(IllegalAction, match="over"):
        hand.act(0, Check())


@pytest.mark.parametrize(
    ("seats", "plan", "message"),
    [
        ({0: 100}, {}, "2 to 10 players"),
        ({0: 100, 1: 0}, {}, "positive"),
        ({0: 100, 1: 100}, {"big_blind_seat": 5}, "not dealt in"),
        ({0: 100, 1: 100}, {"small_blind": -1}, "small blind"),
        ({0: 100, 1: 100}, {"small_blind_seat": 0}, "two live blinds"),
    ],
)
def test_bad_hand_plans_are_refused(seats: dict[int, int], plan: dict[str, object], message: str) -> None:
    defaults: dict[str, object] = {"button_seat": 1, "small_blind_seat": 1, "small_blind": 5,
                                   "big_blind_seat": 0, "big_blind": 10}
    defaults.update(plan)
    with pytest.raises(ValueError, match=message):
        Hand.start(HandConfig(TEXAS_HOLDEM, NO_LIMIT), seats, full_deck(), ForcedBets(**defaults))  # type: ignore[arg-type]


def test_five_card_omaha_refuses_ten_players_and_a_short_or_repeated_deck() -> None:
    plan = ForcedBets(button_seat=9, small_blind_seat=0, small_blind=5, big_blind_seat=1, big_blind=10)
    with pytest.raises(ValueError, match="2 to 9 players"):
        Hand.start(HandConfig(five_card_omaha(), NO_LIMIT), dict.fromkeys(range(10), 100), full_deck(), plan)
    small = ForcedBets(button_seat=1, small_blind_seat=1, small_blind=5, big_blind_seat=0, big_blind=10)
    with pytest.raises(ValueError, match="needs 9 cards"):
        Hand.start(HandConfig(TEXAS_HOLDEM, NO_LIMIT), {0: 100, 1: 100}, full_deck()[:8], small)
    with pytest.raises(ValueError, match="twice"):
        Hand.start(HandConfig(TEXAS_HOLDEM, NO_LIMIT), {0: 100, 1: 100}, full_deck()[:9] * 2, small)


# ---------------------------------------------------------------- R-DISC-2


def test_artificial_all_in_keeps_the_seat_in_for_what_it_put_in_and_returns_the_rest() -> None:
    # Fixed limit 5/10: seat 2 raises to 20; seat 0 (small blind, 5 in) is disconnected and protected.
    hand = start([1000] * 3, structure=BettingStructure.fixed_limit(10),
                 holes=["Ac Ad", "Kc Kd", "Qc Qd"], board="2s 7h 9d Jc 3s")
    play(hand, (2, BetOrRaise(20)))
    events = hand.artificial_all_in(0)
    assert events[0] == TreatedAsAllIn(0, 995)
    assert hand.stacks()[0] == 995 and hand.legal_actions().seat == 1  # type: ignore[union-attr]
    with pytest.raises(NotYourTurn):
        hand.artificial_all_in(0)
    play(hand, (1, Call()))
    for _ in range(3):
        play(hand, (1, Check()), (2, Check()))
    # Seat 0's aces win the main pot of 15 (5 from each); the kings win the 30 side pot.
    assert awards(hand) == {0: 15, 1: 30}
    assert hand.final_stacks() == {0: 1010, 1: 1010, 2: 980}


# ---------------------------------------------------------------- events and visibility


def test_hole_cards_are_private_and_others_see_only_a_count() -> None:
    hand = start([1000] * 3, holes=["Ac Ad", "Kc Kd", "Qc Qd"])
    dealt = [e for e in hand.events if isinstance(e, HoleCardsDealt)]
    assert [(e.seat, e.private_to) for e in dealt] == [(0, 0), (1, 1), (2, 2)]
    view = view_for(hand.events, seat=1)
    assert [e for e in view if isinstance(e, HoleCardsDealt)] == [HoleCardsDealt(1, parse_cards("Kc Kd"))]
    assert [(e.seat, e.count) for e in view if isinstance(e, CardsDealtFaceDown)] == [(0, 2), (2, 2)]
    spectator = view_for(hand.events, seat=None)
    assert not [e for e in spectator if isinstance(e, HoleCardsDealt)]
    assert all(e.private_to is None for e in spectator)


def test_hand_ended_carries_every_final_stack_in_seat_order_from_the_button() -> None:
    hand = start([1000] * 3, button_seat=0, small_blind_seat=1, big_blind_seat=2)
    play(hand, (0, Fold()), (1, Fold()))
    ended = hand.events[-1]
    assert isinstance(ended, HandEnded)
    assert ended.stacks == ((1, 995), (2, 1005), (0, 1000)) and ended.rake == 0
