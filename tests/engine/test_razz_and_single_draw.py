"""Razz and 2-7 single draw (issue 16): the two games added as a variant row plus an evaluator, with worked hands;
badugi's and short-deck hold'em's rankings (the corpus's other two games); the stud opener kinds (low card, high
card, low hand, high hand); discard-only draw streets."""

from __future__ import annotations

from engine.actions import BetOrRaise, BringIn, Call, Check, Draw, Fold
from engine.cards import parse_cards
from engine.evaluate.ace_to_five import MAX_ACE_TO_FIVE_STRENGTH, ace_to_five_classes, ace_to_five_strength
from engine.evaluate.badugi import MAX_BADUGI_STRENGTH
from engine.evaluate.deuce_to_seven import deuce_to_seven_strength
from engine.events import CardsDrawn, DrawnCardsDealt, HandEnded, HandShown, PotAwarded
from engine.hand import ForcedBets, Hand, HandConfig
from engine.structures import BettingStructure
from engine.stud import opener_position
from engine.variants import (
    BADUGI,
    DEUCE_TO_SEVEN_SINGLE_DRAW,
    RAZZ,
    SEVEN_CARD_STUD,
    SHORT_DECK_HOLDEM,
    OpenerKind,
    Opening,
    Street,
    Variant,
)
from tests.engine.deal_helpers import stacked_deck

LIMIT = BettingStructure.fixed_limit(100, 200)
STUD_PLAN = ForcedBets(button_seat=2, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=0,
                       ante=10, bring_in=25)


def razz(cards: str) -> int:
    return ace_to_five_strength(parse_cards(cards))


def deuce(cards: str) -> int:
    return deuce_to_seven_strength(parse_cards(cards))


# ---------------------------------------------------------------- rankings


def test_razz_low_aces_low_straights_and_flushes_do_not_count() -> None:
    assert len(ace_to_five_classes()) == MAX_ACE_TO_FIVE_STRENGTH == 6175
    assert razz("5h 4h 3h 2h Ah") == MAX_ACE_TO_FIVE_STRENGTH  # a suited wheel is still the best low
    assert razz("6c 4d 3h 2s Ac") == MAX_ACE_TO_FIVE_STRENGTH - 1  # six-four next
    assert razz("7c 5d 4h 3s 2c") > razz("7d 6c 4c 3d Ah")  # seven-five beats seven-six
    assert razz("Kc Qd Jh Ts 9c") > razz("Ac Ad 2c 3d 4h")  # any no-pair hand beats a pair
    assert razz("Ac Ad 2c 3d 4h") > razz("2c 2d Ac 3d 4h")  # pair of aces beats pair of deuces: aces are low
    # Best five of seven: the kings are not played.
    assert razz("7c 5d 4h 3s 2c Kd Kh") == razz("7c 5d 4h 3s 2c")
    assert RAZZ.hand_ranking.name(razz("Kd Kh Ks Qc Qd 2c 3c")) == "pair of queens"


def test_deuce_to_seven_a_wheel_is_not_best_and_straights_count() -> None:
    best = deuce("7c 5d 4h 3s 2c")
    assert deuce("As 5d 4h 3c 2c") < deuce("Kd 5c 4s 3d 2h")  # A-5-4-3-2 is ace high, not a straight
    assert deuce("7c 6d 5h 4s 3c") < deuce("Kd Qc Js 9d 8h")  # 7-6-5-4-3 is a straight: worse than king high
    assert deuce("7c 5c 4c 3c 2c") < deuce("Kd Qc Js 9d 8h")  # a flush counts too
    assert best > deuce("7c 6d 4h 3s 2c") and best > deuce("8c 5d 4h 3s 2c")
    ranking = DEUCE_TO_SEVEN_SINGLE_DRAW.hand_ranking
    assert ranking.name(deuce("As 5d 4h 3c 2c")) == "ace-five low"
    assert ranking.name(deuce("7c 6d 5h 4s 3c")) == "straight, seven high"


