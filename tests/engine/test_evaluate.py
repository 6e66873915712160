"""Hand evaluators: rule examples, the cards reported, fast paths against the HandValue API, bad input.

R-RANK-1 … R-RANK-6. The exhaustive counts live in test_evaluate_exhaustive.py and the comparisons with
PokerKit and treys in test_evaluate_differential.py.
"""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement, product

import pytest

from engine.cards import Card, format_cards, parse_cards
from engine.evaluate import (
    MAX_DEUCE_TO_SEVEN_STRENGTH,
    MAX_HIGH_STRENGTH,
    MAX_LOW_STRENGTH,
    HandValue,
    best_high,
    best_low_eight,
    compare_thirty_two,
    deuce_to_seven_strength,
    evaluate_deuce_to_seven,
    evaluate_high,
    evaluate_low_eight,
    evaluate_thirty_two,
    high_category,
    high_strength,
    low_eight_strength,
    omaha_high_strength,
    omaha_low_eight_strength,
    thirty_two_strength,
)
from engine.evaluate.encoding import (
    COMPACT_SUIT_BITS,
    COMPACT_SUIT_WEIGHT,
    MAYBE_FLUSH_5,
    MAYBE_FLUSH_6,
    MAYBE_FLUSH_7,
    compact_rank_key,
)


def high(text: str) -> HandValue:
    return evaluate_high(parse_cards(text))


def thirty_two(text: str) -> HandValue:
    return evaluate_thirty_two(parse_cards(text))


# --- R-RANK-1 high hands -------------------------------------------------------------------------------

def test_categories_rank_from_royal_flush_down_to_high_card() -> None:
    hands = [
        ("Ah Kh Qh Jh Th", "royal flush"),
        ("9c 8c 7c 6c 5c", "straight flush"),
        ("7s 7h 7d 7c Ks", "four of a kind"),
        ("Qs Qh Qd 4c 4s", "full house"),
        ("Ad Jd 9d 6d 2d", "flush"),
        ("Ts 9h 8d 7c 6s", "straight"),
        ("5s 5h 5d Ac Ks", "three of a kind"),
        ("Ks Kh 8d 8c As", "two pair"),
        ("As Ah Kd Qc Js", "one pair"),
        ("As Kh Qd Jc 9s", "high card"),
    ]
    values = [high(text) for text, _ in hands]
    assert [value.category for value in values] == [category for _, category in hands]
    assert values == sorted(values, reverse=True)
    assert len({value.strength for value in values}) == len(values)
    assert values[0].strength == MAX_HIGH_STRENGTH
    assert high("7c 5d 4h 3s 2c").strength == 1


def test_ace_plays_low_only_in_the_wheel() -> None:
    wheel = high("5s 4d 3c 2h Ad")
    assert wheel.category == "straight"
    assert format_cards(wheel.cards) == "5s 4d 3c 2h Ad"
    assert wheel < high("6s 5d 4c 3h 2d") < high("As Kd Qc Jh Td")
    assert high("As Kd Qc Jh 2d").category == "high card"  # no wrap-around straight


def test_kickers_decide_in_order_and_suits_never_break_ties() -> None:
    assert high("As Ad Kc 9h 3d") > high("Ah Ac Kd 9s 2c")  # fifth card decides
    assert high("As Ad Kc 9h 3d") < high("Ah Ac Kd Ts 2c")  # third card decides first
    assert high("As Kd Qc Jh 9d") == high("Ah Kc Qd Js 9c")  # identical ranks split
    assert high("Ks Kd 8c 8h Ad") > high("Kc Kh 8d 8s Qd")


def test_seven_cards_make_the_best_five_and_report_them() -> None:
    value = high("As Ad Ac Kh Kd Qs Qd")
    assert value.category == "full house"
    assert format_cards(value.cards) == "As Ad Ac Kh Kd"
    flush = high("2h 7h 9h Jh Kh Ah 3c")
    assert (flush.category, format_cards(flush.cards)) == ("flush", "Ah Kh Jh 9h 7h")


def test_category_of_strength_rejects_out_of_range() -> None:
    with pytest.raises(ValueError, match=r"1\.\.7462"):
        high_category(0)


# --- R-RANK-2 best-of with must-use counts ----------------------------------------------------------

