"""R-RANK-7: hand names at showdown name the deciding cards — the kicker where a kicker decided (issue 14,
item 9), lows by their cards ("seven-five low", never "(high card)")."""

from __future__ import annotations

from engine.actions import Call, Check
from engine.cards import parse_cards
from engine.evaluate import deuce_to_seven_strength, low_eight_strength
from engine.events import HandShown, PotAwarded
from engine.showdown import high_name, high_value, low_name
from engine.variants import DEUCE_TO_SEVEN_TRIPLE_DRAW, SEVEN_CARD_STUD, TEXAS_HOLDEM
from tests.engine.test_hand_rules import play, start


def _check_down(hand: object, seats: tuple[int, ...], rounds: int) -> None:
    for _ in range(rounds):
        play(hand, *[(seat, Check()) for seat in seats])  # type: ignore[arg-type]


def test_a_pot_won_on_the_kicker_names_the_kicker() -> None:
    # Both have a pair of jacks; seat 0's ace kicker beats seat 1's king.
    hand = start([1000, 1000], holes=["Jd As", "Jh Kd"], board="Jc 9c 4d 2s 7h")
    play(hand, (1, Call()), (0, Check()))
    _check_down(hand, (0, 1), 3)
    shown = {event.seat: event.description for event in hand.events if isinstance(event, HandShown)}
    won = [(event.seat, event.description) for event in hand.events if isinstance(event, PotAwarded)]
    assert shown == {0: "pair of jacks", 1: "pair of jacks"}
    assert won == [(0, "pair of jacks, ace kicker")]


def test_two_pair_decided_by_the_fifth_card_and_without_a_kicker_fight() -> None:
    board = parse_cards("Kc Kd 9h 9s 3c")
    ace, queen, sevens = (high_value(TEXAS_HOLDEM, parse_cards(hole), board)[0] for hole in ("As 2d", "Qs 2c", "7s 7d"))
    assert high_name(TEXAS_HOLDEM, ace, [queen]) == "two pair, kings and nines, ace kicker"
    assert high_name(TEXAS_HOLDEM, ace, [sevens]) == "two pair, kings and nines, ace kicker"
    # against a weaker category the kicker decided nothing: not named
    trips = high_value(TEXAS_HOLDEM, parse_cards("Ks 2h"), board)[0]
    assert high_name(TEXAS_HOLDEM, trips, [ace]) == "full house, kings full of nines"


def test_a_tie_names_every_card_that_played() -> None:
    board = parse_cards("Ac Kd 9h 6s 3c")
    first, second = (high_value(TEXAS_HOLDEM, parse_cards(hole), board)[0] for hole in ("2d 4h", "2h 5d"))
    assert high_name(TEXAS_HOLDEM, first, [second]) == "ace-king-nine-six-four high"
    assert high_name(TEXAS_HOLDEM, first) == "ace high"


def test_deuce_to_seven_lows_are_named_by_their_cards_not_high_card() -> None:
    seven_five = deuce_to_seven_strength(parse_cards("7c 5d 4h 3s 2c"))
    seven_six = deuce_to_seven_strength(parse_cards("7d 6h 4c 3d 2h"))
    eight_six_four = deuce_to_seven_strength(parse_cards("8c 6d 4h 3s 2c"))
    eight_six_five = deuce_to_seven_strength(parse_cards("8d 6c 5h 3d 2h"))
    variant = DEUCE_TO_SEVEN_TRIPLE_DRAW
    assert high_name(variant, seven_five) == "seven-five low"
    assert high_name(variant, seven_five, [seven_six]) == "seven-five low"
    assert high_name(variant, eight_six_four, [eight_six_five]) == "eight-six-four low"
    pair = deuce_to_seven_strength(parse_cards("5c 5d 4h 3s 2c"))
    assert high_name(variant, pair) == "pair of fives"
    ace_high = deuce_to_seven_strength(parse_cards("Ac 5d 4h 3s 2c"))
    assert high_name(variant, ace_high) == "ace-five low"


def test_eight_or_better_low_names_the_deciding_card() -> None:
    mine = low_eight_strength(parse_cards("8c 6d 4h 3s Ac"))
    theirs = low_eight_strength(parse_cards("8h 6s 5c 3d 2c"))
    assert low_name(mine) == "eight-six low"
    assert low_name(mine, [theirs]) == "eight-six-four low"
    wheel = low_eight_strength(parse_cards("5c 4d 3h 2s Ac"))
    assert low_name(wheel) == "five-four low"


def test_stud_names_straights_flushes_and_quads() -> None:
    names = [high_value(SEVEN_CARD_STUD, parse_cards(cards), [])[1] for cards in (
        "5s 4d 3c 2h Ad Kc Kd", "Ah Jh 9h 4h 2h Kc Kd", "9s 9d 9c 9h 2d Kc Qd", "Ah Kh Qh Jh Th 2c 2d")]
    assert names == ["straight, five high", "flush, ace high", "four nines", "royal flush"]


def test_the_ranking_objects_cached_names_equal_the_deciding_depth_names() -> None:
    """HandRanking.name caches by strength and depth (issue 16: naming at every showdown cost NLHE speed); its names
    must be the ones engine.evaluate.names gives from the deciding depth, in every ranking."""
    import random

    from engine.evaluate.classes import HIGH_CARD
    from engine.evaluate.names import LOW_OWN_GROUPS, class_name, deciding_depth, deuce_to_seven_name
    from engine.variants import DEUCE_TO_SEVEN_TRIPLE_DRAW, RAZZ, SEVEN_CARD_STUD

    rng = random.Random(16)
    for variant in (SEVEN_CARD_STUD, DEUCE_TO_SEVEN_TRIPLE_DRAW, RAZZ):
        ranking = variant.hand_ranking
        deck = list(variant.deck)
        for _ in range(2000):
            rng.shuffle(deck)
            size = 5 if ranking is DEUCE_TO_SEVEN_TRIPLE_DRAW.hand_ranking else 7
            own, *rivals = (ranking.strength(deck[index * size:(index + 1) * size], ()) for index in range(3))
            mine = ranking.hand_class(own)
            others = [ranking.hand_class(rival) for rival in rivals]
            if ranking.lowball:
                expected = deuce_to_seven_name(mine, deciding_depth(
                    mine, others, own_groups=LOW_OWN_GROUPS if mine.category == HIGH_CARD else None))
            else:
                expected = class_name(mine, deciding_depth(mine, others))
            assert ranking.name(own, rivals) == expected