def test_badugi_more_cards_first_then_the_lowest_aces_low() -> None:
    ranking = BADUGI.hand_ranking

    def badugi(cards: str) -> int:
        return ranking.strength(parse_cards(cards), ())

    alice, carol = badugi("2s 4c 6d 9h"), badugi("3s 5d 7c 8h")  # the corpus's Wikipedia hand
    assert carol > alice and ranking.name(carol) == "eight-seven-five-three badugi"
    assert badugi("Ks Qd Jc Th") > badugi("As 2s 3d 4c")  # four cards beat three (two spades: one plays)
    assert badugi("Ac 2d 3h 4s") == MAX_BADUGI_STRENGTH  # the best hand, aces low
    assert ranking.name(badugi("As Ad 2s 3h")) == "three-card three-deuce-ace"


def test_short_deck_flush_beats_a_full_house_and_a_six_high_wheel_is_a_straight() -> None:
    ranking = SHORT_DECK_HOLDEM.hand_ranking
    board = parse_cards("9h 6c Kc Jh Ts")  # the corpus's NS hand: queens make a straight, kings only trips
    queens, kings = ranking.strength(parse_cards("Qh Qd"), board), ranking.strength(parse_cards("Kh Ks"), board)
    assert queens > kings and ranking.name(queens) == "straight, king high"
    flush = ranking.strength(parse_cards("Ah Jh"), parse_cards("8h 7h 6h Kc Kd"))
    full = ranking.strength(parse_cards("Kh Ks"), parse_cards("Kc 7h 7d 8s 6c"))
    assert flush > full
    assert ranking.name(ranking.strength(parse_cards("Ah 9c"), parse_cards("6d 7s 8h Kc Qd"))) == \
        "straight, nine high"
    assert len(SHORT_DECK_HOLDEM.deck) == 36


def test_one_ranking_object_per_game_shared_by_showdown_bots_and_names() -> None:
    from hosting.strategy import _strength_functions

    assert RAZZ.hand_ranking is RAZZ.hand_ranking
    high, low = _strength_functions(RAZZ)
    assert high == RAZZ.hand_ranking.strength and low is None
    hole = parse_cards("7c 5d 4h 3s 2c Kd Kh")
    assert high(hole, ()) == razz("7c 5d 4h 3s 2c")


# ---------------------------------------------------------------- opener kinds


def test_opener_kinds_pick_by_card_or_by_hand() -> None:
    third = [parse_cards("Kc"), parse_cards("Ah"), parse_cards("2c"), parse_cards("Ks")]
    # Low card (limit 7-card stud): the deuce of clubs. High card, ace high (no-limit stud): the ace.
    assert opener_position(OpenerKind.LOW_CARD, third, ace_low=False, thirty_two_card=False) == 2
    assert opener_position(OpenerKind.HIGH_CARD, third, ace_low=False, thirty_two_card=False) == 1
    # High card, aces low (Razz): the kings; spades break the tie.
    assert opener_position(OpenerKind.HIGH_CARD, third, ace_low=True, thirty_two_card=False) == 3
    # Low card, aces low: the ace.
    assert opener_position(OpenerKind.LOW_CARD, third, ace_low=True, thirty_two_card=False) == 1
    later = [parse_cards("Kc 2d"), parse_cards("9h 9d"), parse_cards("6s 5s"), None, parse_cards("6c 5d")]
    assert opener_position(OpenerKind.HIGH_HAND, later, ace_low=False, thirty_two_card=False) == 1  # the nines
    assert opener_position(OpenerKind.LOW_HAND, later, ace_low=True, thirty_two_card=False) == 2  # 6-5, first
    aces = [parse_cards("Ac 2d"), parse_cards("3c 2h")]
    assert opener_position(OpenerKind.LOW_HAND, aces, ace_low=True, thirty_two_card=False) == 0  # 2-A beats 3-2


# ---------------------------------------------------------------- worked hands

RAZZ_HANDS = [
    "Ah 2d Kc 3s 4h 5c 9d",  # up Kc 3s 4h 5c: the wheel
    "7c 6d 4d 8h 2c Qs Jh",  # up 4d 8h 2c Qs: eight-seven low
    "3c 5d Ks 6s 7h 8d Tc",  # up Ks: brings in, then folds
]