def test_holdem_may_play_the_board() -> None:
    value = best_high(parse_cards("2c 3d"), parse_cards("As Ks Qs Js Ts"))
    assert value.category == "royal flush"
    assert not set(value.cards) & set(parse_cards("2c 3d"))


def test_holdem_reports_hole_cards_when_they_can_play() -> None:
    # Quads with a pocket pair: both hole aces play (R-JACK-1 asks exactly this).
    value = best_high(parse_cards("Ah Ad"), parse_cards("Ac As Kd 7h 2c"))
    assert value.category == "four of a kind"
    assert set(parse_cards("Ah Ad")) <= set(value.cards)
    # The board also holds a nine; the hole nine is the one reported.
    value = best_high(parse_cards("9h 4c"), parse_cards("9s Kd Kc Ks 2h"))
    assert value.category == "full house"
    assert Card.parse("9h") in value.cards


def test_omaha_uses_exactly_two_hole_cards() -> None:
    # Four spades on the board and one in the hole is no flush in Omaha.
    value = best_high(parse_cards("As Kd Qc 2h"), parse_cards("Ks 9s 5s 3s Jd"), must_use_hole=2)
    assert value.category == "one pair"
    assert format_cards(value.cards) == "Kd Ks As Jd 9s"
    # The same cards in hold'em make the nut flush.
    assert best_high(parse_cards("As Kd"), parse_cards("Ks 9s 5s 3s Jd")).category == "flush"
    # Four aces in the hole make only a pair of aces with a blank board.
    assert best_high(parse_cards("As Ad Ac Ah"), parse_cards("2s 5d 8c Jh Kd"), must_use_hole=2).category == (
        "one pair"
    )


def test_five_card_omaha_is_two_plus_three_with_a_three_plus_two_house_option() -> None:
    hole, board = parse_cards("Ks Qs Js 2d 3c"), parse_cards("As Ts 4h 7c 9d")
    assert best_high(hole, board, must_use_hole=2).category == "high card"  # only two spades may play
    house = best_high(hole, board, must_use_hole=3)
    assert house.category == "royal flush"
    assert len(set(house.cards) & set(hole)) == 3


# --- R-RANK-3 ace-to-five 8-or-better -------------------------------------------------------------------

def test_low_eight_qualifies_with_an_eight_and_not_with_a_nine() -> None:
    eight = evaluate_low_eight(parse_cards("8s 7d 6c 5h 4d"))
    assert eight is not None and eight.strength == 1 and eight.category == "eight-seven low"
    assert evaluate_low_eight(parse_cards("9s 7d 6c 5h 4d")) is None
    assert evaluate_low_eight(parse_cards("7s 7d 6c 5h 4d")) is None  # pairs do not count


def test_wheel_is_the_best_low_and_straights_and_flushes_do_not_count() -> None:
    wheel = evaluate_low_eight(parse_cards("5h 4h 3h 2h Ah"))
    assert wheel is not None and wheel.strength == MAX_LOW_STRENGTH
    assert wheel.category == "five-four low"
    assert format_cards(wheel.cards) == "5h 4h 3h 2h Ah"
    six = evaluate_low_eight(parse_cards("6s 4d 3c 2h Ad"))
    assert six is not None and six < wheel
    # Highest card first: 8-5-4-3-2 beats 8-6-3-2-A.
    first, second = evaluate_low_eight(parse_cards("8s 5d 4c 3h 2d")), evaluate_low_eight(parse_cards("8d 6c 3s 2c Ah"))
    assert first is not None and second is not None and first > second


def test_omaha_low_uses_two_hole_cards_possibly_other_than_the_high_hand() -> None:
    hole, board = parse_cards("Ah 2h Ks Kd"), parse_cards("Kc 3d 6s 8c Qh")
    low = best_low_eight(hole, board, must_use_hole=2)
    assert low is not None and format_cards(low.cards) == "8c 6s 3d 2h Ah"
    assert best_high(hole, board, must_use_hole=2).category == "three of a kind"  # kings from the hole
    # Three low board cards are needed: with two, no low.
    assert best_low_eight(hole, parse_cards("Kc 3d 9s Tc Qh"), must_use_hole=2) is None
    # Stud hi/lo: any five of seven.
    stud = best_low_eight(parse_cards("Ah 2h 9c"), parse_cards("3d 9s 7c 4s"))
    assert stud is not None and stud.category == "seven-four low"


# --- R-RANK-4 deuce-to-seven ----------------------------------------------------------------------------

def test_deuce_to_seven_best_hand_and_aces_high_only() -> None:
    best = evaluate_deuce_to_seven(parse_cards("7c 5d 4h 3s 2c"))
    assert best.strength == MAX_DEUCE_TO_SEVEN_STRENGTH and format_cards(best.cards) == "7c 5d 4h 3s 2c"
    ace_high = evaluate_deuce_to_seven(parse_cards("As 5d 4h 3s 2c"))
    assert ace_high.category == "high card"
    assert ace_high < evaluate_deuce_to_seven(parse_cards("Ks Qd Jh 9s 8c"))


def test_deuce_to_seven_straights_flushes_and_pairs_count_against() -> None:
    seven_six = evaluate_deuce_to_seven(parse_cards("7c 6d 4h 3s 2c"))
    straight = evaluate_deuce_to_seven(parse_cards("6c 5d 4h 3s 2c"))
    flush = evaluate_deuce_to_seven(parse_cards("7c 5c 4c 3c 2c"))
    pair = evaluate_deuce_to_seven(parse_cards("2c 2d 3h 4s 5c"))
    assert (straight.category, flush.category, pair.category) == ("straight", "flush", "one pair")
    assert seven_six > evaluate_deuce_to_seven(parse_cards("As Kd Qh Js 9c")) > pair > straight > flush


# --- R-RANK-5 and R-RANK-6: the 32-card deck ------------------------------------------------------------

def test_thirty_two_flush_beats_full_house_and_ace_seven_straight_is_lowest() -> None:
    flush = thirty_two("Ad Jd 9d 8d 7d")
    full_house = thirty_two("As Ah Ac Ks Kh")
    assert (flush.category, full_house.category) == ("flush", "full house") and flush > full_house
    lowest = thirty_two("Ts 9h 8d 7c As")
    assert lowest.category == "straight" and format_cards(lowest.cards) == "Ts 9h 8d 7c As"
    assert lowest < thirty_two("Js Th 9d 8c 7s") < thirty_two("As Kh Qd Jc Ts")
    assert thirty_two("Ts 9h 8d 7c As") > thirty_two("As Ah Ac Kd Qs")  # a straight beats trips


def test_thirty_two_suits_break_ties_hearts_diamonds_clubs_spades_on_the_deciding_card() -> None:
    # No-pair hands, straights, flushes: the top card's suit.
    assert thirty_two("Ah Qc Jd 9s 8s") > thirty_two("Ad Qh Jh 9h 8h")
    assert thirty_two("Ad Qc Jd 9s 8s") > thirty_two("Ac Qh Jh 9h 8h") > thirty_two("As Qd Jd 9d 8c")
    assert thirty_two("Jh Tc 9c 8c 7c") > thirty_two("Jd Th 9h 8h 7h")
    assert thirty_two("Ah Kh Jh 9h 8h") > thirty_two("Ad Kd Jd 9d 8d")
    # Equal pairs and kicker ranks: the highest kicker's suit, before the pair's suits.
    assert thirty_two("Ks Kc Ah 9s 8s") > thirty_two("Kh Kd Ad 9h 8h")
    # Two pair with the very same kicker card (Telesina's shared card): the highest pair's suit.
    assert thirty_two("Kh Ks 9s 9c Ad") > thirty_two("Kd Kc 9h 9d Ad")


def test_thirty_two_best_of_six_and_seven_cards() -> None:
    six = thirty_two("As Ks Qs Js Ts 7h")
    assert six.category == "royal flush"
    seven = thirty_two("7c 7d 7h 8s 8c Ah Kh")
    assert seven.category == "full house" and format_cards(seven.cards) == "7h 7d 7c 8c 8s"
    assert thirty_two_strength([int(card) for card in parse_cards("7c 7d 7h 8s 8c Ah Kh")]) == seven.strength