def test_razz_worked_hand_king_brings_in_lowest_showing_opens_and_the_wheel_wins() -> None:
    deck = stacked_deck(RAZZ, RAZZ_HANDS, live=[[0, 1, 2]] + [[0, 1]] * 4)
    hand = Hand.start(HandConfig(RAZZ, LIMIT), dict.fromkeys(range(3), 1000), deck, STUD_PLAN)
    assert hand.pot_total == 30
    legal = hand.legal_actions()
    # Up cards Kc, 4d, Ks: the highest card brings in, kings tie, spades highest -> seat 2.
    assert legal is not None and (legal.seat, legal.bring_in_amount, legal.min_raise_to) == (2, 25, 100)
    hand.act(2, BringIn())
    hand.act(0, BetOrRaise(100))  # completes
    hand.act(1, Call())
    hand.act(2, Fold())
    assert hand.pot_total == 255
    # Fourth street: K-3 against 8-4: the lowest hand showing (8-4, seat 1) acts first.
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.min_raise_to == 100
    hand.act(1, Check())
    hand.act(0, BetOrRaise(100))
    hand.act(1, Call())
    for _ in range(2):  # fifth (8-4-2 against K-4-3) and sixth street (Q-8-4-2 against K-5-4-3): seat 1 first
        legal = hand.legal_actions()
        assert legal is not None and legal.seat == 1 and legal.min_raise_to == 200
        hand.act(1, Check())
        hand.act(0, Check())
    hand.act(1, Check())
    hand.act(0, BetOrRaise(200))
    events = hand.act(1, Call())
    shown = {event.seat: event.description for event in events if isinstance(event, HandShown)}
    assert shown == {0: "five-four low", 1: "eight-seven low"}
    awards = [event for event in events if isinstance(event, PotAwarded)]
    assert [(award.seat, award.amount, award.description) for award in awards] == [(0, 855, "five-four low")]
    assert hand.final_stacks() == {0: 1445, 1: 590, 2: 965}


SINGLE_DRAW_HANDS = ["As 5d 4h 3c 2c", "7h 6s 5c 4d 2h", "8c 6c 5s 4s 3h"]


def test_single_draw_worked_hand_a_drawn_straight_loses_to_seven_six() -> None:
    deck = stacked_deck(DEUCE_TO_SEVEN_SINGLE_DRAW, SINGLE_DRAW_HANDS, rest="Kd 7c")
    plan = ForcedBets(button_seat=2, small_blind_seat=0, small_blind=1, big_blind_seat=1, big_blind=2)
    hand = Hand.start(HandConfig(DEUCE_TO_SEVEN_SINGLE_DRAW, BettingStructure.no_limit()),
                      dict.fromkeys(range(3), 200), deck, plan)
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (
        2, 2, 4, 200)
    hand.act(2, BetOrRaise(6))
    hand.act(0, Call())
    hand.act(1, Call())
    assert hand.pot_total == 18
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.max_discards) == (0, 5)  # one draw, from the left of the button
    events = hand.act(0, Draw(tuple(parse_cards("As"))))
    assert DrawnCardsDealt(0, tuple(parse_cards("As")), tuple(parse_cards("Kd"))) in events
    hand.act(1, Draw(()))
    hand.act(2, Draw(tuple(parse_cards("8c"))))  # draws the seven: 7-6-5-4-3, a straight
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.can_check, legal.min_raise_to) == (0, True, 2)
    hand.act(0, Check())
    hand.act(1, BetOrRaise(10))
    hand.act(2, Call())
    events = hand.act(0, Fold())
    shown = {event.seat: event.description for event in events if isinstance(event, HandShown)}
    assert shown == {1: "seven-six low", 2: "straight, seven high"}
    awards = [(event.seat, event.amount, event.description) for event in events if isinstance(event, PotAwarded)]
    assert awards == [(1, 38, "seven-six low")]
    assert hand.final_stacks() == {0: 194, 1: 222, 2: 184}