def test_telesina_heads_up_lowest_straight_flush_beats_royal_flush_only_heads_up() -> None:
    lowest = thirty_two("Ts 9s 8s 7s As")
    royal = thirty_two("Ah Kh Qh Jh Th")
    king_high = thirty_two("Kd Qd Jd Td 9d")
    assert lowest.category == "straight flush"
    assert compare_thirty_two(lowest, royal) == -1
    assert compare_thirty_two(lowest, royal, heads_up=True) == 1
    assert compare_thirty_two(royal, lowest, heads_up=True) == -1
    # Only the royal flush is affected; everything else keeps its order heads-up.
    assert compare_thirty_two(lowest, king_high, heads_up=True) == -1
    assert compare_thirty_two(royal, king_high, heads_up=True) == 1
    assert compare_thirty_two(royal, royal, heads_up=True) == 0


# --- Fast paths agree with the HandValue API ------------------------------------------------------------

def test_fast_paths_give_the_hand_value_strengths() -> None:
    rng = random.Random(7)
    for _ in range(3_000):
        cards = rng.sample(range(52), rng.choice((5, 6, 7)))
        hand = [Card(card) for card in cards]
        value = evaluate_high(hand)
        assert high_strength(cards) == value.strength
        assert high_strength(value.cards) == value.strength
        assert set(value.cards) <= set(hand)
        assert value.strength == max(high_strength(five) for five in combinations(cards, 5))
        low = evaluate_low_eight(hand)
        assert low_eight_strength(cards) == (low.strength if low else 0)
        five = cards[:5]
        assert deuce_to_seven_strength(five) == evaluate_deuce_to_seven([Card(card) for card in five]).strength


def test_omaha_fast_paths_match_brute_force_over_every_two_plus_three() -> None:
    rng = random.Random(8)
    for _ in range(1_000):
        cards = rng.sample(range(52), 9)
        hole, board = cards[:4], cards[4:]
        splits = [h + b for h in combinations(hole, 2) for b in combinations(board, 3)]
        assert omaha_high_strength(hole, board) == max(high_strength(five) for five in splits)
        assert omaha_low_eight_strength(hole, board) == max(low_eight_strength(five) for five in splits)


def test_omaha_fast_path_on_the_flop_and_turn() -> None:
    hole, flop = parse_cards("As Ks 2d 2c"), parse_cards("Qs Js Ts")
    assert high_category(omaha_high_strength(hole, flop)) == "royal flush"
    assert high_category(omaha_high_strength(hole, flop + parse_cards("2h"))) == "royal flush"


# --- Bad input: ValueError naming the problem, one test each ---------------------------------------------

def test_malformed_card_text_is_named() -> None:
    with pytest.raises(ValueError, match="'Xd' is not a card"):
        evaluate_high(parse_cards("As Kd Xd 4c 5h"))


def test_text_instead_of_cards_is_refused() -> None:
    with pytest.raises(ValueError, match="not text 'As Kd Qh Jc Ts'"):
        evaluate_high("As Kd Qh Jc Ts")  # type: ignore[arg-type]


def test_a_value_that_is_not_a_card_is_named() -> None:
    with pytest.raises(ValueError, match="52 is not a card"):
        evaluate_high([Card(0), Card(1), Card(2), Card(3), 52])  # type: ignore[list-item]


def test_duplicate_cards_are_named() -> None:
    with pytest.raises(ValueError, match="duplicate card As"):
        evaluate_high(parse_cards("As Kd As 4c 5h", allow_duplicates=True))
    with pytest.raises(ValueError, match="duplicate card Kd"):
        best_high(parse_cards("As Kd"), parse_cards("Kd 7c 5h"))
    with pytest.raises(ValueError, match="duplicate card Qs"):
        best_high(parse_cards("As Kd Qs 2c"), parse_cards("Qs 7c 5h"), must_use_hole=2)
    with pytest.raises(ValueError, match="duplicate card 2c"):
        best_low_eight(parse_cards("As 2c 3d 4h"), parse_cards("2c 7c 5h"), must_use_hole=2)
    with pytest.raises(ValueError, match="duplicate card 7c"):
        evaluate_deuce_to_seven(parse_cards("7c 7c 4h 3s 2c", allow_duplicates=True))
    with pytest.raises(ValueError, match="duplicate card Ah"):
        evaluate_thirty_two(parse_cards("Ah Ah Kh Qh Jh", allow_duplicates=True))