def test_razz_and_single_draw_names_come_from_the_variant_table() -> None:
    assert (RAZZ.name, RAZZ.pokerstars_name, RAZZ.default_structure) == ("Razz", "Razz", "fixed_limit")
    assert DEUCE_TO_SEVEN_SINGLE_DRAW.pokerstars_name == "Single Draw 2-7 Lowball"
    assert DEUCE_TO_SEVEN_SINGLE_DRAW.default_structure == "no_limit"
    assert SEVEN_CARD_STUD.limit_bring_in is OpenerKind.LOW_CARD and RAZZ.limit_bring_in is OpenerKind.HIGH_CARD


# ---------------------------------------------------------------- discard-only streets

# A toy game: three hole cards, and after the flop each player throws one away without a replacement.
DISCARD_ONE = Variant(
    "discard_one", "Discard One", "test", (
        Street("preflop", hole_down=3, opening=Opening.BLINDS),
        Street("flop", board=3),
        Street("discard", draw=1, replaces=False, betting=False),
        Street("turn", board=1, big_bet=True),
        Street("river", board=1, big_bet=True),
    ),
)


def test_a_discard_only_street_deals_no_replacement() -> None:
    holes = ["As Ad 2c", "Ks Kd 3c"]
    board = "7h 8h 9s Jc Qd"
    order = [*(card for pair in zip(*(parse_cards(hole) for hole in holes), strict=True) for card in pair),
             *parse_cards(board)]
    deck = order + [card for card in DISCARD_ONE.deck if card not in order]
    plan = ForcedBets(button_seat=1, small_blind_seat=1, small_blind=1, big_blind_seat=0, big_blind=2)
    hand = Hand.start(HandConfig(DISCARD_ONE, BettingStructure.no_limit()), {0: 100, 1: 100}, deck, plan)
    hand.act(1, Call())
    hand.act(0, Check())
    hand.act(0, Check())
    hand.act(1, Check())
    legal = hand.legal_actions()
    assert legal is not None and legal.max_discards == 1
    events = hand.act(0, Draw(tuple(parse_cards("2c"))))
    assert CardsDrawn(0, 1) in events and DrawnCardsDealt(0, tuple(parse_cards("2c")), ()) in events
    hand.act(1, Draw(tuple(parse_cards("3c"))))
    assert hand.hole_cards(0) == tuple(parse_cards("As Ad")) and hand.hole_cards(1) == tuple(parse_cards("Ks Kd"))
    assert hand.board == tuple(parse_cards("7h 8h 9s Jc"))  # the turn is the next card: nothing was dealt
    for _ in range(2):
        hand.act(0, Check())
        hand.act(1, Check())
    assert isinstance(hand.events[-1], HandEnded) and hand.final_stacks() == {0: 102, 1: 98}



def test_a_short_deck_history_names_a_hand_turned_up_all_in_by_the_games_ranking() -> None:
    from engine.history import pokerstars_text

    holes = ["Ah 9c", "Kd Kh"]
    board = "6d 7s 8h Qc Jd"  # A-6-7-8-9: the lowest short-deck straight (in a 52-card game: ace high)
    order = [*(card for pair in zip(*(parse_cards(hole) for hole in holes), strict=True) for card in pair),
             *parse_cards(board)]
    deck = order + [card for card in SHORT_DECK_HOLDEM.deck if card not in order]
    plan = ForcedBets(button_seat=1, small_blind_seat=1, small_blind=1, big_blind_seat=0, big_blind=2)
    config = HandConfig(SHORT_DECK_HOLDEM, BettingStructure.no_limit())
    hand = Hand.start(config, {0: 100, 1: 100}, deck, plan)
    hand.act(1, BetOrRaise(100))
    hand.act(0, Call())
    assert hand.final_stacks() == {0: 200, 1: 0}
    text = pokerstars_text(hand.events, config, plan, hand_id=1, players={0: "Ann", 1: "Bob"})
    assert "Ann: shows [Ah 9c] (straight)" in text and "Bob: shows [Kd Kh] (one pair)" in text
    assert "6+ Hold'em No Limit" in text