@pytest.mark.parametrize(
    ("evaluate", "text", "message"),
    [
        (evaluate_high, "As Kd Qh Jc", "a high hand needs 5 to 7 cards, got 4"),
        (evaluate_high, "As Kd Qh Jc Ts 9s 8s 7s", "a high hand needs 5 to 7 cards, got 8"),
        (evaluate_low_eight, "As 2d 3h 4c", "an 8-or-better low hand needs 5 to 7 cards, got 4"),
        (evaluate_deuce_to_seven, "7c 5d 4h 3s 2c 8d", "a deuce-to-seven hand needs 5 cards, got 6"),
        (evaluate_thirty_two, "As Kd Qh Jc", "a 32-card hand needs 5 to 7 cards, got 4"),
    ],
)
def test_wrong_card_count_for_the_game_is_named(evaluate: object, text: str, message: str) -> None:
    assert callable(evaluate)
    with pytest.raises(ValueError, match=message):
        evaluate(parse_cards(text))


def test_wrong_hole_or_board_count_for_omaha_is_named() -> None:
    with pytest.raises(ValueError, match="a hand using 2 hole cards needs 2 to 6 cards, got 1"):
        best_high(parse_cards("As"), parse_cards("Kd Qh Jc"), must_use_hole=2)
    with pytest.raises(ValueError, match="a board giving 3 cards needs 3 to 5 cards, got 2"):
        best_high(parse_cards("As Ad Kc Kh"), parse_cards("Kd Qh"), must_use_hole=2)
    with pytest.raises(ValueError, match="a board giving 2 cards needs 2 to 5 cards, got 6"):
        best_high(parse_cards("As Ad Kc Kh 2c"), parse_cards("Kd Qh 3c 4c 5c 6c"), must_use_hole=3)
    with pytest.raises(ValueError, match="must_use_hole must be None, 2 or 3, got 4"):
        best_high(parse_cards("As Ad Kc Kh"), parse_cards("Kd Qh 3c"), must_use_hole=4)
    with pytest.raises(ValueError, match="a hold'em or stud hand needs 5 to 7 cards, got 8"):
        best_high(parse_cards("As Ad Kc"), parse_cards("Kd Qh 3c 4c 5c"))


def test_fast_path_rejects_a_wrong_count() -> None:
    with pytest.raises(ValueError, match="got 4"):
        high_strength([0, 1, 2, 3])
    with pytest.raises(ValueError, match="got 6"):
        deuce_to_seven_strength([0, 4, 8, 12, 20, 24])
    with pytest.raises(ValueError, match="cannot use exactly 2 of 4 hole cards with 3 of 2 board cards"):
        omaha_high_strength([0, 1, 2, 3], [8, 9])


def test_a_card_below_seven_is_not_in_the_thirty_two_card_deck() -> None:
    with pytest.raises(ValueError, match="6h is not in the 32-card deck"):
        thirty_two("Ah Kh Qh Jh 6h")


# --- The encodings behind the fast paths ----------------------------------------------------------------

@pytest.mark.parametrize("size", [5, 6, 7])
def test_compact_rank_keys_tell_every_rank_multiset_apart(size: int) -> None:
    multisets = [
        ranks for ranks in combinations_with_replacement(range(13), size)
        if max(ranks.count(rank) for rank in ranks) <= 4
    ]
    assert len(multisets) == {5: 6_175, 6: 18_395, 7: 49_205}[size]
    assert len({compact_rank_key(ranks) for ranks in multisets}) == len(multisets)
    assert max(compact_rank_key(ranks) for ranks in multisets) << COMPACT_SUIT_BITS < 2**30


@pytest.mark.parametrize(("size", "maybe_flush"), [(5, MAYBE_FLUSH_5), (6, MAYBE_FLUSH_6), (7, MAYBE_FLUSH_7)])
def test_flush_filter_lets_every_flush_through(size: int, maybe_flush: tuple[bool, ...]) -> None:
    for counts in product(range(size + 1), repeat=4):
        if sum(counts) == size:
            total = sum(count * weight for count, weight in zip(counts, COMPACT_SUIT_WEIGHT, strict=True))
            assert total < 2**COMPACT_SUIT_BITS
            if max(counts) >= 5:
                assert maybe_flush[total]
